#!/bin/sh
# Runs each benchmark three ways in one go and prints the ratios side by side:
#   native  = the same C compiled for x86-64 with gcc -O2
#   kiln    = the static guest build (AArch64 or ppc32) recompiled by kiln
#   qemu    = that guest build under qemu-user (qemu-aarch64, qemu-ppc)
# Times are CPU seconds (user + system, as /usr/bin/time counts them), the best of 3 runs; every run's output
# must equal the native run's.
# usage: run_bench.sh NATIVE_EXE GUEST_ELF RECOMPILED_EXE QEMU BENCHMARK...
set -eu
native=$1 guest=$2 recompiled=$3 qemu=$4
shift 4
[ $# -gt 0 ] || { echo "usage: run_bench.sh NATIVE_EXE GUEST_ELF RECOMPILED_EXE QEMU BENCHMARK..." >&2; exit 2; }
times=$(mktemp)
trap 'rm -f "$times"' EXIT
seconds() { # best of 3 CPU times, then the output
  best=""
  for run in 1 2 3; do
    out=$(/usr/bin/time -f "%U %S" -o "$times" "$@")
    t=$(awk '{ print $1 + $2 }' "$times")
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
  done
  echo "$best $out"
}
printf "%-10s %10s %10s %10s %14s %14s\n" benchmark native_s kiln_s qemu_s kiln/native qemu/kiln
for b in "$@"; do
  n=$(seconds "$native" "$b"); k=$(seconds "$recompiled" "$b"); q=$(seconds "$qemu" "$guest" "$b")
  nt=${n%% *}; kt=${k%% *}; qt=${q%% *}
  [ "${n#* }" = "${k#* }" ] && [ "${n#* }" = "${q#* }" ] || { echo "output differs for $b: '${n#* }' '${k#* }' '${q#* }'"; exit 1; }
  printf "%-10s %10.3f %10.3f %10.3f %13.2fx %13.2fx\n" "$b" "$nt" "$kt" "$qt" "$(echo "$kt / $nt" | bc -l)" "$(echo "$qt / $kt" | bc -l)"
done
