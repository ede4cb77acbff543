#!/usr/bin/env bash
# The porter and modder workflow end to end through the kiln CLI, on the freestanding test program
# fixtures/porting.elf. Expected outputs are derived by hand from fixtures/porting.c (see each case) and the
# unmodified program's output is checked against qemu-aarch64 where it is installed.
# usage: workflow.sh KILN WORK_DIR CASE   (CASE: config-errors, patch-conflicts, porter-build, discovery,
#        discovery-report)
set -uo pipefail
kiln="$1"; work="$2"; case="$3"
here="$(cd "$(dirname "$0")" && pwd)"
elf="$here/fixtures/porting.elf"
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# expect_error NAME REGEX COMMAND...: the command exits 1 and its output matches REGEX.
expect_error() {
  local name="$1" regex="$2"; shift 2
  local out; out="$("$@" 2>&1)"; local rc=$?
  [ "$rc" = 1 ] || fail "$name: exit status $rc, expected 1; output: $out"
  grep -Eq -- "$regex" <<<"$out" || fail "$name: output does not match '$regex': $out"
}
unmodified="compute=22 scale=10 offset=15 secret=1021" # compute(7)=7*3+1, scale(5)=5*2, offset(10)=10+5, secret(3)=3*7+1000
mkdir -p "$work"

case "$case" in
config-errors)
  E="$here/errors"
  expect_error unknown_key "unknown_key\.toml:8: unknown key 'adress' in \[\[hooks\]\] entry" "$kiln" recompile "$elf" -o "$work/x" --config "$E/unknown_key.toml"
  expect_error wrong_type "wrong_type\.toml:8: 'address' in \[\[functions\]\] entry must be an integer, not a string" "$kiln" recompile "$elf" -o "$work/x" --config "$E/wrong_type.toml"
  expect_error hash_mismatch "hash_mismatch\.toml:3: input 'porting\.elf' expects hash xxh128:0123456789abcdef0123456789abcdef, but .*porting\.elf has hash xxh128:[0-9a-f]{32}" \
    "$kiln" recompile "$elf" -o "$work/x" --config "$E/hash_mismatch.toml"
  expect_error syntax "syntax\.toml:2: TOML syntax" "$kiln" recompile "$elf" -o "$work/x" --config "$E/syntax.toml"
  expect_error misaligned "misaligned\.toml:8: 'address' = 0x400252 is not a multiple of 4" "$kiln" recompile "$elf" -o "$work/x" --config "$E/misaligned.toml"
  expect_error missing_config "no-such\.toml: no such config file" "$kiln" recompile "$elf" -o "$work/x" --config "$E/no-such.toml"
  # kiln init records the executable's hash: its config is accepted for the same file.
  rm -f "$work/init.toml"
  "$kiln" init "$elf" -o "$work/init.toml" --title porting-test >/dev/null || fail "kiln init failed"
  grep -q '^hash = "xxh128:[0-9a-f]\{32\}"' "$work/init.toml" || fail "kiln init wrote no hash"
  grep -q '^# Analysis found 7 functions' "$work/init.toml" || fail "kiln init did not report the 7 functions (put, put_field, compute, scale, offset, _start, decoy)"
  "$kiln" recompile "$elf" -o "$work/init_out" --config "$work/init.toml" >/dev/null || fail "the config kiln init wrote is rejected"
  expect_error init_exists "already exists" "$kiln" init "$elf" -o "$work/init.toml"
  ;;
patch-conflicts)
  P="$here/patch_sets"; C="$here/porter/kiln.toml"
  out="$("$kiln" patches check --config "$C" "$P/bigger-offset" "$P/same-instruction" "$P/wrong-title" 2>&1)"; rc=$?
  [ "$rc" = 1 ] || fail "patches check with conflicts exited $rc"
  for regex in "declares a conflict with 'bigger-offset'" "wrong-title.*made for title hash xxh128:0{32}" "depends on 'graphics-pack', which is not applied" \
      "instruction 0x400250 is patched by patch set 'bigger-offset' .*same-instruction" "function 0x400230 is replaced by .*porter/kiln\.toml:[0-9]+ and replaced by patch set 'wrong-title'" \
      "5 conflict\(s\); nothing was built"; do
    grep -Eq -- "$regex" <<<"$out" || fail "patches check: missing '$regex' in: $out"
  done
  "$kiln" patches check --config "$C" "$P/bigger-offset" | grep -q "no conflicts: 1 patch set" || fail "bigger-offset alone should apply"
  # The same conflicts stop a build before anything is generated.
  rm -rf "$work/conflict_out"
  expect_error port_refuses "conflict\(s\) between the title config and the patch sets" "$kiln" port "$elf" -o "$work/conflict_out" --config "$C" --patch "$P/bigger-offset" --patch "$P/same-instruction"
  [ ! -e "$work/conflict_out" ] || fail "a conflicting combination generated files"
  ;;
porter-build)
  # compute: the hook before `add x0, x0, #1` returns 7*3 = 21, the replacement adds 100 -> 121;
  # scale: the hook sets x0 = 43 and branches past the shift to the ret -> 43; offset: bigger-offset's ADD #50, then the after-hook's +1000 -> 1060; secret: stubbed -> 77.
  # Built through a compiler launcher, as ccache, sccache or distcc would be (CMake reads the variable from the
  # environment at the first configure).
  rm -rf "$work/porter" "$work/launcher.log"
  out="$(CMAKE_CXX_COMPILER_LAUNCHER="$here/record_launcher.sh" KILN_LAUNCHER_LOG="$work/launcher.log" \
    "$kiln" port "$elf" -o "$work/porter" --config "$here/porter/kiln.toml" --patch "$here/patch_sets/bigger-offset" -j 2 2>&1)" || fail "kiln port failed: $out"
  grep -q "functions_400160\.cpp" "$work/launcher.log" 2>/dev/null || fail "the generated project did not compile through the launcher"
  grep -q "porter_porter_hooks\.cpp" "$work/launcher.log" 2>/dev/null || fail "the porter's C++ was not compiled through the launcher"
  grep -q "patch set applied: bigger-offset 1.0.0" <<<"$out" || fail "the build output does not list the applied patch set: $out"
  got="$("$work/porter/build/program" 2>&1)"
  [ "$got" = "compute=121 scale=43 offset=1060 secret=77" ] || fail "porter build printed '$got'"
  # Incremental: recompiling the unchanged configuration rewrites nothing.
  again="$("$kiln" recompile "$elf" -o "$work/porter" --config "$here/porter/kiln.toml" --patch "$here/patch_sets/bigger-offset" 2>&1)"
  grep -q " 0 files written" <<<"$again" || fail "an unchanged recompile rewrote files: $again"
  # Without the patch set exactly three files change: the embedded image, the file holding offset(), and
  # porter_glue.cpp (which lists the applied sets); `kiln build` lists the sets the project was made with.
  unpatched="$("$kiln" recompile "$elf" -o "$work/porter" --config "$here/porter/kiln.toml" 2>&1)"
  grep -q " 3 files written" <<<"$unpatched" || fail "dropping the patch set did not rewrite exactly 3 files: $unpatched"
  "$kiln" recompile "$elf" -o "$work/porter" --config "$here/porter/kiln.toml" --patch "$here/patch_sets/bigger-offset" >/dev/null
  "$kiln" build "$work/porter" -j 2 2>&1 | grep -q "^patch set applied: bigger-offset 1.0.0" || fail "kiln build does not list the applied patch set"
  # The sample title's config and patch set stay consistent with each other (its build runs in ./dev sample).
  "$kiln" patches check --config "$here/../../games/sample-aarch64/kiln.toml" reseed | grep -q "no conflicts" || fail "the sample's reseed set no longer applies"
  ;;
discovery)
  if command -v qemu-aarch64 >/dev/null; then
    reference="$(qemu-aarch64 "$elf")"
    [ "$reference" = "$unmodified" ] || fail "qemu-aarch64 printed '$reference'"
  fi
  rm -rf "$work/discovery" && mkdir -p "$work/discovery" && cp "$here/discovery/kiln.toml" "$work/discovery/kiln.toml"
  cfg="$work/discovery/kiln.toml"
  "$kiln" port "$elf" -o "$work/discovery/out" --config "$cfg" -j 2 >/dev/null 2>&1 || fail "first build failed"
  program="$work/discovery/out/build/program"
  # put_field, compute, scale and offset are left out (ignored) and secret() is unknown: all run through the
  # fallback interpreter, and the output stays the same.
  stdout="$(KILN_LOG=stderr KILN_DISCOVERY_LOG="$work/discovery/run1.toml" "$program" 2>"$work/discovery/run1.err")"
  [ "$stdout" = "$unmodified" ] || fail "through the fallback the program printed '$stdout'"
  grep -q "0x500010 was not recompiled; running it in the fallback interpreter" "$work/discovery/run1.err" || fail "secret's address was not logged"
  for address in 0x400190 0x400230 0x400240 0x400250; do
    grep -q "$address was not recompiled" "$work/discovery/run1.err" || fail "the ignored function at $address was not logged"
  done
  "$kiln" discover apply "$work/discovery/run1.toml" --config "$cfg" | grep -q "added function 0x500010" || fail "discover apply did not add 0x500010"
  grep -q "^address = 0x500010" "$cfg" || fail "kiln.toml has no entry for 0x500010"
  "$kiln" port "$elf" -o "$work/discovery/out" --config "$cfg" -j 2 >/dev/null 2>&1 || fail "rebuild failed"
  stdout="$(KILN_LOG=stderr "$program" 2>"$work/discovery/run2.err")"
  [ "$stdout" = "$unmodified" ] || fail "after discover apply the program printed '$stdout'"
  grep -q "0x500010" "$work/discovery/run2.err" && fail "secret still ran through the fallback after discover apply"
  grep -q "0x400250 was not recompiled" "$work/discovery/run2.err" || fail "the ignored functions should still run through the fallback"
  # Without the [[ignore]] entries the program is fully native: nothing reaches the fallback.
  sed '/^# begin ignored/,/^# end ignored/d' "$cfg" > "$work/discovery/native.toml"
  grep -q '^\[\[ignore' "$work/discovery/native.toml" && fail "the [[ignore]] block was not removed"
  "$kiln" port "$elf" -o "$work/discovery/out" --config "$work/discovery/native.toml" -j 2 >/dev/null 2>&1 || fail "native rebuild failed"
  stdout="$(KILN_LOG=stderr "$program" 2>"$work/discovery/run3.err")"
  [ "$stdout" = "$unmodified" ] || fail "the fully native build printed '$stdout'"
  [ ! -s "$work/discovery/run3.err" ] || fail "the fully native build still used the fallback: $(cat "$work/discovery/run3.err")"
  ;;
discovery-report)
  # fixtures/report.S (addresses from fixtures/report.lst): computed's `br x1` at 0x400094 is unresolved;
  # dispatch's table (bounded by `cmp w0, #2`) sends case 2 to 0x4000c8, past dispatch's end; the word at
  # 0x400088 is unallocated and reached by falling through from _start's nop.
  report_elf="$here/fixtures/report.elf"
  "$kiln" recompile "$report_elf" -o "$work/report" --no-config >/dev/null || fail "recompiling report.elf failed"
  report="$work/report/discovery.toml"
  for regex in '^\[\[unresolved_branch\]\]$' '^address = 0x400094$' '^instruction = "br x1"$' '^address = 0x4000b4$' \
      '^problem = "case 2 targets 0x4000c8, outside the function \[0x400098, 0x4000c8\)"$' '^table = 0x4000cc$' \
      '^\[\[undecodable\]\]$' '^address = 0x400088$' '^encoding = 0xffffffff$' '^function = "_start"$'; do
    grep -Eq -- "$regex" "$report" || fail "discovery.toml lacks '$regex'"
  done
  [ "$(grep -c '^\[\[unresolved_branch\]\]$' "$report")" = 2 ] || fail "expected 2 unresolved branches in discovery.toml"
  # A [[jump_tables]] hint resolves dispatch's branch: one unresolved branch left, no jump-table problem.
  "$kiln" recompile "$report_elf" -o "$work/report" --config "$here/report/kiln.toml" | grep -q "1 jump tables, 1 unresolved indirect branches" \
    || fail "the jump-table hint did not resolve dispatch's branch"
  grep -q '^\[\[jump_table\]\]' "$report" && fail "the hinted jump table is still reported"
  cp "$here/report/kiln.toml" "$work/report.toml"
  "$kiln" discover apply "$report" --config "$work/report.toml" | grep -q "1 unresolved indirect branch(es), 0 jump table(s)" \
    || fail "discover apply does not summarise a recompile-time report"
  ;;
*) echo "unknown case $case"; exit 2 ;;
esac
[ "$failures" = 0 ] && echo "porting $case: passed" || { echo "porting $case: $failures failure(s)"; exit 1; }
