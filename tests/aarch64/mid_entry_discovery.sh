#!/bin/bash
# The corpus program `mid_entries` enters compiled functions in their middle (tests/aarch64/corpus/mid_entries.c):
# the fallback interpreter must log each such address once in $KILN_DISCOVERY_LOG, and `kiln discover apply`
# must turn them into [[functions]] entries that the next recompile makes entries of compiled code (the
# dispatch table lists them, the interpreter has no step there). The addresses are the me_*_at symbols of the
# guest executable, read with nm.
# usage: mid_entry_discovery.sh KILN NM GUEST_ELF RECOMPILED_EXE
set -u
kiln=$1 nm=$2 guest=$3 program=$4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

# Entered through a pointer (BLR), a BR, or as a return address changed by the callee: each reaches the
# fallback. me_calls_longjmp_at also runs 20000 times, and its address must still be logged once.
labels="me_squares_at me_finish_at me_caller_at me_caller_through_at me_skip_twice_at me_interpreted_caller_at me_calls_longjmp_at"
declare -A address
for label in $labels; do
  value=$("$nm" "$guest" | awk -v name="$label" '$3 == name { print $1 }')
  [ -n "$value" ] || fail "no symbol $label in $guest"
  address[$label]=$(printf '%#x' "0x$value")
done

KILN_LOG="$work/kiln.log" KILN_DISCOVERY_LOG="$work/reached.toml" "$program" mid_entries >"$work/out" 2>"$work/err" || fail "mid_entries exited with status $?"
[ -s "$work/reached.toml" ] || fail "no discovery log written"
# Nothing else: a longjmp that the interpreter ran in place instead of unwinding to setjmp's frame would log
# setjmp's return site (and, when the frames unwind later, the return sites above it).
entries=$(grep -c '^\[\[reached\]\]$' "$work/reached.toml")
[ "$entries" = "$(wc -w <<<"$labels")" ] || fail "the discovery log holds $entries entries, not one per label: $(grep address "$work/reached.toml" | tr '\n' ' ')"
for label in $labels; do
  count=$(grep -cx "address = ${address[$label]}" "$work/reached.toml")
  [ "$count" = 1 ] || fail "$label (${address[$label]}) is logged $count times in the discovery log, not once"
  grep -q "guest address ${address[$label]} was not recompiled; running it in the fallback interpreter" "$work/kiln.log" ||
    fail "kiln's log does not name $label (${address[$label]})"
done
grep -q "neither" "$work/kiln.log" && fail "kiln's log reports a stop: $(grep neither "$work/kiln.log")"

# discover apply: [[functions]] entries, which the next recompile makes secondary entries of compiled functions.
"$kiln" init "$guest" -o "$work/kiln.toml" >/dev/null || fail "kiln init failed"
"$kiln" discover apply "$work/reached.toml" --config "$work/kiln.toml" >"$work/apply.out" || fail "kiln discover apply failed"
for label in $labels; do
  grep -q "added function ${address[$label]}" "$work/apply.out" || fail "discover apply did not add $label (${address[$label]})"
done
"$kiln" recompile "$guest" -o "$work/again" --config "$work/kiln.toml" >/dev/null || fail "recompiling with the applied entries failed"
for label in $labels; do
  grep -q "{${address[$label]}ull, g_" "$work/again/function_table.cpp" || fail "$label (${address[$label]}) is not an entry of compiled code after discover apply"
  grep -q "{${address[$label]}ull, s_" "$work/again/fallback_table.cpp" && fail "$label (${address[$label]}) still has a fallback step after discover apply"
done
echo "mid-function entries: $(wc -w <<<"$labels") addresses logged once each; discover apply made them entries of compiled functions"
