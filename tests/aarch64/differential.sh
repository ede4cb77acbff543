#!/bin/sh
# Runs one corpus program under qemu-aarch64 and as the recompiled native build, with the same arguments and
# environment, and requires identical stdout, stderr and exit status.
# usage: differential.sh QEMU GUEST_ELF RECOMPILED_EXE PROGRAM [ARGS...]
set -u
qemu=$1 guest=$2 native=$3
shift 3
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
KILN_CORPUS_VARIABLE=set-for-test "$qemu" "$guest" "$@" >"$work/qemu.out" 2>"$work/qemu.err"
echo $? >"$work/qemu.rc"
KILN_CORPUS_VARIABLE=set-for-test "$native" "$@" >"$work/kiln.out" 2>"$work/kiln.err"
echo $? >"$work/kiln.rc"
status=0
for part in out err rc; do
  if ! cmp -s "$work/qemu.$part" "$work/kiln.$part"; then
    echo "MISMATCH in $part for: $*"
    diff "$work/qemu.$part" "$work/kiln.$part" | head -40
    status=1
  fi
done
[ $status -eq 0 ] && echo "identical: $* ($(wc -c <"$work/qemu.out") bytes stdout, exit $(cat "$work/qemu.rc"))"
exit $status
