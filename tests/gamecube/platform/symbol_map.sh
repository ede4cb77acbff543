#!/usr/bin/env bash
# A title's kiln.toml naming a linker map (`symbol_maps`): every function of the map that lies in the DOL's text
# becomes a recompiled function. The map is the Dolphin-format one make_dol writes from the sample's ELF symbols.
# The program built with main split at the map's entry still gives the sample's output (run_sample.sh).
# Usage: symbol_map.sh KILN MAKE_DOL SAMPLE_DIR WORK_DIR
set -uo pipefail
kiln="$1"; make_dol="$2"; sample="$3"; work="$4"
here="$(cd "$(dirname "$0")" && pwd)"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
rm -rf "$work" && mkdir -p "$work"
"$make_dol" "$sample/sample.elf" "$work/sample.dol" --map "$work/sample.map" || { echo "FAIL: make_dol"; exit 1; }
cmp -s "$work/sample.dol" "$sample/sample.dol" || fail "make_dol with --map wrote another DOL than the sample's"
"$kiln" init "$work/sample.dol" -o "$work/kiln.toml" --title sample-gamecube >/dev/null || fail "kiln init of a DOL"
grep -q '^platform = "gamecube"' "$work/kiln.toml" || fail "kiln init did not name the gamecube platform"
# Two rows a title's map could hold beyond the ELF's symbols: an entry 16 bytes into main (a secondary entry that
# discovery cannot know), and a function of another module, outside this DOL's code, which is passed over.
main=$(awk '$5 == "main" { print $3 }' "$work/sample.map")
[ -n "$main" ] || fail "no main in the map"
entry=$(printf '%08x' $((0x$main + 16)))
sed -i "/ main\$/a $entry 000000 $entry 0 main_secondary_entry\n80500000 000010 80500000 0 other_module_function" "$work/sample.map"
# symbol_maps is a top-level key: it goes before the first table.
sed -i 's/^platform = "gamecube"$/&\nsymbol_maps = ["sample.map"]/' "$work/kiln.toml"
out="$("$kiln" port "$work/sample.dol" -o "$work/with_map" --config "$work/kiln.toml" -j 2 2>&1)" || fail "port with the map: $out"
"$here/run_sample.sh" "$work/with_map/build/program" "$here" dol || fail "the program recompiled with the map does not give the sample's output"
without="$("$kiln" recompile "$work/sample.dol" -o "$work/without_map" --no-config 2>&1)" || fail "recompile without the map: $without"
with_count=$(sed -n 's/.*: \([0-9]*\) functions,.*/\1/p' <<<"$out" | head -n 1)
without_count=$(sed -n 's/.*: \([0-9]*\) functions,.*/\1/p' <<<"$without" | head -n 1)
# Every function of the map inside the DOL's text (all but other_module_function) must be a recompiled function.
checked=0
while read -r address; do
  grep -q "^void f_${address}(" "$work/with_map/functions.h" || fail "the map's function at 0x$address is not a recompiled function"
  checked=$((checked + 1))
done < <(awk '/section layout/ { text = ($1 == ".init" || $1 == ".text") } text && NF >= 5 && length($3) == 8 && $5 != "other_module_function" { print $3 }' "$work/sample.map" | sort -u)
[ "$checked" -gt 0 ] || fail "the map lists no function in the text"
[ "${with_count:-0}" = $((${without_count:-0} + 1)) ] || fail "the map's secondary entry should add one function: $with_count with it, $without_count without"
grep -q "^void f_${entry}(" "$work/with_map/functions.h" || fail "no recompiled function at the map's entry 0x$entry"
# A map that does not exist is an error naming the kiln.toml line.
sed -i 's/symbol_maps = \["sample.map"\]/symbol_maps = ["missing.map"]/' "$work/kiln.toml"
err="$("$kiln" recompile "$work/sample.dol" -o "$work/x" --config "$work/kiln.toml" 2>&1)" && fail "a missing map was accepted"
grep -Eq "kiln.toml:[0-9]+: symbol map 'missing.map' does not exist" <<<"$err" || fail "missing map: $err"
[ "$failures" = 0 ] && echo "symbol map: $checked functions of the map recompiled ($with_count functions with it, $without_count without)"
exit "$failures"
