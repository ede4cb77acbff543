#include "recompiler/config/gpu_settings.h"

#include <fmt/format.h>

namespace kiln::config {

namespace {

GpuSettings parse_gpu_table(const toml::table& table, const std::string& file) {
  GpuSettings settings;
  const TableFields gpu(table, file, "[gpu]", {"fma", "subgroup_size_32", "zero_registers", "gather_bias", "float64"});
  auto origin = [&](std::string_view key) { return Origin{file, gpu.line_of(key), ""}; };
  if (const auto text = gpu.optional_string("fma")) {
    const std::optional<spirv::FmaMode> mode = spirv::parse_fma_mode(*text);
    if (!mode) throw error_at(file, gpu.line_of("fma"), fmt::format("[gpu] fma = \"{}\" must be \"exact\", \"fused\" or \"f64\"", *text));
    settings.fma = Setting<spirv::FmaMode>{*mode, origin("fma")};
  }
  auto flag = [&](std::string_view key, std::optional<Setting<bool>>& out) {
    if (const auto value = gpu.optional_boolean(key)) out = Setting<bool>{*value, origin(key)};
  };
  flag("subgroup_size_32", settings.subgroup_size_32);
  flag("zero_registers", settings.zero_registers);
  flag("gather_bias", settings.gather_bias);
  flag("float64", settings.float64);
  return settings;
}

} // namespace

GpuSettings parse_gpu_settings(const TableFields& root) {
  const toml::table* table = root.optional_table("gpu");
  return table ? parse_gpu_table(*table, root.file()) : GpuSettings{};
}

GpuSettings load_gpu_settings(const std::filesystem::path& file) {
  const std::string name = file.string();
  const toml::table root_table = parse_toml_file(name);
  // Only [gpu] is read here: the other tables belong to the recompiler or to the platform's runtime.
  const toml::node* gpu = root_table.get("gpu");
  if (!gpu) return {};
  if (!gpu->is_table()) throw error_at(name, static_cast<int>(gpu->source().begin.line), "'gpu' must be a table ([gpu])");
  return parse_gpu_table(*gpu->as_table(), name);
}

} // namespace kiln::config
