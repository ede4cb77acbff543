#!/bin/sh
# Runs every corpus kernel natively on the NVIDIA GPU of this machine with the same inputs and seeds as kiln's
# lavapipe tests, and records the outputs in tests/translator/fixtures/nvidia/<kernel>.out (corpus_outputs.h),
# plus a README.txt naming the GPU, driver, CUDA version and seed. Commit that folder: the test
# tests/translator/run/test_corpus_against_nvidia.cpp then compares kiln's translations with these outputs.
# Needs the CUDA toolkit (nvcc, the driver API) and a GPU; tests never run this.
#   tests/translator/cuda/run_on_nvidia.sh [SEED] [CUDA_HOME]
# SEED defaults to a fresh random one; the GPU's architecture is detected (nvidia-smi), sm_90 on an H200.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../../.." && pwd)
seed=${1:-$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')}
cuda=${2:-${CUDA_HOME:-/usr/local/cuda}}
nvcc=$cuda/bin/nvcc
[ -x "$nvcc" ] || { echo "run_on_nvidia.sh: no nvcc at $nvcc" >&2; exit 1; }
capability=$(nvidia-smi --query-gpu=compute_cap --format=csv,noheader | head -n 1 | tr -d '.')
out=$repo/tests/translator/fixtures/nvidia
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for source in "$here"/*.cu; do
  stem=$(basename "$source" .cu)
  [ "$stem" = run_on_nvidia ] && continue
  "$nvcc" -cubin -O3 -arch=sm_$capability -o "$work/$stem.cubin" "$source"
done
"$nvcc" -O2 -std=c++20 -I"$repo" -o "$work/run_on_nvidia" "$here/run_on_nvidia.cu" -lcuda
rm -rf "$out"
mkdir -p "$out"
"$work/run_on_nvidia" "$work" "$out" "$seed"
{
  echo "Outputs of the CUDA corpus (tests/translator/cuda) run natively by tests/translator/cuda/run_on_nvidia.sh."
  echo "seed: $seed"
  echo "compiled for: sm_$capability"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -n 1 | sed 's/^/gpu, driver: /'
  "$nvcc" --version | tail -n 2
} > "$out/README.txt"
echo "run_on_nvidia.sh: outputs in $out (seed $seed)"
