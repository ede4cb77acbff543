#!/bin/sh
# Runs each benchmark three ways in one go and prints the ratios side by side:
#   native  = the same C compiled for x86-64 with gcc -O2
#   kiln    = the static AArch64 build (aarch64-linux-gnu-gcc -O2 -static) recompiled by kiln
#   qemu    = that AArch64 build under qemu-aarch64
# usage: run_bench.sh NATIVE_EXE GUEST_ELF RECOMPILED_EXE QEMU
set -eu
native=$1 guest=$2 recompiled=$3 qemu=$4
seconds() { # best of 3 wall-clock runs, output checked against the native run
  best=""
  for run in 1 2 3; do
    start=$(date +%s.%N)
    out=$("$@")
    end=$(date +%s.%N)
    t=$(echo "$end - $start" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$t < $best" | bc -l)" = 1 ]; then best=$t; fi
  done
  echo "$best $out"
}
printf "%-10s %10s %10s %10s %14s %14s\n" benchmark native_s kiln_s qemu_s kiln/native qemu/kiln
for b in integer floating memory; do
  n=$(seconds "$native" $b); k=$(seconds "$recompiled" $b); q=$(seconds "$qemu" "$guest" $b)
  nt=${n%% *}; kt=${k%% *}; qt=${q%% *}
  [ "${n#* }" = "${k#* }" ] && [ "${n#* }" = "${q#* }" ] || { echo "output differs for $b: '${n#* }' '${k#* }' '${q#* }'"; exit 1; }
  printf "%-10s %10.3f %10.3f %10.3f %13.2fx %13.2fx\n" $b $nt $kt $qt "$(echo "$kt / $nt" | bc -l)" "$(echo "$qt / $kt" | bc -l)"
done
