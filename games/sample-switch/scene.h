/* The sample's picture: an orange square standing on green ground under a dark blue sky, drawn by the GPU
   (3D engine clears, scissored, through games/common/maxwell_push.h) into vi's block-linear buffers, one frame
   after another; the left stick moves the square. tests/switch/check_sample_frames.cpp derives every pixel it
   expects from these numbers. */
#ifndef SAMPLE_SWITCH_SCENE_H
#define SAMPLE_SWITCH_SCENE_H
#include "save_and_tone.h"

#define SCENE_WIDTH 256
#define SCENE_HEIGHT 144
#define SCENE_FRAMES 3
#define SCENE_HORIZON_Y 96                              /* rows [0, 96) sky, [96, 144) ground */
#define SCENE_SQUARE 32                                 /* the square's side */
#define SCENE_SQUARE_X ((SCENE_WIDTH - SCENE_SQUARE) / 2) /* where it starts: centred, on the ground */
#define SCENE_SQUARE_Y (SCENE_HORIZON_Y - SCENE_SQUARE)
#define SCENE_SQUARE_SPEED 8                            /* pixels per frame with the stick fully over */
/* Colours as RGB bytes (each channel is cleared as byte / 255, which UNORM8 stores exactly). */
#define SCENE_SKY 0x10, 0x20, 0x60
#define SCENE_GROUND 0x30, 0xa0, 0x30
#define SCENE_SQUARE_COLOUR 0xff, 0x80, 0x00

/* Opens nvdrv, vi and hid, draws and presents SCENE_FRAMES frames, and says where the square was in each. */
void sample_draw_scene(EmitLine emit, EmitNumber emit_number);
#endif
