#!/bin/sh
# games/sample-switch run twice in a fresh folder: the first run finds no score, saves 1234 through fsp-srv save
# data and plays the tone through audout:u into kiln-audout.wav; the second (with a kiln.toml naming another WAV
# through --config) reads 1234 back and saves 2468. The save file and the WAVs are checked on the host; a bad
# kiln.toml stops the program with status 64 naming the file and line.
# Usage: PROGRAM CHECK_SAMPLE_OUTPUTS
set -e
program=$1
check=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work"
save=kiln-save/0100000000010000/00000000000000000000000000000000/score.bin
"$program" >run1.log 2>&1 || { cat run1.log; exit 1; }
for line in "save: no score yet" "save: wrote score 1234" "audio: played frames: 12000"; do
  grep -q "^kiln: guest lm: $line\$" run1.log || { echo "run 1 lacks '$line'"; cat run1.log; exit 1; }
done
"$check" "$save" 1234 kiln-audout.wav
printf '[switch.audio]\nwav = "second.wav"\n' >kiln.toml
"$program" --config kiln.toml >run2.log 2>&1 || { cat run2.log; exit 1; }
for line in "save: read score 1234" "save: wrote score 2468" "audio: played frames: 12000"; do
  grep -q "^kiln: guest lm: $line\$" run2.log || { echo "run 2 lacks '$line'"; cat run2.log; exit 1; }
done
"$check" "$save" 2468 second.wav
# A kiln.toml with an unknown key stops the program before the guest runs, naming the file and line.
printf '[switch.fs]\nsaves = "x"\n' >bad.toml
set +e
"$program" --config bad.toml >bad.log 2>&1
status=$?
set -e
if [ "$status" -ne 64 ] || ! grep -q "bad.toml:2: \[switch.fs\] 'saves' is not a key" bad.log; then
  echo "a bad kiln.toml gave status $status:"; cat bad.log; exit 1
fi
echo "saved, read back and played"
