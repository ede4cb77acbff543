#!/bin/sh
# The recompiled PS1 sample (games/sample-psx) in a window, under the X server xvfb-run started for it:
#  1. three frames with --hold: the window's pixels (xwd) are the headless run's frame002.png, scaled by 4;
#  2. played: an idle pad keeps the sample going; xdotool's Right then Up held move the square to the screen's
#     right edge (x = 312) and top (y = 0), a resize does not stop it, Return (Start) ends it with main's 7;
#  3. audio through SDL's disk driver: the tone of the first three frames, checked against the SPU WAV that
#     tests/psx verified from psx-spx, resampled to the device's 48 kHz;
#  4. no audio device: the run is muted and says so once.
# Validation layers on (synchronization checks too): any message fails. Usage:
#   sample_window.sh PROGRAM SPU_WAV WINDOW_CHECKER PSX_CHECKER WORK_DIR
set -u
program=$1 wav=$2 window_checker=$3 checker=$4 work=$5
title="kiln: program"
rm -rf "$work" && mkdir -p "$work/headless"
fail() { echo "psx sample_window: $*"; for log in "$work"/*.log; do echo "== $log"; cat "$log"; done; exit 1; }
. "$(dirname "$0")/../host/window_test.sh"
export KILN_VULKAN_VALIDATION=1

# The headless frame: no controller answers, so the square stays at (280, 200), as with an idle pad.
"$program" --frames 3 --frame-prefix "$work/headless/frame" > "$work/headless.log" 2>&1 || fail "headless run"
"$program" --window --frames 3 --hold --mute > "$work/hold.log" 2>&1 &
pid=$!
wait_for "$work/hold.log" "holding the last frame"
sleep 0.3
xwd -silent -name "$title" -out "$work/held.xwd" || fail "xwd"
"$window_checker" same "$work/held.xwd" "$work/headless/frame002.png" 4 || fail "the window is not frame 2"
"$checker" square "$work/held.xwd" 4 280 200 || fail "the square is not at (280, 200)"
stop $pid "$work/hold.log"

"$program" --window --mute > "$work/play.log" 2>&1 &
pid=$!
wait_for "$work/play.log" "frame 2 drawn"
sleep 0.5
xdotool search --sync --name "$title" mousemove --window %1 20 20 keydown Right || fail "xdotool"
sleep 1.5
xwd -silent -name "$title" -out "$work/right.xwd" || fail "xwd"
xdotool keyup Right keydown Up
sleep 1.5
xwd -silent -name "$title" -out "$work/up.xwd" || fail "xwd"
xdotool keyup Up
"$checker" square "$work/right.xwd" 4 312 200 || fail "Right did not move the square to x = 312"
"$checker" square "$work/up.xwd" 4 312 0 || fail "Up did not move the square to y = 0"
xdotool search --name "$title" windowsize %1 300 700 || fail "xdotool windowsize"
sleep 0.5
kill -0 $pid || fail "the title ended after a resize"
xdotool keydown Return # held over a few frames: the sample reads the pad once per frame
sleep 0.3
xdotool keyup Return
i=0
while kill -0 $pid 2>/dev/null; do
  i=$((i + 1)); [ $i -gt 100 ] && { kill -KILL $pid; fail "Start did not end the sample"; }
  sleep 0.1
done
status=0
wait $pid || status=$?
[ $status = 7 ] || fail "Start ended the sample with status $status, not 7"
grep -q "^done" "$work/play.log" || fail "the sample did not finish its main after Start"
clean "$work/play.log"

SDL_AUDIODRIVER=disk SDL_DISKAUDIOFILE="$work/tone.raw" "$program" --window --frames 3 --hold --unthrottled > "$work/audio.log" 2>&1 &
pid=$!
wait_for "$work/audio.log" "holding the last frame"
sleep 1
stop $pid "$work/audio.log"
# Three VBLANKs of 44.1 kHz sound are 2205 frames, 2400 at 48 kHz.
"$checker" audio "$work/tone.raw" "$wav" 48000 2300 || fail "the device did not play the SPU's tone"

SDL_AUDIODRIVER=no-such-driver "$program" --window --frames 3 > "$work/muted.log" 2>&1 || fail "a run without audio failed"
[ "$(grep -c "running muted" "$work/muted.log")" = 1 ] || fail "a run without audio did not say once that it is muted"
clean "$work/muted.log"
echo "psx sample_window: window = headless frame 2, keys move the square, Start ends it, the device plays the SPU tone, no device runs muted"
