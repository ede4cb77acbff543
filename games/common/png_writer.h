/* Writes the colour of 8-bit RGBA images as RGB PNG files: stored (uncompressed) deflate blocks, CRC-32 and
 * Adler-32 computed here, so the samples need no zlib. */
#ifndef KILN_PNG_WRITER_H
#define KILN_PNG_WRITER_H

#include <stdint.h>

/* `pixels` holds `height` rows of `width` RGBA pixels, `pitch` bytes apart. The file is an RGB PNG (colour type 2)
 * of their R, G and B bytes: a display shows colour only, and the alpha a render target keeps (below 255 where a
 * blend wrote it) would make an image viewer show the frame partly transparent. Returns 0, or -1 (errno set). */
int png_write_rgb(const char *path, const uint8_t *pixels, uint32_t width, uint32_t height, uint32_t pitch);

#endif
