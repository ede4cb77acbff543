#!/usr/bin/env bash
# Recompiles each input with two kiln binaries and compares the generated projects byte for byte, to show that a
# change of the recompiler leaves its output alone (or to see where it moved it).
#   tools/dev/compare-generated.sh OLD_KILN NEW_KILN WORKDIR INPUT...
# An INPUT is a program kiln recompiles (ELF, NSO/NRO, ExeFS folder, PS-X EXE, DOL), recompiled with --no-config,
# or PROGRAM=KILN_TOML to recompile it with that title configuration. Both binaries write to the same folder in
# turn (WORKDIR/out/N-NAME, then moved to WORKDIR/old or WORKDIR/new), so paths inside the output agree.
# Exits 0 when every project is identical, 1 when one differs (`diff -r` shows how), 2 when a recompile fails.
set -u
if [ $# -lt 4 ]; then
  echo "usage: $0 OLD_KILN NEW_KILN WORKDIR INPUT..." >&2
  exit 2
fi
old_kiln=$(realpath "$1") new_kiln=$(realpath "$2") work=$3
shift 3
rm -rf "$work/out" "$work/old" "$work/new"
mkdir -p "$work/out" "$work/old" "$work/new"
status=0 n=0
for input in "$@"; do
  n=$((n + 1))
  program=${input%%=*}
  config=()
  if [ "$program" != "$input" ]; then config=(--config "${input#*=}"); else config=(--no-config); fi
  name=$n-$(basename "$program")
  for side in old new; do
    kiln=$old_kiln
    [ $side = new ] && kiln=$new_kiln
    if ! "$kiln" recompile "${config[@]}" "$program" -o "$work/out/$name" >"$work/$side/$name.log" 2>&1; then
      echo "$name: the $side kiln failed (see $work/$side/$name.log)" >&2
      status=2
    fi
    [ -e "$work/out/$name" ] && mv "$work/out/$name" "$work/$side/$name"
  done
  if diff -r -q "$work/old/$name" "$work/new/$name" >/dev/null 2>&1; then
    echo "$name: identical ($(find "$work/new/$name" -type f | wc -l) files)"
  else
    echo "$name: DIFFERENT"
    diff -r -q "$work/old/$name" "$work/new/$name" | head -20
    [ $status -eq 0 ] && status=1
  fi
done
exit $status
