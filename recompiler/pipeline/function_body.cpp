#include "recompiler/pipeline/function_body.h"

#include <fmt/format.h>

#include <vector>

namespace kiln::pipeline {

std::string host_function_name(uint64_t address) { return fmt::format("f_{:08x}", address); }

FunctionBody::FunctionBody(const DiscoveredFunctions& found, const Function& function) : found_(found), function_(function) {
  const CodeView& code = found.code();
  std::vector<uint64_t> work{function.start};
  labels_.insert(function.start);
  auto reach = [&](uint64_t a, bool label) {
    if (!inside(a)) return;
    if (label) labels_.insert(a);
    if (!reached_.count(a)) work.push_back(a);
  };
  while (!work.empty()) {
    const uint64_t a = work.back();
    work.pop_back();
    if (!inside(a) || !reached_.insert(a).second) continue;
    if (!code.decoded(a)) continue;
    const Transfer t = code.transfer(a);
    if (!t.is_transfer()) {
      reach(a + 4, false);
      continue;
    }
    const uint64_t after = a + (t.delay_slot ? 8 : 4); // where control comes back or falls through
    if (t.flow == Flow::jump) reach(t.target, true);
    if (t.flow == Flow::jump_register)
      if (const auto table = found.jump_tables().find(a); table != found.jump_tables().end())
        for (uint64_t target : table->second.targets) reach(target, true);
    const bool falls_through = t.flow == Flow::call || t.flow == Flow::call_register || t.conditional;
    if (falls_through) reach(after, true); // a label: a delay slot may sit between
  }
}

std::string FunctionBody::go_to(uint64_t target) const {
  return inside(target) && is_reached(target) ? fmt::format("goto L_{:08x};", target) : leave_for(target);
}

std::string FunctionBody::leave_for(uint64_t target) const {
  if (found_.is_compiled(target))
    return fmt::format("{{ c.pc = {:#010x}u; {}(m); return; }}", target, host_function_name(target));
  return fmt::format("{{ c.pc = {:#010x}u; kiln_platform::call_guest(m, {:#010x}u); return; }}", target, target);
}

std::string FunctionBody::call(uint64_t target, uint64_t call_address, uint64_t return_address) const {
  const std::string callee = found_.is_compiled(target) ? fmt::format("{}(m)", host_function_name(target))
                                                               : fmt::format("kiln_platform::call_guest(m, {:#010x}u)", target);
  return fmt::format("c.pc = {:#010x}u; {}; {}", target, callee, check_return(call_address, return_address));
}

std::string FunctionBody::check_return(uint64_t call_address, uint64_t return_address) const {
  return fmt::format("if (c.pc != {:#010x}u) [[unlikely]] {{ kiln_platform::returned_elsewhere(m, {:#010x}u, {:#010x}u, {:#010x}u, "
                     "entry_link, entry_sp); return; }}",
                     return_address, call_address, function_.start, function_.end);
}

std::string FunctionBody::entry_state(std::string_view link, std::string_view stack_pointer) {
  return fmt::format("  const uint32_t entry_link = {}, entry_sp = {};\n", link, stack_pointer);
}

std::string FunctionBody::fall_out(uint64_t next) const {
  if (inside(next)) return ""; // continues there, or nothing reaches it (after a call that never returns)
  return "  " + leave_for(next) + "\n";
}

std::string write_function_files(const DiscoveredFunctions& found, std::string_view banner, std::string_view includes,
                                 std::string_view platform, const std::function<size_t(const Function&, std::string&)>& write_one,
                                 size_t instructions_per_file, ProjectFiles& files, RecompileSummary& summary) {
  const std::vector<Function> compiled = found.compiled_functions();
  summary.functions = compiled.size();
  summary.ignored_functions = found.functions().size() - compiled.size();
  summary.jump_tables = found.jump_tables().size();
  summary.unresolved_indirect_branches.assign(found.unresolved_jumps().begin(), found.unresolved_jumps().end());
  summary.constant_jumps = found.constant_jumps().size();

  std::string header = fmt::format("{}#pragma once\n{}\nnamespace kiln_platform = {};\n\n", banner, includes, platform);
  for (const Function& f : compiled) header += fmt::format("void {}({}::Machine& m);\n", host_function_name(f.start), platform);
  files.write("functions.h", header);

  FunctionSources sources(files, std::string(banner) + "#include \"functions.h\"\n\n", instructions_per_file);
  for (const Function& f : compiled) {
    const size_t n = write_one(f, sources.body(f.start));
    summary.instructions += n;
    sources.added(f.start, n);
  }
  sources.finish();
  files.remove_stale_sources({"functions_"});

  std::string table = fmt::format("{}#include \"functions.h\"\n\nnamespace {{\nconst {}::FunctionEntry entries[] = {{\n", banner, platform);
  for (const Function& f : compiled) table += fmt::format("  {{{:#010x}u, {}}},\n", f.start, host_function_name(f.start));
  table += "};\n";
  return table;
}

std::string write_opcode_table(uint64_t start, uint64_t end, const std::function<uint16_t(uint64_t)>& opcode_of, ProjectFiles& files) {
  std::vector<uint8_t> bytes;
  bytes.reserve((end - start) / 2);
  for (uint64_t a = start; a < end; a += 4) {
    const uint16_t op = opcode_of(a);
    bytes.push_back(static_cast<uint8_t>(op));
    bytes.push_back(static_cast<uint8_t>(op >> 8));
  }
  files.write("opcodes.bin", std::span<const uint8_t>(bytes));
  return ".balign 16\n.global kiln_guest_opcodes\n.global kiln_guest_opcodes_end\nkiln_guest_opcodes:\n.incbin \"opcodes.bin\"\n"
         "kiln_guest_opcodes_end:\n";
}

std::string opcode_table_declaration() { return "extern \"C\" const unsigned char kiln_guest_opcodes[], kiln_guest_opcodes_end[];\n"; }

std::string opcode_table_expression(std::string_view type, uint64_t base) {
  return fmt::format("{}{{{:#010x}u, std::span<const uint16_t>(reinterpret_cast<const uint16_t*>(kiln_guest_opcodes), "
                     "static_cast<size_t>(kiln_guest_opcodes_end - kiln_guest_opcodes) / 2)}}",
                     type, base);
}

} // namespace kiln::pipeline
