/* Writes 8-bit RGBA images as PNG files: stored (uncompressed) deflate blocks, CRC-32 and Adler-32 computed here,
 * so the samples need no zlib. */
#ifndef KILN_PNG_WRITER_H
#define KILN_PNG_WRITER_H

#include <stdint.h>

/* `pixels` holds `height` rows of `width` RGBA pixels, `pitch` bytes apart. Returns 0, or -1 (errno set). */
int png_write_rgba(const char *path, const uint8_t *pixels, uint32_t width, uint32_t height, uint32_t pitch);

#endif
