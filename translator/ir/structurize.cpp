#include "translator/ir/structurize.h"

#include <algorithm>
#include <span>

#include <fmt/format.h>

#include "runtime/base/error.h"

namespace kiln::ir {
namespace {

class Structurizer {
public:
  Structurizer(Function& function, std::vector<CfgBlock> blocks, const std::string& where)
      : function_(function), blocks_(std::move(blocks)), where_(where) {}

  void run() {
    for (auto& block : blocks_) {
      if (block.exit == CfgBlock::Exit::Branch && block.target == block.fallthrough) block.exit = CfgBlock::Exit::Jump;
    }
    number_reverse_postorder();
    compute_dominators();
    classify_edges();
    Block* body = &function_.body;
    do_tree(0, body, {});
  }

private:
  struct Context {
    enum Kind { LoopHeadedBy, BlockFollowedBy } kind;
    uint32_t block;
    uint32_t label;
  };

  std::vector<uint32_t> successors(uint32_t block) const {
    const CfgBlock& b = blocks_[block];
    switch (b.exit) {
    case CfgBlock::Exit::Jump: return {b.target};
    case CfgBlock::Exit::Branch: return {b.target, b.fallthrough};
    case CfgBlock::Exit::Return: return {};
    }
    return {};
  }

  void number_reverse_postorder() {
    const size_t count = blocks_.size();
    for (const auto& block : blocks_) {
      for (uint32_t s : {block.target, block.fallthrough}) {
        if (block.exit != CfgBlock::Exit::Return && s >= count) throw Error(fmt::format("{}: branch to a block that does not exist", where_));
      }
    }
    rpo_.assign(count, UINT32_MAX);
    std::vector<uint32_t> postorder;
    std::vector<std::pair<uint32_t, size_t>> stack{{0, 0}};
    std::vector<bool> visited(count, false);
    visited[0] = true;
    while (!stack.empty()) {
      auto& [block, next] = stack.back();
      const auto succ = successors(block);
      if (next < succ.size()) {
        const uint32_t s = succ[next++];
        if (!visited[s]) {
          visited[s] = true;
          stack.emplace_back(s, 0);
        }
      } else {
        postorder.push_back(block);
        stack.pop_back();
      }
    }
    order_.assign(postorder.rbegin(), postorder.rend());
    for (uint32_t i = 0; i < order_.size(); ++i) rpo_[order_[i]] = i;
  }

  void compute_dominators() {
    // Cooper, Harvey, Kennedy: "A Simple, Fast Dominance Algorithm".
    const size_t count = blocks_.size();
    std::vector<std::vector<uint32_t>> predecessors(count);
    for (uint32_t block : order_) {
      for (uint32_t s : successors(block)) predecessors[s].push_back(block);
    }
    idom_.assign(count, UINT32_MAX);
    idom_[0] = 0;
    bool changed = true;
    while (changed) {
      changed = false;
      for (size_t i = 1; i < order_.size(); ++i) {
        const uint32_t block = order_[i];
        uint32_t new_idom = UINT32_MAX;
        for (uint32_t p : predecessors[block]) {
          if (idom_[p] == UINT32_MAX) continue;
          new_idom = new_idom == UINT32_MAX ? p : intersect(p, new_idom);
        }
        if (new_idom != idom_[block]) {
          idom_[block] = new_idom;
          changed = true;
        }
      }
    }
    predecessors_ = std::move(predecessors);
  }

  uint32_t intersect(uint32_t a, uint32_t b) const {
    while (a != b) {
      while (rpo_[a] > rpo_[b]) a = idom_[a];
      while (rpo_[b] > rpo_[a]) b = idom_[b];
    }
    return a;
  }

  bool dominates(uint32_t a, uint32_t b) const {
    while (true) {
      if (a == b) return true;
      if (b == 0) return false;
      b = idom_[b];
    }
  }

  void classify_edges() {
    const size_t count = blocks_.size();
    is_loop_header_.assign(count, false);
    forward_in_edges_.assign(count, 0);
    children_.assign(count, {});
    for (uint32_t block : order_) {
      for (uint32_t s : successors(block)) {
        if (rpo_[s] <= rpo_[block]) {
          if (!dominates(s, block)) {
            throw Error(at_address(where_, blocks_[block].guest_address),
                        fmt::format("irreducible control flow: the branch to {:#x} enters a loop other than at its head",
                                    blocks_[s].guest_address));
          }
          is_loop_header_[s] = true;
        } else {
          ++forward_in_edges_[s];
        }
      }
      if (block != 0) children_[idom_[block]].push_back(block);
    }
  }

  bool is_merge(uint32_t block) const { return forward_in_edges_[block] >= 2; }

  uint32_t find_label(const std::vector<Context>& context, Context::Kind kind, uint32_t block) const {
    for (auto it = context.rbegin(); it != context.rend(); ++it) {
      if (it->kind == kind && it->block == block) return it->label;
    }
    throw Error(at_address(where_, blocks_[block].guest_address), "control flow the structurizer cannot place (internal error)");
  }

  void do_tree(uint32_t block, Block* out, std::vector<Context> context) {
    std::vector<uint32_t> merges;
    for (uint32_t child : children_[block]) {
      if (is_merge(child)) merges.push_back(child);
    }
    // The merge node latest in reverse postorder becomes the outermost block construct (its code runs last).
    std::sort(merges.begin(), merges.end(), [&](uint32_t a, uint32_t b) { return rpo_[a] > rpo_[b]; });
    if (is_loop_header_[block]) {
      Node loop{.kind = NodeKind::Loop, .label = function_.next_label++};
      loop.body = std::make_unique<Block>();
      Block* inner = loop.body.get();
      context.push_back({Context::LoopHeadedBy, block, loop.label});
      out->nodes.push_back(std::move(loop));
      node_within(block, merges, inner, context);
    } else {
      node_within(block, merges, out, context);
    }
  }

  void node_within(uint32_t block, std::span<const uint32_t> merges, Block* out, const std::vector<Context>& context) {
    if (!merges.empty()) {
      const uint32_t follower = merges.front();
      Node construct{.kind = NodeKind::Block, .label = function_.next_label++};
      construct.body = std::make_unique<Block>();
      Block* inner = construct.body.get();
      auto inner_context = context;
      inner_context.push_back({Context::BlockFollowedBy, follower, construct.label});
      out->nodes.push_back(std::move(construct));
      node_within(block, merges.subspan(1), inner, inner_context);
      do_tree(follower, out, context);
      return;
    }
    CfgBlock& source = blocks_[block];
    for (Node& node : source.body) out->nodes.push_back(std::move(node));
    source.body.clear();
    switch (source.exit) {
    case CfgBlock::Exit::Return: out->nodes.push_back(Node{.kind = NodeKind::Return}); break;
    case CfgBlock::Exit::Jump: do_branch(block, source.target, out, context); break;
    case CfgBlock::Exit::Branch: {
      Node branch{.kind = NodeKind::If, .value = source.condition};
      branch.body = std::make_unique<Block>();
      branch.else_body = std::make_unique<Block>();
      Block* then_block = branch.body.get();
      Block* else_block = branch.else_body.get();
      const uint32_t target = source.target, fallthrough = source.fallthrough;
      out->nodes.push_back(std::move(branch));
      do_branch(block, target, then_block, context);
      do_branch(block, fallthrough, else_block, context);
      break;
    }
    }
  }

  void do_branch(uint32_t source, uint32_t target, Block* out, const std::vector<Context>& context) {
    if (rpo_[target] <= rpo_[source]) {
      out->nodes.push_back(Node{.kind = NodeKind::Continue, .label = find_label(context, Context::LoopHeadedBy, target)});
    } else if (is_merge(target)) {
      out->nodes.push_back(Node{.kind = NodeKind::Break, .label = find_label(context, Context::BlockFollowedBy, target)});
    } else {
      do_tree(target, out, context);
    }
  }

  Function& function_;
  std::vector<CfgBlock> blocks_;
  const std::string& where_;
  std::vector<uint32_t> order_, rpo_, idom_, forward_in_edges_;
  std::vector<std::vector<uint32_t>> predecessors_, children_;
  std::vector<bool> is_loop_header_;
};

} // namespace

void structurize(Function& function, std::vector<CfgBlock> blocks, const std::string& where) {
  if (blocks.empty()) throw Error(fmt::format("{}: no code", where));
  if (!function.body.nodes.empty()) throw Error(fmt::format("{}: structurize into a function that has a body", where));
  Structurizer(function, std::move(blocks), where).run();
}

} // namespace kiln::ir
