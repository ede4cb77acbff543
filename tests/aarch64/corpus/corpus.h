/* Each corpus program is a function `int NAME(int argc, char** argv)`; main.c dispatches on argv[1]. */
#pragma once
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define PROGRAM(name) int program_##name(int argc, char** argv)
#define UNUSED_ARGS (void)argc; (void)argv
