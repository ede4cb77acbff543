#pragma once
// kiln's shader IR: SSA values with types, in a structured control-flow tree.
//
// A Function owns every instruction (`insts`, indexed by ValueId). Its body is a tree of Nodes:
//   Inst      evaluate instruction `value` (its result is visible to later nodes of the same block and
//             to blocks nested below them, never outside the block that holds it)
//   If        run `then_body` when `condition` is true, else `else_body`
//   Block     run `body`; Break(label) inside it continues after the Block
//   Loop      run `body` repeatedly: Continue(label) restarts it, falling off its end leaves the loop
//   Break / Continue(label)  leave / restart an enclosing Block or Loop (any depth); last node of a block
//   Return    end the invocation; last node of a block
// Guest registers live in `locals` (LocalLoad/LocalStore) so values can cross constructs; passes forward
// them inside straight-line code.
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "translator/ir/op.h"
#include "translator/ir/types.h"

namespace kiln::ir {

using ValueId = uint32_t;
constexpr ValueId no_value = UINT32_MAX;

struct Inst {
  Op op = Op::Const;
  Type type = Type::Void;
  uint8_t arg_count = 0;
  std::array<ValueId, 3> args{no_value, no_value, no_value};
  uint64_t immediate = 0; ///< Const: the bits; memory ops: MemoryWidth; atomics: AtomicOp; locals: index
  uint64_t guest_address = UINT64_MAX; ///< the guest instruction it came from, for messages
};

struct Block;

enum class NodeKind : uint8_t { Inst, If, Block, Loop, Break, Continue, Return };

struct Node {
  NodeKind kind = NodeKind::Inst;
  ValueId value = no_value;      ///< Inst: the instruction; If: the condition
  uint32_t label = 0;            ///< Block/Loop: its label; Break/Continue: the target's label
  std::unique_ptr<Block> body;   ///< If: then; Block/Loop: body
  std::unique_ptr<Block> else_body;
};

struct Block {
  std::vector<Node> nodes;
};

/// Resources of a compute kernel that the backend must declare.
struct KernelInfo {
  std::string name = "main";
  uint32_t shared_bytes = 0;     ///< static shared memory of the guest kernel
  uint32_t const_bank_bytes = 0; ///< bytes of the constant buffer the kernel may read (all banks, parameters included)
  uint32_t private_bytes = 0;    ///< per-invocation local memory (LoadPrivate/StorePrivate), CUDA's stack frame
};

struct Function {
  KernelInfo kernel;
  std::vector<Inst> insts;
  std::vector<Type> locals;
  Block body;
  uint32_t next_label = 1;
};

std::string to_string(const Function& function);

} // namespace kiln::ir
