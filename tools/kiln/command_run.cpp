// `kiln run OUT [-- ARGS...]`: starts the program `kiln build` made in OUT, in a window unless --headless; the
// host options (runtime/host/host_options.h, docs/host.md) are handed to it, the title's own arguments follow.
#include <fmt/format.h>
#include <unistd.h>

#include <filesystem>

#include "runtime/base/error.h"
#include "tools/kiln/command_registry.h"

namespace {

void setup_run_command(CLI::App& root) {
  static std::string out, frames, capture, present_mode, scaling, input, scale;
  static std::vector<std::string> arguments;
  static bool headless = false, fullscreen = false, unthrottled = false, hold = false, mute = false;
  auto* run = root.add_subcommand("run", "play a built title: OUT/build/program in a window (or --headless)");
  run->add_option("out", out, "the folder `kiln recompile`/`kiln port` wrote (holds build/program)")->required();
  run->add_option("arguments", arguments, "the title's own arguments (after --)");
  run->add_flag("--headless", headless, "no window: frames only to the title's files and --capture");
  run->add_flag("--fullscreen", fullscreen, "a fullscreen window (F11 or Alt+Return toggles)");
  run->add_option("--frames", frames, "stop after N frames");
  run->add_option("--capture", capture, "write every presented frame as DIR/frame_N.png");
  run->add_option("--present-mode", present_mode, "fifo (default), mailbox or immediate");
  run->add_option("--scaling", scaling, "aspect (default), integer or stretch");
  run->add_option("--scale", scale, "the window opens at N times the frame size (default 4)");
  run->add_option("--input", input, "a kiln.toml whose [input] table remaps the pad");
  run->add_flag("--unthrottled", unthrottled, "do not wait for the console's frame rate");
  run->add_flag("--hold", hold, "keep the window and its last frame until it is closed");
  run->add_flag("--mute", mute, "no audio");
  run->callback([] {
    const std::filesystem::path program = std::filesystem::path(out) / "build" / "program";
    if (!std::filesystem::is_regular_file(program))
      throw kiln::Error(kiln::in_file(program.string()), fmt::format("no built program here: run `kiln build {}` (or `kiln port`) first", out));
    std::vector<std::string> command{program.string()};
    command.insert(command.end(), arguments.begin(), arguments.end());
    command.push_back(headless ? "--headless" : "--window");
    const auto pass = [&](const char* option, const std::string& value) {
      if (!value.empty()) command.insert(command.end(), {option, value});
    };
    pass("--frames", frames);
    pass("--capture", capture);
    pass("--present-mode", present_mode);
    pass("--scaling", scaling);
    pass("--scale", scale);
    pass("--input", input);
    for (const auto& [set, option] : {std::pair{fullscreen, "--fullscreen"}, {unthrottled, "--unthrottled"}, {hold, "--hold"}, {mute, "--mute"}})
      if (set) command.push_back(option);
    std::vector<char*> argv;
    for (std::string& argument : command) argv.push_back(argument.data());
    argv.push_back(nullptr);
    std::fflush(stdout);
    execv(argv[0], argv.data());
    throw kiln::Error(kiln::in_file(program.string()), kiln::with_errno("cannot start the program"));
  });
}

} // namespace

KILN_REGISTER_COMMAND("run", setup_run_command);
