#!/bin/sh
# differential.sh GCC QEMU SOURCE.s OUT.bin: links the freestanding ppc32 program and records what qemu-ppc
# (modelling a 750) makes of every case.
set -e
"$1" -nostdlib -static "$3" -o "$4.elf"
"$2" -cpu 750 "$4.elf" > "$4"
