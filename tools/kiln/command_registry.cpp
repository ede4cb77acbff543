#include "tools/kiln/command_registry.h"

#include <algorithm>

namespace kiln::cli {
namespace {
std::vector<RegisteredCommand>& registry() {
  static std::vector<RegisteredCommand> commands; // function-local: safe from static initialisation order
  return commands;
}
} // namespace

CommandRegistration::CommandRegistration(const char* name, CommandSetup setup) {
  registry().push_back({name, setup});
}

std::vector<RegisteredCommand> registered_commands() {
  auto commands = registry();
  std::stable_sort(commands.begin(), commands.end(),
                   [](const RegisteredCommand& a, const RegisteredCommand& b) { return a.name < b.name; });
  return commands;
}

CLI::App& command_group(CLI::App& root, const std::string& name, const std::string& description) {
  for (CLI::App* existing : root.get_subcommands([](CLI::App*) { return true; })) {
    if (existing->get_name() == name) return *existing;
  }
  CLI::App* group = root.add_subcommand(name, description);
  group->require_subcommand(1);
  return *group;
}

} // namespace kiln::cli
