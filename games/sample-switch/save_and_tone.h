/* The sample's save data and sound: a score kept in fsp-srv save data across runs, and a tone through
   audout:u (tone.h defines it). */
#ifndef SAMPLE_SWITCH_SAVE_AND_TONE_H
#define SAMPLE_SWITCH_SAVE_AND_TONE_H
#include <stdint.h>

typedef void (*EmitLine)(const char* line);
typedef void (*EmitNumber)(const char* prefix, uint64_t value, int hex);

/* Reads the score the last run saved (none on the first), saves it plus score_step, and says so. */
void sample_save_score(EmitLine emit, EmitNumber emit_number);
/* Plays the tone to the end (every buffer released) and says how many frames played. */
void sample_play_tone(EmitLine emit, EmitNumber emit_number);
#endif
