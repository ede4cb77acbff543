#!/bin/sh
# A Switch program in the host shell, under the X server xvfb-run started for it (tests/switch/host_program.cpp
# drives vi and audout through the kernel's IPC):
#  1. headless: its three frames as PNG in KILN_FRAME_DIR, the audio in kiln-audout.wav, no window;
#  2. --window --frames 3 --hold --scale 2: the window's pixels (xwd) are the headless frame_2.png scaled by 2;
#  3. SDL's disk audio driver: audout's ramp reaches the device exactly (48 kHz in, 48 kHz out; the resampler
#     holds back the last frame until a next one comes);
#  4. vi's vsync event in a window is signalled at the host frame clock's vertical blank (each queued frame
#     returns with it signalled, and vi's own 60 Hz clock is silent for 8 ms after); headless its own clock;
#  5. the pad: xdotool's X (the host pad's east button) is A in hid's shared memory for npad No1;
#  6. a bad host option is named.
# With SAMPLE (the recompiled games/sample-switch) also: its window (--hold, the stick held right by
# --pad-script tests/switch/stick_right.pad in both runs) equals its headless frame_2.png, its audout tone in a
# window reaches the device as the samples of its headless WAV, and its bad option is named too.
# Validation layers on (synchronization checks too): any message fails. Usage:
#   host_window.sh PROGRAM WINDOW_CHECKER WORK_DIR [SAMPLE]
set -u
program=$1 window_checker=$2 work=$3 sample=${4:-}
title="kiln: switch_host_program"
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$work" && mkdir -p "$work/headless" && cd "$work" || exit 1
fail() { echo "switch host_window: $*"; for log in "$work"/*.log; do echo "== $log"; cat "$log"; done; exit 1; }
. "$here/../host/window_test.sh"
export KILN_VULKAN_VALIDATION=1

KILN_FRAME_DIR="$work/headless" "$program" > headless.log 2>&1 || fail "headless run"
[ -f headless/frame_2.png ] && [ -f kiln-audout.wav ] || fail "the headless run wrote no frames or no WAV"
! grep -q "host: window" headless.log || fail "the headless run opened a window"

"$program" --window --frames 3 --hold --scale 2 --mute > hold.log 2>&1 &
pid=$!
wait_for hold.log "holding the last frame"
sleep 0.3
xwd -silent -name "$title" -out held.xwd || fail "xwd"
"$window_checker" same held.xwd headless/frame_2.png 2 || fail "the window is not frame 2"
stop $pid hold.log

"$program" --window --frames 3 --mute --check-vsync > vsync.log 2>&1 || fail "the vsync run"
grep -q "vsync: 3 of 3 frames signalled at the host's vblank, then quiet" vsync.log || fail "vi's vsync event does not follow the host's frame clock"
clean vsync.log
"$program" --check-vsync > vsync-headless.log 2>&1 || fail "the headless vsync run"
# Headless the queue returns at once: the first frame finds the event not yet signalled (vi's own clock ticks
# 16.7 ms after the event was asked for), so not every frame can be paced.
grep -q "vsync: [0-2] of 3 frames" vsync-headless.log || fail "headless, the vsync event should follow vi's own clock"

SDL_AUDIODRIVER=disk SDL_DISKAUDIOFILE="$work/ramp.raw" "$program" --window --frames 3 > audio.log 2>&1 || fail "the audio run"
clean audio.log
"$program" check-audio ramp.raw || fail "the device did not play audout's ramp"

"$program" --window --frames 3 --mute --wait-for-a > pad.log 2>&1 &
pid=$!
wait_for pad.log "pad: waiting for A"
xdotool search --sync --name "$title" mousemove --window %1 20 20 keydown x || fail "xdotool"
i=0
while kill -0 $pid 2>/dev/null; do
  i=$((i + 1)); [ $i -gt 100 ] && { kill -KILL $pid; fail "A never reached hid"; }
  sleep 0.1
done
xdotool keyup x
wait $pid || fail "the pad run failed"
grep -q "pad: A held" pad.log || fail "hid did not report A"
clean pad.log

"$program" --frames none > bad.log 2>&1 && fail "a bad option was accepted"
grep -q -- "--frames none: expected a whole number of at least 1" bad.log || fail "the bad option is not named"

if [ -n "$sample" ]; then
  mkdir -p sample-frames || fail "mkdir"
  KILN_FRAME_DIR="$work/sample-frames" "$sample" --pad-script "$here/stick_right.pad" > sample-headless.log 2>&1 ||
    fail "the sample's headless run"
  "$sample" --window --hold --mute --pad-script "$here/stick_right.pad" > sample-hold.log 2>&1 &
  pid=$!
  wait_for sample-hold.log "holding the last frame"
  sleep 0.3
  xwd -silent -name "kiln: program" -out sample-held.xwd || fail "xwd of the sample"
  "$window_checker" same sample-held.xwd sample-frames/frame_2.png 1 || fail "the sample's window is not its frame 2"
  stop $pid sample-hold.log
  SDL_AUDIODRIVER=disk SDL_DISKAUDIOFILE="$work/tone.raw" "$sample" --window > sample-window.log 2>&1 || fail "the sample's window run"
  "$program" check-wav tone.raw kiln-audout.wav || fail "the device did not play the sample's tone"
  "$sample" --scale 0 > sample-bad.log 2>&1 && fail "the sample accepted --scale 0"
  grep -q -- "--scale 0: expected a whole number of at least 1" sample-bad.log || fail "the sample did not name its bad option"
fi
echo "switch host_window: window = headless frame 2 (the sample's too), the device plays audout's samples, X is hid's A, bad options named"
