#include "runtime/gpu/maxwell/mme/macro_registry.h"

namespace kiln::maxwell {

MacroRegistry& MacroRegistry::global() {
  static MacroRegistry registry;
  return registry;
}

} // namespace kiln::maxwell
