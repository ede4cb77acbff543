#pragma once
// Builds, for one IR op, a kernel that applies it to operands read from global memory, and the random operands
// (with the edge cases of each type) the tests feed it.
#include <random>
#include <vector>

#include "translator/ir/builder.h"
#include "translator/ir/reference.h"

namespace kiln::test {

struct OpCase {
  ir::Op op;
  ir::Type result;
  std::vector<ir::Type> operands;
};

/// Every op whose result follows from its operands, with each type combination worth running.
std::vector<OpCase> computing_op_cases();

/// Kernel: thread t of block b computes op(in[i*3+0], in[i*3+1], in[i*3+2]) with i = b*blockDim + t, reading
/// 8-byte slots from the address at c[0][0] and writing out[i] (8-byte slots) at the address at c[0][8].
ir::Function make_op_kernel(const OpCase& op_case);

/// A random operand of `type` for `op`: edge cases a quarter of the time, otherwise random bits (integers) or
/// values in the op's domain (floats).
uint64_t random_operand(std::mt19937_64& random, ir::Op op, ir::Type type, unsigned operand_index);

} // namespace kiln::test
