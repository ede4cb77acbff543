#include "runtime/gpu/maxwell/classes.h"

#include <fmt/format.h>

#include <map>
#include <mutex>
#include <span>
#include <unordered_map>

namespace kiln::maxwell {

namespace {

struct MethodEntry {
  const char* name;
  uint32_t offset;
  uint32_t count;
  uint32_t stride;
};

constexpr MethodEntry host_methods[] = {
#include "runtime/gpu/maxwell/classes/methods_b06f.inc"
    {"SYNCPOINTA", class_b06f::syncpointa, 1, 4}, // Tegra host classes (cla26f.h, clc06f.h)
    {"SYNCPOINTB", class_b06f::syncpointb, 1, 4},
};
constexpr MethodEntry threed_methods[] = {
#include "runtime/gpu/maxwell/classes/methods_b197.inc"
};
constexpr MethodEntry compute_methods[] = {
#include "runtime/gpu/maxwell/classes/methods_b1c0.inc"
};
constexpr MethodEntry ampere_compute_methods[] = {
#include "runtime/gpu/maxwell/classes/methods_c7c0.inc"
};
constexpr MethodEntry copy_methods[] = {
#include "runtime/gpu/maxwell/classes/methods_b0b5.inc"
};
constexpr MethodEntry inline_methods[] = {
#include "runtime/gpu/maxwell/classes/methods_a140.inc"
};
constexpr MethodEntry twod_methods[] = {
#include "runtime/gpu/maxwell/classes/methods_902d.inc"
};

std::span<const MethodEntry> methods_of(uint32_t class_id) {
  switch (static_cast<ClassId>(class_id)) {
  case ClassId::host: return host_methods;
  case ClassId::threed: return threed_methods;
  case ClassId::compute: return compute_methods;
  case ClassId::compute_ampere: return ampere_compute_methods;
  case ClassId::copy: return copy_methods;
  case ClassId::inline_to_memory: return inline_methods;
  case ClassId::twod: return twod_methods;
  }
  return {};
}

} // namespace

bool is_known_class(uint32_t class_id) { return !methods_of(class_id).empty(); }

std::string class_name(uint32_t class_id) {
  switch (static_cast<ClassId>(class_id)) {
  case ClassId::host: return "host (B06F)";
  case ClassId::threed: return "3D (B197)";
  case ClassId::compute: return "compute (B1C0)";
  case ClassId::compute_ampere: return "compute (C7C0)";
  case ClassId::copy: return "copy (B0B5)";
  case ClassId::inline_to_memory: return "inline-to-memory (A140)";
  case ClassId::twod: return "2D (902D)";
  }
  return fmt::format("class 0x{:04x}", class_id);
}

std::string method_name(uint32_t class_id, uint32_t method_offset) {
  // Single methods first: array lengths are inferred (see the generator), so an array may overlap one.
  for (const MethodEntry& entry : methods_of(class_id)) {
    if (entry.count == 1 && entry.offset == method_offset) return entry.name;
  }
  for (const MethodEntry& entry : methods_of(class_id)) {
    if (method_offset < entry.offset) continue;
    const uint32_t delta = method_offset - entry.offset;
    if (delta % entry.stride != 0) continue;
    const uint32_t index = delta / entry.stride;
    if (index >= entry.count) continue;
    if (entry.count == 1) return entry.name;
    return fmt::format("{}({})", entry.name, index);
  }
  return fmt::format("method 0x{:04x}", method_offset);
}

std::optional<uint32_t> find_method(uint32_t class_id, std::string_view name, uint32_t index) {
  // Name lookups build streams (tests, benchmarks), so each class gets a hash index on first use.
  using Index = std::unordered_map<std::string_view, const MethodEntry*>;
  static std::mutex mutex;
  static std::map<uint32_t, Index> indexes;
  const Index* index_of_class;
  {
    std::lock_guard lock(mutex);
    auto [it, inserted] = indexes.try_emplace(class_id);
    if (inserted) {
      for (const MethodEntry& entry : methods_of(class_id)) it->second.emplace(entry.name, &entry);
    }
    index_of_class = &it->second;
  }
  const auto found = index_of_class->find(name);
  if (found == index_of_class->end() || index >= found->second->count) return std::nullopt;
  return found->second->offset + index * found->second->stride;
}

} // namespace kiln::maxwell
