#pragma once
// The value types of kiln's shader IR. Guest registers are untyped bits; the IR types every value so the
// SPIR-V backend and the CPU reference agree on what an operation means.
#include <cstdint>
#include <string_view>

namespace kiln::ir {

enum class Type : uint8_t { Void, Bool, U32, U64, F32, F64 };

constexpr bool is_integer(Type type) { return type == Type::U32 || type == Type::U64; }
constexpr bool is_float(Type type) { return type == Type::F32 || type == Type::F64; }
constexpr unsigned bit_width(Type type) {
  switch (type) {
  case Type::Bool: return 1;
  case Type::U32:
  case Type::F32: return 32;
  case Type::U64:
  case Type::F64: return 64;
  case Type::Void: return 0;
  }
  return 0;
}
/// The integer type of the same width as `type` (for bitcasts).
constexpr Type integer_of_width(unsigned bits) { return bits == 64 ? Type::U64 : Type::U32; }

std::string_view type_name(Type type);

/// Width and extension of a memory access; loads of 8 and 16 bits extend into a U32.
enum class MemoryWidth : uint8_t { U8, S8, U16, S16, B32, B64 };
constexpr unsigned access_bytes(MemoryWidth width) {
  switch (width) {
  case MemoryWidth::U8:
  case MemoryWidth::S8: return 1;
  case MemoryWidth::U16:
  case MemoryWidth::S16: return 2;
  case MemoryWidth::B32: return 4;
  case MemoryWidth::B64: return 8;
  }
  return 0;
}
constexpr Type access_type(MemoryWidth width) { return width == MemoryWidth::B64 ? Type::U64 : Type::U32; }
std::string_view memory_width_name(MemoryWidth width);

/// Read-modify-write operations of the atomic ops; the old value is the result.
enum class AtomicOp : uint8_t { Add, SMin, SMax, UMin, UMax, And, Or, Xor, Exchange };
std::string_view atomic_op_name(AtomicOp op);

} // namespace kiln::ir
