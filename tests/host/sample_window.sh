#!/bin/sh
# The recompiled GPU sample (games/sample-triangle) in a window, under the X server xvfb-run started for it:
#  1. three frames with --hold: the window's pixels (xwd) are the headless run's frame_2.png, scaled by 4;
#  2. run until closed: the rectangle is at its own place, xdotool's Right held moves it to x = 64 and Left to
#     x = 0 (the clamps of main.c), a resize does not stop it, SIGTERM (SDL's quit event) ends it cleanly.
# Validation layers on (synchronization checks too) in both: any message fails. Usage:
#   sample_window.sh PROGRAM HEADLESS_FRAME_DIR CHECKER WORK_DIR
set -u
# kiln's messages (Vulkan validation among them) on the program's stderr, where the checks below look.
export KILN_LOG=stderr
program=$1 headless=$2 checker=$3 work=$4
title="kiln: program sample-triangle"
rm -rf "$work" && mkdir -p "$work"
fail() { echo "sample_window: $*"; for log in "$work"/*.log; do echo "== $log"; cat "$log"; done; exit 1; }
. "$(dirname "$0")/window_test.sh"
export KILN_VULKAN_VALIDATION=1

"$program" sample-triangle "$work" --window --frames 3 --hold --mute > "$work/hold.log" 2>&1 &
pid=$!
wait_for "$work/hold.log" "holding the last frame"
sleep 0.3
xwd -silent -name "$title" -out "$work/held.xwd" || fail "xwd"
"$checker" same "$work/held.xwd" "$headless/frame_2.png" 4 || fail "the window is not frame 2"
stop $pid "$work/hold.log"
[ -e "$work/frame_0.png" ] && fail "a windowed run wrote its own PNG files"

"$program" sample-triangle "$work" --window --mute > "$work/input.log" 2>&1 &
pid=$!
wait_for "$work/input.log" "window open"
sleep 0.5
xwd -silent -name "$title" -out "$work/idle.xwd" || fail "xwd"
"$checker" not-rectangle "$work/idle.xwd" 4 64 || fail "the rectangle is not at its own place before any key"
xdotool search --sync --name "$title" mousemove --window %1 20 20 keydown Right || fail "xdotool"
sleep 1.5
xwd -silent -name "$title" -out "$work/right.xwd" || fail "xwd"
xdotool keyup Right keydown Left
sleep 1.5
xwd -silent -name "$title" -out "$work/left.xwd" || fail "xwd"
xdotool keyup Left
"$checker" rectangle "$work/right.xwd" 4 64 || fail "Right did not move the rectangle to x = 64"
"$checker" rectangle "$work/left.xwd" 4 0 || fail "Left did not move the rectangle to x = 0"
xdotool search --name "$title" windowsize %1 300 700 || fail "xdotool windowsize"
sleep 0.5
kill -0 $pid || fail "the title ended after a resize"
stop $pid "$work/input.log"
echo "sample_window: window = headless frame 2, keys move the rectangle, resize and quit are clean"
