// The backend's FP64-free FFma: each f32 FFma node is replaced, in place, by float_fma_f32's few f32 operations
// and, inside an If taken only for operands outside their range, integer_fma_f32's integer sequence; the result
// goes through a local whose load takes over the FFma's value id, so its uses need no rewriting.
#include "translator/ir/builder.h"
#include "translator/ir/integer_fma.h"
#include "translator/ir/passes.h"

namespace kiln::ir {
namespace {

std::unique_ptr<Block> clone_block(const std::unique_ptr<Block>& block);

Node clone_node(const Node& node) {
  return Node{.kind = node.kind, .value = node.value, .label = node.label, .body = clone_block(node.body), .else_body = clone_block(node.else_body)};
}

std::unique_ptr<Block> clone_block(const std::unique_ptr<Block>& block) {
  if (!block) return nullptr;
  auto copy = std::make_unique<Block>();
  copy->nodes.reserve(block->nodes.size());
  for (const Node& node : block->nodes) copy->nodes.push_back(clone_node(node));
  return copy;
}

size_t expand_in(Function& function, Block& block) {
  size_t expanded = 0;
  std::vector<Node> nodes;
  nodes.reserve(block.nodes.size());
  for (Node& node : block.nodes) {
    if (node.body) expanded += expand_in(function, *node.body);
    if (node.else_body) expanded += expand_in(function, *node.else_body);
    const bool is_f32_fma = node.kind == NodeKind::Inst && function.insts[node.value].op == Op::FFma && function.insts[node.value].type == Type::F32;
    if (!is_f32_fma) {
      nodes.push_back(std::move(node));
      continue;
    }
    const Inst fma = function.insts[node.value];
    Block sequence;
    Builder b(function);
    b.set_block(&sequence);
    b.set_guest_address(fma.guest_address);
    const uint32_t local = b.add_local(Type::F32);
    const auto [fast, in_range] = float_fma_f32(b, fma.args[0], fma.args[1], fma.args[2]);
    b.store_local(local, fast);
    b.if_then(b.op(Op::LNot, in_range), [&] { b.store_local(local, integer_fma_f32(b, fma.args[0], fma.args[1], fma.args[2], Rounding::nearest)); });
    const ValueId result = b.load_local(local);
    // The sequence ends with the load defining `result`; the FFma's id becomes that instruction.
    sequence.nodes.pop_back();
    function.insts[node.value] = function.insts[result];
    for (Node& part : sequence.nodes) nodes.push_back(std::move(part));
    nodes.push_back(std::move(node));
    ++expanded;
  }
  block.nodes = std::move(nodes);
  return expanded;
}

} // namespace

Function clone(const Function& function) {
  Function copy{.kernel = function.kernel, .insts = function.insts, .locals = function.locals, .body = {}, .next_label = function.next_label};
  copy.body.nodes.reserve(function.body.nodes.size());
  for (const Node& node : function.body.nodes) copy.body.nodes.push_back(clone_node(node));
  return copy;
}

size_t expand_f32_fma(Function& function) { return expand_in(function, function.body); }

} // namespace kiln::ir
