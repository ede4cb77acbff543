// `kiln discover apply REPORT...`: the discovery loop's last step. Guest addresses a run reached without
// compiled code (the fallback interpreter logs them to $KILN_DISCOVERY_LOG as [[reached]] entries) become
// [[functions]] entries in the title's kiln.toml, so the next build compiles them natively.
#include <fmt/format.h>

#include <filesystem>
#include <set>

#include "recompiler/config/title_config.h"
#include "recompiler/config/toml_fields.h"
#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "tools/kiln/command_registry.h"

namespace {

std::set<uint64_t> reached_addresses(const std::string& report) {
  const toml::table root = kiln::config::parse_toml_file(report);
  const kiln::config::TableFields fields(root, report, "discovery report",
                                         {"reached", "unresolved_branch", "jump_table", "undecodable", "untranslated", "unresolved_import"});
  std::set<uint64_t> out;
  for (const toml::table* entry : fields.tables("reached")) out.insert(kiln::config::TableFields(*entry, report, "[[reached]] entry", {"address"}).integer("address"));
  // A recompile-time report has nothing to apply automatically: say what it holds for the porter.
  const size_t branches = fields.tables("unresolved_branch").size(), tables = fields.tables("jump_table").size(),
               undecodable = fields.tables("undecodable").size(), imports = fields.tables("unresolved_import").size();
  if (branches + tables + undecodable + imports)
    fmt::print("{}: {} unresolved indirect branch(es), {} jump table(s) to describe with [[jump_tables]], {} undecodable word(s), "
               "{} unresolved import(s) (for the porter; not applied)\n", report, branches, tables, undecodable, imports);
  return out;
}

void setup_discover_commands(CLI::App& root) {
  CLI::App& discover = kiln::cli::command_group(root, "discover", "the discovery loop: what a run reached that was not recompiled");
  static std::vector<std::string> reports;
  static std::string config_file;
  auto* apply = discover.add_subcommand("apply", "add the guest addresses a run reached in the fallback interpreter to kiln.toml as [[functions]]");
  apply->add_option("reports", reports, "run-time logs ($KILN_DISCOVERY_LOG) or discovery reports")->required();
  apply->add_option("--config", config_file, "the title's kiln.toml to extend")->required();
  apply->callback([] {
    const kiln::config::TitleConfig config = kiln::config::load_title_config(config_file);
    std::set<uint64_t> known, ignored;
    for (const auto& f : config.changes.functions) known.insert(f.address);
    for (const auto& i : config.changes.ignore) ignored.insert(i.address);
    std::set<uint64_t> added;
    for (const std::string& report : reports)
      for (uint64_t address : reached_addresses(report)) {
        if (ignored.count(address)) fmt::print("{:#x} is listed under [[ignore]]: left to the fallback interpreter\n", address);
        else if (!known.count(address)) added.insert(address);
      }
    if (added.empty()) return fmt::print("{}: nothing new (every reached address is already listed)\n", config_file);
    const std::vector<uint8_t> old = kiln::read_file(config_file, kiln::input::text);
    std::string text(old.begin(), old.end());
    if (!text.empty() && text.back() != '\n') text += '\n';
    for (uint64_t address : added) {
      text += fmt::format("\n[[functions]] # reached at run time through the fallback interpreter (kiln discover apply)\naddress = {:#x}\n", address);
      fmt::print("added function {:#x}\n", address);
    }
    kiln::write_file_if_changed(config_file, text);
    // The result must still be a valid configuration.
    (void)kiln::config::load_title_config(config_file);
    fmt::print("{}: {} function(s) added; rebuild to compile them natively\n", config_file, added.size());
  });
}

} // namespace

KILN_REGISTER_COMMAND("discover", setup_discover_commands);
