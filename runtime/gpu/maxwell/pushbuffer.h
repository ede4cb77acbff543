#pragma once
// GPFIFO entries and pushbuffer method headers (clb06f.h: NVB06F_GP_ENTRY*, NVB06F_DMA_*).
#include <cstdint>
#include <string>

namespace kiln::maxwell {

/// One GPFIFO entry: where a pushbuffer segment is and how to fetch it.
struct GpfifoEntry {
  uint64_t address = 0;    ///< GPU address of the first method word (4-byte aligned)
  uint32_t length = 0;     ///< in 32-bit words; 0 makes a control entry (opcode)
  bool fetch_conditional = false; ///< GP_ENTRY0_FETCH
  bool privileged = false;        ///< GP_ENTRY1_PRIV
  bool subroutine = false;        ///< GP_ENTRY1_LEVEL
  bool sync_wait = false;         ///< GP_ENTRY1_SYNC: earlier work completes before this entry is fetched
  uint8_t control_opcode = 0;     ///< GP_ENTRY1_OPCODE when length is 0 (0 NOP, 1 ILLEGAL, 2 GP_CRC, 3 PB_CRC)

  static GpfifoEntry decode(uint32_t word0, uint32_t word1);
  uint32_t word0() const;
  uint32_t word1() const;
  /// Convenience: an entry for `length` words at `address`.
  static GpfifoEntry commands(uint64_t address, uint32_t length, bool sync_wait = false);
  friend bool operator==(const GpfifoEntry&, const GpfifoEntry&) = default;
};

/// The forms a method header takes (NVB06F_DMA_SEC_OP and the older TERT_OP forms).
enum class HeaderKind : uint8_t {
  increasing,     ///< each data word goes to the next method
  non_increasing, ///< every data word goes to the same method
  increment_once, ///< the first word to the method, the rest to the next one
  immediate,      ///< the 13-bit data sits in the header; no data words follow
  end_segment,    ///< END_PB_SEGMENT: the rest of the GPFIFO entry is skipped
  subdevice_mask, ///< SET/STORE/USE_SUB_DEV_MASK: only meaningful with several GPUs; ignored
  invalid,        ///< SEC_OP 6 (reserved)
};

struct MethodHeader {
  HeaderKind kind = HeaderKind::invalid;
  uint32_t subchannel = 0;
  uint32_t method = 0;  ///< byte offset of the first method
  uint32_t count = 0;   ///< data words that follow (the immediate value for `immediate`)

  static MethodHeader decode(uint32_t word);
  /// The header word (new-style forms; `count` must fit 13 bits and `method` 14 bits).
  uint32_t encode() const;
  std::string describe() const;
};

const char* header_kind_name(HeaderKind kind);

} // namespace kiln::maxwell
