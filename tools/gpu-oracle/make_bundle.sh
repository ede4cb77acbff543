#!/bin/sh
# Packs the GPU test suites of a built tree so they run on another Linux machine's Vulkan driver (a second Vulkan
# implementation as an oracle, docs/renderer.md): every executable the selected CTest tests run from the build tree,
# stripped and pointed at the Debian 12 shared libraries packed beside them (so the other machine's
# own libraries do not matter; it needs a C library and libstdc++ at least as new as Debian 12's), the Vulkan loader, the validation layers, the CTest files and
# the headsurface corpus. Unpacked into BUILD on the other machine, with the source tree at the same path, `ctest`
# runs the same tests there (the other machine's cmake/ctest run them). KILN_BUNDLE_SKIP names executables to leave
# out (e.g. "kiln", which links LLVM). Needs patchelf. Usage:
#   tools/gpu-oracle/make_bundle.sh BUILD OUT.tar.xz CTEST_ARGS...    e.g.  build /tmp/gpu.tar.xz -L gpu
set -eu
build=$(cd "$1" && pwd) out=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)
source_dir=$(cd "$here/../.." && pwd)
command -v patchelf >/dev/null || { echo "make_bundle.sh: patchelf is needed (apt-get install patchelf)" >&2; exit 1; }
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
lib=$build/.oracle-lib   # the path the packed executables look for their libraries at, on both machines
mkdir -p "$stage/.oracle-lib"
executables=$(ctest --test-dir "$build" --show-only=json-v1 "$@" | python3 -c '
import json, sys
build = sys.argv[1]
for test in json.load(sys.stdin)["tests"]:
    for word in test.get("command", []):
        if word.startswith(build + "/"): print(word)
' "$build" | sort -u)
[ -n "$executables" ] || { echo "make_bundle.sh: no test of '$*' runs an executable of $build" >&2; exit 1; }
pack() { # pack FILE DESTINATION: dynamically linked executables, stripped, get the packed loader and library path
  mkdir -p "$(dirname "$2")"
  cp "$1" "$2"
  if patchelf --print-interpreter "$1" >/dev/null 2>&1; then # a dynamically linked host executable
    strip "$2" 2>/dev/null || true
    patchelf --force-rpath --set-rpath "$lib" "$2"  # DT_RPATH: also searched for the libraries' own dependencies
    ldd "$1" | awk '/=> \//{print $3}' >> "$stage/libraries"
  fi
}
for file in $executables; do
  case " $KILN_BUNDLE_SKIP " in *" ${file##*/} "*) continue ;; esac
  [ -f "$file" ] && pack "$file" "$stage/${file#"$build"/}"
done
# Vulkan loader and validation layer (loaded at run time, so ldd of the executables does not name them).
for so in /usr/lib/x86_64-linux-gnu/libvulkan.so.1 /usr/lib/x86_64-linux-gnu/libVkLayer_khronos_validation.so; do
  echo "$so" >> "$stage/libraries"
  ldd "$so" | awk '/=> \//{print $3}' >> "$stage/libraries"
done
# The C and C++ runtimes stay the other machine's own: its Vulkan driver and the libraries that driver loads need
# them at least as new as it has (a glibc older than those libraries fails them), and newer ones run these
# executables too.
sort -u "$stage/libraries" | grep -v -E '/(libc|libm|libdl|librt|libpthread|libstdc\+\+|libgcc_s)\.so' |
  while read -r so; do cp -L "$so" "$stage/.oracle-lib/"; done
rm "$stage/libraries"
mkdir -p "$stage/.oracle-lib/layers"
sed "s#\"library_path\": *\"[^\"]*\"#\"library_path\": \"$lib/libVkLayer_khronos_validation.so\"#" \
  /usr/share/vulkan/explicit_layer.d/VkLayer_khronos_validation.json > "$stage/.oracle-lib/layers/VkLayer_khronos_validation.json"
# The CTest files and the test lists they include (Catch's discovered tests).
(cd "$build" && find . -path ./CMakeFiles -prune -o \( -name '*.cmake' -o -name DartConfiguration.tcl \) -print) | while read -r file; do
  mkdir -p "$stage/$(dirname "$file")"
  cp "$build/$file" "$stage/$file"
done
# Test data that lives outside the build tree and outside the source tree.
if [ -d "$source_dir/../shared/corpus/nvidia-headsurface" ]; then
  mkdir -p "$stage/.oracle-shared/corpus"
  cp -r "$source_dir/../shared/corpus/nvidia-headsurface" "$stage/.oracle-shared/corpus/"
fi
tar -C "$stage" -cf - . | xz -T2 -6 > "$out"
echo "make_bundle.sh: $(echo "$executables" | wc -l) executables, $(ls "$stage/.oracle-lib" | wc -l) libraries, $(du -h "$out" | cut -f1) in $out"
