#!/usr/bin/env bash
# Makes one malformed input from the sample's DOL or disc image and runs `kiln recompile` on it; succeeds only when
# kiln refuses it (the test's regular expression checks the message: the file and the offset).
# Usage: malformed_input.sh KILN SAMPLE_DIR WORK_DIR CASE
set -uo pipefail
kiln="$1"
sample="$2"
work="$3"
case="$4"
mkdir -p "$work"
patch_word() { # file offset hex-bytes
  printf "$3" | dd of="$1" bs=1 seek=$(($2)) conv=notrunc status=none
}
platform=()
case "$case" in
  truncated_dol)
    input="$work/truncated.dol"
    head -c 384 "$sample/sample.dol" > "$input"
    platform=(--platform gamecube) ;;
  entry_outside_text)
    input="$work/entry.dol"
    cp "$sample/sample.dol" "$input"
    patch_word "$input" 0xE0 '\x80\x00\x30\x00' # between the vectors and the code
    platform=(--platform gamecube) ;;
  disc_dol_past_end)
    input="$work/dol_past_end.iso"
    cp "$sample/sample.iso" "$input"
    patch_word "$input" 0x420 '\x7f\xff\xff\x00' ;;
  disc_bad_fst)
    input="$work/bad_fst.iso"
    cp "$sample/sample.iso" "$input"
    fst=$((16#$(od -An -tx1 -j $((0x424)) -N4 "$input" | tr -d ' \n')))
    patch_word "$input" "$fst" '\x07' ;;
  *) echo "unknown case $case"; exit 2 ;;
esac
output="$("$kiln" recompile "$input" -o "$work/out_$case" "${platform[@]}" 2>&1)"
status=$?
echo "$output"
if [ "$status" -eq 0 ]; then
  echo "kiln recompile accepted the malformed input $input"
  exit 1
fi
