#include "runtime/gpu/maxwell/mme/isa.h"

#include <fmt/format.h>

namespace kiln::maxwell::mme {

namespace {
const char* assign_name(Assign assign) {
  static constexpr const char* names[] = {"FETCH",       "MOVE",         "MOVE_SET_MADDR",          "FETCH_EMIT",
                                          "MOVE_EMIT", "FETCH_SET_MADDR", "MOVE_SET_MADDR_FETCH_EMIT",
                                          "MOVE_SET_MADDR_EMIT_HIGH"};
  return names[static_cast<uint32_t>(assign)];
}
const char* alu_name(uint32_t op) {
  switch (op) {
  case 0: return "ADD";
  case 1: return "ADDC";
  case 2: return "SUB";
  case 3: return "SUBB";
  case 8: return "XOR";
  case 9: return "OR";
  case 10: return "AND";
  case 11: return "AND_NOT";
  case 12: return "NAND";
  }
  return "ALU?";
}
} // namespace

std::string disassemble(Instruction in) {
  const char* exit = in.exit() ? " (exit)" : "";
  if (!in.op_valid()) return fmt::format("INVALID 0x{:08x}", in.word);
  switch (in.op()) {
  case Op::alu:
    return fmt::format("{} r{}, {} r{}, r{}{}", assign_name(in.assign()), in.dst(),
                       alu_name(static_cast<uint32_t>(in.alu_op())), in.src_a(), in.src_b(), exit);
  case Op::add_immediate:
    return fmt::format("{} r{}, r{} + {}{}", assign_name(in.assign()), in.dst(), in.src_a(), in.immediate(), exit);
  case Op::read_state:
    return fmt::format("{} r{}, STATE[r{} + {}]{}", assign_name(in.assign()), in.dst(), in.src_a(), in.immediate(), exit);
  case Op::merge:
    return fmt::format("{} r{}, MERGE r{}, r{} src {} size {} dst {}{}", assign_name(in.assign()), in.dst(),
                       in.src_a(), in.src_b(), in.bf_src_bit(), in.bf_size(), in.bf_dst_bit(), exit);
  case Op::extract_shift_immediate:
    return fmt::format("{} r{}, BFE_LSL_IMM r{} >> r{} size {} << {}{}", assign_name(in.assign()), in.dst(),
                       in.src_b(), in.src_a(), in.bf_size(), in.bf_dst_bit(), exit);
  case Op::extract_shift_register:
    return fmt::format("{} r{}, BFE_LSL_REG r{} >> {} size {} << r{}{}", assign_name(in.assign()), in.dst(),
                       in.src_b(), in.bf_src_bit(), in.bf_size(), in.src_a(), exit);
  case Op::branch:
    return fmt::format("B{}{} r{}, {:+}{}", in.branch_not_zero() ? "NZ" : "Z", in.branch_no_delay() ? ".NODELAY" : "",
                       in.src_a(), in.immediate(), exit);
  case Op::unknown6: break;
  }
  return fmt::format("INVALID 0x{:08x}", in.word);
}

} // namespace kiln::maxwell::mme
