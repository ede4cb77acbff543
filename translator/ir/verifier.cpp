#include "translator/ir/verifier.h"

#include <fmt/format.h>

#include "runtime/base/error.h"

namespace kiln::ir {
namespace {

class Verifier {
public:
  Verifier(const Function& function, std::string_view stage)
      : function_(function), stage_(stage), visible_(function.insts.size(), false), placed_(function.insts.size(), false) {}

  void run() { check_block(function_.body); }

private:
  [[noreturn]] void fail(const std::string& message, ValueId value = no_value) const {
    std::string where;
    if (value != no_value && value < function_.insts.size() && function_.insts[value].guest_address != UINT64_MAX) {
      where = fmt::format(" (guest instruction at {:#x})", function_.insts[value].guest_address);
    }
    throw Error(fmt::format("IR verifier after {}: kernel {}: {}{}", stage_, function_.kernel.name, message, where));
  }

  Type type_of(ValueId user, ValueId value) const {
    if (value >= function_.insts.size()) fail(fmt::format("%{} uses %{}, which does not exist", user, value), user);
    if (!visible_[value]) fail(fmt::format("%{} uses %{} where it is not defined (dominance)", user, value), user);
    return function_.insts[value].type;
  }

  void expect(bool condition, ValueId value, std::string_view what) const {
    if (!condition) {
      const Inst& inst = function_.insts[value];
      fail(fmt::format("%{} = {} ({}): {}", value, op_name(inst.op), type_name(inst.type), what), value);
    }
  }

  void check_inst(ValueId id) {
    const Inst& inst = function_.insts[id];
    const OpInfo& info = op_info(inst.op);
    Type args[3] = {Type::Void, Type::Void, Type::Void};
    for (unsigned i = 0; i < inst.arg_count; ++i) args[i] = type_of(id, inst.args[i]);
    const auto arity = [&](unsigned count) { expect(inst.arg_count == count, id, fmt::format("needs {} operands", count)); };
    const Type result = inst.type;
    const auto memory_width_ok = [&] { return inst.immediate <= static_cast<uint64_t>(MemoryWidth::B64); };
    switch (info.signature) {
    case Signature::Constant:
      arity(0);
      expect(result != Type::Void && (bit_width(result) == 64 || inst.immediate >> bit_width(result) == 0), id,
             "constant bits wider than its type");
      break;
    case Signature::IntBinary:
      arity(2);
      expect(is_integer(result) && args[0] == result && args[1] == result, id, "needs (I, I) -> I");
      break;
    case Signature::IntShift:
      arity(2);
      expect(is_integer(result) && args[0] == result && args[1] == Type::U32, id, "needs (I, u32) -> I");
      break;
    case Signature::IntUnary:
      arity(1);
      expect(is_integer(result) && args[0] == result, id, "needs (I) -> I");
      expect(inst.op != Op::BitReverse || result == Type::U32, id, "bit reverse is 32-bit only (Vulkan)");
      break;
    case Signature::IntCount:
      arity(1);
      expect(result == Type::U32 && args[0] == Type::U32, id, "needs (u32) -> u32 (Vulkan bit ops are 32-bit)");
      break;
    case Signature::IntCompare:
      arity(2);
      expect(result == Type::Bool && is_integer(args[0]) && args[1] == args[0], id, "needs (I, I) -> bool");
      break;
    case Signature::FloatBinary:
      arity(2);
      expect(is_float(result) && args[0] == result && args[1] == result, id, "needs (F, F) -> F");
      break;
    case Signature::FloatTernary:
      arity(3);
      expect(is_float(result) && args[0] == result && args[1] == result && args[2] == result, id, "needs (F, F, F) -> F");
      break;
    case Signature::FloatUnary:
      arity(1);
      expect(is_float(result) && args[0] == result, id, "needs (F) -> F");
      break;
    case Signature::FloatCompare:
      arity(2);
      expect(result == Type::Bool && is_float(args[0]) && args[1] == args[0], id, "needs (F, F) -> bool");
      break;
    case Signature::FloatTest:
      arity(1);
      expect(result == Type::Bool && is_float(args[0]), id, "needs (F) -> bool");
      break;
    case Signature::BoolBinary:
      arity(2);
      expect(result == Type::Bool && args[0] == Type::Bool && args[1] == Type::Bool, id, "needs (bool, bool) -> bool");
      break;
    case Signature::BoolUnary:
      arity(1);
      expect(result == Type::Bool && args[0] == Type::Bool, id, "needs (bool) -> bool");
      break;
    case Signature::Select:
      arity(3);
      expect(args[0] == Type::Bool && args[1] == result && args[2] == result && result != Type::Void, id,
             "needs (bool, T, T) -> T");
      break;
    case Signature::Convert: arity(1); check_convert(id, args[0]); break;
    case Signature::Pack64:
      arity(2);
      expect(result == Type::U64 && args[0] == Type::U32 && args[1] == Type::U32, id, "needs (u32, u32) -> u64");
      break;
    case Signature::Special: arity(0); expect(result == Type::U32, id, "needs () -> u32"); break;
    case Signature::LoadGlobal:
    case Signature::LoadShared:
    case Signature::LoadConst:
      arity(1);
      expect(memory_width_ok(), id, "bad memory width");
      expect(args[0] == (info.signature == Signature::LoadGlobal ? Type::U64 : Type::U32), id, "bad address type");
      expect(result == access_type(static_cast<MemoryWidth>(inst.immediate)), id, "result type does not match width");
      break;
    case Signature::StoreGlobal:
    case Signature::StoreShared:
      arity(2);
      expect(memory_width_ok(), id, "bad memory width");
      expect(args[0] == (info.signature == Signature::StoreGlobal ? Type::U64 : Type::U32), id, "bad address type");
      expect(result == Type::Void && args[1] == access_type(static_cast<MemoryWidth>(inst.immediate)), id,
             "stored type does not match width");
      break;
    case Signature::AtomicGlobal:
    case Signature::AtomicShared: {
      arity(2);
      const bool global = info.signature == Signature::AtomicGlobal;
      expect(inst.immediate <= static_cast<uint64_t>(AtomicOp::Exchange), id, "bad atomic op");
      expect(args[0] == (global ? Type::U64 : Type::U32), id, "bad address type");
      expect(args[1] == result && (result == Type::U32 || (global && result == Type::U64)), id, "bad value type");
      break;
    }
    case Signature::AtomicCasGlobal:
    case Signature::AtomicCasShared: {
      arity(3);
      const bool global = info.signature == Signature::AtomicCasGlobal;
      expect(args[0] == (global ? Type::U64 : Type::U32), id, "bad address type");
      expect(args[1] == result && args[2] == result && (result == Type::U32 || (global && result == Type::U64)), id,
             "bad value type");
      break;
    }
    case Signature::NoOperands: arity(0); expect(result == Type::Void, id, "has no result"); break;
    case Signature::Shuffle:
      arity(2);
      expect(result == Type::U32 && args[0] == Type::U32 && args[1] == Type::U32, id, "needs (u32, u32) -> u32");
      break;
    case Signature::Ballot: arity(1); expect(result == Type::U32 && args[0] == Type::Bool, id, "needs (bool) -> u32"); break;
    case Signature::LocalLoad:
      arity(0);
      expect(inst.immediate < function_.locals.size(), id, "no such local");
      expect(result == function_.locals[inst.immediate], id, "type differs from the local's");
      break;
    case Signature::LocalStore:
      arity(1);
      expect(inst.immediate < function_.locals.size(), id, "no such local");
      expect(result == Type::Void && args[0] == function_.locals[inst.immediate], id, "type differs from the local's");
      break;
    case Signature::StageInput: arity(0); expect(result == Type::U32, id, "needs () -> u32"); break;
    case Signature::StageOutput: arity(1); expect(result == Type::Void && args[0] == Type::U32, id, "needs (u32) -> void"); break;
    case Signature::LoadBank: arity(1); expect(result == Type::U32 && args[0] == Type::U32, id, "needs (u32) -> u32"); break;
    case Signature::Texture:
      arity(3);
      expect(result == Type::U32 && args[0] == Type::U64 && args[1] == Type::U64 && args[2] == Type::U64, id,
             "needs (u64, u64, u64) -> u32");
      break;
    }
  }

  void check_convert(ValueId id, Type from) const {
    const Inst& inst = function_.insts[id];
    const Type to = inst.type;
    switch (inst.op) {
    case Op::ZExt:
    case Op::SExt:
      expect((from == Type::U32 && to == Type::U64) || (from == Type::Bool && is_integer(to)), id, "extends u32->u64 or bool->I");
      break;
    case Op::Trunc: expect(from == Type::U64 && to == Type::U32, id, "truncates u64 -> u32"); break;
    case Op::Bitcast:
      expect(from != to && bit_width(from) == bit_width(to) && from != Type::Bool, id, "needs two types of one width");
      break;
    case Op::SToF:
    case Op::UToF: expect(is_integer(from) && is_float(to), id, "converts I -> F"); break;
    case Op::FToS:
    case Op::FToU: expect(is_float(from) && is_integer(to), id, "converts F -> I"); break;
    case Op::FConvert: expect(is_float(from) && is_float(to) && from != to, id, "converts between f32 and f64"); break;
    default: expect(false, id, "not a conversion");
    }
  }

  void check_block(const Block& block) {
    std::vector<ValueId> defined_here;
    for (size_t i = 0; i < block.nodes.size(); ++i) {
      const Node& node = block.nodes[i];
      const bool last = i + 1 == block.nodes.size();
      switch (node.kind) {
      case NodeKind::Inst:
        if (node.value >= function_.insts.size()) fail(fmt::format("node names %{}, which does not exist", node.value));
        if (placed_[node.value]) fail(fmt::format("%{} appears twice in the tree", node.value), node.value);
        placed_[node.value] = true;
        check_inst(node.value);
        visible_[node.value] = true;
        defined_here.push_back(node.value);
        break;
      case NodeKind::If:
        if (!node.body || !node.else_body) fail("if without both bodies");
        if (type_of(no_value, node.value) != Type::Bool) fail(fmt::format("if condition %{} is not bool", node.value), node.value);
        check_block(*node.body);
        check_block(*node.else_body);
        break;
      case NodeKind::Block:
      case NodeKind::Loop:
        if (!node.body) fail(fmt::format("L{} has no body", node.label));
        for (const auto& [label, kind] : constructs_) {
          if (label == node.label) fail(fmt::format("label L{} nested inside itself", node.label));
        }
        constructs_.emplace_back(node.label, node.kind);
        check_block(*node.body);
        constructs_.pop_back();
        break;
      case NodeKind::Break:
      case NodeKind::Continue: {
        bool found = false;
        for (const auto& [label, kind] : constructs_) {
          if (label != node.label) continue;
          found = true;
          if (node.kind == NodeKind::Continue && kind != NodeKind::Loop) fail(fmt::format("continue L{}: not a loop", label));
        }
        if (!found) fail(fmt::format("{} L{}: no enclosing construct has that label",
                                     node.kind == NodeKind::Break ? "break" : "continue", node.label));
        if (!last) fail(fmt::format("jump to L{} is not the last node of its block", node.label));
        break;
      }
      case NodeKind::Return:
        if (!last) fail("return is not the last node of its block");
        break;
      }
    }
    for (ValueId id : defined_here) visible_[id] = false;
  }

  const Function& function_;
  std::string_view stage_;
  std::vector<bool> visible_;
  std::vector<bool> placed_;
  std::vector<std::pair<uint32_t, NodeKind>> constructs_;
};

} // namespace

void verify(const Function& function, std::string_view stage) { Verifier(function, stage).run(); }

} // namespace kiln::ir
