#pragma once
// Macros compiled ahead of time to C++, keyed by the hash of their code: an uploaded macro whose hash is here
// runs natively, any other is interpreted.
#include <cstdint>
#include <unordered_map>

#include "runtime/gpu/maxwell/mme/macro_context.h"

namespace kiln::maxwell {

using CompiledMacro = void (*)(mme::MacroContext& context);

class MacroRegistry {
public:
  /// The process-wide registry that generated code registers into.
  static MacroRegistry& global();
  void add(uint64_t hash, CompiledMacro macro) { macros_[hash] = macro; }
  CompiledMacro find(uint64_t hash) const {
    auto it = macros_.find(hash);
    return it == macros_.end() ? nullptr : it->second;
  }
  size_t size() const { return macros_.size(); }

private:
  std::unordered_map<uint64_t, CompiledMacro> macros_;
};

/// A static object of this type in generated code registers one compiled macro at startup.
struct MacroRegistration {
  MacroRegistration(uint64_t hash, CompiledMacro macro) { MacroRegistry::global().add(hash, macro); }
};

} // namespace kiln::maxwell
