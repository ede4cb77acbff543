#!/bin/sh
# Rebuilds the CUDA 11.8 fixtures: every corpus file compiled by CUDA 11.8's nvcc/ptxas at -O3 for each architecture
# CUDA 11.8 targets from Maxwell to Hopper, with NVIDIA's own listing of each cubin beside it:
#   tests/translator/fixtures/cuda11.8/sm_XX/<stem>.cubin   and   <stem>.sass   (nvdisasm -hex -c)
# plus sm_53 and sm_86 builds with -G (no optimisation, debug code) in sm_53-G/ and sm_86-G/ of the files whose
# unoptimised code adds forms (local-memory frames and spills, byte-wise moves, unfused conversions; -G listings are
# five times the -O3 size, so only these), and VERSIONS.txt naming the tools.
# Debian 12 ships this toolkit in non-free (package nvidia-cuda-toolkit); its nvcc needs clang-14 as host compiler.
# Tests never run this: they read the committed files. Usage: tests/translator/cuda/regenerate_cuda118.sh [TOOLKIT_BIN]
set -eu
bin=${1:-/usr/lib/nvidia-cuda-toolkit/bin}
here=$(cd "$(dirname "$0")" && pwd)
fixtures=$here/../fixtures/cuda11.8
# nvcc finds ptxas through PATH: the toolkit's own folder must come first, ahead of any other CUDA install.
PATH=$bin:/usr/bin:/bin
export PATH
nvcc=$bin/nvcc
nvdisasm=$(command -v nvdisasm || true)
[ -x "$nvcc" ] || { echo "regenerate_cuda118.sh: no nvcc at $nvcc" >&2; exit 1; }
[ -n "$nvdisasm" ] || { echo "regenerate_cuda118.sh: no nvdisasm in $PATH" >&2; exit 1; }
version=$("$nvcc" --version | tail -n 1)
case $version in *cuda_11.8*) ;; *) echo "regenerate_cuda118.sh: $nvcc is not CUDA 11.8 ($version)" >&2; exit 1 ;; esac
mkdir -p "$fixtures"
unoptimised_sources="local_memory memory_spaces conversions control_flow integer_multiply"
build() { # build ARCH FOLDER "STEMS" FLAGS...  (STEMS "" means every corpus file)
  arch=$1 folder=$fixtures/$2 stems=$3
  shift 3
  rm -rf "$folder"
  mkdir -p "$folder"
  sources=
  if [ -z "$stems" ]; then sources=$(ls "$here"/*.cu); else for stem in $stems; do sources="$sources $here/$stem.cu"; done; fi
  for source in $sources; do
    stem=$(basename "$source" .cu)
    [ "$stem" = run_on_nvidia ] && continue # the host program of run_on_nvidia.sh, not a corpus file
    "$nvcc" -ccbin clang-14 -cubin "$@" -arch=sm_$arch -o "$folder/$stem.cubin" "$source"
    "$nvdisasm" -hex -c "$folder/$stem.cubin" > "$folder/$stem.sass"
  done
}
for arch in 50 52 53 60 61 62 70 72 75 80 86 87 89 90; do build $arch sm_$arch "" -O3; done
for arch in 53 86; do build $arch sm_$arch-G "$unoptimised_sources" -G; done
{
  echo "nvcc:     $("$nvcc" --version | tail -n 2 | tr '\n' ' ')"
  echo "ptxas:    $(ptxas --version | tail -n 2 | tr '\n' ' ')"
  echo "nvdisasm: $("$nvdisasm" --version | tail -n 2 | tr '\n' ' ')"
  echo "host:     $(clang-14 --version | head -n 1)"
} > "$fixtures/VERSIONS.txt"
echo "regenerate_cuda118.sh: $(ls "$fixtures"/*/*.cubin | wc -l) cubins in $fixtures"
