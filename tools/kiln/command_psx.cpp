// `kiln psx ...`: PlayStation tools.
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unordered_map>

#include "recompiler/isa/mips/encoding_table.h"
#include "recompiler/loaders/psxexe/psx_exe.h"
#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "runtime/base/log.h"
#include "runtime/base/png_image.h"
#include "runtime/gpu/psx/display.h"
#include "runtime/gpu/psx/gpu.h"
#include "runtime/gpu/psx/replay.h"
#include "runtime/core/mips/step.h"
#include "runtime/host/host_options.h"
#include "runtime/platform/psx/host_session.h"
#include "runtime/platform/psx/run.h"
#include "tools/kiln/command_registry.h"

namespace {

uint64_t interpreted_instructions = 0;

/// The reference the recompiled program is compared with: the same semantics one instruction at a time
/// (runtime/core/mips/step.h), decoded from RAM through kiln's encoding table, until PC reaches `stop`.
void interpret_until(kiln::psx::Machine& m, uint32_t stop) {
  kiln::psx::Bus bus{m};
  std::unordered_map<uint32_t, kiln::r3000::Opcode> decoded;
  while (m.cpu.pc != stop) {
    if (m.enter_hle(m.cpu.pc)) continue;
    const uint32_t pc = m.cpu.pc;
    if (pc & 3) throw kiln::Error(fmt::format("psx: instruction fetch from the unaligned address {:#010x}", pc));
    if (!m.direct(pc)) throw kiln::Error(fmt::format("psx: control reached {:#010x}, which is not RAM", pc));
    const uint32_t word = m.read32(pc);
    auto it = decoded.find(word);
    if (it == decoded.end()) {
      const kiln::mips::Encoding* row = kiln::mips::match_encoding(word, kiln::r3000::Variant::r3000);
      if (!row) throw kiln::Error(fmt::format("psx: unknown instruction {:08x} at {:#010x}", word, pc));
      it = decoded.emplace(word, row->opcode).first;
    }
    kiln::r3000::step(m.cpu, bus, it->second, word);
    ++interpreted_instructions;
    if (m.cpu.exception_taken) m.handle_exception(pc);
  }
}

void interpret(kiln::psx::Machine& m) {
  m.run_callback = [](kiln::psx::Machine& machine) { interpret_until(machine, kiln::psx::callback_return_address); };
  interpret_until(m, 0xFFFFFFFFu); // an unaligned address: runs until the program stops
}

kiln::psx::ProgramImage image_of(const kiln::psx::PsxExe& exe) {
  return kiln::psx::ProgramImage{exe.pc0, exe.gp0, exe.text_address, exe.bss_address, exe.bss_size,
                                 exe.has_stack() ? exe.initial_sp() : 0, exe.text};
}

/// A PS-X EXE around a flat binary (as `objcopy -O binary` writes it): header fields from psx-spx.
std::vector<uint8_t> make_exe(const std::vector<uint8_t>& text, uint32_t address, uint32_t entry, uint32_t stack) {
  const size_t padded = (text.size() + 0x7FF) & ~size_t{0x7FF};
  std::vector<uint8_t> exe(0x800 + padded, 0);
  auto put32 = [&](size_t at, uint32_t v) { for (int i = 0; i < 4; ++i) exe[at + i] = static_cast<uint8_t>(v >> (8 * i)); };
  const std::string_view magic = "PS-X EXE", region = "Sony Computer Entertainment Inc. for North America area";
  std::copy(magic.begin(), magic.end(), exe.begin());
  put32(0x10, entry);
  put32(0x18, address);
  put32(0x1C, static_cast<uint32_t>(padded));
  put32(0x30, stack);
  std::copy(region.begin(), region.end(), exe.begin() + 0x4C);
  std::copy(text.begin(), text.end(), exe.begin() + 0x800);
  return exe;
}

uint32_t parse_address(const std::string& text, const char* what) {
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text.c_str(), &end, 0);
  if (text.empty() || *end != 0 || v > 0xFFFFFFFFull) throw kiln::Error(fmt::format("{}: '{}' is not a 32-bit address", what, text));
  return static_cast<uint32_t>(v);
}

void setup_psx_commands(CLI::App& root) {
  CLI::App& psx = kiln::cli::command_group(root, "psx", "PlayStation: run programs, build PS-X EXEs, GPU replay");

  auto* run = psx.add_subcommand("run", "run a PS-X EXE in kiln's interpreter (the reference for recompiled programs)");
  static std::string run_exe;
  static kiln::psx::RunOptions run_options;
  run->add_option("EXE", run_exe, "PS-X EXE")->required();
  run->add_option("--frames", run_options.frames, "stop after N frames (VBLANKs)");
  run->add_option("--frame-prefix", run_options.frame_prefix, "write each frame's displayed area to PREFIX000.png ...");
  run->add_option("--vram", run_options.vram_out, "VRAM dump at the end (1 MiB)");
  run->add_option("--trace", run_options.trace_out, "one line per BIOS call and per frame");
  run->add_option("--state", run_options.state_out, "registers and RAM/VRAM hashes at the end");
  run->add_option("--audio", run_options.audio_out, "the SPU's output as a 44.1 kHz stereo WAV file");
  run->add_option("--pad-script", run_options.pad_script, "a controller on port 1 playing this script (docs/psx.md)");
  // The host's options (docs/host.md: --window, --fullscreen, --capture DIR, --mute ...) are the run's extras, read
  // by take_host_options (so they are not passed up to the root, whose global options must come first here).
  run->allow_extras();
  run->fallthrough(false);
  run->footer("Host options (docs/host.md):\n" + kiln::host::host_options_help());
  run->callback([run] {
    const kiln::psx::PsxExe exe = kiln::psx::load_psx_exe(run_exe);
    const std::string title = "kiln: " + std::filesystem::path(run_exe).filename().string();
    const int code = kiln::psx::run_with_host(image_of(exe), run_options, run->remaining(), title, interpret);
    kiln::log::verbose("psx: interpreted {} instructions", interpreted_instructions);
    std::fflush(stdout);
    if (code != 0) std::exit(code);
  });

  auto* compare = psx.add_subcommand(
      "compare", "run a recompiled program and the interpreter on the same EXE and report the first divergence");
  static std::string compare_exe, compare_program, compare_dir = "kiln-psx-compare";
  static unsigned compare_frames = 0;
  compare->add_option("EXE", compare_exe, "PS-X EXE")->required();
  compare->add_option("PROGRAM", compare_program, "the recompiled program built from it (OUT/build/program)")->required();
  compare->add_option("--frames", compare_frames, "stop both after N frames");
  compare->add_option("--dir", compare_dir, "folder for both runs' traces, states and output")->capture_default_str();
  compare->callback([] {
    namespace fs = std::filesystem;
    const fs::path dir = compare_dir;
    fs::create_directories(dir / "recompiled");
    fs::create_directories(dir / "interpreted");
    auto options_for = [&](const fs::path& d) {
      kiln::psx::RunOptions o;
      o.frames = compare_frames;
      o.trace_out = (d / "trace.txt").string();
      o.state_out = (d / "state.txt").string();
      o.vram_out = (d / "vram.bin").string();
      return o;
    };
    const kiln::psx::RunOptions reference = options_for(dir / "interpreted");
    const std::string command =
        fmt::format("'{}' --frames {} --trace '{}' --state '{}' --vram '{}' > '{}' 2> '{}'", compare_program, compare_frames,
                    (dir / "recompiled/trace.txt").string(), (dir / "recompiled/state.txt").string(),
                    (dir / "recompiled/vram.bin").string(), (dir / "recompiled/output.txt").string(),
                    (dir / "recompiled/errors.txt").string());
    if (std::system(command.c_str()) == -1) throw kiln::Error(kiln::in_file(compare_program), "cannot run the recompiled program");
    {
      std::ofstream printed(dir / "interpreted/output.txt", std::ios::binary);
      kiln::psx::RunOptions o = reference;
      o.tty = [&](std::string_view text) { printed << text; };
      try {
        kiln::psx::run(image_of(kiln::psx::load_psx_exe(compare_exe)), o, interpret);
      } catch (const kiln::Error& e) {
        printed << "kiln: error: " << e.what() << "\n";
      }
    }
    for (const char* file : {"output.txt", "trace.txt", "state.txt"}) {
      const auto a = kiln::read_file(dir / "interpreted" / file), b = kiln::read_file(dir / "recompiled" / file);
      const std::string x(a.begin(), a.end()), y(b.begin(), b.end());
      size_t line = 1, start = 0;
      for (;; ++line) {
        const size_t ex = x.find('\n', start), ey = y.find('\n', start);
        const std::string lx = x.substr(start, ex == std::string::npos ? std::string::npos : ex - start);
        const std::string ly = y.substr(start, ey == std::string::npos ? std::string::npos : ey - start);
        if (lx != ly || ex != ey) {
          fmt::print(stderr, "kiln: {} differs at line {}:\n  interpreted: {}\n  recompiled:  {}\n", file, line, lx, ly);
          throw kiln::Error(fmt::format("the recompiled program diverges from the interpreter ({} line {})", file, line));
        }
        if (ex == std::string::npos) break;
        start = ex + 1;
      }
    }
    if (kiln::read_file(dir / "interpreted/vram.bin") != kiln::read_file(dir / "recompiled/vram.bin"))
      throw kiln::Error("the recompiled program's VRAM differs from the interpreter's");
    kiln::log::info("identical: BIOS-call trace, frames, final state and VRAM (outputs in {})", dir.string());
  });

  auto* make = psx.add_subcommand("make-exe", "wrap a flat binary (objcopy -O binary) into a PS-X EXE");
  static std::string make_in, make_out, make_address = "0x80010000", make_entry, make_stack = "0x801FFF00";
  make->add_option("BINARY", make_in, "flat binary loaded at --address")->required();
  make->add_option("-o,--output", make_out, "PS-X EXE to write")->required();
  make->add_option("--address", make_address, "load address")->capture_default_str();
  make->add_option("--entry", make_entry, "entry point (default: the load address)");
  make->add_option("--stack", make_stack, "initial stack pointer")->capture_default_str();
  make->callback([] {
    const uint32_t address = parse_address(make_address, "--address");
    const uint32_t entry = make_entry.empty() ? address : parse_address(make_entry, "--entry");
    const std::vector<uint8_t> exe = make_exe(kiln::read_file(make_in, kiln::input::executable), address, entry, parse_address(make_stack, "--stack"));
    kiln::psx::parse_psx_exe(exe, make_out); // the loader's checks apply to what we write
    kiln::write_file_if_changed(make_out, std::span<const uint8_t>(exe));
  });

  auto* replay = psx.add_subcommand(
      "gpu-replay", "feed GP0/GP1 words (text, one `GP0 1234ABCD` or `GP1 ...` per line) to the GPU alone and dump VRAM");
  static std::string words_path, vram_out, png_out, vram_in;
  replay->add_option("WORDS", words_path, "text file of GP0/GP1 words; blank lines and # comments are ignored")
      ->required();
  replay->add_option("--vram", vram_out, "VRAM dump to write: 1024x512 16-bit little-endian pixels (1 MiB)")
      ->required();
  replay->add_option("--png", png_out, "PNG of the displayed area, as the video output scans it");
  replay->add_option("--vram-in", vram_in, "VRAM dump to start from (textures, CLUTs)");
  replay->callback([] {
    const std::vector<uint8_t> text = kiln::read_file(words_path, kiln::input::gpu_capture);
    const auto writes =
        kiln::psx::parse_gpu_words(std::string_view(reinterpret_cast<const char*>(text.data()), text.size()), words_path);
    kiln::psx::Gpu gpu;
    if (!vram_in.empty()) kiln::psx::vram_from_bytes(gpu.vram(), kiln::read_file(vram_in, kiln::input::image), vram_in);
    kiln::psx::replay(gpu, writes, words_path);
    kiln::write_file_if_changed(vram_out, kiln::psx::vram_to_bytes(gpu.vram()));
    if (!png_out.empty()) {
      if (!gpu.display().enabled) {
        kiln::log::warning("the display is disabled (no GP1(03000000h) in the stream): {} is black", png_out);
      }
      kiln::write_png(png_out, kiln::psx::scan_out(gpu.vram(), gpu.display()));
    }
    kiln::log::info("replayed {} words from {}; wrote {}", writes.size(), words_path, vram_out);
  });
}

} // namespace

KILN_REGISTER_COMMAND("psx", setup_psx_commands);
