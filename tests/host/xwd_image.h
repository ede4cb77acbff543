#pragma once
// Reads what `xwd` writes (an X server's window contents): the XWD header of 25 big-endian 32-bit fields
// (X11/XWDFile.h: header_size, file_version 7, pixmap_format 2 = ZPixmap, ..., bits_per_pixel at 11,
// bytes_per_line at 12, the red/green/blue masks at 14..16, ncolors at 19), the window name, ncolors colour
// entries of 12 bytes, then the pixel rows in the byte order the header names. TrueColor 24/32-bit only.
#include <string>

#include "runtime/base/png_image.h"

namespace kiln::test {

RgbaImage read_xwd(const std::string& path);

} // namespace kiln::test
