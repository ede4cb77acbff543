#include "tests/translator/run/op_kernels.h"

#include <bit>
#include <cmath>

namespace kiln::test {

using ir::Op;
using ir::Type;

std::vector<OpCase> computing_op_cases() {
  std::vector<OpCase> cases;
  for (uint16_t raw = 0;; ++raw) {
    const auto op = static_cast<Op>(raw);
    if (op == Op::LocalStore) break; // the last op of ops.inc
    const ir::Signature signature = ir::op_info(op).signature;
    const auto add_int = [&](auto make) {
      for (Type type : {Type::U32, Type::U64}) cases.push_back(make(type));
    };
    switch (signature) {
    case ir::Signature::IntBinary: add_int([&](Type t) { return OpCase{op, t, {t, t}}; }); break;
    case ir::Signature::IntShift: add_int([&](Type t) { return OpCase{op, t, {t, Type::U32}}; }); break;
    case ir::Signature::IntUnary:
      if (op == Op::BitReverse) cases.push_back({op, Type::U32, {Type::U32}});
      else add_int([&](Type t) { return OpCase{op, t, {t}}; });
      break;
    case ir::Signature::IntCount: cases.push_back({op, Type::U32, {Type::U32}}); break;
    case ir::Signature::IntCompare: add_int([&](Type t) { return OpCase{op, Type::Bool, {t, t}}; }); break;
    case ir::Signature::FloatBinary:
    case ir::Signature::FloatTernary:
    case ir::Signature::FloatUnary:
    case ir::Signature::FloatCompare:
    case ir::Signature::FloatTest:
      for (Type type : {Type::F32, Type::F64}) {
        const bool approximate = ir::op_info(op).effect == ir::Effect::Approximate;
        if (approximate && type == Type::F64 && op != Op::FSqrt && op != Op::FRcp) continue; // Vulkan: 32-bit only
        const size_t count = signature == ir::Signature::FloatTernary ? 3
                             : (signature == ir::Signature::FloatBinary || signature == ir::Signature::FloatCompare) ? 2 : 1;
        const bool boolean = signature == ir::Signature::FloatCompare || signature == ir::Signature::FloatTest;
        cases.push_back({op, boolean ? Type::Bool : type, std::vector<Type>(count, type)});
      }
      break;
    case ir::Signature::BoolBinary: cases.push_back({op, Type::Bool, {Type::Bool, Type::Bool}}); break;
    case ir::Signature::BoolUnary: cases.push_back({op, Type::Bool, {Type::Bool}}); break;
    case ir::Signature::Select:
      for (Type type : {Type::U32, Type::U64, Type::F32, Type::F64}) cases.push_back({op, type, {Type::Bool, type, type}});
      break;
    case ir::Signature::Pack64: cases.push_back({op, Type::U64, {Type::U32, Type::U32}}); break;
    case ir::Signature::Convert:
      switch (op) {
      case Op::ZExt:
      case Op::SExt:
        cases.push_back({op, Type::U64, {Type::U32}});
        cases.push_back({op, Type::U32, {Type::Bool}});
        break;
      case Op::Trunc: cases.push_back({op, Type::U32, {Type::U64}}); break;
      case Op::Bitcast:
        cases.push_back({op, Type::F32, {Type::U32}});
        cases.push_back({op, Type::U64, {Type::F64}});
        break;
      case Op::SToF:
      case Op::UToF:
        for (Type from : {Type::U32, Type::U64}) {
          for (Type to : {Type::F32, Type::F64}) cases.push_back({op, to, {from}});
        }
        break;
      case Op::FToS:
      case Op::FToU:
        for (Type from : {Type::F32, Type::F64}) {
          for (Type to : {Type::U32, Type::U64}) cases.push_back({op, to, {from}});
        }
        break;
      case Op::FConvert:
        cases.push_back({op, Type::F32, {Type::F64}});
        cases.push_back({op, Type::F64, {Type::F32}});
        break;
      default: break;
      }
      break;
    default: break;
    }
  }
  return cases;
}

ir::Function make_op_kernel(const OpCase& op_case) {
  ir::Function function;
  function.kernel.name = std::string("op_") + std::string(ir::op_name(op_case.op));
  function.kernel.const_bank_bytes = 16;
  ir::Builder b(function);
  const ir::ValueId inputs = b.load(Op::LoadConst, ir::MemoryWidth::B64, b.u32(0));
  const ir::ValueId outputs = b.load(Op::LoadConst, ir::MemoryWidth::B64, b.u32(8));
  const ir::ValueId block_size = b.u32(64);
  const ir::ValueId index = b.op(Op::IAdd, b.op(Op::IMul, b.emit(Op::BlockIdX, Type::U32, {}), block_size), b.emit(Op::ThreadIdX, Type::U32, {}));
  const ir::ValueId index64 = b.convert(Op::ZExt, Type::U64, index);
  std::vector<ir::ValueId> args;
  for (size_t k = 0; k < op_case.operands.size(); ++k) {
    const ir::ValueId slot = b.op(Op::IAdd, b.op(Op::IMul, index64, b.u64(3)), b.u64(k));
    const ir::ValueId address = b.op(Op::IAdd, inputs, b.op(Op::Shl, slot, b.u32(3)));
    const Type type = op_case.operands[k];
    if (type == Type::Bool) {
      args.push_back(b.op(Op::INe, b.load(Op::LoadGlobal, ir::MemoryWidth::B32, address), b.u32(0)));
    } else {
      const ir::ValueId bits = b.load(Op::LoadGlobal, ir::bit_width(type) == 64 ? ir::MemoryWidth::B64 : ir::MemoryWidth::B32, address);
      args.push_back(ir::is_float(type) ? b.convert(Op::Bitcast, type, bits) : bits);
    }
  }
  ir::ValueId result = 0;
  if (args.size() == 1) result = b.emit(op_case.op, op_case.result, {args[0]});
  else if (args.size() == 2) result = b.emit(op_case.op, op_case.result, {args[0], args[1]});
  else result = b.emit(op_case.op, op_case.result, {args[0], args[1], args[2]});
  const ir::ValueId out_address = b.op(Op::IAdd, outputs, b.op(Op::Shl, index64, b.u32(3)));
  if (op_case.result == Type::Bool) {
    b.store(Op::StoreGlobal, ir::MemoryWidth::B32, out_address, b.convert(Op::ZExt, Type::U32, result));
  } else {
    const bool wide = ir::bit_width(op_case.result) == 64;
    const ir::ValueId bits = ir::is_float(op_case.result) ? b.convert(Op::Bitcast, wide ? Type::U64 : Type::U32, result) : result;
    b.store(Op::StoreGlobal, wide ? ir::MemoryWidth::B64 : ir::MemoryWidth::B32, out_address, bits);
  }
  return function;
}

namespace {

uint64_t float_value(Type type, double value) {
  return type == Type::F32 ? std::bit_cast<uint32_t>(static_cast<float>(value)) : std::bit_cast<uint64_t>(value);
}

// Domains where the Vulkan precision requirements (and MUFU's documented accuracy) apply.
double random_in_domain(std::mt19937_64& random, Op op) {
  std::uniform_real_distribution<double> unit(0.0, 1.0);
  const double sign = (random() & 1) ? -1.0 : 1.0;
  switch (op) {
  case Op::FSin:
  case Op::FCos: return sign * unit(random) * 3.14159265358979;
  case Op::FExp2: return sign * unit(random) * 20.0;
  case Op::FLog2:
  case Op::FRsq:
  case Op::FSqrt: return std::ldexp(1.0 + unit(random), static_cast<int>(random() % 80) - 40);
  case Op::FRcp: return sign * std::ldexp(1.0 + unit(random), static_cast<int>(random() % 80) - 40);
  default: return sign * std::ldexp(1.0 + unit(random), static_cast<int>(random() % 80) - 40);
  }
}

} // namespace

uint64_t random_operand(std::mt19937_64& random, Op op, Type type, unsigned operand_index) {
  const bool edge = random() % 4 == 0;
  const bool approximate = ir::op_info(op).effect == ir::Effect::Approximate;
  switch (type) {
  case Type::Bool: return random() & 1;
  case Type::U32:
  case Type::U64: {
    const bool is_shift_amount = operand_index == 1 && ir::op_info(op).signature == ir::Signature::IntShift;
    if (is_shift_amount) return random() % 80; // in range and out of range
    const uint64_t mask = type == Type::U32 ? 0xffffffffu : ~uint64_t{0};
    if (edge) {
      const uint64_t edges[] = {0, 1, 2, mask, mask - 1, mask >> 1, (mask >> 1) + 1, 0x80, 0xff, 0x7fff, 0x10000};
      return edges[random() % std::size(edges)] & mask;
    }
    if (random() % 4 == 0) return (random() % 1000) & mask; // small values make compares and sums interesting
    return random() & mask;
  }
  case Type::F32:
  case Type::F64: {
    if (edge && !approximate) {
      const double inf = INFINITY;
      const double edges[] = {0.0, -0.0, 1.0, -1.0, 0.5, -0.5, 1.5, 2.5, -2.5, inf, -inf, NAN, 2147483648.0, -2147483648.0,
                              4294967296.0, 9.3e18, -9.3e18, 1.9e19, 1e30, -1e30, 0.99999, 1.00001};
      return float_value(type, edges[random() % std::size(edges)]);
    }
    return float_value(type, random_in_domain(random, op));
  }
  default: return 0;
  }
}

} // namespace kiln::test
