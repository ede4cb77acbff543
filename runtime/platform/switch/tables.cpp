#include "runtime/platform/switch/tables.h"

#include <fmt/format.h>

#include "runtime/platform/switch/kernel/svc.h"
#include "runtime/platform/switch/services/default_services.h"

namespace kiln::hos {

std::string implemented_tables_markdown() {
  std::string out = "| SVC | name | implemented |\n| --- | --- | --- |\n";
  size_t count = 0;
  const SvcInfo* svcs = svc_table(&count);
  for (size_t i = 0; i < count; ++i)
    out += fmt::format("| {:#04x} | {} | {} |\n", svcs[i].number, svcs[i].name, svcs[i].implemented ? "yes" : "no: reported, the process stops");
  auto registry = std::make_shared<ServiceRegistry>();
  register_default_services(*registry, SystemSettings{});
  std::vector<std::shared_ptr<ipc::ServiceObject>> objects = {make_service_manager(registry)};
  for (const std::string& name : registry->names()) objects.push_back(registry->create(name));
  for (auto& object : registry->interfaces()) objects.push_back(object);
  out += "\n| service or interface | command | name |\n| --- | --- | --- |\n";
  for (const auto& object : objects)
    for (const ipc::Command& command : object->commands()) out += fmt::format("| `{}` | {} | {} |\n", object->name(), command.id, command.name);
  return out;
}

} // namespace kiln::hos
