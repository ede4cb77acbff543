/* The sample's computation, shared by the Switch build and the linux-user build: each line it produces is
   handed to `emit`, so both builds can be compared line for line. */
#ifndef SAMPLE_SWITCH_LINES_H
#define SAMPLE_SWITCH_LINES_H
void sample_lines(void (*emit)(const char* line));
#endif
