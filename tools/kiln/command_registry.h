#pragma once
// Subcommands register themselves here from their own files; main() builds the CLI from the list.
#include <CLI/CLI.hpp>

#include <functional>
#include <string>
#include <vector>

namespace kiln::cli {

using CommandSetup = void (*)(CLI::App& root);

struct CommandRegistration {
  CommandRegistration(const char* name, CommandSetup setup);
};

struct RegisteredCommand {
  std::string name;
  CommandSetup setup;
};

/// All registrations, sorted by name (so --help lists them in a stable order).
std::vector<RegisteredCommand> registered_commands();

/// The subcommand group `name` of `root`, created with `description` if it does not exist yet,
/// so several files can add commands under one group (e.g. `kiln gpu ...`).
CLI::App& command_group(CLI::App& root, const std::string& name, const std::string& description);

} // namespace kiln::cli

#define KILN_REGISTER_COMMAND(name, setup) \
  static const ::kiln::cli::CommandRegistration kiln_registration_##setup(name, setup)
