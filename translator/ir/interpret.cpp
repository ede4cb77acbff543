#include "translator/ir/interpret.h"

#include <vector>

#include <fmt/format.h>

#include "runtime/base/error.h"
#include "translator/ir/reference.h"

namespace kiln::ir {
namespace {

enum class Flow : uint8_t { next, break_, continue_, return_ };

class Interpreter {
public:
  Interpreter(const Function& function, const InterpretEnvironment& environment)
      : function_(function), environment_(environment), values_(function.insts.size()),
        locals_(function.locals.size()) {}

  InterpretResult run() {
    run_block(function_.body);
    return std::move(result_);
  }

private:
  Flow run_block(const Block& block) {
    for (const Node& node : block.nodes) {
      switch (node.kind) {
      case NodeKind::Inst: run_inst(node.value); break;
      case NodeKind::If: {
        const Block* body = values_[node.value] != 0 ? node.body.get() : node.else_body.get();
        if (body == nullptr) break;
        if (const Flow flow = run_block(*body); flow != Flow::next) return flow;
        break;
      }
      case NodeKind::Block: {
        const Flow flow = run_block(*node.body);
        if (flow == Flow::return_) return flow;
        if (flow != Flow::next && pending_label_ != node.label) return flow;
        break;
      }
      case NodeKind::Loop:
        for (;;) {
          count_step(); // an iteration counts, so a loop of no instructions still ends
          const Flow flow = run_block(*node.body);
          if (flow == Flow::return_) return flow;
          if (flow == Flow::continue_ && pending_label_ == node.label) continue;
          if (flow == Flow::break_ && pending_label_ == node.label) break;
          if (flow != Flow::next) return flow;
          break; // falling off the end of the body leaves the loop
        }
        break;
      case NodeKind::Break:
        pending_label_ = node.label;
        return Flow::break_;
      case NodeKind::Continue:
        pending_label_ = node.label;
        return Flow::continue_;
      case NodeKind::Return: return Flow::return_;
      }
    }
    return Flow::next;
  }

  void count_step() {
    if (++steps_ > environment_.step_limit) {
      throw Error(fmt::format("IR interpreter: more than {} steps evaluated", environment_.step_limit));
    }
  }

  void run_inst(ValueId id) {
    count_step();
    const Inst& inst = function_.insts[id];
    auto arg = [&](int i) { return values_[inst.args[static_cast<size_t>(i)]]; };
    switch (inst.op) {
    case Op::Const: values_[id] = inst.immediate; return;
    case Op::LocalLoad: values_[id] = locals_.at(inst.immediate); return;
    case Op::LocalStore: locals_.at(inst.immediate) = arg(0); return;
    case Op::LoadAttribute:
      values_[id] = require(environment_.attribute, inst)(static_cast<uint32_t>(inst.immediate));
      return;
    case Op::LoadConstBank:
      values_[id] = require(environment_.const_bank, inst)(static_cast<uint32_t>(inst.immediate),
                                                           static_cast<uint32_t>(arg(0)));
      return;
    case Op::StoreAttribute:
      if (!result_.demoted) result_.outputs[static_cast<uint32_t>(inst.immediate)] = static_cast<uint32_t>(arg(0));
      return;
    case Op::Demote:
      result_.demoted = true;
      result_.outputs.clear();
      return;
    default: break;
    }
    std::array<TypedBits, 3> args{};
    for (uint8_t i = 0; i < inst.arg_count; ++i) {
      const ValueId source = inst.args[i];
      args[i] = TypedBits{function_.insts[source].type, values_[source]};
    }
    const std::optional<uint64_t> value = evaluate(inst.op, inst.type, std::span(args).first(inst.arg_count));
    if (!value) throw Error(fmt::format("IR interpreter: op {} (%{}) has no CPU evaluation", op_name(inst.op), id));
    values_[id] = *value;
  }

  template <typename F>
  const F& require(const F& callback, const Inst& inst) {
    if (!callback) throw Error(fmt::format("IR interpreter: op {} needs an environment callback", op_name(inst.op)));
    return callback;
  }

  const Function& function_;
  const InterpretEnvironment& environment_;
  std::vector<uint64_t> values_;
  std::vector<uint64_t> locals_;
  InterpretResult result_;
  uint32_t pending_label_ = 0;
  uint64_t steps_ = 0;
};

} // namespace

InterpretResult interpret(const Function& function, const InterpretEnvironment& environment) {
  return Interpreter(function, environment).run();
}

} // namespace kiln::ir
