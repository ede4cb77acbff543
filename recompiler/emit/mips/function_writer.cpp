#include "recompiler/emit/mips/function_writer.h"

#include <fmt/format.h>

#include <set>

#include "recompiler/emit/cpp_text.h"
#include "recompiler/pipeline/function_body.h"
#include "runtime/core/mips/ops.h"

namespace kiln::mips {
namespace {

constexpr size_t instructions_per_file = 4000; ///< host compile time vs parallelism

const char* semantics_name(Opcode op) {
  switch (op) {
#define KILN_MIPS_NAME_CASE(name) case Opcode::name: return #name;
    KILN_R3000_INSTRUCTIONS(KILN_MIPS_NAME_CASE)
#undef KILN_MIPS_NAME_CASE
    case Opcode::count: break;
  }
  return "?";
}

/// Instructions that can raise an exception (then the platform answers it or stops).
bool can_raise(Opcode op) {
  switch (op) {
    case Opcode::add: case Opcode::addi: case Opcode::sub: case Opcode::syscall: case Opcode::break_:
    case Opcode::lb: case Opcode::lbu: case Opcode::lh: case Opcode::lhu: case Opcode::lw:
    case Opcode::sb: case Opcode::sh: case Opcode::sw:
    case Opcode::mfc2: case Opcode::cfc2: case Opcode::mtc2: case Opcode::ctc2: case Opcode::cop2:
    case Opcode::lwc2: case Opcode::swc2: case Opcode::teq: case Opcode::tne:
    case Opcode::ll: case Opcode::sc: case Opcode::rdhwr: case Opcode::lwc1: case Opcode::swc1: case Opcode::ldc1:
    case Opcode::sdc1:
      return true;
    default: return false;
  }
}

/// Instructions whose result arrives after the next instruction (the R3000 load delay).
bool delivers_late(Opcode op) {
  switch (op) {
    case Opcode::lb: case Opcode::lbu: case Opcode::lh: case Opcode::lhu: case Opcode::lw: case Opcode::lwl:
    case Opcode::lwr: case Opcode::mfc0: case Opcode::mfc2: case Opcode::cfc2:
      return true;
    default: return false;
  }
}

bool is_transfer(const Instruction& i) {
  if (!i.decoded) return false;
  const Flow f = i.encoding().flow;
  return f != Flow::none && f != Flow::trap;
}

class Writer {
public:
  Writer(const ProgramImage& image, const Function& f, std::string& out, std::vector<pipeline::UntranslatedInstruction>& untranslated)
      : image_(image), f_(f), body_(image.found(), f), out_(out), untranslated_(untranslated) {}

  size_t write() {
    out_ += fmt::format("void {}(kiln_platform::Machine& m) {{\n  kiln::r3000::Cpu& c = m.cpu;\n  kiln_platform::Bus bus{{m}};\n",
                        host_function_name(f_.start));
    out_ += pipeline::FunctionBody::entry_state("c.gpr[31]", "c.gpr[29]");
    size_t count = 0;
    for (uint64_t a : body_.reached()) {
      if (body_.has_label(a)) out_ += fmt::format("L_{:08x}:\n", a);
      count += emit_at(static_cast<uint32_t>(a));
    }
    out_ += "}\n\n";
    return count;
  }

private:
  bool inside(uint32_t a) const { return body_.inside(a); }

  /// retire_load after an instruction is a no-op unless a load is in flight: the instruction is a load, or it
  /// may follow one (its predecessor in the text is a load, or control can arrive from elsewhere: a label).
  bool needs_retire(const Instruction& i, bool in_delay_slot) const {
    if (image_.variant() != Variant::r3000) return false; // MIPS32r2 interlocks: nothing is ever in flight
    if (delivers_late(i.opcode)) return true;
    if (in_delay_slot) return false; // its predecessor is the branch, which retired whatever was in flight
    if (body_.has_label(i.address)) return true;
    const uint32_t previous = i.address - 4;
    return !image_.contains(previous) || !image_.instruction(previous).decoded || delivers_late(image_.instruction(previous).opcode);
  }
  std::string op(const Instruction& i, bool in_delay_slot = false) const {
    return fmt::format("kiln::r3000::{}(c, bus, {:#010x}u, {:#010x}u);{}", semantics_name(i.opcode), i.word, i.address,
                       needs_retire(i, in_delay_slot) ? " kiln::r3000::retire_load(c);" : "");
  }

  void untranslatable(uint32_t a, uint32_t word, const std::string& why) {
    untranslated_.push_back(pipeline::UntranslatedInstruction{a, word, why, host_function_name(f_.start), !image_.instruction(a).decoded});
    out_ += fmt::format("  kiln_platform::untranslated(m, {:#010x}u, {:#010x}u, \"{}\");\n", a, word, emit::escape_string_literal(why));
  }

  size_t emit_at(uint32_t a) {
    const Instruction& i = image_.instruction(a);
    out_ += fmt::format("  // {:08x}: {}\n", a, i.text);
    if (!i.decoded) {
      untranslatable(a, i.word, i.text);
      return 1;
    }
    if (!is_transfer(i)) {
      out_ += "  " + op(i);
      if (can_raise(i.opcode)) out_ += fmt::format(" if (c.exception_taken) [[unlikely]] kiln_platform::resume_after_exception(m, {:#010x}u);", a);
      out_ += "\n";
      out_ += body_.fall_out(a + 4);
      return 1;
    }
    // A transfer: the instruction, its delay slot, then the move.
    const uint32_t slot_address = a + 4;
    if (!image_.contains(slot_address)) {
      untranslatable(a, i.word, "the delay slot lies outside the program");
      return 1;
    }
    const Instruction& slot = image_.instruction(slot_address);
    out_ += "  { " + op(i) + "\n";
    out_ += fmt::format("    // {:08x}: {} (delay slot)\n", slot_address, slot.text);
    if (!slot.decoded || is_transfer(slot)) {
      untranslatable(slot_address, slot.word,
                     slot.decoded ? "a jump or branch in a delay slot is not supported by the recompiler" : slot.text);
      out_ += "    const kiln::r3000::PendingBranch b_ = kiln::r3000::end_delay_slot(c);\n    ";
    } else if (!can_raise(slot.opcode)) {
      out_ += "    const kiln::r3000::PendingBranch b_ = kiln::r3000::take_issued_branch(c); " + op(slot, true) + "\n    ";
    } else {
      out_ += "    kiln::r3000::begin_delay_slot(c); " + op(slot, true);
      out_ += fmt::format(" if (c.exception_taken) [[unlikely]] kiln_platform::resume_after_exception(m, {:#010x}u);", slot_address);
      out_ += "\n    const kiln::r3000::PendingBranch b_ = kiln::r3000::end_delay_slot(c);\n    ";
    }
    const Flow flow = i.encoding().flow;
    const uint32_t next = a + 8;
    switch (flow) {
      case Flow::branch:
      case Flow::jump: {
        const uint32_t t = static_target(i);
        const std::string go = body_.go_to(t);
        if (is_branch_and_link(i)) out_ += fmt::format("if (b_.taken) {{ {} }}", body_.call(t, a, a + 8));
        else if (is_unconditional(i)) out_ += go;
        else out_ += fmt::format("if (b_.taken) {}", go);
        out_ += " (void)b_; }\n";
        if (is_unconditional(i)) return 2;
        break;
      }
      case Flow::call: out_ += body_.call(static_target(i), a, a + 8) + " (void)b_; }\n"; break;
      case Flow::call_register:
        out_ += fmt::format("c.pc = b_.target; kiln_platform::call_guest(m, b_.target); {} }}\n", body_.check_return(a, next));
        break;
      case Flow::jump_register: {
        if (r3000::field_rs(i.word) == 31) {
          out_ += "c.pc = b_.target; return; }\n"; // a return: the caller checks where it lands
          return 2;
        }
        if (auto t = image_.jump_tables().find(a); t != image_.jump_tables().end()) {
          out_ += "switch (b_.target) {\n";
          std::set<uint32_t> seen;
          for (uint32_t target : t->second.targets) {
            if (!seen.insert(target).second) continue;
            out_ += fmt::format("      case {:#010x}u: ", target);
            out_ += body_.go_to(target) + "\n";
          }
          out_ += "      default: break;\n    }\n    ";
        } else if (auto c = image_.constant_jumps().find(a); c != image_.constant_jumps().end()) {
          // The register holds a known constant (a BIOS call stub): a tail call to it.
          out_ += body_.leave_for(c->second) + " (void)b_; }\n";
          return 2;
        }
        out_ += "c.pc = b_.target; kiln_platform::call_guest(m, b_.target); return; }\n";
        return 2;
      }
      default: break;
    }
    out_ += body_.fall_out(next);
    return 2;
  }

  const ProgramImage& image_;
  const Function& f_;
  pipeline::FunctionBody body_;
  std::string& out_;
  std::vector<pipeline::UntranslatedInstruction>& untranslated_;
};

} // namespace

size_t write_function(const ProgramImage& image, const Function& function, std::string& out,
                      std::vector<pipeline::UntranslatedInstruction>& untranslated) {
  return Writer(image, function, out, untranslated).write();
}

std::string write_function_files(const ProgramImage& image, std::string_view banner, std::string_view platform,
                                 std::string_view recompiled_header, pipeline::ProjectFiles& files,
                                 pipeline::RecompileSummary& summary) {
  const std::string includes = fmt::format("#include \"runtime/core/mips/ops.h\"\n#include \"runtime/core/mips/step.h\"\n#include \"{}\"\n",
                                           recompiled_header);
  return pipeline::write_function_files(
      image.found(), banner, includes, platform,
      [&](const Function& f, std::string& out) { return write_function(image, f, out, summary.untranslated); }, instructions_per_file,
      files, summary);
}

std::string write_fallback_opcodes(const ProgramImage& image, pipeline::ProjectFiles& files) {
  return pipeline::write_opcode_table(image.base(), image.end(), [&](uint64_t a) {
    const Instruction& i = image.instruction(a);
    return static_cast<uint16_t>(i.decoded ? i.opcode : Opcode::count);
  }, files);
}

} // namespace kiln::mips
