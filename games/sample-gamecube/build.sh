#!/usr/bin/env bash
# Builds games/sample-gamecube into a DOL and a disc image: powerpc-linux-gnu-gcc for the 750 bare-metal (no
# Linux ABI, no small-data registers), paired singles assembled with -mgekko, our linker script, then make_dol
# and make_gcm from tools/gamecube-files.
# Usage: build.sh MAKE_DOL MAKE_GCM OUTDIR   (writes OUTDIR/sample.elf, sample.dol, sample.iso)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
make_dol="$1"
make_gcm="$2"
out="$3"
mkdir -p "$out"
cc=${KILN_POWERPC_GCC:-powerpc-linux-gnu-gcc}
flags=(-mcpu=750 -mhard-float -ffreestanding -nostdlib -static -no-pie -fno-pic -G0 -O2 -ffp-contract=off -fno-builtin
       -fno-asynchronous-unwind-tables -Wa,-mgekko -Wl,--build-id=none -Wl,--no-warn-rwx-segments -Wall -Wextra -Werror)
"$cc" "${flags[@]}" -T "$here/sample.ld" -o "$out/sample.elf" "$here/crt0.S" "$here/paired.S" "$here/main.c"
"$make_dol" "$out/sample.elf" "$out/sample.dol"
"$make_gcm" "$out/sample.iso" --dol "$out/sample.dol" --id KILN01 --name "kiln sample-gamecube"
