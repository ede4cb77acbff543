// The round loop of warp_schedule.h: cut blocks at synchronisation points, carry values across cuts in locals,
// make every remaining cycle a proper loop, then wrap the pieces in dispatch / exchange / advance blocks.
#include "translator/ir/warp_schedule.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include <fmt/format.h>

#include "runtime/base/error.h"

namespace kiln::ir {
namespace {

constexpr uint32_t kParked = 0xffffffff, kExited = 0xfffffffe, kNoPoint = 0xffffffff;
constexpr uint32_t kToRound = 0xffffffff; // placeholder successor while the round block does not exist yet

bool is_sync(const Function& function, const Node& node) {
  if (node.kind != NodeKind::Inst) return false;
  const Op op = function.insts[node.value].op;
  return op == Op::Shuffle || op == Op::Ballot || op == Op::Barrier;
}

void check_no_nested_sync(const Function& function, const std::vector<Node>& nodes, bool nested, const std::string& where) {
  for (const Node& node : nodes) {
    if (nested && is_sync(function, node)) {
      throw Error(fmt::format("{}: guest address {:#x}: a predicated warp operation or barrier is not translated yet", where,
                              function.insts[node.value].guest_address));
    }
    if (node.body) check_no_nested_sync(function, node.body->nodes, true, where);
    if (node.else_body) check_no_nested_sync(function, node.else_body->nodes, true, where);
  }
}

void collect_uses(const Function& function, const std::vector<Node>& nodes, std::unordered_set<ValueId>& uses) {
  for (const Node& node : nodes) {
    if (node.kind == NodeKind::Inst) {
      const Inst& inst = function.insts[node.value];
      for (uint8_t i = 0; i < inst.arg_count; ++i) uses.insert(inst.args[i]);
    } else if (node.kind == NodeKind::If) {
      uses.insert(node.value);
    }
    if (node.body) collect_uses(function, node.body->nodes, uses);
    if (node.else_body) collect_uses(function, node.else_body->nodes, uses);
  }
}

void rename(Function& function, std::vector<Node>& nodes, const std::unordered_map<ValueId, ValueId>& renamed) {
  const auto map = [&](ValueId& value) {
    if (auto it = renamed.find(value); it != renamed.end()) value = it->second;
  };
  for (Node& node : nodes) {
    if (node.kind == NodeKind::Inst) {
      Inst& inst = function.insts[node.value];
      for (uint8_t i = 0; i < inst.arg_count; ++i) map(inst.args[i]);
    } else if (node.kind == NodeKind::If) {
      map(node.value);
    }
    if (node.body) rename(function, node.body->nodes, renamed);
    if (node.else_body) rename(function, node.else_body->nodes, renamed);
  }
}

struct SyncPoint {
  Op op;
  ValueId inst;
  uint32_t continuation = 0;               // piece that runs after it
  uint32_t operand_local[2] = {0, 0};      // Shuffle: value, source lane; Ballot: predicate
  uint32_t result_local = 0;
};

class Scheduler {
public:
  Scheduler(Function& function, std::vector<CfgBlock>& blocks, const std::function<ValueId(Builder&)>& invocations, const std::string& where)
      : function_(function), blocks_(blocks), invocations_(invocations), where_(where), b_(function) {}

  void run() {
    for (const CfgBlock& block : blocks_) check_no_nested_sync(function_, block.body, false, where_);
    counters_ = static_cast<uint32_t>((function_.kernel.shared_bytes + 3) / 4 * 4);
    function_.kernel.shared_bytes = counters_ + 12; // exited count, barrier arrivals for even and odd rounds
    state_ = b_.add_local(Type::U32);
    point_ = b_.add_local(Type::U32);
    parity_ = b_.add_local(Type::U32);
    const size_t original = blocks_.size();
    for (uint32_t index = 0; index < original; ++index) cut_at_sync_points(index);
    for (uint32_t index = 0; index < blocks_.size(); ++index) {
      if (blocks_[index].exit == CfgBlock::Exit::Return) park_exit(index);
    }
    roots_.push_back(0);
    for (const SyncPoint& point : points_) roots_.push_back(point.continuation);
    route_irreducible_edges();
    assemble();
  }

private:
  // Emits into a fresh node list; returns it.
  std::vector<Node> emit(const std::function<void()>& body) {
    Block code;
    Block* saved = b_.block();
    b_.set_block(&code);
    body();
    b_.set_block(saved);
    return std::move(code.nodes);
  }

  void cut_at_sync_points(uint32_t index) {
    std::vector<Node> nodes = std::move(blocks_[index].body);
    std::vector<Node> piece;
    uint32_t current = index;
    for (size_t i = 0; i < nodes.size(); ++i) {
      if (!is_sync(function_, nodes[i])) {
        piece.push_back(std::move(nodes[i]));
        continue;
      }
      const ValueId sync = nodes[i].value;
      // Values of this piece that the rest of the block uses cross the round: carry them in locals.
      std::unordered_set<ValueId> uses;
      std::vector<Node> rest(std::make_move_iterator(nodes.begin() + static_cast<std::ptrdiff_t>(i) + 1), std::make_move_iterator(nodes.end()));
      collect_uses(function_, rest, uses);
      if (blocks_[current].exit == CfgBlock::Exit::Branch) uses.insert(blocks_[current].condition);
      std::unordered_map<ValueId, ValueId> renamed;
      std::vector<Node> reloads;
      for (const Node& node : piece) {
        if (node.kind != NodeKind::Inst || !uses.count(node.value)) continue;
        const Inst defined = function_.insts[node.value];
        if (defined.type == Type::Void) continue;
        auto reload = emit([&] {
          if (defined.op == Op::Const) {
            renamed[node.value] = b_.constant(defined.type, defined.immediate);
          } else {
            const uint32_t local = b_.add_local(defined.type);
            spills_.emplace_back(local, node.value);
            renamed[node.value] = b_.load_local(local);
          }
        });
        for (Node& n : reload) reloads.push_back(std::move(n));
      }
      for (const auto& spill : spills_) { // not a structured binding: clang 14 lambdas cannot capture those
        std::vector<Node> store = emit([&] { b_.store_local(spill.first, spill.second); });
        piece.push_back(std::move(store.front()));
      }
      spills_.clear();
      rename(function_, rest, renamed);
      if (blocks_[current].exit == CfgBlock::Exit::Branch) {
        if (auto it = renamed.find(blocks_[current].condition); it != renamed.end()) blocks_[current].condition = it->second;
      }

      SyncPoint point{function_.insts[sync].op, sync};
      const uint32_t k = static_cast<uint32_t>(points_.size());
      const Inst inst = function_.insts[sync];
      for (Node& n : emit([&] {
             if (point.op != Op::Barrier) {
               for (uint8_t a = 0; a < inst.arg_count; ++a) {
                 point.operand_local[a] = b_.add_local(function_.insts[inst.args[a]].type);
                 b_.store_local(point.operand_local[a], inst.args[a]);
               }
               point.result_local = b_.add_local(Type::U32);
             }
             b_.store_local(point_, b_.u32(k));
             b_.store_local(state_, b_.u32(kParked));
           })) {
        piece.push_back(std::move(n));
      }
      // The continuation: a new block with the rest of this one and its exit.
      CfgBlock continuation;
      continuation.guest_address = inst.guest_address;
      continuation.exit = blocks_[current].exit;
      continuation.condition = blocks_[current].condition;
      continuation.target = blocks_[current].target;
      continuation.fallthrough = blocks_[current].fallthrough;
      blocks_[current].body = std::move(piece);
      blocks_[current].exit = CfgBlock::Exit::Jump;
      blocks_[current].target = kToRound;
      point.continuation = static_cast<uint32_t>(blocks_.size());
      blocks_.push_back(std::move(continuation));
      current = point.continuation;
      points_.push_back(point);

      piece = std::move(reloads);
      if (point.op != Op::Barrier) {
        // The warp operation's value is what the round left in its result local.
        Inst& result = function_.insts[sync];
        result = Inst{.op = Op::LocalLoad, .type = Type::U32, .immediate = point.result_local, .guest_address = inst.guest_address};
        piece.push_back(Node{.kind = NodeKind::Inst, .value = sync});
      }
      nodes.resize(i + 1);
      for (Node& n : rest) nodes.push_back(std::move(n));
    }
    blocks_[current].body = std::move(piece);
  }

  void park_exit(uint32_t index) {
    for (Node& n : emit([&] {
           b_.store_local(state_, b_.u32(kExited));
           b_.store_local(point_, b_.u32(kNoPoint));
           b_.emit(Op::AtomicShared, Type::U32, {b_.u32(counters_), b_.u32(1)}, static_cast<uint64_t>(AtomicOp::Add));
         })) {
      blocks_[index].body.push_back(std::move(n));
    }
    blocks_[index].exit = CfgBlock::Exit::Jump;
    blocks_[index].target = kToRound;
  }

  std::vector<uint32_t> successors(uint32_t index) const {
    const CfgBlock& block = blocks_[index];
    std::vector<uint32_t> out;
    if (block.exit == CfgBlock::Exit::Return) return out;
    if (block.target != kToRound) out.push_back(block.target);
    if (block.exit == CfgBlock::Exit::Branch && block.fallthrough != kToRound) out.push_back(block.fallthrough);
    return out;
  }

  // Pieces are entered from the dispatcher at every root. A cycle among them that a root enters other than at
  // its header would make the loop irreducible: its retreating edge goes through the round instead (the lanes
  // taking it resume at its target in the next round).
  void route_irreducible_edges() {
    for (;;) {
      const size_t count = blocks_.size();
      const size_t root = count; // virtual root: the dispatcher
      std::vector<std::vector<uint32_t>> predecessors(count + 1);
      for (uint32_t r : roots_) predecessors[r].push_back(static_cast<uint32_t>(root));
      for (uint32_t i = 0; i < count; ++i) {
        for (uint32_t s : successors(i)) predecessors[s].push_back(i);
      }
      // Dominator sets, iterated to the fixpoint (kernels have at most a few hundred blocks).
      std::vector<std::vector<bool>> dominators(count + 1, std::vector<bool>(count + 1, true));
      dominators[root].assign(count + 1, false);
      dominators[root][root] = true;
      for (bool changed = true; changed;) {
        changed = false;
        for (size_t i = 0; i < count; ++i) {
          std::vector<bool> meet(count + 1, !predecessors[i].empty());
          for (uint32_t p : predecessors[i]) {
            for (size_t j = 0; j <= count; ++j) meet[j] = meet[j] && dominators[p][j];
          }
          meet[i] = true;
          if (meet != dominators[i]) dominators[i] = std::move(meet), changed = true;
        }
      }
      // Depth-first search from the roots for retreating edges whose target does not dominate their source.
      std::vector<uint8_t> mark(count, 0); // 0 new, 1 on the stack, 2 done
      std::optional<std::pair<uint32_t, uint32_t>> bad;
      std::vector<std::pair<uint32_t, size_t>> stack;
      for (uint32_t r : roots_) {
        if (mark[r] != 0 || bad) continue;
        stack.emplace_back(r, 0);
        mark[r] = 1;
        while (!stack.empty() && !bad) {
          auto& [node, next] = stack.back();
          const std::vector<uint32_t> out = successors(node);
          if (next == out.size()) {
            mark[node] = 2;
            stack.pop_back();
            continue;
          }
          const uint32_t s = out[next++];
          if (mark[s] == 1 && !dominators[node][s]) bad = std::make_pair(node, s);
          else if (mark[s] == 0) mark[s] = 1, stack.emplace_back(s, 0);
        }
        stack.clear();
      }
      if (!bad) return;
      const uint32_t from = bad->first, to = bad->second; // not a structured binding: captured below (clang 14)
      CfgBlock route;
      route.guest_address = blocks_[to].guest_address;
      route.body = emit([&] {
        b_.store_local(state_, b_.u32(to));
        b_.store_local(point_, b_.u32(kNoPoint));
      });
      route.exit = CfgBlock::Exit::Jump;
      route.target = kToRound;
      const uint32_t route_index = static_cast<uint32_t>(blocks_.size());
      blocks_.push_back(std::move(route));
      CfgBlock& source = blocks_[from];
      if (source.target == to) source.target = route_index;
      else source.fallthrough = route_index;
      if (std::find(roots_.begin(), roots_.end(), to) == roots_.end()) roots_.push_back(to);
    }
  }

  // [init, dispatch chain..., pieces..., round, exit]
  void assemble() {
    const uint32_t dispatch_first = 1;
    const uint32_t offset = dispatch_first + static_cast<uint32_t>(roots_.size());
    const uint32_t round = offset + static_cast<uint32_t>(blocks_.size());
    const uint32_t exit = round + 1;
    std::vector<CfgBlock> out;

    CfgBlock init;
    init.body = emit([&] {
      for (uint32_t counter = 0; counter < 3; ++counter) {
        b_.emit(Op::AtomicShared, Type::U32, {b_.u32(counters_ + 4 * counter), b_.u32(0)}, static_cast<uint64_t>(AtomicOp::Exchange));
      }
      b_.store_local(state_, b_.u32(0));
      b_.store_local(point_, b_.u32(kNoPoint));
      b_.store_local(parity_, b_.u32(0));
      b_.emit(Op::Barrier, Type::Void, {});
    });
    init.exit = CfgBlock::Exit::Jump;
    init.target = dispatch_first;
    out.push_back(std::move(init));

    for (size_t i = 0; i < roots_.size(); ++i) {
      CfgBlock test;
      test.guest_address = blocks_[roots_[i]].guest_address;
      test.body = emit([&] { test.condition = b_.op(Op::IEq, b_.load_local(state_), b_.u32(roots_[i])); });
      test.exit = CfgBlock::Exit::Branch;
      test.target = offset + roots_[i];
      test.fallthrough = i + 1 < roots_.size() ? dispatch_first + static_cast<uint32_t>(i) + 1 : round;
      out.push_back(std::move(test));
    }
    const auto relocate = [&](uint32_t& target) { target = target == kToRound ? round : target + offset; };
    for (CfgBlock& block : blocks_) {
      if (block.exit != CfgBlock::Exit::Return) relocate(block.target);
      if (block.exit == CfgBlock::Exit::Branch) relocate(block.fallthrough);
      out.push_back(std::move(block));
    }

    CfgBlock exchange;
    exchange.body = emit([&] { exchange.condition = emit_round(); });
    exchange.exit = CfgBlock::Exit::Branch;
    exchange.target = exit;
    exchange.fallthrough = dispatch_first;
    out.push_back(std::move(exchange));
    CfgBlock done;
    done.exit = CfgBlock::Exit::Return;
    out.push_back(std::move(done));
    blocks_ = std::move(out);
  }

  // The exchange and advance of one round, in uniform control flow; returns "every invocation has exited".
  ValueId emit_round() {
    const ValueId point = b_.load_local(point_);
    const auto at = [&](uint32_t k) { return b_.op(Op::IEq, point, b_.u32(k)); };
    ValueId at_barrier = b_.boolean(false), at_warp_operation = b_.boolean(false);
    for (uint32_t k = 0; k < points_.size(); ++k) {
      ValueId& any = points_[k].op == Op::Barrier ? at_barrier : at_warp_operation;
      any = b_.op(Op::LOr, any, at(k));
    }
    const ValueId parity = b_.load_local(parity_);
    const ValueId arrivals = b_.op(Op::IAdd, b_.u32(counters_ + 4), b_.op(Op::Shl, parity, b_.u32(2)));
    const ValueId other_arrivals = b_.op(Op::IAdd, b_.u32(counters_ + 4), b_.op(Op::Shl, b_.op(Op::Xor, parity, b_.u32(1)), b_.u32(2)));
    b_.if_then(at_barrier, [&] { b_.emit(Op::AtomicShared, Type::U32, {arrivals, b_.u32(1)}, static_cast<uint64_t>(AtomicOp::Add)); });
    b_.emit(Op::Barrier, Type::Void, {});
    // No invocation writes the counters between these two barriers: the exits and arrivals counted above
    // belong to this round, and next round's arrivals start from zero.
    const ValueId exited = b_.load(Op::LoadShared, MemoryWidth::B32, b_.u32(counters_));
    const ValueId arrived = b_.load(Op::LoadShared, MemoryWidth::B32, arrivals);
    b_.emit(Op::AtomicShared, Type::U32, {other_arrivals, b_.u32(0)}, static_cast<uint64_t>(AtomicOp::Exchange));
    const ValueId lane = b_.emit(Op::LaneId, Type::U32, {});
    for (uint32_t k = 0; k < points_.size(); ++k) {
      const SyncPoint& sync = points_[k];
      if (sync.op == Op::Barrier) continue;
      const ValueId here = at(k);
      ValueId result;
      if (sync.op == Op::Shuffle) {
        const ValueId value = b_.select(here, b_.load_local(sync.operand_local[0]), b_.u32(0));
        const ValueId source = b_.select(here, b_.load_local(sync.operand_local[1]), lane);
        result = b_.emit(Op::Shuffle, Type::U32, {value, source});
      } else {
        result = b_.emit(Op::Ballot, Type::U32, {b_.op(Op::LAnd, here, b_.load_local(sync.operand_local[0]))});
      }
      b_.store_local(sync.result_local, result);
    }
    b_.emit(Op::Barrier, Type::Void, {});
    const ValueId total = invocations_(b_);
    const ValueId released = b_.op(Op::IEq, b_.op(Op::IAdd, arrived, exited), total);
    const ValueId advance = b_.op(Op::LOr, at_warp_operation, b_.op(Op::LAnd, at_barrier, released));
    const ValueId state = b_.load_local(state_);
    ValueId next = state;
    for (uint32_t k = 0; k < points_.size(); ++k) next = b_.select(at(k), b_.u32(points_[k].continuation), next);
    b_.store_local(state_, b_.select(advance, next, state));
    b_.store_local(point_, b_.select(advance, b_.u32(kNoPoint), point));
    b_.store_local(parity_, b_.op(Op::Xor, parity, b_.u32(1)));
    return b_.op(Op::IEq, exited, total);
  }

  Function& function_;
  std::vector<CfgBlock>& blocks_;
  const std::function<ValueId(Builder&)>& invocations_;
  const std::string& where_;
  Builder b_;
  std::vector<SyncPoint> points_;
  std::vector<uint32_t> roots_;
  std::vector<std::pair<uint32_t, ValueId>> spills_;
  uint32_t counters_ = 0, state_ = 0, point_ = 0, parity_ = 0;
};

} // namespace

bool has_warp_operations(const Function& function, const std::vector<CfgBlock>& blocks) {
  for (const CfgBlock& block : blocks) {
    for (const Node& node : block.body) {
      if (node.kind == NodeKind::Inst && (function.insts[node.value].op == Op::Shuffle || function.insts[node.value].op == Op::Ballot)) return true;
    }
  }
  return false;
}

void schedule_warp_rounds(Function& function, std::vector<CfgBlock>& blocks,
                          const std::function<ValueId(Builder&)>& workgroup_invocations, const std::string& where) {
  Scheduler(function, blocks, workgroup_invocations, where).run();
}

} // namespace kiln::ir
