#include "runtime/platform/switch/process.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "runtime/base/error.h"
#include "runtime/base/log.h"
#include "runtime/core/aarch64/fp.h"
#include "runtime/core/aarch64/ops.h"
#include "runtime/core/guest_memory.h"
#include "runtime/host/host_options.h"
#include "runtime/platform/switch/host_session.h"
#include "runtime/platform/switch/scripted_pad.h"
#include "runtime/platform/switch/services/default_services.h"
#include "runtime/platform/switch/services/hid.h"
#include "runtime/platform/switch/services/registry.h"
#include "runtime/platform/switch/services/title_config.h"
#include "runtime/platform/switch/services/vi.h"
#include "runtime/platform/switch/title_access.h"

namespace kiln::hos {

namespace {

struct Launch {
  const rt::ProgramInfo* program;
  std::string arguments; ///< argv joined by spaces, as the homebrew ABI passes it
};

struct ConfigEntry {
  uint32_t key;
  uint32_t flags;
  uint64_t value[2];
};
static_assert(sizeof(ConfigEntry) == 24);

void require(Result r, const char* what) {
  if (r != success) {
    log::error("cannot start the Switch process: {} failed with {:#x}", what, r);
    std::exit(70);
  }
}

void load_segments(Kernel& kernel, const rt::ProgramInfo& p) {
  constexpr uint32_t pf_x = 1, pf_w = 2;
  for (size_t i = 0; i < p.segment_count; ++i) {
    const rt::SegmentInfo& s = p.segments[i];
    const uint64_t start = s.address & ~(layout::page_size - 1);
    const uint64_t size = (s.address + s.memory_size - start + layout::page_size - 1) & ~(layout::page_size - 1);
    const bool writable = s.flags & pf_w;
    const uint32_t perm = writable ? permission::read_write : (s.flags & pf_x) ? permission::read_execute : permission::read;
    require(kernel.memory().map(start, size, writable ? MemoryState::code_data : MemoryState::code, perm,
                                {p.image + s.file_offset, s.file_size}, s.address - start),
            "mapping a segment");
  }
}

/// An ExeFS title: Horizon starts the first module with X0 = 0 and X1 = the main thread's handle (switchbrew
/// "rtld"). kiln did rtld's work at recompile time (linking, relocations), so what is left of it is running the
/// modules' initialisers (sdk first, main last) before main's entry. Returning from the entry ends the process.
[[noreturn]] void enter_title(Kernel& kernel, Thread& thread, const rt::ProgramInfo& program) {
  rt::Cpu& cpu = thread.cpu;
  rt::fp_reset_host();
  const rt::SwitchTitle& title = *program.switch_title;
  if (const TitleAccess* access = title_access())
    log::info("switch title {:016x}: FS permissions {:#x}, system resource size {:#x} (main.npdm)", title.program_id, access->fs_permissions,
              access->system_resource_size);
  for (size_t i = 0; i < title.initializer_count; ++i) {
    cpu.x[0] = cpu.x[1] = 0;
    cpu.x[30] = 0;
    rt::call_guest(&cpu, title.initializers[i]);
    rt::finish_unclaimed_jumps(&cpu);
  }
  cpu.x[0] = 0;
  cpu.x[1] = thread.handle;
  cpu.x[30] = 0;
  rt::call_guest(&cpu, program.entry);
  rt::finish_unclaimed_jumps(&cpu);
  kernel.stop(exit_status::exited);
}

[[noreturn]] void main_thread(const Launch* started) {
  const Launch& launch = *started;
  Kernel& kernel = *active_kernel();
  const rt::SwitchTitle* title = launch.program->switch_title;
  // A title's npdm gives its main thread's stack and priority; a homebrew module gets the homebrew loader's.
  const uint64_t stack_size = title ? title->main_thread_stack_size : homebrew_stack_size;
  const int32_t priority = title ? static_cast<int32_t>(title->main_thread_priority) : 0x2c;
  const uint64_t stack = kernel.memory().find_free(layout::kernel_area_start, layout::kernel_area_size, stack_size + layout::page_size);
  require(stack ? success : kernel_result::out_of_memory, "finding room for the main thread's stack");
  require(kernel.memory().map(stack + layout::page_size, stack_size, MemoryState::stack, permission::read_write), "mapping the stack");
  Thread& thread = kernel.attach_main_thread(stack + layout::page_size + stack_size, priority);
  if (title) enter_title(kernel, thread, *launch.program);
  uint64_t heap = 0;
  require(kernel.memory().set_heap_size(homebrew_heap_size, &heap), "setting up the heap");

  // The loader's page: configuration entries, then the argv string.
  const uint64_t page = kernel.memory().find_free(layout::kernel_area_start, layout::kernel_area_size, layout::page_size);
  require(page ? success : kernel_result::out_of_memory, "finding room for the loader configuration");
  require(kernel.memory().map(page, layout::page_size, MemoryState::normal, permission::read_write), "mapping the loader configuration");
  const uint64_t argv_address = page + 0x800;
  const std::string arguments = launch.arguments.substr(0, 0x7ff);
  std::memcpy(rt::host_pointer(argv_address), arguments.c_str(), arguments.size() + 1);
  const uint32_t version = uint32_t{16} << 16; // the firmware set:sys reports (settings.h)
  const ConfigEntry entries[] = {
      {config_key::main_thread_handle, 0, {thread.handle, 0}},
      {config_key::override_heap, config_mandatory, {heap, homebrew_heap_size}},
      {config_key::argv, 0, {0, argv_address}},
      {config_key::applet_type, 0, {0, 0}}, // Application
      {config_key::hos_version, 0, {version, 0}},
      {config_key::end_of_list, 0, {0, 0}},
  };
  std::memcpy(rt::host_pointer(page), entries, sizeof entries);

  rt::Cpu& cpu = thread.cpu;
  cpu.x[0] = page;
  cpu.x[1] = ~uint64_t{0};
  cpu.x[30] = 0; // "the menu": returning there ends the program
  rt::fp_reset_host();
  rt::call_guest(&cpu, launch.program->entry);
  rt::finish_unclaimed_jumps(&cpu);
  const uint32_t result = static_cast<uint32_t>(cpu.x[0]);
  if (result != 0) log::error("the program returned {:#x} to the loader", result);
  kernel.stop(result == 0 ? exit_status::exited : 1);
}

/// Takes the runtime's own `NAME VALUE` options out of argv (the guest sees the rest), giving each value to
/// `use`; false (the error logged) when one lacks its value or `use` throws.
bool take_runtime_option(int& argc, char** argv, const char* name, const char* value_is,
                         const std::function<void(const std::string&)>& use) {
  for (int i = 0; i < argc; ++i) {
    if (std::strcmp(argv[i], name) != 0) continue;
    if (i + 1 >= argc) {
      log::error("{} needs a value ({})", name, value_is);
      return false;
    }
    try {
      use(argv[i + 1]);
    } catch (const Error& e) {
      log::error("{}", e.what());
      return false;
    }
    for (int j = i; j + 2 <= argc; ++j) argv[j] = argv[j + 2];
    argc -= 2;
    --i;
  }
  return true;
}

/// The process a title's npdm describes (its program id), else kiln's default.
ProcessConfig process_config(const rt::ProgramInfo& program) {
  ProcessConfig config;
  if (program.switch_title) config.program_id = program.switch_title->program_id;
  if (const TitleAccess* access = title_access()) config.system_resource_size = access->system_resource_size;
  return config;
}

/// main.npdm's service access control, for sm; none for a homebrew module (every service).
AllowedServices allowed_services(const rt::ProgramInfo& program) {
  if (!program.switch_title) return std::nullopt;
  const rt::SwitchTitle& title = *program.switch_title;
  return std::vector<std::string>(title.allowed_services, title.allowed_services + title.allowed_service_count);
}

} // namespace

int run(const rt::ProgramInfo& program, int argc, char** argv, char**) {
  static Kernel kernel(process_config(program));
  kernel.install();
  rt::set_function_table(program.entries, program.entry_count);
  auto registry = std::make_shared<ServiceRegistry>();
  SystemSettings settings;
  // `--config FILE` (a title's kiln.toml, read for [switch.fs] and [switch.audio]); `--pad-script FILE` (hid's
  // pad plays the script, scripted_pad.h, instead of the host's pad).
  std::shared_ptr<const ScriptedPad> pad_script; // shared with hid's sampling thread, which may outlive run()
  if (!take_runtime_option(argc, argv, "--config", "a kiln.toml", [&](const std::string& path) { load_title_config(path, settings); }) ||
      !take_runtime_option(argc, argv, "--pad-script", "a pad script", [&](const std::string& path) {
        pad_script = std::make_shared<const ScriptedPad>(ScriptedPad::from_file(path));
      }))
    return 64;
  // The host shell's options (--window, --frames N, --capture DIR ...: docs/host.md) are the runtime's too.
  std::vector<std::string> arguments(argv + std::min(argc, 1), argv + argc);
  host::HostOptions host_options;
  try {
    host_options = host::take_host_options(arguments);
  } catch (const Error& e) {
    log::error("{}", e.what());
    return 64;
  }
  const std::string program_name = argc ? argv[0] : "program";
  HostSession session(host_options, "kiln: " + program_name.substr(program_name.find_last_of('/') + 1),
                      [] { kernel.stop(exit_status::exited); });
  session.connect(settings);
  if (pad_script) set_pad_source([pad_script](const host::PadDevice&) { return pad_script->state(presented_frames()); });
  kernel.set_stop_hook([&session](int) { session.end(); });
  if (const TitleAccess* access = title_access()) settings.file_systems.permissions = access->fs_permissions;
  register_default_services(*registry, settings);
  install_service_manager(kernel, registry, allowed_services(program));
  load_segments(kernel, program);
  Launch launch{&program, program_name};
  for (const std::string& argument : arguments) launch.arguments += " " + argument;
  return session.run([&launch] {
    main_thread(&launch);
    return 70;
  });
}

} // namespace kiln::hos
