#pragma once
// The GX command grammar: takes command-stream bytes (from the FIFO or a display list), applies CP/XF/BP
// writes, loads vertices, batches primitives and hands out draws and side-effect events in stream order.
//
// Batching follows the hardware contract that state applies to the vertices after it: consecutive primitive
// commands of one vertex format and topology class form one draw, and any write that changes state the pending
// batch depends on (and every side-effect write) ends the batch first.
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "runtime/gpu/gx/draw_snapshot.h"
#include "runtime/gpu/gx/state.h"

namespace kiln::gx {

namespace opcode {
inline constexpr uint8_t nop = 0x00;
inline constexpr uint8_t load_cp = 0x08;
inline constexpr uint8_t load_xf = 0x10;
inline constexpr uint8_t load_indexed_a = 0x20; // B 0x28, C 0x30, D 0x38
inline constexpr uint8_t call_display_list = 0x40;
inline constexpr uint8_t metrics = 0x44;
inline constexpr uint8_t invalidate_vertex_cache = 0x48;
inline constexpr uint8_t load_bp = 0x61;
inline constexpr uint8_t primitive = 0x80;      // 0x80-0xBF: type in bits 3-6, VAT in bits 0-2
} // namespace opcode
inline constexpr uint32_t max_xf_words_per_load = 16;
/// Physical address bits of the GameCube's memory bus.
inline constexpr uint32_t physical_address_mask = 0x03FFFFFF;

enum class EventKind : uint8_t {
  draw,              ///< `draw` holds the snapshot
  draw_done,         ///< BP 0x45
  token,             ///< BP 0x47 (`value` is the token)
  token_interrupt,   ///< BP 0x48
  efb_copy,          ///< BP 0x52; `bp` holds the copy registers as they were
  clear_bounding_box,
  clear_pixel_perf,
  tmem_preload,      ///< BP 0x63
  tlut_load,         ///< BP 0x65
  texture_invalidate ///< BP 0x66
};
const char* event_name(EventKind kind);

struct Event {
  EventKind kind = EventKind::draw;
  uint64_t offset = 0;                        ///< stream offset of the command
  uint32_t bp_address = 0;
  uint32_t value = 0;                         ///< the register's value after the write
  std::shared_ptr<const DrawSnapshot> draw;   ///< draws
  std::shared_ptr<const BpState> bp;          ///< side-effect writes: the BP bank at the write
};

/// A problem in the stream: where (stream offset, or display list address and offset), what, and the bytes around.
struct Diagnostic {
  uint64_t offset = 0;
  std::string message;
  std::vector<uint8_t> context;   ///< up to 8 bytes before and 8 after the offset
  uint64_t context_start = 0;     ///< offset of context[0]
  std::string to_string() const;
};

class CommandProcessor {
public:
  /// `ram` is guest physical memory: arrays, display lists and LOAD_INDX sources are read from it.
  explicit CommandProcessor(std::span<const uint8_t> ram);

  /// Runs every complete command at the start of `bytes`, whose first byte is at stream offset `offset`; returns
  /// how many bytes it consumed. A command that is not yet whole is left unconsumed: call again with more bytes.
  size_t run(std::span<const uint8_t> bytes, uint64_t offset);
  /// Ends the pending batch (the FIFO went idle, or the caller needs the draws now).
  void flush();

  std::vector<Event> take_events();
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  /// Diagnostics beyond this many are counted but not stored (a stream of garbage stays bounded in memory).
  static constexpr size_t max_diagnostics = 256;
  size_t diagnostic_count() const { return diagnostic_count_; }

  const CpState& cp() const { return cp_; }
  const XfState& xf() const { return xf_; }
  const BpState& bp() const { return bp_; }

private:
  /// Decodes the command at whole[position] (whole[0] is at stream offset `base`); returns its size, or 0 when it
  /// is not whole yet. The bytes before it serve as context in diagnostics.
  size_t run_command(std::span<const uint8_t> whole, size_t position, uint64_t base, bool in_display_list);
  size_t run_primitive(std::span<const uint8_t> whole, size_t position, uint64_t base);
  void run_display_list(uint32_t address, uint32_t size, uint64_t offset);
  /// Where a command is, for its diagnostics.
  struct Site {
    std::span<const uint8_t> whole;
    size_t position = 0;
    uint64_t offset = 0;
  };
  void write_cp(uint32_t address, uint32_t value, const Site& site);
  void write_xf(uint32_t address, std::span<const uint32_t> words, const Site& site);
  void load_indexed_xf(uint32_t array, uint32_t word, const Site& site);
  void write_bp(uint32_t word, uint64_t offset);
  void report(uint64_t offset, std::string message, std::span<const uint8_t> bytes, size_t position);

  std::span<const uint8_t> ram_;
  CpState cp_;
  XfState xf_;
  BpState bp_;
  std::unique_ptr<DrawSnapshot> batch_;
  std::vector<Event> events_;
  std::vector<Diagnostic> diagnostics_;
  size_t diagnostic_count_ = 0;
  /// Non-empty while a display list runs: its commands report their guest address, and name the list.
  std::string display_list_prefix_;
};

} // namespace kiln::gx
