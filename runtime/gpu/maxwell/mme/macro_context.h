#pragma once
// The run-time side of one macro execution, shared by the interpreter and natively compiled macros: parameters,
// the method address register, and the engine the macro drives.
#include <cstdint>
#include <span>
#include <string>

#include "runtime/base/bits.h"
#include "runtime/base/error.h"

namespace kiln::maxwell::mme {

/// The engine a macro runs against (the 3D class).
class MacroHost {
public:
  virtual ~MacroHost() = default;
  /// The engine's register for method word index `method` (STATE reads).
  virtual uint32_t read_state(uint32_t method) = 0;
  /// A method write the macro emits (byte offset).
  virtual void emit(uint32_t method, uint32_t value) = 0;
};

/// Taken branches a macro may make before it counts as never ending.
inline constexpr uint64_t default_branch_budget = 1u << 22;

class MacroContext {
public:
  MacroContext(MacroHost& host, std::span<const uint32_t> parameters, uint64_t branch_budget = default_branch_budget)
      : host_(host), parameters_(parameters), budget_(branch_budget) {}

  uint32_t fetch() {
    if (next_parameter_ < parameters_.size()) return parameters_[next_parameter_++];
    ++parameters_missing_; // the hardware would stall for more data; kiln reads 0 and reports it
    return 0;
  }
  void set_method(uint32_t value) {
    method_ = extract_bits(value, 0, 12);
    increment_ = extract_bits(value, 12, 6);
  }
  void send(uint32_t value) {
    host_.emit(method_ << 2, value);
    method_ = (method_ + increment_) & 0xfff;
  }
  uint32_t read_state(uint32_t method) { return host_.read_state(method & 0xfff); }
  /// Counts a taken branch; false once the budget is spent (the macro never ends).
  bool take_branch() { return budget_-- != 0; }
  /// Code index of the macro's first instruction (for messages).
  void set_start(uint32_t start) { start_ = start; }
  [[noreturn]] void fail(uint64_t relative_index, const char* message) const {
    throw Error("macro instruction " + std::to_string(start_ + relative_index) + ": " + message);
  }

  uint64_t parameters_missing() const { return parameters_missing_; }
  uint64_t parameters_unused() const { return parameters_.size() - next_parameter_; }

private:
  MacroHost& host_;
  std::span<const uint32_t> parameters_;
  size_t next_parameter_ = 0;
  uint32_t method_ = 0, increment_ = 0;
  uint64_t budget_;
  uint64_t parameters_missing_ = 0;
  uint32_t start_ = 0;
};

} // namespace kiln::maxwell::mme
