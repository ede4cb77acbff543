#!/usr/bin/env bash
# A title's kiln.toml on the fixed-width front ends (MIPS, PowerPC), through the kiln CLI, on the freestanding
# program of tests/mips32 or tests/ppc32 (entered_inside: `x + 1000`, a call of report_inside, then `x + 7`).
# Addresses come from the ELF's symbols (nm); expected outputs are derived by hand from freestanding.c (the mips32
# program prints each number in decimal, then in hex).
# usage: fixed_width.sh KILN ELF NM QEMU ISA WORK_DIR CASE   (ISA: mips or ppc; CASE: hints, patch, errors)
set -uo pipefail
kiln="$1"; elf="$2"; nm="$3"; qemu="$4"; isa="$5"; work="$6"; case="$7"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
expect_error() { # NAME REGEX COMMAND...: exit status 1 and output matching REGEX
  local name="$1" regex="$2"; shift 2
  local out; out="$("$@" 2>&1)"; local rc=$?
  [ "$rc" = 1 ] || fail "$name: exit status $rc, expected 1; output: $out"
  grep -Eq -- "$regex" <<<"$out" || fail "$name: output does not match '$regex': $out"
}
symbol() { local a; a=$("$nm" "$elf" | awk -v s="$1" '$3 == s { print "0x" $1 }'); [ -n "$a" ] && printf '%#x' "$a"; }
hex() { printf '%#x' "$1"; }
inside=$(symbol entered_inside); report=$(symbol report_inside)
[ -n "$inside" ] && [ -n "$report" ] || { echo "FAIL: no entered_inside/report_inside symbols in $elf"; exit 1; }
# The `x + 7` instruction of entered_inside, and the same instruction adding 8 (hand-assembled).
case "$isa" in
  mips) add7=$(hex $((inside + 32))); original=0x24420007; patched=0x24420008; name=MIPS ;; # addiu $v0, $v0, 7
  ppc) add7=$(hex $((inside + 36))); original=0x38630007; patched=0x38630008; name=PowerPC ;; # addi r3, r3, 7
  *) echo "FAIL: unknown ISA $isa"; exit 1 ;;
esac
mkdir -p "$work"
config="$work/kiln.toml"
rm -f "$config"
"$kiln" init "$elf" -o "$config" --title freestanding >/dev/null || fail "kiln init failed"
grep -q '^hash = "xxh128:[0-9a-f]\{32\}"' "$config" || fail "kiln init wrote no hash"
grep -q '^platform = "linux-user"' "$config" || fail "kiln init wrote no platform"
base="$(cat "$config")"
with() { printf '%s\n\n%s\n' "$base" "$1" > "$config"; } # the config kiln init wrote plus entries

# run OUT_DIR CASE: the recompiled program's stdout and exit status
run() { "$1/build/program" "$2" 2>&1; echo "exit $?"; }

case "$case" in
hints)
  # A function entry at entered_inside + 4 (the pointer the program computes at run time), and report_inside left
  # to the fallback interpreter: the output stays the one qemu gives.
  with "[[functions]]
address = $(hex $((inside + 4)))
name = \"entered_inside_skipping_the_first_add\"

[[ignore]]
address = $report"
  out="$("$kiln" port "$elf" -o "$work/hints" --config "$config" -j 2 2>&1)" || fail "kiln port with hints failed: $out"
  grep -q "config: $config" <<<"$out" || fail "the summary does not name the config: $out"
  grep -q "ignored: 1 functions run in the fallback interpreter" <<<"$out" || fail "the summary does not count the ignored function: $out"
  grep -q "f_$(printf '%08x' $((inside + 4)))" "$work/hints/functions.h" || fail "no recompiled function at entered_inside + 4"
  ! grep -q "f_$(printf '%08x' $((report)))" "$work/hints/functions.h" || fail "the ignored report_inside was recompiled"
  for c in inside switch; do
    expected="$("$qemu" "$elf" "$c" 2>&1; echo "exit $?")"
    actual="$(run "$work/hints" "$c")"
    [ "$expected" = "$actual" ] || fail "case $c differs from qemu: expected '$expected', got '$actual'"
  done
  ;;
patch)
  # entered_inside's `x + 7` patched to `x + 8`: entered one instruction in, 5 + 8 = 13; from the top, 5 + 1000 + 8.
  with "[[patches]]
address = $add7
encoding = $patched
original = $original"
  "$kiln" port "$elf" -o "$work/patch" --config "$config" -j 2 >/dev/null 2>&1 || fail "kiln port with a patch failed"
  actual="$(run "$work/patch" inside)"
  grep -Eq "^entered inside 13( |$)" <<<"$actual" || fail "patched entry inside: $actual"
  grep -Eq "^entered at the top 1013( |$)" <<<"$actual" || fail "patched entry at the top: $actual"
  grep -qx "exit 0" <<<"$actual" || fail "patched program's exit status: $actual"
  ;;
errors)
  line_of() { grep -n "^$1" "$config" | tail -n 1 | cut -d: -f1; }
  with "[[stubs]]
address = $report"
  expect_error stub "kiln.toml:$(line_of '\[\[stubs'): stubs are not supported for $name programs yet" "$kiln" recompile "$elf" -o "$work/x"  --config "$config"
  with "[[patches]]
address = $add7
encoding = $patched
original = $patched"
  expect_error wrong_original "kiln.toml:$(line_of '\[\[patches'): patch at $add7 expects instruction $patched, but .* holds $original there" \
    "$kiln" recompile "$elf" -o "$work/x" --config "$config"
  with "[[ignore]]
address = $(hex $((report + 4)))"
  expect_error ignore_inside "kiln.toml:$(line_of '\[\[ignore'): ignored function $(hex $((report + 4))) is inside function $report, not at its start" \
    "$kiln" recompile "$elf" -o "$work/x" --config "$config"
  with "[[functions]]
address = 0x10"
  expect_error outside "kiln.toml:$(line_of '\[\[functions'): function 0x10 is not an instruction address of the program's code" \
    "$kiln" recompile "$elf" -o "$work/x" --config "$config"
  with "[[jump_tables]]
branch = $inside
targets = [$report]"
  expect_error not_indirect "kiln.toml:$(line_of '\[\[jump_tables'): jump table branch $inside is not an indirect jump" \
    "$kiln" recompile "$elf" -o "$work/x" --config "$config"
  ;;
*) echo "unknown case $case"; exit 2 ;;
esac
[ "$failures" = 0 ] && echo "fixed-width config $isa $case: passed"
exit "$failures"
