#include "recompiler/emit/ppc/function_writer.h"

#include <fmt/format.h>

#include <set>

#include "recompiler/emit/cpp_text.h"
#include "recompiler/pipeline/function_body.h"

namespace kiln::ppc {
namespace {

constexpr size_t instructions_per_file = 4000; ///< host compile time vs parallelism

const char* semantics_name(Opcode op) {
  switch (op) {
#define KILN_PPC_NAME_CASE(name) case Opcode::name: return #name;
    KILN_PPC_INSTRUCTIONS(KILN_PPC_NAME_CASE)
#undef KILN_PPC_NAME_CASE
    case Opcode::count: break;
  }
  return "?";
}

class Writer {
public:
  Writer(const ProgramImage& image, const Function& f, std::string& out, std::vector<pipeline::UntranslatedInstruction>& untranslated,
         const WriterOptions& options)
      : image_(image), f_(f), body_(image.found(), f), out_(out), untranslated_(untranslated), options_(options) {}

  size_t write() {
    out_ += fmt::format("void {}(kiln_platform::Machine& m) {{\n  kiln::ppc::Cpu& c = m.cpu;\n  kiln_platform::Bus bus{{m}};\n",
                        pipeline::host_function_name(f_.start));
    out_ += pipeline::FunctionBody::entry_state("c.lr", "c.gpr[1]");
    size_t count = 0;
    for (uint64_t a : body_.reached()) {
      if (body_.has_label(a)) out_ += fmt::format("L_{:08x}:\n", a);
      emit_at(static_cast<uint32_t>(a));
      ++count;
    }
    out_ += "}\n\n";
    return count;
  }

private:
  std::string op(const Instruction& i) const {
    return fmt::format("kiln::ppc::{}(c, bus, {:#010x}u, {:#010x}u);", semantics_name(i.opcode), i.word, i.address);
  }
  std::string raise_check(uint32_t a) const {
    return fmt::format(" if (c.exception_taken) [[unlikely]] kiln_platform::resume_after_exception(m, {:#010x}u);", a);
  }

  static bool reaches_bus(const Instruction& i) {
    const Effects e = i.effects();
    constexpr uint16_t hooked = special_memory | special_msr | special_spr | special_timebase;
    return ((e.special_read | e.special_write) & hooked) != 0;
  }

  void untranslatable(uint32_t a, uint32_t word, const std::string& why) {
    untranslated_.push_back(pipeline::UntranslatedInstruction{a, word, why, pipeline::host_function_name(f_.start), !image_.instruction(a).decoded});
    out_ += fmt::format("  kiln_platform::untranslated(m, {:#010x}u, {:#010x}u, \"{}\");\n", a, word, emit::escape_string_literal(why));
  }

  void emit_at(uint32_t a) {
    const Instruction& i = image_.instruction(a);
    out_ += fmt::format("  // {:08x}: {}\n", a, i.text);
    if (!i.decoded) return untranslatable(a, i.word, i.text);
    if (options_.pc_at_bus_access && reaches_bus(i)) out_ += fmt::format("  c.pc = {:#010x}u;\n", a);
    const pipeline::Transfer t = image_.transfer(a);
    const uint32_t next = a + 4;
    if (!t.is_transfer()) {
      // An instruction that may raise (a trap, sc, an FP or alignment exception) starts with next_pc at the
      // next instruction, which the platform resumes at once the exception is answered.
      // sc and traps also leave their address in c.pc for the platform's reports.
      const bool raises = i.effects().may_raise || t.flow == pipeline::Flow::trap;
      const std::string at = t.flow == pipeline::Flow::trap ? fmt::format("c.pc = {:#010x}u; ", a) : "";
      out_ += raises ? fmt::format("  {}c.next_pc = {:#010x}u; {}{}\n", at, next, op(i), raise_check(a)) : "  " + op(i) + "\n";
      out_ += body_.fall_out(next);
      return;
    }
    // A transfer: its semantics decide next_pc (and LR, CTR), then control moves there. One that may raise (rfi
    // in user mode) hands the exception to the platform first, as any other instruction does.
    const std::string taken = fmt::format("c.next_pc != {:#010x}u", next);
    out_ += fmt::format("  c.next_pc = {:#010x}u; {}{}\n", next, op(i), i.effects().may_raise ? raise_check(a) : "");
    auto when_taken = [&](const std::string& what) {
      out_ += t.conditional ? fmt::format("  if ({}) {{ {} }}\n", taken, what) : "  " + what + "\n";
    };
    switch (t.flow) {
      case pipeline::Flow::jump: when_taken(body_.go_to(t.target)); break;
      case pipeline::Flow::call: when_taken(body_.call(t.target, a, next)); break;
      case pipeline::Flow::call_register:
        when_taken(fmt::format("c.pc = c.next_pc; kiln_platform::call_guest(m, c.pc); {}", body_.check_return(a, next)));
        break;
      case pipeline::Flow::jump_register: {
        if (t.returns) { // blr (the caller checks where it lands), rfi (the platform entered the handler)
          when_taken("c.pc = c.next_pc; return;");
          break;
        }
        std::string dispatch;
        if (const auto table = image_.found().jump_tables().find(a); table != image_.found().jump_tables().end()) {
          dispatch = "switch (c.next_pc) {";
          std::set<uint64_t> seen;
          for (uint64_t target : table->second.targets)
            if (seen.insert(target).second) dispatch += fmt::format(" case {:#010x}u: {}", target, body_.go_to(target));
          dispatch += " default: break; } ";
        }
        when_taken(dispatch + "c.pc = c.next_pc; kiln_platform::call_guest(m, c.pc); return;");
        break;
      }
      default: break;
    }
    if (t.conditional || t.flow == pipeline::Flow::call || t.flow == pipeline::Flow::call_register) out_ += body_.fall_out(next);
  }

  const ProgramImage& image_;
  const Function& f_;
  pipeline::FunctionBody body_;
  std::string& out_;
  std::vector<pipeline::UntranslatedInstruction>& untranslated_;
  const WriterOptions& options_;
};

} // namespace

size_t write_function(const ProgramImage& image, const Function& function, std::string& out,
                      std::vector<pipeline::UntranslatedInstruction>& untranslated, const WriterOptions& options) {
  return Writer(image, function, out, untranslated, options).write();
}

std::string write_function_files(const ProgramImage& image, std::string_view banner, std::string_view platform,
                                 std::string_view recompiled_header, pipeline::ProjectFiles& files,
                                 pipeline::RecompileSummary& summary, const WriterOptions& options) {
  const std::string includes = fmt::format("#include \"runtime/core/ppc/ops.h\"\n#include \"{}\"\n", recompiled_header);
  return pipeline::write_function_files(
      image.found(), banner, includes, platform,
      [&](const Function& f, std::string& out) { return write_function(image, f, out, summary.untranslated, options); }, instructions_per_file,
      files, summary);
}

} // namespace kiln::ppc
