#include "recompiler/pipeline/summary.h"

#include <fmt/format.h>

#include <algorithm>

namespace kiln::pipeline {

std::string describe(const RecompileSummary& s, const RecompileOptions& o) {
  const std::string constant_jumps = s.constant_jumps ? fmt::format("{} jumps to constant addresses, ", s.constant_jumps) : "";
  std::string out = fmt::format("recompiled {}: {} functions, {} instructions, {} jump tables, {}{} unresolved indirect branches, "
                                "{} untranslated instructions; {} files written, {} unchanged; {:.2f} s\n",
                                o.input.string(), s.functions, s.instructions, s.jump_tables, constant_jumps,
                                s.unresolved_indirect_branches.size(), s.untranslated.size(), s.files_written, s.files_unchanged, s.seconds);
  out += fmt::format("  platform: {}\n", s.platform);
  if (!s.config.empty()) out += fmt::format("  config: {}\n", s.config.string());
  if (s.ignored_functions) out += fmt::format("  ignored: {} functions run in the fallback interpreter\n", s.ignored_functions);
  for (const std::string& set : s.applied_patch_sets) out += fmt::format("  patch set applied: {}\n", set);
  if (s.has_fallback)
    out += fmt::format("  fallback interpreter: {} instructions (all but the entries of compiled functions) in {} steps; discovery report: {}\n",
                       s.fallback_steps, s.fallback_step_functions, s.discovery_report.string());
  else if (!s.discovery_report.empty())
    out += fmt::format("  discovery report: {}\n", s.discovery_report.string());
  const size_t shown = o.list_untranslated ? s.untranslated.size() : std::min<size_t>(s.untranslated.size(), 10);
  for (size_t i = 0; i < shown; ++i) {
    const UntranslatedInstruction& u = s.untranslated[i];
    out += fmt::format("  untranslated {:#x} {:08x} {} (in {})\n", u.address, u.encoding, u.text, u.function);
  }
  if (shown < s.untranslated.size())
    out += fmt::format("  ... {} more (--list-untranslated shows all; each stops the program if reached)\n", s.untranslated.size() - shown);
  return out;
}

} // namespace kiln::pipeline
