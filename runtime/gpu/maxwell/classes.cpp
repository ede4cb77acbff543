#include "runtime/gpu/maxwell/classes.h"

#include <fmt/format.h>

#include <bitset>
#include <map>
#include <mutex>
#include <span>
#include <unordered_map>
#include <vector>

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
constexpr MethodEntry ampere_host_methods[] = {
#include "runtime/gpu/maxwell/classes/methods_c56f.inc"
    {"SYNCPOINTA", class_c56f::syncpointa, 1, 4}, // kiln's Tegra syncpoints on this class too (cla26f.h)
    {"SYNCPOINTB", class_c56f::syncpointb, 1, 4},
};
constexpr MethodEntry threed_methods[] = {
#include "runtime/gpu/maxwell/classes/methods_b197.inc"
};
constexpr MethodEntry ampere_threed_methods[] = {
#include "runtime/gpu/maxwell/classes/methods_c797.inc"
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
constexpr MethodEntry ampere_copy_methods[] = {
#include "runtime/gpu/maxwell/classes/methods_c7b5.inc"
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
  case ClassId::host_ampere: return ampere_host_methods;
  case ClassId::threed: return threed_methods;
  case ClassId::threed_ampere: return ampere_threed_methods;
  case ClassId::compute: return compute_methods;
  case ClassId::compute_ampere: return ampere_compute_methods;
  case ClassId::copy: return copy_methods;
  case ClassId::copy_ampere: return ampere_copy_methods;
  case ClassId::inline_to_memory: return inline_methods;
  case ClassId::twod: return twod_methods;
  }
  return {};
}

} // namespace

bool is_known_class(uint32_t class_id) { return !methods_of(class_id).empty(); }

bool is_host_class(uint32_t class_id) {
  return class_id == static_cast<uint32_t>(ClassId::host) || class_id == static_cast<uint32_t>(ClassId::host_ampere);
}

bool is_known_method(uint32_t class_id, uint32_t method_offset) {
  // One bit per method word (0x4000 bytes of methods) of every class kiln knows, built once from the tables; the
  // channel asks for every method it processes.
  struct KnownMethods {
    uint32_t class_id;
    std::bitset<0x1000> words;
  };
  static const std::vector<KnownMethods> classes = [] {
    std::vector<KnownMethods> all;
    for (ClassId id : {ClassId::host, ClassId::host_ampere, ClassId::threed, ClassId::threed_ampere, ClassId::compute,
                       ClassId::compute_ampere, ClassId::copy, ClassId::copy_ampere, ClassId::inline_to_memory, ClassId::twod}) {
      KnownMethods& known = all.emplace_back(KnownMethods{static_cast<uint32_t>(id), {}});
      for (const MethodEntry& entry : methods_of(known.class_id)) {
        for (uint32_t i = 0; i < entry.count && entry.offset + i * entry.stride < 0x4000; ++i) {
          known.words.set((entry.offset + i * entry.stride) / 4);
        }
      }
    }
    return all;
  }();
  if (method_offset >= 0x4000 || method_offset % 4 != 0) return false;
  for (const KnownMethods& known : classes) {
    if (known.class_id == class_id) return known.words.test(method_offset / 4);
  }
  return false;
}

std::optional<Family> family_of(uint32_t class_id) {
  switch (static_cast<ClassId>(class_id)) {
  case ClassId::host:
  case ClassId::threed:
  case ClassId::compute:
  case ClassId::copy: return Family::maxwell;
  case ClassId::host_ampere:
  case ClassId::threed_ampere:
  case ClassId::compute_ampere:
  case ClassId::copy_ampere: return Family::ampere;
  case ClassId::inline_to_memory:
  case ClassId::twod: break;
  }
  return std::nullopt;
}

ClassId host_class_of(Family family) { return family == Family::ampere ? ClassId::host_ampere : ClassId::host; }

std::optional<ProgramIsa> program_isa_of(uint32_t class_id) {
  switch (static_cast<ClassId>(class_id)) {
  case ClassId::threed:
  case ClassId::compute: return ProgramIsa::sm5x;
  case ClassId::threed_ampere:
  case ClassId::compute_ampere: return ProgramIsa::sm86;
  default: return std::nullopt;
  }
}

std::string class_name(uint32_t class_id) {
  switch (static_cast<ClassId>(class_id)) {
  case ClassId::host: return "host (B06F)";
  case ClassId::host_ampere: return "host (C56F)";
  case ClassId::threed: return "3D (B197)";
  case ClassId::threed_ampere: return "3D (C797)";
  case ClassId::compute: return "compute (B1C0)";
  case ClassId::compute_ampere: return "compute (C7C0)";
  case ClassId::copy: return "copy (B0B5)";
  case ClassId::copy_ampere: return "copy (C7B5)";
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
