#!/usr/bin/env bash
# The PS1 sample end to end: build games/sample-psx into a PS-X EXE, recompile it (`kiln recompile --platform
# psx` + `kiln build`), run the recompiled program and kiln's interpreter with the same options, and keep their
# printed output, BIOS-call traces, final states, frames, VRAM and sound in OUTDIR for test_sample.cpp to check;
# both runs get the same scripted pad (sample.pad).
# Usage: run_sample.sh KILN OUTDIR [FRAMES]
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
kiln="$1"
out="$2"
frames="${3:-0}"
mkdir -p "$out"
"$root/games/sample-psx/build.sh" "$kiln" "$out"
"$kiln" recompile --platform psx "$out/sample.exe" -o "$out/recompiled" | tee "$out/recompile.log"
# Output is deterministic: recompiling the same EXE again rewrites nothing.
"$kiln" recompile --platform psx "$out/sample.exe" -o "$out/recompiled" > "$out/recompile-again.log"
grep -q " 0 files written" "$out/recompile-again.log" ||
  { echo "psx sample: a second recompile rewrote files:" >&2; cat "$out/recompile-again.log" >&2; exit 1; }
"$kiln" build "$out/recompiled" > "$out/build.log" 2>&1 || { cat "$out/build.log"; exit 1; }
program="$out/recompiled/build/program"
for mode in recompiled interpreted; do
  mkdir -p "$out/$mode-run"
  options=(--frames "$frames" --frame-prefix "$out/$mode-run/frame" --vram "$out/$mode-run/vram.bin"
           --trace "$out/$mode-run/trace.txt" --state "$out/$mode-run/state.txt"
           --audio "$out/$mode-run/audio.wav" --pad-script "$root/tests/psx/sample.pad")
  status=0
  if [ "$mode" = recompiled ]; then
    "$program" "${options[@]}" > "$out/$mode-run/stdout.txt" 2> "$out/$mode-run/stderr.txt" || status=$?
  else
    "$kiln" psx run "$out/sample.exe" "${options[@]}" > "$out/$mode-run/stdout.txt" 2> "$out/$mode-run/stderr.txt" || status=$?
  fi
  echo "$status" > "$out/$mode-run/status.txt"
  cat "$out/$mode-run/stderr.txt" >&2
done
echo "psx sample: outputs in $out"
