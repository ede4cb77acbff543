#include "corpus.h"
#include "switch_vm.inc"
PROGRAM(switch_vm) {
  UNUSED_ARGS;
  return vm_main();
}
