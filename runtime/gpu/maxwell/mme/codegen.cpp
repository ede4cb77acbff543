#include "runtime/gpu/maxwell/mme/codegen.h"

#include <fmt/format.h>

#include <map>
#include <set>

#include "runtime/gpu/maxwell/mme/isa.h"
#include "runtime/gpu/maxwell/mme/program.h"

namespace kiln::maxwell::mme {

namespace {

class Generator {
public:
  explicit Generator(std::span<const uint32_t> code) : code_(code) {}

  std::optional<std::string> run(const std::string& name, std::string* why) {
    const int64_t size = static_cast<int64_t>(code_.size());
    for (int64_t i = 0; i < size; ++i) {
      const Instruction in{code_[i]};
      if (in.op() != Op::branch || !in.op_valid()) continue;
      const int64_t target = i + in.immediate();
      // A target outside the macro (or its last word, which only runs as the exit's delay slot) would continue in
      // code the function does not hold.
      if (target < 0 || target >= size - 1) {
        if (why) *why = fmt::format("instruction {} branches to {}, outside the macro's {} words", i, target, size);
        return std::nullopt;
      }
      targets_.insert(target);
    }
    out_ += fmt::format("void {}(kiln::maxwell::mme::MacroContext& ctx) {{\n", name);
    out_ += "  using namespace kiln::maxwell::mme;\n";
    out_ += "  [[maybe_unused]] bool carry = false;\n  const uint32_t r1_initial = ctx.fetch();\n";
    out_ += "  [[maybe_unused]] uint32_t r1 = r1_initial, r2 = 0, r3 = 0, r4 = 0, r5 = 0, r6 = 0, r7 = 0;\n";
    // The last word only runs as the final exit's delay slot (emitted there).
    for (int64_t i = 0; i + 1 < size; ++i) instruction(i);
    out_ += "}\n";
    return out_;
  }

private:
  static std::string reg(uint32_t index) { return index == 0 ? "0u" : fmt::format("r{}", index); }
  static std::string set(uint32_t index, const std::string& value) {
    return index == 0 ? fmt::format("(void){};", value) : fmt::format("r{} = {};", index, value);
  }

  // The statements of a non-branch instruction.
  std::string body(int64_t i) const {
    const Instruction in{code_[i]};
    if (!in.op_valid()) return fmt::format("ctx.fail({}, \"invalid MME operation\");", i);
    const std::string a = reg(in.src_a()), b = reg(in.src_b());
    std::string value;
    switch (in.op()) {
    case Op::alu:
      if (!in.alu_op_valid()) return fmt::format("ctx.fail({}, \"reserved ALU operation\");", i);
      value = fmt::format("alu(AluOp({}), {}, {}, carry)", static_cast<uint32_t>(in.alu_op()), a, b);
      break;
    case Op::add_immediate: value = fmt::format("{} + {}u", a, static_cast<uint32_t>(in.immediate())); break;
    case Op::merge:
      value = fmt::format("merge({}, {}, {}, {}, {})", a, b, in.bf_src_bit(), in.bf_size(), in.bf_dst_bit());
      break;
    case Op::extract_shift_immediate:
      value = fmt::format("extract_shift({}, {}, {}, {})", b, a, in.bf_size(), in.bf_dst_bit());
      break;
    case Op::extract_shift_register:
      value = fmt::format("extract_shift({}, {}, {}, {})", b, in.bf_src_bit(), in.bf_size(), a);
      break;
    case Op::read_state: value = fmt::format("ctx.read_state({} + {}u)", a, static_cast<uint32_t>(in.immediate())); break;
    default: return fmt::format("ctx.fail({}, \"invalid MME operation\");", i);
    }
    std::string s = fmt::format("{{ [[maybe_unused]] const uint32_t v = {}; ", value);
    const uint32_t d = in.dst();
    switch (in.assign()) {
    case Assign::fetch: s += set(d, "ctx.fetch()"); break;
    case Assign::move: s += set(d, "v"); break;
    case Assign::move_set_method: s += set(d, "v") + " ctx.set_method(v);"; break;
    case Assign::fetch_send: s += set(d, "ctx.fetch()") + " ctx.send(v);"; break;
    case Assign::move_send: s += set(d, "v") + " ctx.send(v);"; break;
    case Assign::fetch_set_method: s += set(d, "ctx.fetch()") + " ctx.set_method(v);"; break;
    case Assign::move_set_method_fetch_send: s += set(d, "v") + " ctx.set_method(v); ctx.send(ctx.fetch());"; break;
    case Assign::move_set_method_send_high: s += set(d, "v") + " ctx.set_method(v); ctx.send((v >> 12) & 0x3fu);"; break;
    }
    return s + " }";
  }

  // An instruction run as a delay slot: its exit flag is ignored, and a branch there is an error.
  std::string delay_slot(int64_t i) const {
    const Instruction in{code_[i]};
    if (in.op_valid() && in.op() == Op::branch) return fmt::format("ctx.fail({}, \"branch in a delay slot\");", i);
    return body(i);
  }

  void instruction(int64_t i) {
    const Instruction in{code_[i]};
    if (targets_.count(i)) out_ += fmt::format("L{}:\n", i);
    out_ += fmt::format("  // {}\n", disassemble(in));
    if (in.op_valid() && in.op() == Op::branch) {
      const int64_t target = i + in.immediate();
      out_ += fmt::format("  if (({} == 0) != {}) {{\n", reg(in.src_a()), in.branch_not_zero() ? "true" : "false");
      out_ += fmt::format("    if (!ctx.take_branch()) ctx.fail({}, \"macro never ends (branch budget spent)\");\n", i);
      if (!in.branch_no_delay()) out_ += fmt::format("    {}\n", delay_slot(i + 1));
      out_ += fmt::format("    goto L{};\n  }}\n", target);
      if (in.exit()) out_ += fmt::format("  {}\n  return;\n", delay_slot(i + 1));
      return;
    }
    out_ += fmt::format("  {}\n", body(i));
    if (in.exit()) out_ += fmt::format("  {}\n  return;\n", delay_slot(i + 1));
  }

  std::span<const uint32_t> code_;
  std::set<int64_t> targets_;
  std::string out_;
};

} // namespace

std::optional<std::string> compile_macro(std::span<const uint32_t> code, const std::string& name, std::string* why) {
  const auto length = macro_length(code, 0);
  if (!length || *length != code.size()) {
    if (why) *why = "the code is not exactly one macro (no final exit and delay slot)";
    return std::nullopt;
  }
  return Generator(code).run(name, why);
}

std::string compile_macro_file(const std::vector<std::vector<uint32_t>>& macros) {
  std::map<uint64_t, const std::vector<uint32_t>*> unique;
  for (const auto& macro : macros) unique.emplace(macro_hash(macro), &macro);
  std::string out = "// Generated by kiln from captured MME macros; do not edit.\n"
                    "#include \"runtime/gpu/maxwell/mme/isa.h\"\n"
                    "#include \"runtime/gpu/maxwell/mme/macro_registry.h\"\n\nnamespace {\n\n";
  std::string registrations;
  for (const auto& [hash, macro] : unique) {
    const std::string name = fmt::format("macro_{:016x}", hash);
    std::string why;
    const auto function = compile_macro(*macro, name, &why);
    if (!function) {
      out += fmt::format("// macro {:016x} ({} words) stays interpreted: {}\n\n", hash, macro->size(), why);
      continue;
    }
    out += *function + "\n";
    registrations += fmt::format("const kiln::maxwell::MacroRegistration register_{}(0x{:016x}ull, {});\n", name,
                                 hash, name);
  }
  return out + registrations + "\n} // namespace\n";
}

} // namespace kiln::maxwell::mme
