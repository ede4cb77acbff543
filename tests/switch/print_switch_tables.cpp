// Prints docs/switch.md's generated tables (runtime/platform/switch/tables.h).
#include <cstdio>

#include "runtime/platform/switch/tables.h"

int main() {
  std::fputs(kiln::hos::implemented_tables_markdown().c_str(), stdout);
  return 0;
}
