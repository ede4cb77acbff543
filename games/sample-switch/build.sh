#!/bin/sh
# games/sample-switch into an NRO with the cross compiler: our crt0 and IPC layer, the service clients, the scene
# (drawn with games/common's freestanding pushbuffer library), freestanding and without libnx; make_nso (the
# tool from tests/switch) makes the NSO and NRO. Also the linux-user build of the platform-independent lines.
# Usage: build.sh MAKE_NSO OUTDIR   (writes OUTDIR/sample-switch.elf, .nso, .nro and sample-linux.elf)
set -e
here=$(cd "$(dirname "$0")" && pwd)
cc=${KILN_AARCH64_GCC:-aarch64-linux-gnu-gcc}
flags="-O2 -static -fno-pic -no-pie -fno-asynchronous-unwind-tables -fno-stack-protector -Wall -Wextra -Werror"
mkdir -p "$2"
# shellcheck disable=SC2086 # flags are words
"$cc" $flags -nostdlib -ffreestanding -Wl,--build-id=none -Wl,-z,max-page-size=4096 -Wl,-T,"$here/module.ld" \
  -I"$here/../common" "$here/nx.c" "$here/nx_ipc.c" "$here/save_and_tone.c" "$here/nvdrv.c" "$here/display.c" \
  "$here/pad.c" "$here/scene.c" "$here/../common/maxwell_push.c" "$here/lines.c" "$here/main.c" -o "$2/sample-switch.elf"
"$1" "$2/sample-switch.elf" "$2/sample-switch.nso" "$2/sample-switch.nro"
# shellcheck disable=SC2086
"$cc" $flags "$here/lines.c" "$here/linux_main.c" -o "$2/sample-linux.elf"
