#!/bin/sh
# kiln's messages from a recompiled program go to kiln's log, never to the guest's stderr: the corpus program
# `unknown_syscall` asks for system call 1999, which kiln reports ("unknown system call 1999") while the guest
# sees ENOSYS. Checks the default log beside the executable, KILN_LOG=PATH, KILN_LOG=fd:N and KILN_LOG=stderr.
# usage: kiln_log.sh RECOMPILED_EXE
set -u
program=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
message="kiln: unknown system call 1999 (unknown) at guest pc"
fail() { echo "FAIL: $*"; exit 1; }

# the default: PROGRAM.kiln.log next to the executable (copied here so other tests' runs do not mix in)
cp "$program" "$work/program"
env -u KILN_LOG "$work/program" unknown_syscall >"$work/out" 2>"$work/err" || fail "exit status $?"
[ "$(cat "$work/err")" = "the guest's own line on stderr" ] || fail "the guest's stderr holds: $(cat "$work/err")"
grep -q "$message" "$work/program.kiln.log" || fail "no '$message' in $work/program.kiln.log"
grep -q "system call 1999 -1 errno ENOSYS" "$work/out" || fail "the guest did not see ENOSYS"

KILN_LOG="$work/chosen.log" "$work/program" unknown_syscall >/dev/null 2>"$work/err" || fail "exit status $? with KILN_LOG=PATH"
[ "$(cat "$work/err")" = "the guest's own line on stderr" ] || fail "KILN_LOG=PATH: the guest's stderr holds: $(cat "$work/err")"
grep -q "$message" "$work/chosen.log" || fail "KILN_LOG=PATH: no message in the chosen file"

KILN_LOG=fd:7 "$work/program" unknown_syscall >/dev/null 2>"$work/err" 7>"$work/fd.log" || fail "exit status $? with KILN_LOG=fd:7"
[ "$(cat "$work/err")" = "the guest's own line on stderr" ] || fail "KILN_LOG=fd:7: the guest's stderr holds: $(cat "$work/err")"
grep -q "$message" "$work/fd.log" || fail "KILN_LOG=fd:7: no message on descriptor 7"

KILN_LOG=stderr "$work/program" unknown_syscall >/dev/null 2>"$work/err" || fail "exit status $? with KILN_LOG=stderr"
grep -q "$message" "$work/err" || fail "KILN_LOG=stderr: no message on stderr"
grep -q "the guest's own line on stderr" "$work/err" || fail "KILN_LOG=stderr: the guest's line is missing"
echo "kiln's log: default file, KILN_LOG=PATH, fd:7 and stderr all hold the message; the guest's stderr stays clean"
