#!/bin/sh
# Recompiles a mipsel ELF and builds it with the generated functions at a chosen optimization level.
# usage: recompile_and_build.sh KILN GUEST_ELF OUTPUT_DIR OPTIMIZATION JOBS
set -eu
kiln=$1 guest=$2 output=$3 level=$4 jobs=$5
"$kiln" recompile "$guest" -o "$output"
cmake -S "$output" -B "$output/build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKILN_GENERATED_OPTIMIZATION="$level" >"$output/configure.log"
"$kiln" build "$output" -j "$jobs"
