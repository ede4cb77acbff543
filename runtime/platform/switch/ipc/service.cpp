#include "runtime/platform/switch/ipc/service.h"

#include <fmt/format.h>

#include "runtime/core/guest_memory.h"
#include "runtime/platform/switch/ipc/cmif.h"

namespace kiln::hos::ipc {

uint8_t* GuestBuffer::host() const { return rt::host_pointer(address); }

GuestBuffer Context::in_pointer(size_t index) const {
  for (const BufferDescriptor& d : message_.x)
    if (d.extra == index) return {d.address, d.size};
  return {};
}

void report_unknown_command(Kernel& kernel, std::string_view service, uint32_t command_id, uint64_t pc) {
  kernel.report_once(fmt::format("command {} {}", service, command_id),
                     fmt::format("service '{}' has no command {} (called at guest address {:#x}); replying {:#x}", service, command_id, pc,
                                 cmif_result::unknown_command_id));
}

Result dispatch_command(ServiceObject& service, Context& context) {
  for (const Command& command : service.commands())
    if (command.id == context.command_id()) return command.handler(service, context);
  report_unknown_command(context.kernel(), service.name(), context.command_id(), context.pc());
  return cmif_result::unknown_command_id;
}

} // namespace kiln::hos::ipc
