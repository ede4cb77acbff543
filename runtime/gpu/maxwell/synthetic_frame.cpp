#include "runtime/gpu/maxwell/synthetic_frame.h"

#include <bit>

#include "runtime/gpu/maxwell/classes/methods_b197.h"
#include "runtime/gpu/maxwell/gpu.h"
#include "runtime/gpu/maxwell/stream_builder.h"

namespace kiln::maxwell {

namespace {
uint32_t high(uint64_t address) { return static_cast<uint32_t>(address >> 32); }
uint32_t low(uint64_t address) { return static_cast<uint32_t>(address); }

// MME words (layout in mme/isa.h): a macro that draws parameter 1 vertices from parameter 2, as NVN's draw
// macros do: BEGIN(triangles), SET_VERTEX_ARRAY_START, DRAW_VERTEX_ARRAY, END.
uint32_t add_immediate(uint32_t assign, uint32_t dst, uint32_t src, int32_t immediate) {
  return 1u | (assign << 4) | (dst << 8) | (src << 11) | ((static_cast<uint32_t>(immediate) & 0x3ffff) << 14);
}
constexpr uint32_t move = 1, move_set_method = 2, move_send = 4, fetch = 0, exit_flag = 1u << 7;
} // namespace

uint64_t submit_synthetic_frame(Gpu& gpu, const SyntheticFrameOptions& options) {
  const uint64_t pushbuffer = options.base;
  const uint64_t data = options.base + 0x4000000;
  gpu.memory().map_owned(options.base, 0x4100000);
  const uint64_t programs = data, cbuf = data + 0x10000, reports = data + 0x20000, target = data + 0x30000;
  const uint64_t vertices = data + 0x40000;

  StreamBuilder s;
  s.bind(0, ClassId::threed).bind(4, ClassId::copy);
  const uint32_t draw_macro[] = {
      add_immediate(move_set_method, 0, 0, class_b197::begin >> 2),
      add_immediate(move_send, 0, 0, 4),                 // triangles
      add_immediate(fetch, 2, 0, 0),                     // r2 = first vertex
      add_immediate(move_set_method, 0, 0, class_b197::set_vertex_array_start >> 2 | 0x1000), // increment 1
      add_immediate(move_send, 0, 2, 0),                 // first
      add_immediate(move_send, 0, 1, 0),                 // DRAW_VERTEX_ARRAY = count
      add_immediate(move_set_method, 0, 0, class_b197::end >> 2),
      add_immediate(move_send, 0, 0, 0) | exit_flag,
      add_immediate(move, 0, 0, 0)};
  s.upload_macro(0, 1, 0, draw_macro);
  s.method(0, "SET_PROGRAM_REGION_A", high(programs)).method(0, "SET_PROGRAM_REGION_B", low(programs));
  s.method(0, "SET_PIPELINE_SHADER", 1, 0x11).method(0, "SET_PIPELINE_PROGRAM", 1, 0x0);
  s.method(0, "SET_PIPELINE_SHADER", 5, 0x51).method(0, "SET_PIPELINE_PROGRAM", 5, 0x100);
  s.method(0, "SET_COLOR_TARGET_A", 0, high(target)).method(0, "SET_COLOR_TARGET_B", 0, low(target));
  s.method(0, "SET_COLOR_TARGET_WIDTH", 0, 64).method(0, "SET_COLOR_TARGET_HEIGHT", 0, 64);
  s.method(0, "SET_COLOR_TARGET_FORMAT", 0, 0xd5).method(0, "SET_CT_SELECT", 1);
  s.method(0, "SET_VERTEX_STREAM_A_FORMAT", 0, (1u << 12) | 16);
  s.method(0, "SET_VERTEX_STREAM_A_LOCATION_A", 0, high(vertices)).method(0, "SET_VERTEX_STREAM_A_LOCATION_B", 0, low(vertices));
  s.method(0, "SET_VIEWPORT_SCALE_X", 0, std::bit_cast<uint32_t>(32.0f)).method(0, "SET_VIEWPORT_OFFSET_X", 0, std::bit_cast<uint32_t>(32.0f));
  s.method(0, "SET_CLEAR_SURFACE_CONTROL", 0x101).method(0, "CLEAR_SURFACE", 0x3c);
  const uint32_t selector[] = {0x1000, high(cbuf), low(cbuf)};
  s.incrementing(0, "SET_CONSTANT_BUFFER_SELECTOR_A", selector);
  s.method(0, "BIND_GROUP_CONSTANT_BUFFER", 0, 1u | (1u << 4));
  for (uint32_t i = 0; i < options.draws; ++i) {
    // Per draw: a 4-word constant update, two state changes, a direct draw and a macro draw.
    s.method(0, "LOAD_CONSTANT_BUFFER_OFFSET", (i % 256) * 16);
    const uint32_t constants[] = {i, i * 3, i * 5, 0x3f800000};
    s.non_incrementing(0, "LOAD_CONSTANT_BUFFER", constants);
    s.method(0, "SET_DEPTH_TEST", i & 1).method(0, "SET_BLEND", 0, (i >> 1) & 1);
    s.method(0, "BEGIN", 4).method(0, "SET_VERTEX_ARRAY_START", i % 1024).method(0, "DRAW_VERTEX_ARRAY", 3).method(0, "END", 0);
    const uint32_t parameters[] = {6, (i * 6) % 4096};
    s.call_macro(0, 1, parameters);
  }
  const uint32_t report[] = {high(reports), low(reports), 0, 2};
  s.incrementing(0, "SET_REPORT_SEMAPHORE_A", report);
  const uint32_t copy[] = {high(cbuf), low(cbuf), high(reports + 0x100), low(reports + 0x100), 0, 0, 64, 1};
  s.incrementing(4, "OFFSET_IN_UPPER", copy);
  s.method(4, "LAUNCH_DMA", 1u | (1u << 7) | (1u << 8));
  s.semaphore_release(reports + 0x200, 1);
  const uint32_t channel = gpu.create_channel();
  gpu.submit(channel, s.place(gpu.memory(), pushbuffer));
  return s.size();
}

} // namespace kiln::maxwell
