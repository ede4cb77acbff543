#include "recompiler/emit/cpp_emitter.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <string_view>
#include <vector>

#include "recompiler/analysis/dirty_registers.h"
#include "recompiler/emit/fallback_steps.h"
#include "recompiler/emit/generated_project.h"
#include "recompiler/emit/porter_glue.h"
#include "recompiler/emit/cpp_text.h"
#include "recompiler/emit/registers.h"
#include "recompiler/pipeline/project_files.h"
#include "recompiler/emit/landing_pads.h"
#include "recompiler/isa/aarch64/semantics/semantics.h"
#include "runtime/base/file_writer.h"
#include "runtime/base/hash.h"

namespace kiln::emit {
namespace {

using analysis::Function;
using analysis::Program;
using a64::Instruction;
using a64::RegisterMask, a64::flags_bit, a64::all_registers;

std::string host_name(uint64_t start) { return fmt::format("g_{:x}", start); }

/// Which general and vector registers a function touches: those become locals, spilled around calls.
std::set<int> used_registers(const Program& program, const Function& f) {
  std::set<int> used;
  for (uint64_t a = f.start; a < f.end; a += 4) add_used_registers(*program.instruction(a), used);
  return used;
}

/// Registers a call leaves unchanged under the AAPCS64: x19-x28, the frame pointer x29 and sp. Every function
/// that returns to its caller preserves them (compiled code and glibc's assembly alike), so after a call the
/// caller keeps its locals of these and reloads only the rest. The full spill before the call stays: callees
/// such as setjmp and the unwinder read the callee-saved values, and functions save them into their frames.
/// Vector registers are all reloaded (the AAPCS64 preserves only the low halves of v8-v15).
bool preserved_by_call(int r) { return (r >= 19 && r <= 29) || r == 31; }

/// Where other code may enter `f` besides its start: the analysis's secondary entries and the landing pads
/// inside it (the frame that resumes at a landing pad may be another function's, such as the hot part of a
/// function whose pads GCC placed in its .cold part).
std::set<uint64_t> entry_points(const Function& f, const std::set<uint64_t>& landing_pads) {
  std::set<uint64_t> entries = f.secondary_entries;
  for (auto it = landing_pads.lower_bound(f.start + 1); it != landing_pads.end() && *it < f.end; ++it) entries.insert(*it);
  return entries;
}

/// Functions that return twice: longjmp resumes at the return sites of calls to them.
bool returns_twice(const Function* f) {
  if (!f) return false;
  for (const char* name : {"setjmp", "_setjmp", "__sigsetjmp", "sigsetjmp", "__setjmp", "getcontext", "__getcontext", "vfork", "__vfork"})
    if (f->name == name) return true;
  return false;
}

/// Where a longjmp resumes `f`: the return sites of its calls to functions that return twice (of every call when
/// the program has no symbols to name them). Its landing pads are the other places a non-local jump continues at.
std::set<uint64_t> resume_sites(const Program& program, const Function& f) {
  std::set<uint64_t> sites;
  const bool unnamed = program.elf().symbols().empty();
  for (uint64_t a = f.start; a + 4 < f.end; a += 4) {
    const a64::FlowInfo flow = a64::control_flow(*program.instruction(a));
    if ((flow.kind == a64::ControlFlow::call && (unnamed || returns_twice(program.function_at(flow.target)))) ||
        (flow.kind == a64::ControlFlow::indirect_call && unnamed))
      sites.insert(a + 4);
  }
  return sites;
}

class FunctionWriter final : public a64::EmitTarget {
public:
  FunctionWriter(const Program& program, const Function& function, const Customization& custom, std::string& out,
                 std::vector<UntranslatedInstruction>& untranslated, const std::set<uint64_t>& landing_pads)
      : program_(program), function_(function), custom_(custom), out_(out), untranslated_(untranslated), landing_pads_(landing_pads) {}

  void write() {
    if (const auto stub = custom_.stubs.find(function_.start); stub != custom_.stubs.end()) return write_stub(stub->second);
    collect_labels();
    function_begin_ = out_.size();
    const std::set<int> used = used_registers(program_, function_);
    std::string reload, reload_after_call;
    for (int r : used) {
      const std::string local = register_local(r);
      const std::string slot = register_slot(r);
      reload += fmt::format("{} = {}; ", local, slot);
      if (!preserved_by_call(r)) reload_after_call += fmt::format("{} = {}; ", local, slot);
    }
    reload += "n = c->n; z = c->z; cf = c->c; vf = c->v;";
    reload_after_call += "n = c->n; z = c->z; cf = c->c; vf = c->v;";
    const std::string display = function_.name.empty() ? fmt::format("sub_{:x}", function_.start) : function_.name;
    out_ += fmt::format("// {} [{:#x}, {:#x})\nvoid {}(Cpu* c) {{\n  uint8_t* const m = kiln::rt::guest_base; (void)m;\n", display,
                        function_.start, function_.end, host_name(function_.start));
    for (int r : used) out_ += fmt::format("  {} {} = {};\n", register_type(r), register_local(r), register_slot(r));
    out_ += "  uint32_t n = c->n, z = c->z, cf = c->c, vf = c->v;\n";
    // Non-local returns (docs/recompiler.md): link_ is where the host caller continues when this host function
    // returns; a RET elsewhere unwinds host frames until the frame whose stack range holds the new sp resumes.
    out_ += "  const uint64_t link_ = c->link; (void)link_;\n";
    if (used.count(31)) out_ += "  const uint64_t entry_sp_ = sp; (void)entry_sp_;\n";
    out_ += fmt::format("  auto spill = [&]() __attribute__((always_inline)) {{ {} }};\n  auto reload = [&]() __attribute__((always_inline)) {{ {} }};\n  (void)reload;\n"
                        "  auto reload_after_call = [&]() __attribute__((always_inline)) {{ {} }};\n  (void)reload_after_call;\n",
                        spill_lambda_marker, reload, reload_after_call);
    if (const std::set<uint64_t> entries = entry_points(function_, landing_pads_); !entries.empty()) {
      out_ += "  switch (c->pc) {\n";
      for (uint64_t e : entries) out_ += fmt::format("  case {:#x}ull: goto L_{:x};\n", e, e);
      out_ += "  default: break;\n  }\n";
    }
    bool falls_through = true;
    for (uint64_t a = function_.start; a < function_.end; a += 4) {
      current_ = program_.instruction(a);
      if (labels_.count(a)) out_ += fmt::format(" L_{:x}:\n", a);
      call_hooks(a, false);
      const size_t code_begin = out_.size();
      if (!current_->decoded) {
        untranslated("undecodable word");
        falls_through = false;
        continue;
      }
      // An instruction without semantics becomes a trap that ends the program: it writes nothing later code sees.
      const bool translated = a64::emit_semantics(*current_, *this);
      if (!translated) untranslated("no semantics for " + std::string(current_->opcode));
      const a64::ControlFlow kind = a64::control_flow(*current_).kind;
      falls_through = !(kind == a64::ControlFlow::branch || kind == a64::ControlFlow::indirect_branch || kind == a64::ControlFlow::ret ||
                        kind == a64::ControlFlow::stop);
      ranges_.push_back({a, code_begin, out_.size(), translated ? current_->writes : 0});
      call_hooks(a, true);
    }
    if (falls_through) {
      out_ += "  // falls through into the next function\n";
      transfer(function_.end, true);
    }
    if (has_calls_) write_unwind(used.count(31) != 0);
    out_ += "}\n\n";
    finish_spills(used);
  }

  void line(std::string code) override { out_ += "  " + code + "\n"; }
  void branch(uint64_t target) override {
    if (inside(target)) line(fmt::format("goto L_{:x};", target));
    else transfer(target, true);
  }
  void branch_if(const std::string& condition, uint64_t target) override {
    if (inside(target)) line(fmt::format("if ({}) goto L_{:x};", condition, target));
    else {
      line(fmt::format("if ({}) {{", condition));
      transfer(target, true);
      line("}");
    }
  }
  void call(uint64_t target, uint64_t) override { transfer(target, false); }
  void branch_indirect(const std::string& target) override {
    const auto table = program_.jump_tables().find(current_->address);
    line(fmt::format("{{ const uint64_t target_ = {};", target));
    if (table != program_.jump_tables().end()) {
      std::set<uint64_t> seen;
      line("switch (target_) {");
      for (uint64_t t : table->second.targets)
        if (seen.insert(t).second) line(fmt::format("case {:#x}ull: goto L_{:x};", t, t));
      line("default: break;\n  }");
    }
    if (const auto slot = program_.slot_branches().find(current_->address); slot != program_.slot_branches().end()) {
      line(fmt::format("if (target_ == {:#x}ull) {{", slot->second));
      transfer(slot->second, true);
      line("}");
    }
    line("SPILL_DIRTY; kiln::rt::branch_guest(c, target_, link_); return; }");
  }
  void call_indirect(const std::string& target, uint64_t) override {
    // A cache per call site: a callback called in a loop (qsort's comparator) skips the table search.
    line(fmt::format("{{ static kiln::rt::CallSiteCache cache_; SPILL_DIRTY; kiln::rt::call_guest_cached(c, {}, {:#x}ull, cache_); {} reload_after_call(); }}",
                     target, current_->address + 4, unwind_check()));
  }
  void return_to(const std::string& target) override {
    line(fmt::format("SPILL_DIRTY; if ({} != link_) [[unlikely]] c->unwind_target = {}; return;", target, target));
  }
  void supervisor_call() override { line(fmt::format("SPILL_DIRTY; kiln::rt::supervisor_call(c, {:#x}ull); reload();", current_->address)); }
  void untranslated(const std::string& reason) override {
    const std::string display = function_.name.empty() ? fmt::format("sub_{:x}", function_.start) : function_.name;
    untranslated_.push_back({current_->address, current_->encoding, current_->text, display, !current_->decoded});
    line(fmt::format("spill(); kiln::rt::trap_untranslated(c, {:#x}ull, {:#x}u, \"{}\", \"{}: {}\");", current_->address, current_->encoding,
                     escape_string_literal(display), escape_string_literal(reason), escape_string_literal(current_->text)));
  }

private:
  bool inside(uint64_t target) const { return target >= function_.start && target < function_.end; }

  /// A stubbed function returns at once, with x0 set when the stub gives a value.
  void write_stub(const std::optional<uint64_t>& value) {
    out_ += fmt::format("// {} [{:#x}, {:#x}): stubbed by the title configuration\nvoid {}(Cpu* c) {{\n", display_name(), function_.start, function_.end,
                        host_name(function_.start));
    out_ += value ? fmt::format("  c->x[0] = {:#x}ull;\n}}\n\n", *value) : "  (void)c;\n}\n\n";
  }

  std::string display_name() const { return function_.name.empty() ? fmt::format("sub_{:x}", function_.start) : function_.name; }

  /// The porter's hooks at `address` (before or after its instruction): the hook sees the spilled registers,
  /// and may go on, return from this function, or branch (to a listed target here, else as a tail call).
  void call_hooks(uint64_t address, bool after) {
    const auto [first, last] = custom_.hooks.equal_range(address);
    for (auto it = first; it != last; ++it) {
      if (it->second.after != after) continue;
      line(fmt::format("{{ spill(); const kiln::rt::HookResult hook_ = {}(c); reload();", it->second.function));
      line("  if (hook_.action == kiln::rt::HookResult::Action::return_to_caller) { spill(); return; }");
      line("  if (hook_.action == kiln::rt::HookResult::Action::branch) {");
      if (!it->second.targets.empty()) {
        line("    switch (hook_.target) {");
        for (uint64_t t : it->second.targets) line(fmt::format("    case {:#x}ull: goto L_{:x};", t, t));
        line("    default: break;\n    }");
      }
      line("    spill(); kiln::rt::branch_guest(c, hook_.target, link_); return;\n  }\n  }");
    }
  }

  /// The host function that runs guest function `start` when called: the porter's replacement, if any.
  std::string callee_name(uint64_t start) const {
    const auto replacement = custom_.replacements.find(start);
    return replacement != custom_.replacements.end() ? replacement->second : host_name(start);
  }

  /// Control leaves this function for guest `target`: as a call (then continue) or a tail call (then return).
  void transfer(uint64_t target, bool tail) {
    const Function* owner = program_.function_containing(target);
    std::string invoke;
    if (owner && custom_.ignored.count(owner->start)) {
      invoke = fmt::format("kiln::rt::call_guest(c, {:#x}ull);", target); // left out: the fallback interpreter runs it
    } else if (owner && owner->start == target && custom_.replacements.count(target)) {
      invoke = fmt::format("{}(c);", callee_name(target));
    } else if (owner && (owner->start == target || entry_points(*owner, landing_pads_).count(target))) {
      invoke = entry_points(*owner, landing_pads_).empty() ? fmt::format("{}(c);", host_name(owner->start))
                                                : fmt::format("c->pc = {:#x}ull; {}(c);", target, host_name(owner->start));
    } else {
      invoke = fmt::format("kiln::rt::call_guest(c, {:#x}ull);", target);
    }
    if (tail) line(fmt::format("SPILL_DIRTY; c->link = link_; {} return;", invoke));
    else line(fmt::format("SPILL_DIRTY; c->link = {:#x}ull; {} {} reload_after_call();", current_->address + 4, invoke, unwind_check()));
  }

  void collect_labels() {
    for (uint64_t a = function_.start; a < function_.end; a += 4) {
      const a64::FlowInfo flow = a64::control_flow(*program_.instruction(a));
      if ((flow.kind == a64::ControlFlow::branch || flow.kind == a64::ControlFlow::conditional_branch) && inside(flow.target)) labels_.insert(flow.target);
    }
    for (const auto& [branch, table] : program_.jump_tables())
      if (inside(branch)) labels_.insert(table.targets.begin(), table.targets.end());
    labels_.insert(function_.secondary_entries.begin(), function_.secondary_entries.end());
    // Where a non-local jump resumes this function: its landing pads, and the return sites of calls to functions
    // that return twice (of every call when the program has no symbols to name them).
    for (auto it = landing_pads_.lower_bound(function_.start); it != landing_pads_.end() && *it < function_.end; ++it) resume_labels_.insert(*it);
    const std::set<uint64_t> sites = resume_sites(program_, function_);
    resume_labels_.insert(sites.begin(), sites.end());
    labels_.insert(resume_labels_.begin(), resume_labels_.end());
    for (const auto& [address, hook] : custom_.hooks)
      if (inside(address)) labels_.insert(hook.targets.begin(), hook.targets.end());
  }

  const Program& program_;
  const Function& function_;
  const Customization& custom_;
  std::string& out_;
  std::vector<UntranslatedInstruction>& untranslated_;
  const Instruction* current_ = nullptr;
  std::set<uint64_t> labels_;
  const std::set<uint64_t>& landing_pads_;
  std::set<uint64_t> resume_labels_; ///< where a non-local jump into this function's frame continues
  bool has_calls_ = false;
  struct CodeRange { uint64_t address; size_t begin, end; RegisterMask writes; }; ///< one instruction's C++ inside out_
  std::vector<CodeRange> ranges_;
  size_t function_begin_ = 0;
  static constexpr std::string_view spill_marker = "SPILL_DIRTY;";
  static constexpr std::string_view spill_lambda_marker = "SPILL_LAMBDA;";

  /// Stores of the registers in `mask` (vector registers always: their writes take many forms).
  static std::string stores(const std::set<int>& used, RegisterMask mask) {
    std::string code;
    for (int r : used)
      if (r >= vector_base) code += fmt::format("c->v_regs[{}] = v{}; ", r - vector_base, r - vector_base);
      else if ((mask >> r) & 1) code += r == 31 ? "c->sp = sp; " : fmt::format("c->x[{}] = x{}; ", r, r);
    if (mask & flags_bit) code += "c->n = n; c->z = z; c->c = cf; c->v = vf; ";
    return code;
  }

  /// Replaces the markers inside [begin, end) only: a search that ran on past `begin` would rescan the file's
  /// text before this function for every instruction (quadratic in the file size).
  void replace_markers(size_t begin, size_t end, const std::string& code) {
    std::vector<size_t> found;
    const std::string_view range = std::string_view(out_).substr(begin, end - begin);
    for (size_t at = range.find(spill_marker); at != std::string_view::npos; at = range.find(spill_marker, at + spill_marker.size()))
      found.push_back(begin + at);
    for (auto at = found.rbegin(); at != found.rend(); ++at) out_.replace(*at, spill_marker.size(), code); // back to front: offsets stay valid
  }

  /// Each spill stores only the registers that may differ from Cpu there (analysis/dirty_registers.h); the spill lambda (traps,
  /// hooks) every register the function writes: the others always equal their Cpu slots.
  void finish_spills(const std::set<int>& used) {
    std::map<uint64_t, RegisterMask> writes;
    RegisterMask written = 0;
    for (const CodeRange& r : ranges_) {
      writes[r.address] = r.writes;
      written |= r.writes;
    }
    std::set<uint64_t> clean = entry_points(function_, landing_pads_);
    clean.insert(resume_labels_.begin(), resume_labels_.end());
    const std::map<uint64_t, RegisterMask> dirty = analysis::dirty_before(program_, function_, writes, clean);
    std::vector<RegisterMask> masks;
    for (const CodeRange& r : ranges_) {
      const auto d = dirty.find(r.address);
      masks.push_back((d != dirty.end() ? d->second : all_registers) | r.writes);
    }
    // From the end, so earlier offsets stay valid; code between instructions (the fall-through transfer) stores
    // everything the function writes.
    size_t limit = out_.size();
    for (size_t k = ranges_.size(); k-- > 0;) {
      replace_markers(ranges_[k].end, limit, stores(used, written));
      replace_markers(ranges_[k].begin, ranges_[k].end, stores(used, masks[k]));
      limit = ranges_[k].begin;
    }
    replace_markers(function_begin_, limit, stores(used, written));
    const size_t lambda = out_.find(spill_lambda_marker, function_begin_);
    out_.replace(lambda, spill_lambda_marker.size(), stores(used, written));
  }

  /// After a call: a non-local jump in progress goes to this function's resume code (write_unwind).
  std::string unwind_check() {
    has_calls_ = true;
    return "if (c->unwind_target) [[unlikely]] goto unwind_;";
  }

  /// A non-local jump reached one of this function's call sites. When its sp lies in this frame (between the
  /// current sp and the sp at entry; or equals the current sp, for frames that share their caller's, such as a
  /// .cold part), the frame resumes at the target: a label here, else an entry of another function (a landing
  /// pad in a .cold part) as a tail call. Otherwise the host frame returns and the frames above check.
  void write_unwind(bool has_sp) {
    out_ += " unwind_:\n";
    if (has_sp) {
      out_ += "  if (sp <= c->sp && (c->sp < entry_sp_ || c->sp == sp)) {\n";
      if (!resume_labels_.empty()) {
        out_ += "    switch (c->unwind_target) {\n";
        for (uint64_t t : resume_labels_) out_ += fmt::format("    case {:#x}ull: c->unwind_target = 0; reload(); goto L_{:x};\n", t, t);
        out_ += "    default: break;\n    }\n";
      }
      out_ += "    kiln::rt::resume_at_entry(c, link_);\n  }\n";
    }
    out_ += "  return;\n";
  }
};

constexpr const char* file_prelude =
    "// Generated by kiln recompile; do not edit.\n#include \"functions.h\"\n\nusing kiln::rt::Cpu;\nusing kiln::rt::V128;\n\n";

/// The runtime folder under runtime/platform/ and the run() a generated main() calls, per guest platform.
struct PlatformRuntime {
  const char* folder;
  const char* run;
};
PlatformRuntime platform_runtime(const std::string& platform) {
  if (platform == "switch") return {"switch", "kiln::hos::run"};
  return {"linux-user", "kiln::linux_user::run"};
}

std::string cmake_project(const EmitOptions& options) {
  return cmake_project_preamble("kiln_recompiled", options.source_root) + fmt::format(R"cmake(set(KILN_BINARY_DIR "{}" CACHE PATH "kiln build tree (prebuilt runtime libraries)")
# functions_*: compiled guest functions; fallback_*: the fallback interpreter's steps; porter_*: the title's C++.
file(GLOB generated_sources CONFIGURE_DEPENDS ${{CMAKE_CURRENT_SOURCE_DIR}}/functions_*.cpp ${{CMAKE_CURRENT_SOURCE_DIR}}/fallback_*.cpp
     ${{CMAKE_CURRENT_SOURCE_DIR}}/porter_*.cpp)
# The platform's runtime (target kiln_guest_runtime): which sources and libraries it takes is the platform's business.
include(${{KILN_SOURCE_DIR}}/runtime/platform/{}/guest_runtime.cmake)
add_executable(program main.cpp function_table.cpp guest_image.S ${{generated_sources}} ${{KILN_SOURCE_DIR}}/runtime/core/aarch64/fallback.cpp)
target_include_directories(program PRIVATE ${{CMAKE_CURRENT_SOURCE_DIR}})
# guest_image.S includes program.elf with .incbin, which the assembler's dependency scan does not see.
set_source_files_properties(guest_image.S PROPERTIES OBJECT_DEPENDS ${{CMAKE_CURRENT_SOURCE_DIR}}/program.elf)
# Generated code: jump labels are emitted for every branch target, some stay unused.
# -ffp-contract=off: AArch64 rounds FMUL and FADD separately, so the host must not fuse them (GNU modes fuse by default).
# -frounding-math: MSR FPCR changes the rounding mode at run time (runtime/core/aarch64/fp.h), so the host compiler must
# not fold or move floating-point operations as if it were always round-to-nearest.
target_compile_options(program PRIVATE ${{KILN_GENERATED_OPTIMIZATION}} -fno-strict-aliasing -fwrapv -ffp-contract=off -frounding-math -w)
# The fallback interpreter's steps (one function per instruction kiln could be asked to interpret) are the bulk
# of the host compile and run only off the compiled path: -O1 builds them in about two thirds of the time of -O2,
# and faster than -O0 or -Og too (measured on a 1.2 MB step file: 4.7 s, 5.5 s, 5.1 s), whatever the level.
file(GLOB fallback_sources CONFIGURE_DEPENDS ${{CMAKE_CURRENT_SOURCE_DIR}}/fallback_*.cpp)
set_source_files_properties(${{fallback_sources}} PROPERTIES COMPILE_OPTIONS -O1)
target_link_libraries(program PRIVATE kiln_guest_runtime pthread)
# AArch64 FMADD/FMLA are fused and emitted as std::fma, which is one instruction with the host's FMA and a slow
# exactly rounded libm routine without it; both round once, so results are identical. Use FMA when this machine has it.
option(KILN_HOST_FMA "compile with the host's fused multiply-add when its CPU has one" ON)
if(KILN_HOST_FMA)
  include(CheckCXXSourceRuns)
  set(CMAKE_REQUIRED_FLAGS -mfma)
  check_cxx_source_runs([=[
int main() {{
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  return __builtin_cpu_supports("fma") ? 0 : 1;
#else
  return 1;
#endif
}}
]=] KILN_HOST_CPU_HAS_FMA)
  unset(CMAKE_REQUIRED_FLAGS)
  if(KILN_HOST_CPU_HAS_FMA)
    target_compile_options(program PRIVATE -mfma)
  endif()
endif()
)cmake",
                     options.binary_root.generic_string(), platform_runtime(options.platform).folder);
}

} // namespace

EmitReport emit_project(const Program& program, const std::filesystem::path& elf_path, const EmitOptions& options) {
  EmitReport report;
  pipeline::ProjectFiles files(options.output);
  auto write = [&](const std::string& name, std::string_view text) { files.write(name, text); };
  const auto& functions = program.functions();
  report.functions = functions.size();
  const std::set<uint64_t> landing_pads = find_landing_pads(program.elf());

  const Customization& custom = options.customization;
  std::string header = "// Generated by kiln recompile; do not edit.\n#pragma once\n#include \"runtime/core/aarch64/ops.h\"\n#include \"runtime/core/aarch64/fp.h\"\n#include \"runtime/core/aarch64/hooks.h\"\n\n";
  header += "using kiln::rt::Cpu;\n";
  for (const Function& f : functions)
    if (!custom.ignored.count(f.start)) header += fmt::format("void {}(Cpu* c);\n", host_name(f.start));
  header += porter_declarations(custom);
  write("functions.h", header);

  pipeline::FunctionSources sources(files, file_prelude, options.instructions_per_file);
  for (const Function& f : functions) {
    if (custom.ignored.count(f.start)) continue;
    std::string& body = sources.body(f.start);
    body += fmt::format("// key {:016x}\n", function_key(program, f, custom));
    FunctionWriter(program, f, custom, body, report.untranslated, landing_pads).write();
    report.instructions += (f.end - f.start) / 4;
    sources.added(f.start, (f.end - f.start) / 4);
  }
  sources.finish();

  // The dispatch table: every entry address (primary and secondary, landing pads) to its host function, sorted.
  std::vector<std::pair<uint64_t, uint64_t>> entries;
  for (const Function& f : functions) {
    if (custom.ignored.count(f.start)) continue;
    entries.emplace_back(f.start, f.start);
    for (uint64_t e : entry_points(f, landing_pads)) entries.emplace_back(e, f.start);
  }
  std::sort(entries.begin(), entries.end());

  // Control can reach any instruction (a BLR or BR into another function's middle, a return address changed by
  // the guest), so the fallback interpreter has a step for every instruction of the executable sections except
  // the entries of compiled functions: there it goes back to compiled code. Steps where a longjmp resumes a
  // frame are marked, so that a BR there unwinds to that frame instead of running in the interpreter.
  std::vector<uint64_t> uncovered;
  for (const analysis::CodeRange& range : program.code_ranges()) {
    auto entry = std::lower_bound(entries.begin(), entries.end(), std::make_pair(range.start, uint64_t{0}));
    for (uint64_t a = range.start; a < range.end; a += 4) {
      while (entry != entries.end() && entry->first < a) ++entry;
      if (entry == entries.end() || entry->first != a) uncovered.push_back(a);
    }
  }
  std::set<uint64_t> resume_points;
  for (const Function& f : functions) {
    const std::set<uint64_t> sites = resume_sites(program, f);
    resume_points.insert(sites.begin(), sites.end());
  }
  const FallbackSteps steps = emit_fallback_steps(program, uncovered, resume_points);
  report.fallback_steps = steps.count;
  report.fallback_step_functions = steps.functions;
  for (size_t k = 0; k < steps.files.size(); ++k) write(fmt::format("fallback_{:03}.cpp", k), steps.files[k]);
  write("fallback_table.cpp", steps.table);

  // Porter sources (hooks, replacements) are copied in, so the project builds on its own (and on a compile farm).
  for (const auto& source : custom.sources)
    files.write("porter_" + source.filename().string(), std::span<const uint8_t>(read_file(source, kiln::input::text)));
  write("porter_glue.cpp", porter_glue(program, custom));
  files.remove_stale_sources({"functions_", "fallback_", "porter_"});

  const elf::ElfFile& elf = program.elf();
  std::string table = "// Generated by kiln recompile; do not edit.\n#include \"functions.h\"\n#include \"runtime/core/aarch64/dispatch.h\"\n\n";
  table += "namespace {\nconst kiln::rt::FunctionEntry entries[] = {\n";
  for (const auto& [address, start] : entries) {
    const auto replacement = custom.replacements.find(address);
    table += fmt::format("  {{{:#x}ull, {}}},\n", address, replacement != custom.replacements.end() ? replacement->second : host_name(start));
  }
  table += "};\nconst kiln::rt::SegmentInfo segments[] = {\n";
  for (const elf::Segment& s : elf.segments())
    table += fmt::format("  {{{:#x}ull, {:#x}ull, {:#x}ull, {:#x}ull, {}u}},\n", s.address, s.file_offset, s.file_size, s.memory_size, s.flags);
  table += "};\n} // namespace\n\nextern \"C\" const unsigned char kiln_guest_image[];\nextern \"C\" const unsigned char kiln_guest_image_end[];\n\n";
  const auto& tls = elf.tls();
  if (const auto& title = options.switch_title) {
    table += "namespace {\nconst char* const allowed_services[] = {";
    for (const std::string& service : title->allowed_services) table += fmt::format("\"{}\", ", escape_string_literal(service));
    table += "nullptr};\nconst uint64_t initializers[] = {";
    for (uint64_t f : title->initializers) table += fmt::format("{:#x}ull, ", f);
    table += fmt::format("0}};\nconst kiln::rt::SwitchTitle switch_title = {{{:#x}ull, {}u, {:#x}u, allowed_services, {}, initializers, {}}};\n}} // namespace\n\n",
                         title->program_id, title->main_thread_priority, title->main_thread_stack_size, title->allowed_services.size(),
                         title->initializers.size());
  }
  table += fmt::format(
      "extern const kiln::rt::ProgramInfo kiln_program;\nconst kiln::rt::ProgramInfo kiln_program = {{\n  entries, sizeof(entries) / sizeof(entries[0]),\n  segments, sizeof(segments) / sizeof(segments[0]),\n"
      "  kiln_guest_image, kiln_guest_image_end,\n  {:#x}ull, {:#x}ull, {}u, {}u, {:#x}ull, {},\n}};\n",
      elf.entry(), elf.program_headers_address(), elf.program_header_count(), elf.program_header_size(), tls ? tls->memory_size : 0,
      options.switch_title ? "&switch_title" : "nullptr");
  write("function_table.cpp", table);

  write("guest_image.S", ".section .rodata\n.balign 16\n.global kiln_guest_image\n.global kiln_guest_image_end\nkiln_guest_image:\n"
                         ".incbin \"program.elf\"\nkiln_guest_image_end:\n.section .note.GNU-stack,\"\",@progbits\n");
  // The image as recompiled (with the configuration's instruction patches applied), not the file on disk.
  (void)elf_path;
  files.write("program.elf", program.elf().bytes());
  const PlatformRuntime runtime = platform_runtime(options.platform);
  write("main.cpp", fmt::format("// Generated by kiln recompile; do not edit.\n#include \"runtime/core/aarch64/dispatch.h\"\n#include \"runtime/platform/{}/process.h\"\n\n"
                                "extern const kiln::rt::ProgramInfo kiln_program;\n\n"
                                "int main(int argc, char** argv, char** envp) {{ return {}(kiln_program, argc, argv, envp); }}\n",
                                runtime.folder, runtime.run));
  write("CMakeLists.txt", cmake_project(options));
  report.files_written = files.written();
  report.files_unchanged = files.unchanged();
  return report;
}

} // namespace kiln::emit
