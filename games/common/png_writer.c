#include "png_writer.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t crc_table[256];

static void make_crc_table(void) {
  for (uint32_t n = 0; n < 256; ++n) {
    uint32_t c = n;
    for (int k = 0; k < 8; ++k) c = (c & 1) ? 0xedb88320u ^ (c >> 1) : c >> 1;
    crc_table[n] = c;
  }
}

static uint32_t crc32_update(uint32_t crc, const uint8_t *bytes, size_t size) {
  for (size_t i = 0; i < size; ++i) crc = crc_table[(crc ^ bytes[i]) & 0xff] ^ (crc >> 8);
  return crc;
}

static void put_be32(uint8_t *out, uint32_t value) {
  out[0] = (uint8_t)(value >> 24);
  out[1] = (uint8_t)(value >> 16);
  out[2] = (uint8_t)(value >> 8);
  out[3] = (uint8_t)value;
}

/* A chunk: length, type, data, CRC over type and data. */
static int write_chunk(FILE *file, const char type[4], const uint8_t *data, uint32_t size) {
  uint8_t word[4];
  put_be32(word, size);
  uint32_t crc = crc32_update(0xffffffffu, (const uint8_t *)type, 4);
  crc = crc32_update(crc, data, size) ^ 0xffffffffu;
  if (fwrite(word, 1, 4, file) != 4 || fwrite(type, 1, 4, file) != 4 || (size && fwrite(data, 1, size, file) != size))
    return -1;
  put_be32(word, crc);
  return fwrite(word, 1, 4, file) == 4 ? 0 : -1;
}

int png_write_rgb(const char *path, const uint8_t *pixels, uint32_t width, uint32_t height, uint32_t pitch) {
  make_crc_table();
  /* The zlib stream: header 0x78 0x01, stored blocks of at most 65535 bytes of filtered rows, Adler-32. */
  const size_t row_size = 1 + (size_t)width * 3; /* filter byte, then R, G, B per pixel */
  const size_t raw_size = (size_t)height * row_size;
  const size_t blocks = raw_size / 65535 + 1;
  const size_t zlib_size = 2 + raw_size + blocks * 5 + 4;
  uint8_t *raw = malloc(raw_size), *zlib = malloc(zlib_size);
  if (!raw || !zlib) {
    free(raw);
    free(zlib);
    return -1;
  }
  for (uint32_t y = 0; y < height; ++y) {
    uint8_t *row = raw + (size_t)y * row_size;
    const uint8_t *source = pixels + (size_t)y * pitch;
    row[0] = 0; /* filter: none */
    for (uint32_t x = 0; x < width; ++x) memcpy(row + 1 + (size_t)x * 3, source + (size_t)x * 4, 3);
  }
  size_t at = 0;
  zlib[at++] = 0x78;
  zlib[at++] = 0x01;
  uint32_t a = 1, b = 0;
  for (size_t done = 0; done < raw_size || done == 0;) {
    const size_t length = raw_size - done > 65535 ? 65535 : raw_size - done;
    zlib[at++] = done + length == raw_size ? 1 : 0; /* BFINAL, BTYPE 00 (stored) */
    zlib[at++] = (uint8_t)length;
    zlib[at++] = (uint8_t)(length >> 8);
    zlib[at++] = (uint8_t)~length;
    zlib[at++] = (uint8_t)(~length >> 8);
    memcpy(zlib + at, raw + done, length);
    for (size_t i = 0; i < length; ++i) {
      a = (a + raw[done + i]) % 65521;
      b = (b + a) % 65521;
    }
    at += length;
    done += length;
    if (length == 0) break;
  }
  put_be32(zlib + at, (b << 16) | a);
  at += 4;

  uint8_t ihdr[13];
  put_be32(ihdr, width);
  put_be32(ihdr + 4, height);
  ihdr[8] = 8;  /* bit depth */
  ihdr[9] = 2;  /* colour type: RGB */
  ihdr[10] = 0; /* deflate */
  ihdr[11] = 0; /* adaptive filtering */
  ihdr[12] = 0; /* no interlace */
  static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  FILE *file = fopen(path, "wb");
  int result = -1;
  if (file && fwrite(signature, 1, 8, file) == 8 && write_chunk(file, "IHDR", ihdr, 13) == 0 &&
      write_chunk(file, "IDAT", zlib, (uint32_t)at) == 0 && write_chunk(file, "IEND", NULL, 0) == 0)
    result = 0;
  if (file && fclose(file) != 0) result = -1;
  free(raw);
  free(zlib);
  return result;
}
