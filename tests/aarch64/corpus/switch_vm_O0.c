#include "corpus.h"
#include "switch_vm.inc"
PROGRAM(switch_vm_O0) {
  UNUSED_ARGS;
  return vm_main();
}
