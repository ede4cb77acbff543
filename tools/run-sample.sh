#!/usr/bin/env bash
# kiln's main job on the bundled sample, run by `./dev sample` after the build in $1 (kiln and make_nso):
#  1. build games/sample-switch (our own Switch homebrew) into an NRO, recompile and build it, run it headless:
#     its PNG frames (through nvdrv and vi), its save file (fsp-srv) and its tone (audout:u, a WAV),
#  2. build games/sample-aarch64 (our own C program) as a static AArch64 Linux executable,
#  3. recompile it to C++ and build the native program (`kiln port`),
#  4. run the native program and the original under qemu-aarch64, and require identical output,
#  5. build games/sample-triangle and games/sample-scene (our own GPU titles: nvgpu ioctls, pushbuffers, fences;
#     sample-scene a second time for the Ampere classes with SM86 programs, whose frames must equal the Maxwell ones)
#     as one program, check that each stops cleanly under qemu-aarch64 (no GPU there), recompile it and run
#     each title on kiln's nvgpu devices, which write their PNG frames; print where they are,
#  6. list the Vulkan device and render + read back a target (bring-up check),
#  7. recompile and run games/sample-psx beside kiln's interpreter, and games/sample-gamecube (our own bare-metal
#     Gekko program) from its disc image: its UART lines and GX command stream against values worked out by hand.
# The GPU titles' frames come from the 2D, inline-to-memory, copy and 3D engines (a textured, depth-tested,
# blended triangle scene, and a rotating cube textured by render to texture, drawn by kiln's Vulkan renderer;
# docs/nvgpu.md and games/sample-scene/README.md say what is drawn).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
build="$(cd "${1:-$root/build}" && pwd)"
kiln="$build/tools/kiln/kiln"
out="$root/out/sample"
mkdir -p "$out"

echo "== kiln sample: games/sample-switch -> NRO (our own crt0 and IPC layer, no libnx), recompiled, run headless"
# Its scene through nvdrv and vi (an orange square on green ground under a dark blue sky, moved by hid's left
# stick: headless, it stays), its score in fsp-srv save data, its tone through audout:u.
switch_out="$out/switch"
switch_run="$switch_out/run"
"$root/games/sample-switch/build.sh" "$build/tests/switch/make_nso" "$switch_out"
"$kiln" recompile --no-config "$switch_out/sample-switch.nro" -o "$switch_out/project" > "$switch_out/recompile.log"
"$kiln" build "$switch_out/project" -j "$(nproc)" > "$switch_out/build.log" 2>&1 || { cat "$switch_out/build.log"; exit 1; }
rm -rf "$switch_run/frames" && mkdir -p "$switch_run/frames"
(cd "$switch_run" && KILN_VULKAN_VALIDATION=1 KILN_FRAME_DIR="$switch_run/frames" "$switch_out/project/build/program" 2>&1 |
  grep -v '^kiln: guest: ')  # each line comes once from lm and once from OutputDebugString: show lm's
switch_save="$switch_run/kiln-save/0100000000010000/00000000000000000000000000000000/score.bin"
echo "kiln sample: Switch frames in $switch_run/frames, save file $switch_save, tone in $switch_run/kiln-audout.wav"

echo "== kiln sample: games/sample-aarch64 -> static AArch64 ELF"
aarch64-linux-gnu-gcc -static -O2 -o "$out/sample.elf" "$root/games/sample-aarch64/main.c" -lm

# A project recompiled from an older ELF goes: its build does not notice that the embedded guest image changed.
fresh_port() { cmp -s "$1" "$2/program.elf" 2>/dev/null || rm -rf "$2"; }
echo "== kiln sample: kiln port (recompile to C++, build natively)"
fresh_port "$out/sample.elf" "$out/port"
port_log="$out/port.log"
"$kiln" port --platform linux-user "$out/sample.elf" -o "$out/port" -j "$(nproc)" | tee "$port_log"
native="$(sed -n 's/^built //p' "$port_log" | tail -n 1)"
[ -x "$native" ] || { echo "kiln sample: kiln port did not report a native executable" >&2; exit 1; }

echo "== kiln sample: native run vs qemu-aarch64"
(cd "$out" && "$native" 12 > native.txt 2>&1; echo "exit $?" >> native.txt)
(cd "$out" && qemu-aarch64 ./sample.elf 12 > qemu.txt 2>&1; echo "exit $?" >> qemu.txt)
cat "$out/native.txt"
if ! cmp -s "$out/native.txt" "$out/qemu.txt"; then
  echo "kiln sample: the recompiled program's output differs from qemu-aarch64's:" >&2
  diff "$out/qemu.txt" "$out/native.txt" >&2 || true
  exit 1
fi
echo "kiln sample: recompiled output is identical to qemu-aarch64's"

echo "== kiln sample: games/sample-triangle + games/sample-scene -> one static AArch64 ELF (GPU titles)"
# One program holds both GPU titles (games/common/gpu_samples.c picks one by its first argument; each main.c is
# compiled with -Dmain=<title>_main), so their static glibc is recompiled and host-compiled once.
# Their programs: SASS text assembled into headers that main.c includes as "shaders/<name>.h" (Maxwell SM53;
# sample-scene-ampere, the same scene for the Ampere classes, from games/sample-scene/shaders/sm86 as SM86).
gpu_out="$out/gpu"
mkdir -p "$gpu_out"
declare -A gpu_shaders=([sample-triangle]="pass_through.vert:vertex colour.frag:pixel textured.frag:pixel"
                        [sample-scene]="transform.vert:vertex textured.frag:pixel flat.frag:pixel"
                        [sample-scene-ampere]="transform.vert:vertex textured.frag:pixel flat.frag:pixel")
gpu_objects=()
for title in sample-triangle sample-scene sample-scene-ampere; do
  source_title=$title shader_dir="$root/games/$title/shaders" arch=sm53 defines=()
  if [ "$title" = sample-scene-ampere ]; then
    source_title=sample-scene shader_dir="$root/games/sample-scene/shaders/sm86" arch=sm86 defines=(-DSCENE_FAMILY=KG_AMPERE)
  fi
  mkdir -p "$gpu_out/include/$title/shaders"
  for shader in ${gpu_shaders[$title]}; do
    "$kiln" shaders assemble --arch "$arch" --stage "${shader#*:}" "$shader_dir/${shader%%:*}.sass" \
      -o "$gpu_out/include/$title/shaders/${shader%%:*}.h"
  done
  aarch64-linux-gnu-gcc -c -O2 -Dmain="${title//-/_}_main" "${defines[@]}" -I"$root/games/common" -I"$root/runtime/platform/linux-user" \
    -I"$gpu_out/include/$title" -o "$gpu_out/$title.o" "$root/games/$source_title/main.c"
  gpu_objects+=("$gpu_out/$title.o")
done
aarch64-linux-gnu-gcc -static -O2 -I"$root/games/common" -I"$root/runtime/platform/linux-user" -o "$gpu_out/gpu-samples.elf" \
  "$root/games/common/gpu_samples.c" "$root/games/common/kiln_gpu.c" "$root/games/common/maxwell_push.c" "$root/games/common/png_writer.c" \
  "$root/games/common/gpu_session.c" "$root/games/common/kiln_host.c" "${gpu_objects[@]}"
echo "== kiln sample: under qemu-aarch64 there is no GPU; each title must say so and stop"
for title in sample-triangle sample-scene; do
  if qemu-aarch64 "$gpu_out/gpu-samples.elf" "$title" "$gpu_out" > "$gpu_out/qemu-$title.txt" 2>&1; then
    echo "kiln sample: $title ran under qemu-aarch64 without a GPU" >&2; exit 1
  fi
  cat "$gpu_out/qemu-$title.txt"
done
echo "== kiln sample: kiln port the GPU titles, run them on kiln's nvgpu devices"
fresh_port "$gpu_out/gpu-samples.elf" "$gpu_out/port"
"$kiln" port --platform linux-user "$gpu_out/gpu-samples.elf" -o "$gpu_out/port" -j "$(nproc)" | tee "$gpu_out/port.log"
gpu_native="$(sed -n 's/^built //p' "$gpu_out/port.log" | tail -n 1)"
[ -x "$gpu_native" ] || { echo "kiln sample: kiln port did not report a native executable" >&2; exit 1; }
frames="$out/triangle/frames"
scene_frames="$out/scene/frames"
scene_ampere_frames="$out/scene-ampere/frames"
for title_frames in "sample-triangle:$frames" "sample-scene:$scene_frames" "sample-scene-ampere:$scene_ampere_frames"; do
  rm -rf "${title_frames#*:}" && mkdir -p "${title_frames#*:}"
  KILN_VULKAN_VALIDATION=1 "$gpu_native" "${title_frames%%:*}" "${title_frames#*:}"
  echo "kiln sample: PNG frames of ${title_frames%%:*} are in ${title_frames#*:}"
done
for n in 0 1 2 3; do # the Ampere build of the scene draws its Maxwell twin's pixels (the PNG writer is deterministic)
  cmp -s "$scene_frames/frame_$n.png" "$scene_ampere_frames/frame_$n.png" ||
    { echo "kiln sample: sample-scene-ampere frame $n differs from sample-scene's" >&2; exit 1; }
done
echo "kiln sample: sample-scene-ampere (C797/C7B5, SM86 programs) drew the same 4 frames as sample-scene"

echo "== kiln sample: GPU bring-up"
"$kiln" gpu info
"$kiln" gpu clear --validation --colour 0.25,0.5,0.75,1 --size 64 -o "$out/clear.png"
echo "== kiln sample: games/sample-psx (PS-X EXE) recompiled, and run beside kiln's interpreter"
"$root/tests/psx/run_sample.sh" "$kiln" "$out/psx" > "$out/psx.log"
cat "$out/psx/recompiled-run/stdout.txt"
for f in stdout.txt trace.txt state.txt vram.bin frame000.png frame001.png frame002.png; do
  cmp -s "$out/psx/recompiled-run/$f" "$out/psx/interpreted-run/$f" ||
    { echo "kiln sample: psx $f differs between the recompiled and the interpreted run" >&2; exit 1; }
done
echo "kiln sample: the recompiled PS1 sample agrees with the interpreter; frames in $out/psx/recompiled-run"

echo "== kiln sample: games/sample-gamecube (DOL on a disc image) recompiled and run"
# Paired singles, the FPU, a pad, decrementer and VI interrupts, sc, the gather pipe, the locked cache, ARAM and
# DI, each printed through the EXI UART (docs/gamecube.md; tests/gamecube/platform/sample_expected.md).
gamecube_out="$out/gamecube"
"$root/games/sample-gamecube/build.sh" "$build/tools/gamecube-files/make_dol" "$build/tools/gamecube-files/make_gcm" "$gamecube_out"
"$kiln" port --no-config "$gamecube_out/sample.iso" -o "$gamecube_out/port" -j "$(nproc)" > "$gamecube_out/port.log" ||
  { cat "$gamecube_out/port.log"; exit 1; }
"$root/tests/gamecube/platform/run_sample.sh" "$gamecube_out/port/build/program" "$root/tests/gamecube/platform" disc

echo "kiln sample: done; outputs in $out"
echo "kiln sample: frames of the GPU title games/sample-triangle (textured, depth-tested, blended triangles):"
ls "$frames"/*.png
echo "kiln sample: frames of the GPU title games/sample-scene (a rotating cube textured by render to texture):"
ls "$scene_frames"/*.png
echo "kiln sample: frames of the Switch title games/sample-switch (an orange square on green ground under a dark blue sky),"
echo "  its save file and its tone:"
ls "$switch_run"/frames/*.png "$switch_save" "$switch_run/kiln-audout.wav"
echo "kiln sample: frames of the PS1 title games/sample-psx:"
ls "$out"/psx/recompiled-run/frame*.png
echo "kiln sample: to play the GPU title in a window (arrow keys or a controller move its orange rectangle):"
echo "  $kiln run $gpu_out/port -- sample-triangle"
