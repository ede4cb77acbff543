#include <unordered_set>

#include "translator/ir/passes.h"
#include "translator/ir/verifier.h"

namespace kiln::ir {
namespace {

class DeadCodeEliminator {
public:
  explicit DeadCodeEliminator(Function& function) : function_(function), uses_(function.insts.size(), 0) {}

  size_t run() {
    count(function_.body);
    sweep(function_.body);
    return removed_;
  }

private:
  void count(const Block& block) {
    for (const Node& node : block.nodes) {
      if (node.kind == NodeKind::Inst) {
        const Inst& inst = function_.insts[node.value];
        for (unsigned i = 0; i < inst.arg_count; ++i) ++uses_[inst.args[i]];
        if (inst.op == Op::LocalLoad) loaded_locals_.insert(inst.immediate);
      } else if (node.kind == NodeKind::If) {
        ++uses_[node.value];
      }
      if (node.body) count(*node.body);
      if (node.else_body) count(*node.else_body);
    }
  }

  bool removable(const Inst& inst, ValueId id) const {
    if (inst.op == Op::LocalStore) return !loaded_locals_.contains(inst.immediate);
    return op_info(inst.op).effect != Effect::SideEffect && uses_[id] == 0;
  }

  void drop_uses(const Inst& inst) {
    for (unsigned i = 0; i < inst.arg_count; ++i) --uses_[inst.args[i]];
  }

  // Backwards, children before the nodes that precede them: a use always comes after its definition in tree
  // order, so one sweep removes whole chains of dead values.
  void sweep(Block& block) {
    for (size_t i = block.nodes.size(); i-- > 0;) {
      Node& node = block.nodes[i];
      bool remove = false;
      switch (node.kind) {
      case NodeKind::Inst: {
        const Inst& inst = function_.insts[node.value];
        if (removable(inst, node.value)) {
          drop_uses(inst);
          remove = true;
        }
        break;
      }
      case NodeKind::If:
        sweep(*node.else_body);
        sweep(*node.body);
        if (node.body->nodes.empty() && node.else_body->nodes.empty()) {
          --uses_[node.value];
          remove = true;
        }
        break;
      case NodeKind::Block:
        sweep(*node.body);
        remove = node.body->nodes.empty();
        break;
      case NodeKind::Loop: sweep(*node.body); break; // an empty loop would not terminate: leave it
      default: break;
      }
      if (remove) {
        block.nodes.erase(block.nodes.begin() + static_cast<std::ptrdiff_t>(i));
        ++removed_;
      }
    }
  }

  Function& function_;
  std::vector<uint32_t> uses_;
  std::unordered_set<uint64_t> loaded_locals_;
  size_t removed_ = 0;
};

} // namespace

size_t eliminate_dead_code(Function& function) { return DeadCodeEliminator(function).run(); }

void run_passes(Function& function) {
  verify(function, "construction");
  for (int round = 0; round < 8; ++round) {
    const size_t folded = fold_constants(function);
    verify(function, "constant folding");
    const size_t removed = eliminate_dead_code(function);
    verify(function, "dead-code elimination");
    if (folded == 0 && removed == 0) break;
  }
}

} // namespace kiln::ir
