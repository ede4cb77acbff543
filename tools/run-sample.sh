#!/usr/bin/env bash
# kiln's main job on the bundled sample, run by `./dev sample` after the build in $1.
# There is no sample title yet (games/ is empty until the recompiler and GPU issues land), so this runs
# the newest end-to-end path that works today and says so.
set -euo pipefail
build="${1:-build}"
kiln="$build/tools/kiln/kiln"
out="out/sample"
mkdir -p "$out"
echo "kiln sample: no sample title exists yet; running the newest end-to-end path that works:"
echo "kiln sample: Vulkan bring-up: list the device, clear a headless target, read it back to a PNG."
"$kiln" gpu info
"$kiln" gpu clear --validation --colour 0.25,0.5,0.75,1 --size 64 -o "$out/clear.png"
echo "kiln sample: wrote $out/clear.png"
