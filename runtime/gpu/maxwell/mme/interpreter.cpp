#include "runtime/gpu/maxwell/mme/interpreter.h"

#include <fmt/format.h>

#include <array>
#include <optional>

#include "runtime/base/error.h"
#include "runtime/gpu/maxwell/mme/isa.h"

namespace kiln::maxwell::mme {

namespace {

class Interpreter {
public:
  Interpreter(std::span<const uint32_t> code, MacroContext& context) : code_(code), context_(context) {}

  void run(uint32_t start) {
    start_ = start;
    context_.set_start(start);
    pc_ = start;
    registers_[1] = context_.fetch();
    while (step(false)) {}
  }

private:
  [[noreturn]] void fail(uint64_t index, const char* message) const { context_.fail(index - start_, message); }

  void set(uint32_t reg, uint32_t value) { if (reg != 0) registers_[reg] = value; }

  // Executes the instruction at pc_; false once the macro ended.
  bool step(bool delay_slot) {
    const uint64_t index = pc_;
    if (index >= code_.size()) fail(index, "macro runs past the end of the code");
    const Instruction in{code_[index]};
    pc_ = index + 1;
    if (delayed_target_) {
      pc_ = *delayed_target_;
      delayed_target_.reset();
    }
    if (!in.op_valid()) fail(index, "invalid MME operation");
    if (in.op() == Op::branch) {
      if (delay_slot) fail(index, "branch in a delay slot");
      const bool zero = registers_[in.src_a()] == 0;
      if (zero != in.branch_not_zero()) {
        const int64_t target = static_cast<int64_t>(index) + in.immediate();
        if (target < 0 || target >= static_cast<int64_t>(code_.size())) fail(index, "branch leaves the code");
        if (!context_.take_branch()) fail(index, "macro never ends (branch budget spent)");
        if (in.branch_no_delay()) {
          pc_ = static_cast<uint64_t>(target);
          return true;
        }
        delayed_target_ = static_cast<uint64_t>(target);
        return step(true); // the delay slot; an exit flag on a taken branch is ignored
      }
    } else {
      execute(index, in);
    }
    if (in.exit() && !delay_slot) {
      step(true); // the exit's delay slot
      return false;
    }
    return true;
  }

  void execute(uint64_t index, Instruction in) {
    const uint32_t a = registers_[in.src_a()], b = registers_[in.src_b()];
    uint32_t result = 0;
    switch (in.op()) {
    case Op::alu:
      if (!in.alu_op_valid()) fail(index, "reserved ALU operation");
      result = alu(in.alu_op(), a, b, carry_);
      break;
    case Op::add_immediate: result = a + static_cast<uint32_t>(in.immediate()); break;
    case Op::merge: result = merge(a, b, in.bf_src_bit(), in.bf_size(), in.bf_dst_bit()); break;
    case Op::extract_shift_immediate: result = extract_shift(b, a, in.bf_size(), in.bf_dst_bit()); break;
    case Op::extract_shift_register: result = extract_shift(b, in.bf_src_bit(), in.bf_size(), a); break;
    case Op::read_state: result = context_.read_state(a + static_cast<uint32_t>(in.immediate())); break;
    default: fail(index, "invalid MME operation");
    }
    switch (in.assign()) {
    case Assign::fetch: set(in.dst(), context_.fetch()); break;
    case Assign::move: set(in.dst(), result); break;
    case Assign::move_set_method: set(in.dst(), result); context_.set_method(result); break;
    case Assign::fetch_send: set(in.dst(), context_.fetch()); context_.send(result); break;
    case Assign::move_send: set(in.dst(), result); context_.send(result); break;
    case Assign::fetch_set_method: set(in.dst(), context_.fetch()); context_.set_method(result); break;
    case Assign::move_set_method_fetch_send:
      set(in.dst(), result);
      context_.set_method(result);
      context_.send(context_.fetch());
      break;
    case Assign::move_set_method_send_high:
      set(in.dst(), result);
      context_.set_method(result);
      context_.send(extract_bits(result, 12, 6));
      break;
    }
  }

  std::span<const uint32_t> code_;
  MacroContext& context_;
  std::array<uint32_t, 8> registers_{};
  bool carry_ = false;
  uint64_t pc_ = 0;
  uint32_t start_ = 0;
  std::optional<uint64_t> delayed_target_;
};

} // namespace

void interpret(std::span<const uint32_t> code, uint32_t start, MacroContext& context) {
  Interpreter(code, context).run(start);
}

} // namespace kiln::maxwell::mme
