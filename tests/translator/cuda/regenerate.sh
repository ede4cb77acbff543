#!/bin/sh
# Rebuilds the committed cubin fixtures from the CUDA sources in this folder, for sm_86 and sm_75, at -O3.
# Where nvdisasm exists (full CUDA toolkit), also writes NVIDIA's listing of each cubin next to it:
#   tests/translator/fixtures/sm86/<stem>.cubin   tests/translator/fixtures/sm86/<stem>.sass  (nvdisasm -hex)
#   tests/translator/fixtures/sm75/<stem>.cubin   tests/translator/fixtures/sm75/<stem>.sass
# Tests never run this: they read the committed files. Usage: tests/translator/cuda/regenerate.sh [CUDA_HOME]
set -eu
cuda=${1:-${CUDA_HOME:-/usr/local/cuda}}
here=$(cd "$(dirname "$0")" && pwd)
fixtures=$here/../fixtures
nvcc=$cuda/bin/nvcc
nvdisasm=$cuda/bin/nvdisasm
[ -x "$nvcc" ] || { echo "regenerate.sh: no nvcc at $nvcc" >&2; exit 1; }
"$nvcc" --version | tail -n 2
for arch in 86 75; do
  out=$fixtures/sm$arch
  mkdir -p "$out"
  for source in "$here"/*.cu; do
    stem=$(basename "$source" .cu)
    [ "$stem" = run_on_nvidia ] && continue # the host program of run_on_nvidia.sh, not a corpus file
    "$nvcc" -cubin -O3 -arch=sm_$arch -o "$out/$stem.cubin" "$source"
    if [ -x "$nvdisasm" ]; then
      "$nvdisasm" -hex "$out/$stem.cubin" > "$out/$stem.sass"
    fi
  done
done
if [ ! -x "$nvdisasm" ]; then
  echo "regenerate.sh: no nvdisasm at $nvdisasm: cubins rebuilt, listings left as they were" >&2
fi
