#!/usr/bin/env bash
# Runs the recompiled games/sample-gamecube and compares its UART output with sample_expected.txt and the GX
# stream its gather pipe collected with expected_gx.hex, word by word.
# Usage: run_sample.sh PROGRAM SOURCE_DIR disc|dol
set -euo pipefail
program="$1"
here="$2"
boot="$3"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
expected="$work/expected.txt"
if [ "$boot" = dol ]; then
  sed 's/^disc id: KILN01$/disc: no disc/' "$here/sample_expected.txt" > "$expected"
else
  cp "$here/sample_expected.txt" "$expected"
fi
status=0
KILN_GX_DUMP="$work/gx.bin" "$program" > "$work/out.txt" || status=$?
if [ "$status" -ne 0 ]; then
  echo "the sample exited with status $status"
  cat "$work/out.txt"
  exit 1
fi
diff -u "$expected" "$work/out.txt"
grep -v '^#' "$here/expected_gx.hex" | tr -s ' \n' '\n\n' | sed '/^$/d' > "$work/gx_expected.txt"
od -An -v -tx1 "$work/gx.bin" | tr -d ' \n' | fold -w8 > "$work/gx_actual.txt"
echo >> "$work/gx_actual.txt"
sed -i '/^$/d' "$work/gx_actual.txt"
diff -u "$work/gx_expected.txt" "$work/gx_actual.txt"
echo "sample-gamecube ($boot): $(wc -l < "$expected") lines and $(wc -l < "$work/gx_expected.txt") GX words as expected"
