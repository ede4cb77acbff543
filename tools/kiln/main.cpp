// kiln: the one command-line tool. Subcommands live in command_*.cpp and register themselves.
#include <cstdio>

#include "runtime/base/error.h"
#include "runtime/base/log.h"
#include "tools/kiln/command_registry.h"

int main(int argc, char** argv) {
  CLI::App app("kiln: static recompilation of console executables and GPU programs into native C++ and SPIR-V",
               "kiln");
  app.set_version_flag("--version", "kiln 0.1.0");
  bool verbose = false;
  bool quiet = false;
  app.add_flag("-v,--verbose", verbose, "print what each step does");
  app.add_flag("-q,--quiet", quiet, "print only warnings and errors");
  app.require_subcommand(1);
  app.fallthrough();
  app.parse_complete_callback([&] {
    if (verbose) kiln::log::set_level(kiln::log::Level::verbose);
    if (quiet) kiln::log::set_level(kiln::log::Level::warning);
  });
  for (const auto& command : kiln::cli::registered_commands()) command.setup(app);

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e);
  } catch (const kiln::Error& e) {
    kiln::log::error("{}", e.what());
    return 1;
  } catch (const std::exception& e) {
    kiln::log::error("internal error: {}", e.what());
    return 3;
  }
  return 0;
}
