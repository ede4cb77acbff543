/* What the sample saves and plays; the test computes its expectations from these definitions. */
#ifndef SAMPLE_SWITCH_TONE_H
#define SAMPLE_SWITCH_TONE_H
#define SCORE_STEP 1234         /* each run saves the last score plus this (the first: this) */
#define TONE_RATE 48000         /* frames a second, stereo signed 16-bit */
#define TONE_HZ 440             /* a square wave: frame n is +TONE_AMPLITUDE while floor(n * 2 * TONE_HZ / TONE_RATE) is */
#define TONE_AMPLITUDE 8000     /* even, else -TONE_AMPLITUDE, on both channels */
#define TONE_FRAMES 12000       /* 0.25 s */
#define TONE_BUFFERS 4          /* appended at once, 3000 frames each */
#endif
