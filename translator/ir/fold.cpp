#include <unordered_map>
#include <unordered_set>

#include "translator/ir/passes.h"
#include "translator/ir/reference.h"

namespace kiln::ir {
namespace {

void collect_stored_locals(const Block& block, const Function& function, std::unordered_set<uint64_t>& stored) {
  for (const Node& node : block.nodes) {
    if (node.kind == NodeKind::Inst && function.insts[node.value].op == Op::LocalStore) {
      stored.insert(function.insts[node.value].immediate);
    }
    if (node.body) collect_stored_locals(*node.body, function, stored);
    if (node.else_body) collect_stored_locals(*node.else_body, function, stored);
  }
}

class Folder {
public:
  explicit Folder(Function& function) : function_(function), replacement_(function.insts.size(), no_value) {}

  size_t run() {
    Known known;
    fold_block(function_.body, known);
    return changes_;
  }

private:
  using Known = std::unordered_map<uint64_t, ValueId>; // local -> value it holds here

  ValueId resolve(ValueId id) const {
    while (id != no_value && id < replacement_.size() && replacement_[id] != no_value) id = replacement_[id];
    return id;
  }

  void replace(ValueId id, ValueId with) {
    replacement_[id] = with;
    ++changes_;
  }

  void forget_stored(const Block& block, Known& known) const {
    std::unordered_set<uint64_t> stored;
    collect_stored_locals(block, function_, stored);
    for (uint64_t local : stored) known.erase(local);
  }

  bool is_const(ValueId id, uint64_t bits) const {
    const Inst& inst = function_.insts[id];
    return inst.op == Op::Const && inst.immediate == bits;
  }

  // x+0, x|0, x^0, x-0, x<<0, x*1, x&~0, select(const, a, b): the operand itself.
  ValueId identity_operand(const Inst& inst) const {
    const uint64_t ones = bit_width(inst.type) == 64 ? ~uint64_t{0} : 0xffffffffu;
    switch (inst.op) {
    case Op::IAdd:
    case Op::Or:
    case Op::Xor:
      if (is_const(inst.args[1], 0)) return inst.args[0];
      if (is_const(inst.args[0], 0)) return inst.args[1];
      return no_value;
    case Op::ISub:
    case Op::Shl:
    case Op::LShr:
    case Op::AShr: return is_const(inst.args[1], 0) ? inst.args[0] : no_value;
    case Op::IMul:
      if (is_const(inst.args[1], 1)) return inst.args[0];
      if (is_const(inst.args[0], 1)) return inst.args[1];
      return no_value;
    case Op::And:
      if (is_const(inst.args[1], ones)) return inst.args[0];
      if (is_const(inst.args[0], ones)) return inst.args[1];
      return no_value;
    case Op::Bitcast: {
      // Bitcast(Bitcast(x)) back to x's type: guest registers hold floats as bits, so lowering makes many.
      const Inst& source = function_.insts[inst.args[0]];
      if (source.op == Op::Bitcast && function_.insts[source.args[0]].type == inst.type) return source.args[0];
      return no_value;
    }
    case Op::Select:
      if (function_.insts[inst.args[0]].op == Op::Const) return function_.insts[inst.args[0]].immediate ? inst.args[1] : inst.args[2];
      if (inst.args[1] == inst.args[2]) return inst.args[1];
      return no_value;
    default: return no_value;
    }
  }

  void fold_inst(ValueId id, Known& known) {
    Inst& inst = function_.insts[id];
    for (unsigned i = 0; i < inst.arg_count; ++i) inst.args[i] = resolve(inst.args[i]);
    if (inst.op == Op::LocalStore) {
      known[inst.immediate] = inst.args[0];
      return;
    }
    if (inst.op == Op::LocalLoad) {
      if (auto it = known.find(inst.immediate); it != known.end()) replace(id, it->second);
      else known[inst.immediate] = id; // a second load of the same local reuses this one
      return;
    }
    if (op_info(inst.op).effect != Effect::Pure || inst.op == Op::Const) return;
    if (const ValueId same = identity_operand(inst); same != no_value) {
      replace(id, same);
      return;
    }
    TypedBits args[3];
    for (unsigned i = 0; i < inst.arg_count; ++i) {
      const Inst& arg = function_.insts[inst.args[i]];
      if (arg.op != Op::Const) return;
      args[i] = {arg.type, arg.immediate};
    }
    if (auto value = evaluate(inst.op, inst.type, std::span(args, inst.arg_count))) {
      inst.op = Op::Const;
      inst.arg_count = 0;
      inst.args = {no_value, no_value, no_value};
      inst.immediate = *value;
      ++changes_;
    }
  }

  void fold_block(Block& block, Known& known) {
    for (Node& node : block.nodes) {
      switch (node.kind) {
      case NodeKind::Inst: fold_inst(node.value, known); break;
      case NodeKind::If: {
        node.value = resolve(node.value);
        Known then_known = known;
        fold_block(*node.body, then_known);
        Known else_known = known;
        fold_block(*node.else_body, else_known);
        forget_stored(*node.body, known);
        forget_stored(*node.else_body, known);
        break;
      }
      case NodeKind::Block: {
        Known inner = known;
        fold_block(*node.body, inner);
        forget_stored(*node.body, known);
        break;
      }
      case NodeKind::Loop: {
        forget_stored(*node.body, known); // a later iteration sees this iteration's stores
        Known inner = known;
        fold_block(*node.body, inner);
        break;
      }
      default: break;
      }
    }
  }

  Function& function_;
  std::vector<ValueId> replacement_;
  size_t changes_ = 0;
};

} // namespace

size_t fold_constants(Function& function) { return Folder(function).run(); }

} // namespace kiln::ir
