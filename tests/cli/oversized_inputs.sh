#!/bin/sh
# Every kiln command that reads a file refuses one over its kind's limit at once: a 16 GiB sparse file under a
# 4 GiB address-space limit and a 30 s time limit must give a non-zero exit and a message naming the file, its
# size and the limit (runtime/base/input_limits.h). An endless stream (/dev/zero) is refused at the limit too.
# Usage: oversized_inputs.sh KILN SMALL_ELF WORK_DIR
set -u
kiln=$1 small_elf=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
truncate -s 16G big.bin || exit 1
failures=0
expect_refused() {
  limit_text=$1
  shift
  ( ulimit -v 4194304; timeout 30 "$@" ) > out.txt 2>&1
  rc=$?
  if [ $rc -eq 0 ] || [ $rc -eq 124 ] || [ $rc -ge 128 ]; then
    echo "FAIL (exit $rc): $*"; cat out.txt; failures=$((failures + 1)); return
  fi
  if ! grep -q "kiln: error: .*: the file is [0-9]* bytes, over the $limit_text" out.txt; then
    echo "FAIL (message): $*"; cat out.txt; failures=$((failures + 1)); return
  fi
  echo "ok: $* -> $(head -n 1 out.txt)"
}
exe="1024 MiB limit for a guest executable"
expect_refused "$exe" "$kiln" recompile big.bin -o out
expect_refused "$exe" "$kiln" port big.bin -o out
expect_refused "$exe" "$kiln" init big.bin
expect_refused "$exe" "$kiln" inspect big.bin
expect_refused "$exe" "$kiln" psx run big.bin
expect_refused "$exe" "$kiln" psx make-exe big.bin -o out.exe
expect_refused "64 MiB limit for a text file" "$kiln" recompile --config big.bin "$small_elf" -o out
expect_refused "256 MiB limit for a GPU program" "$kiln" shaders disasm big.bin
expect_refused "256 MiB limit for a GPU program" "$kiln" shaders translate big.bin -o out
expect_refused "256 MiB limit for a GPU program" "$kiln" shaders assemble big.bin --stage vertex -o out.h
expect_refused "256 MiB limit for a GPU program" "$kiln" shaders disasm /dev/zero
expect_refused "4096 MiB limit for a GPU capture" "$kiln" gpu replay big.bin
expect_refused "4096 MiB limit for a GPU capture" "$kiln" gpu dump big.bin
expect_refused "4096 MiB limit for a GPU capture" "$kiln" gpu compile-macros big.bin -o out
expect_refused "4096 MiB limit for a GPU capture" "$kiln" psx gpu-replay big.bin --vram vram.bin
expect_refused "1024 MiB limit for image data" "$kiln" psx gpu-replay /dev/null --vram vram.bin --vram-in big.bin
expect_refused "1024 MiB limit for image data" "$kiln" textures deswizzle big.bin --width 64 --height 64 --format rgba8 -o out.png
expect_refused "1024 MiB limit for image data" "$kiln" textures gx big.bin --width 64 --height 64 --format rgba8 -o out.png
rm -f big.bin
[ $failures -eq 0 ] || { echo "$failures command(s) did not refuse the oversized input"; exit 1; }
echo "every command refused the oversized input"
