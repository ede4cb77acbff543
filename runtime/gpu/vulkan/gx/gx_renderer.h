#pragma once
// The GameCube GPU drawn on Vulkan: the EFB (640x528 colour + depth) as device images, each DrawSnapshot drawn
// through its translated XF and TEV programs (translator/gx) with the decoded raster state, pipelines cached by
// UID, EFB copies read back and encoded into guest RAM (runtime/gpu/gx/efb_copy.h) before the next command runs.
//
// The EFB colour image is RGBA8 holding each channel as the pixel format stores it (expanded back to 8 bits);
// formats with fewer bits are re-quantised after every draw by a compute pass, so blending reads what the
// hardware would have stored. Depth is a 24-bit (or 32-bit float where the host lacks D24) image for every
// format. Everything runs in submission order: a copy is in guest RAM when `consume` returns.
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "runtime/base/png_image.h"
#include "runtime/gpu/gx/command_processor.h"
#include "runtime/gpu/vulkan/context.h"

namespace kiln::gx {

class GxRenderer {
public:
  /// `ram` is guest physical memory: EFB copies write into it.
  GxRenderer(vulkan::Context& context, std::span<uint8_t> ram);
  ~GxRenderer();
  GxRenderer(const GxRenderer&) = delete;
  GxRenderer& operator=(const GxRenderer&) = delete;

  /// Draws or copies: events other than draws and EFB copies are ignored here (the PE and the machine take them).
  /// Throws kiln::Error naming the stream offset for what is not drawn yet.
  void consume(const Event& event);
  void draw(const DrawSnapshot& draw);
  /// BP 0x52 with the BP bank of the write.
  void copy(const BpState& bp, uint64_t offset = 0);

  /// The EFB colour (RGBA8 as stored, alpha 255 in formats without alpha) and depth (24-bit values).
  RgbaImage read_color();
  std::vector<uint32_t> read_depth();

  uint64_t pipelines_built() const;
  uint64_t draws() const;

private:
  struct State;
  std::unique_ptr<State> state_;
};

} // namespace kiln::gx
