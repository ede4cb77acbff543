#!/bin/sh
# exefs_runs.sh KILN MAKE_NSO MAKE_NPDM FIXTURES WORKDIR: the test ExeFS (fixtures/exefs: a main module calling
# into an sdk module through dynamic symbols) made into NSOs and a main.npdm, then recompiled, built and run three
# ways, each run's lines and exit status checked:
#   1. as made: every import resolved; the numbers are the sources' own (2 + 3, 40 + 2 from sdk's initialiser,
#      2 * main_value()...), priority 44 and the 0x40000 stack are what main.npdm says, lm is allowed, and
#      main.npdm's FS permissions and system resource size reach the runtime (its start-up line);
#   2. main.npdm allowing only "fsp*" (kiln port): GetService("lm") answers sm's NotAllowed, 0x1015, logged by name;
#   3. sdk without sdk_feature: the recompile lists the unresolved import and the call stops the run, naming it;
#   4. the first folder's files packed into a PFS0 (an NSP) by make_pfs0: recompiled, built and run the same;
#   5. the folder with a kiln.toml (kiln init) patching sdk_add's `add w0, w0, w1` (0x0b010000, at 0x7100200230
#      in the linked image: sdk's base + the symbol's 0x230) into `mul w0, w0, w1` (0x1b017c00).
set -e
kiln=$1 make_nso=$2 make_npdm=$3 fixtures=$4 work=$5 make_pfs0=$6
rm -rf "$work" && mkdir -p "$work/exefs"
"$make_nso" "$fixtures/main.elf" "$work/exefs/main"
"$make_nso" "$fixtures/sdk.elf" "$work/exefs/sdk"
npdm() {
  "$make_npdm" "$1" --program-id 0100000000001234 --name exefs-test --priority 44 --stack-size 40000 --service "$2" \
    --fs-access 200000 --system-resource-size 100000
}
npdm "$work/exefs/main.npdm" lm
fail() { echo "FAILED: $*"; exit 1; }
# run FOLDER-OF-PROJECT EXPECTED-STATUS: runs the program, prints its output, checks the status
run() {
  status=0
  "$1/build/program" > "$work/run.log" 2>&1 || status=$?
  cat "$work/run.log"
  [ "$status" = "$2" ] || fail "exit status $status, expected $2"
}
expect_lines() { # the run's guest lines must be exactly these
  grep '^kiln: guest: ' "$work/run.log" | sed 's/^kiln: guest: //' > "$work/lines"
  printf '%s\n' "$@" > "$work/expected"
  diff "$work/expected" "$work/lines" || fail "guest lines differ"
}

"$kiln" recompile --no-config "$work/exefs" -o "$work/out" | tee "$work/recompile.log"
grep -q " 0 unresolved indirect branches" "$work/recompile.log" || fail "unresolved indirect branches"
grep -q "imports resolved: 16; unresolved: 0; initialisers: 1" "$work/recompile.log" || fail "recompile summary"
"$kiln" build "$work/out" -j 2
run "$work/out" 0
expect_lines "main: started" "main: x0 = 0" "main: main thread priority = 44" "main: stack region size = 0x40000" \
  "main: sdk_add(2, 3) = 5" "main: through a pointer, sdk_add(4, 5) = 9" "main: sdk_counter = 42" \
  "main: sdk_twice_main_value() = 42" "main: GetService(lm) = 0x0" "main: sdk_feature(7) = 42" "main: done"
# main.npdm's FS permissions (SdCard, ACID allowing all) and system resource size reached the runtime.
grep -q "^kiln: switch title 0100000000001234: FS permissions 0x200000, system resource size 0x100000 (main.npdm)$" "$work/run.log" ||
  fail "the title access did not reach the runtime"

mkdir -p "$work/sac" && cp "$work/exefs/main" "$work/exefs/sdk" "$work/sac/"
npdm "$work/sac/main.npdm" "fsp*"
"$kiln" port --no-config "$work/sac" -o "$work/out" -j 2
run "$work/out" 0
grep -q "GetService(\"lm\") at guest address 0x[0-9a-f]*: 'lm' is not in the title's service access control (main.npdm); replying 0x1015" "$work/run.log" ||
  fail "no NotAllowed message naming lm"
grep -q "^kiln: guest: main: GetService(lm) = 0x1015$" "$work/run.log" || fail "GetService(lm) did not answer 0x1015"
grep -q "^kiln: guest: main: done$" "$work/run.log" || fail "the run did not go on"

mkdir -p "$work/unresolved" && cp "$work/exefs/main" "$work/exefs/main.npdm" "$work/unresolved/"
"$make_nso" "$fixtures/sdk_without_feature.elf" "$work/unresolved/sdk"
"$kiln" recompile --no-config "$work/unresolved" -o "$work/out" | tee "$work/recompile.log"
grep -q "unresolved import sdk_feature (imported by main): its stub at 0x7100400000 stops the program naming it" "$work/recompile.log" ||
  fail "the recompile does not list sdk_feature"
# discovery.toml lists it for the porter, with its importer and stub; `kiln discover apply` counts it.
grep -A4 '^\[\[unresolved_import\]\]$' "$work/out/discovery.toml" > "$work/import.toml" || fail "discovery.toml has no unresolved import"
printf '%s\n' '[[unresolved_import]]' 'symbol = "sdk_feature"' 'imported_by = ["main"]' 'weak = false' 'stub = 0x7100400000' |
  diff - "$work/import.toml" || fail "discovery.toml's unresolved import"
"$kiln" init "$work/unresolved" -o "$work/discover.toml" --force > /dev/null
"$kiln" discover apply "$work/out/discovery.toml" --config "$work/discover.toml" | grep -q ", 1 unresolved import(s) (for the porter" ||
  fail "kiln discover apply does not count the unresolved import"
"$kiln" build "$work/out" -j 2
run "$work/out" 74
grep -q "^kiln: guest: unresolved import 'sdk_feature' called (imported by main; no module of the ExeFS exports it)$" "$work/run.log" ||
  fail "no message naming sdk_feature"
grep -q "^kiln: guest: main: sdk_feature" "$work/run.log" && fail "the call to sdk_feature returned"

"$make_pfs0" "$work/title.nsp" "$work/exefs/main.npdm" "$work/exefs/main" "$work/exefs/sdk"
"$kiln" recompile --no-config "$work/title.nsp" -o "$work/out" | tee "$work/recompile.log"
grep -q "imports resolved: 16; unresolved: 0; initialisers: 1" "$work/recompile.log" || fail "the NSP's recompile summary"
"$kiln" build "$work/out" -j 2
run "$work/out" 0
expect_lines "main: started" "main: x0 = 0" "main: main thread priority = 44" "main: stack region size = 0x40000" \
  "main: sdk_add(2, 3) = 5" "main: through a pointer, sdk_add(4, 5) = 9" "main: sdk_counter = 42" \
  "main: sdk_twice_main_value() = 42" "main: GetService(lm) = 0x0" "main: sdk_feature(7) = 42" "main: done"

"$kiln" init "$work/exefs" -o "$work/exefs/kiln.toml" --force
printf '\n[[patches]]\naddress = 0x7100200230\noriginal = 0x0b010000\nencoding = 0x1b017c00\n' >> "$work/exefs/kiln.toml"
"$kiln" recompile --config "$work/exefs/kiln.toml" "$work/exefs" -o "$work/out"
"$kiln" build "$work/out" -j 2
run "$work/out" 0
grep -q "^kiln: guest: main: sdk_add(2, 3) = 6$" "$work/run.log" || fail "the patched sdk_add did not multiply"
grep -q "^kiln: guest: main: through a pointer, sdk_add(4, 5) = 20$" "$work/run.log" || fail "the patch through the pointer"
# A patch expecting another word is refused, naming the line and the linked image.
sed -i 's/^original = 0x0b010000$/original = 0x0b020000/' "$work/exefs/kiln.toml"
"$kiln" recompile --config "$work/exefs/kiln.toml" "$work/exefs" -o "$work/out" > "$work/patch.log" 2>&1 && fail "a wrong original was accepted"
grep -q "kiln.toml:[0-9]*: patch at 0x7100200230 expects instruction 0x0b020000, but $work/exefs (linked image) holds 0x0b010000 there" "$work/patch.log" ||
  { cat "$work/patch.log"; fail "the refused patch's message"; }
rm "$work/exefs/kiln.toml"
echo "exefs runs: linked, NotAllowed outside the SAC, unresolved import named, the NSP runs, patched"
