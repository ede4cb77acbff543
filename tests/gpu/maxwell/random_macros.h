#pragma once
// Deterministic random MME macros for comparing the interpreter with the compiled path: straight code, forward
// branches with and without delay slots, and a counted loop, always ending with an exit and its delay slot.
#include <cstdint>
#include <random>
#include <vector>

#include "tests/gpu/maxwell/mme_assembler.h"

namespace kiln::maxwell::test {

class RandomMacros {
public:
  explicit RandomMacros(uint32_t seed) : random_(seed) {}

  std::vector<uint32_t> next() {
    using namespace mme_asm;
    std::vector<uint32_t> code;
    const bool with_loop = pick(3) == 0;
    const uint32_t reserved = with_loop ? 7 : 8; // the loop counter lives in r7
    if (with_loop) {
      code.push_back(add_imm(Assign::move, 6, 0, 7));                     // r6 = 7
      code.push_back(alu(Assign::move, 7, AluOp::bit_and, 1, 6));         // r7 = p0 & 7
      code.push_back(add_imm(Assign::move, 7, 7, 1));                     // r7 += 1: 1..8 iterations
      const size_t loop_start = code.size();
      const uint32_t body = 1 + pick(6);
      for (uint32_t i = 0; i < body; ++i) code.push_back(instruction(reserved));
      code.push_back(add_imm(Assign::move, 7, 7, -1));
      const int32_t back = static_cast<int32_t>(loop_start) - static_cast<int32_t>(code.size());
      code.push_back(branch(true, pick(2) == 0, 7, back));
      code.push_back(instruction(reserved)); // delay slot (or the next instruction)
    }
    const uint32_t length = 4 + pick(24);
    std::vector<size_t> branches;
    for (uint32_t i = 0; i < length; ++i) {
      if (pick(5) == 0 && (code.empty() || mme::Instruction{code.back()}.op() != mme::Op::branch)) {
        branches.push_back(code.size());
        code.push_back(0); // patched below once the length is known
      } else {
        code.push_back(instruction(reserved));
      }
    }
    code.push_back(instruction(reserved) | mme_asm::exit_flag);
    code.push_back(instruction(reserved)); // the exit's delay slot
    const size_t last_target = code.size() - 2; // the exit instruction itself
    for (size_t at : branches) {
      const size_t target = at + 1 + pick(static_cast<uint32_t>(last_target - at));
      code[at] = branch(pick(2) == 0, pick(2) == 0, pick(8), static_cast<int32_t>(target - at));
    }
    return code;
  }

  uint32_t pick(uint32_t bound) { return static_cast<uint32_t>(random_() % bound); }

private:
  uint32_t instruction(uint32_t register_limit) {
    using namespace mme_asm;
    const auto assign = static_cast<Assign>(pick(8));
    const uint32_t dst = pick(register_limit);
    const uint32_t a = pick(8), b = pick(8);
    static constexpr AluOp alu_ops[] = {AluOp::add,     AluOp::add_carry, AluOp::subtract, AluOp::subtract_borrow,
                                        AluOp::bit_xor, AluOp::bit_or,    AluOp::bit_and,  AluOp::and_not,
                                        AluOp::nand};
    switch (pick(6)) {
    case 0: return alu(assign, dst, alu_ops[pick(9)], a, b);
    case 1: return add_imm(assign, dst, a, static_cast<int32_t>(pick(1u << 18)) - (1 << 17));
    case 2: return bitfield(2, assign, dst, a, b, pick(32), pick(32), pick(32));
    case 3: return bitfield(3, assign, dst, a, b, pick(32), pick(32), pick(32));
    case 4: return bitfield(4, assign, dst, a, b, pick(32), pick(32), pick(32));
    default: return read_state(assign, dst, a, static_cast<int32_t>(pick(0x1000)));
    }
  }

  std::mt19937 random_;
};

} // namespace kiln::maxwell::test
