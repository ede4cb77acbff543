#!/bin/sh
# The lines sample_lines() computes must be the same from the recompiled Switch NRO (through lm) and from the
# linux-user build of the same C under qemu-aarch64 (the oracle). Usage: QEMU LINUX_ELF SWITCH_PROGRAM
set -e
expected=$("$1" "$2")
actual=$("$3" 2>&1 | sed -n 's/^kiln: guest lm: //p' | grep -e '^fibonacci' -e '^collatz' -e '^fnv1a')
if [ "$expected" != "$actual" ]; then
  printf 'linux-user (qemu-aarch64):\n%s\nswitch (recompiled):\n%s\n' "$expected" "$actual"
  exit 1
fi
printf '%s\nsame %s lines\n' "$actual" "$(printf '%s\n' "$actual" | wc -l)"
