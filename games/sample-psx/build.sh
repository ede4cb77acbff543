#!/usr/bin/env bash
# Builds games/sample-psx into a PS-X EXE: mipsel-linux-gnu-gcc for MIPS I without the Linux ABI, our linker
# script at 80010000h, objcopy to a flat binary, `kiln psx make-exe` for the header.
# Usage: build.sh KILN OUTDIR   (writes OUTDIR/sample.elf, sample.bin, sample.exe)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
kiln="$1"
out="$2"
mkdir -p "$out"
cc=mipsel-linux-gnu-gcc
flags=(-march=mips1 -mabi=32 -mno-abicalls -fno-pic -no-pie -static -G0 -msoft-float -O2 -ffreestanding -fno-builtin -nostdlib -Wl,--build-id=none
       -Wall -Wextra)
"$cc" "${flags[@]}" -T "$here/psx.ld" -o "$out/sample.elf" "$here/crt0.S" "$here/bios.S" "$here/gte.S" "$here/main.c"
mipsel-linux-gnu-objcopy -O binary "$out/sample.elf" "$out/sample.bin"
"$kiln" psx make-exe "$out/sample.bin" --address 0x80010000 --stack 0x801FFF00 -o "$out/sample.exe"
