#!/bin/sh
# Runs a bundle made by make_bundle.sh on this machine's Vulkan driver: unpacks it into the build folder at the path
# the tests were configured with (SOURCE/build, SOURCE being where the source tree was when the bundle was made), then
# runs ctest there with the given arguments. Usage, in the source tree's copy:
#   tools/gpu-oracle/run_bundle.sh BUNDLE.tar.xz ORIGINAL_SOURCE_PATH LOG CTEST_ARGS...
set -eu
bundle=$(cd "$(dirname "$1")" && pwd)/$(basename "$1") original=$2 log=$3
shift 3
tree=$(cd "$(dirname "$0")/../.." && pwd)
if [ "$tree" != "$original" ]; then
  mkdir -p "$(dirname "$original")"
  ln -sfn "$tree" "$original"
fi
mkdir -p "$original/build"
python3 -c 'import sys, tarfile; tarfile.open(sys.argv[1]).extractall(sys.argv[2])' "$bundle" "$original/build"
[ -d "$original/build/.oracle-shared" ] && ln -sfn "$original/build/.oracle-shared" "$(dirname "$original")/shared"
# The tests call cmake -E env by its configured path.
[ -x /usr/bin/cmake ] || ln -s "$(command -v cmake)" /usr/bin/cmake
# Also for the libraries' own dependencies that name a run path of their own (libpulse's pulseaudio folder).
export LD_LIBRARY_PATH="$original/build/.oracle-lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
export VK_LAYER_PATH="$original/build/.oracle-lib/layers"
for icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json /etc/vulkan/icd.d/nvidia_icd.json; do
  if [ -f "$icd" ]; then export VK_DRIVER_FILES="$icd" VK_ICD_FILENAMES="$icd"; break; fi
done
echo "driver manifest: ${VK_DRIVER_FILES:-none found}" | tee "$log"
cd "$original/build"
ctest --output-on-failure "$@" 2>&1 | tee -a "$log"
