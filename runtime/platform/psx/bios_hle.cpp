#include "runtime/platform/psx/bios_hle.h"

#include <fmt/format.h>

#include <cctype>

#include "runtime/base/log.h"
#include "runtime/platform/psx/machine.h"

namespace kiln::psx {
namespace {

constexpr unsigned a0 = 4, a1 = 5, a2 = 6, a3 = 7, v0 = 2, sp = 29;
/// Guest memory loops (memcpy, strlen...) stop after this many bytes: a wild length must not hang the host.
constexpr uint32_t max_block = ram_size;

/// Interrupt chains longer than this are taken to be a cycle a program made by mistake.
constexpr uint32_t max_chain_length = 4096;
/// Thrown by ReturnFromException inside a chain walk; caught by the walk.
struct InterruptReturn {};

/// Events: OpenEvent returns F1000000h + index (psx-spx "BIOS Event Functions").
constexpr uint32_t event_handle_base = 0xF1000000u;
/// Event classes that mean "the next VBLANK" (root counter 3, or the VBLANK IRQ).
bool is_vblank_class(uint32_t class_) { return class_ == 0xF2000003u || class_ == 0xF0000001u; }

uint32_t arg(Machine& m, unsigned i) { return m.cpu.gpr[a0 + i]; }
void result(Machine& m, uint32_t value) { r3000::set_gpr(m.cpu, v0, value); }

uint32_t string_length(Machine& m, uint32_t s) {
  uint32_t n = 0;
  while (n < max_block && m.read8(s + n) != 0) ++n;
  return n;
}

void copy_bytes(Machine& m, uint32_t dst, uint32_t src, uint32_t len) {
  len = std::min(len, max_block);
  if (dst > src && dst < src + len) {
    for (uint32_t i = len; i-- > 0;) m.write8(dst + i, m.read8(src + i));
  } else {
    for (uint32_t i = 0; i < len; ++i) m.write8(dst + i, m.read8(src + i));
  }
}

int compare_bytes(Machine& m, uint32_t x, uint32_t y, uint32_t len, bool stop_at_nul) {
  for (uint32_t i = 0; i < std::min(len, max_block); ++i) {
    const int cx = m.read8(x + i), cy = m.read8(y + i);
    if (cx != cy) return cx - cy;
    if (stop_at_nul && cx == 0) return 0;
  }
  return 0;
}

int32_t parse_integer(Machine& m, uint32_t s) {
  while (std::isspace(m.read8(s))) ++s;
  bool negative = false;
  if (m.read8(s) == '-' || m.read8(s) == '+') negative = m.read8(s++) == '-';
  int32_t v = 0;
  for (unsigned n = 0; n < 16 && std::isdigit(m.read8(s)); ++n) v = v * 10 + (m.read8(s++) - '0');
  return negative ? -v : v;
}

} // namespace

void Bios::call(Machine& m, char table, uint32_t number) {
  m.trace(fmt::format("{}({:02X}h) ra={:08x} a0={:08x} a1={:08x} a2={:08x} a3={:08x} sp={:08x}", table, number,
                      m.cpu.gpr[31], arg(m, 0), arg(m, 1), arg(m, 2), arg(m, 3), m.cpu.gpr[sp]));
  const bool known = table == 'A' ? call_a(m, number) : table == 'B' ? call_b(m, number) : call_c(m, number);
  if (known) return;
  if (reported_.insert({table, number}).second)
    log::warning("psx: unknown BIOS call {}({:02X}h) from {:#010x} (answered with 0)", table, number, m.cpu.gpr[31] - 8);
  result(m, 0);
}

void Bios::print_string(Machine& m, uint32_t address, bool newline) {
  std::string s = address == 0 ? "<NULL>" : std::string();
  for (uint32_t i = 0; address != 0 && i < max_block; ++i) {
    const char ch = static_cast<char>(m.read8(address + i));
    if (ch == 0) break;
    s += ch;
  }
  if (newline) s += '\n';
  m.print(s);
}

bool Bios::call_a(Machine& m, uint32_t n) {
  const uint32_t x = arg(m, 0), y = arg(m, 1), z = arg(m, 2);
  switch (n) {
    case 0x06: throw ProgramStop{"exit() called", x};
    case 0x3A: throw ProgramStop{"SystemErrorExit() called", x};
    case 0x0E: case 0x0F: result(m, static_cast<int32_t>(x) < 0 ? 0u - x : x); return true; // abs, labs
    case 0x10: case 0x11: result(m, static_cast<uint32_t>(parse_integer(m, x))); return true; // atoi, atol
    case 0x15: copy_bytes(m, x + string_length(m, x), y, string_length(m, y) + 1); result(m, x); return true; // strcat
    case 0x16: { // strncat
      const uint32_t end = x + string_length(m, x), len = std::min(string_length(m, y), z);
      copy_bytes(m, end, y, len);
      m.write8(end + len, 0);
      result(m, x);
      return true;
    }
    case 0x17: result(m, static_cast<uint32_t>(compare_bytes(m, x, y, max_block, true))); return true; // strcmp
    case 0x18: result(m, static_cast<uint32_t>(compare_bytes(m, x, y, z, true))); return true;         // strncmp
    case 0x19: copy_bytes(m, x, y, string_length(m, y) + 1); result(m, x); return true;                // strcpy
    case 0x1A: { // strncpy: pads with zeros
      const uint32_t len = std::min(string_length(m, y), z);
      copy_bytes(m, x, y, len);
      for (uint32_t i = len; i < std::min(z, max_block); ++i) m.write8(x + i, 0);
      result(m, x);
      return true;
    }
    case 0x1B: result(m, string_length(m, x)); return true; // strlen
    case 0x1C: case 0x1E: case 0x1D: case 0x1F: { // index/strchr, rindex/strrchr
      const bool last = n == 0x1D || n == 0x1F;
      uint32_t found = 0;
      for (uint32_t i = 0; i < max_block; ++i) {
        const uint8_t ch = m.read8(x + i);
        if (ch == static_cast<uint8_t>(y)) { found = x + i; if (!last) break; }
        if (ch == 0) break;
      }
      result(m, found);
      return true;
    }
    case 0x24: { // strstr
      const uint32_t len = string_length(m, y), hay = string_length(m, x);
      uint32_t found = 0;
      for (uint32_t i = 0; i + len <= hay && !found; ++i)
        if (compare_bytes(m, x + i, y, len, false) == 0) found = x + i;
      result(m, found);
      return true;
    }
    case 0x25: result(m, static_cast<uint32_t>(std::toupper(static_cast<int>(x & 0xFF)))); return true;
    case 0x26: result(m, static_cast<uint32_t>(std::tolower(static_cast<int>(x & 0xFF)))); return true;
    case 0x27: copy_bytes(m, y, x, z); return true;                                     // bcopy(src, dst, len)
    case 0x28: for (uint32_t i = 0; i < std::min(y, max_block); ++i) m.write8(x + i, 0); return true; // bzero
    case 0x29: result(m, static_cast<uint32_t>(compare_bytes(m, x, y, z, false))); return true; // bcmp
    case 0x2A: case 0x2C: copy_bytes(m, x, y, z); result(m, x); return true;            // memcpy, memmove
    case 0x2B: for (uint32_t i = 0; i < std::min(z, max_block); ++i) m.write8(x + i, static_cast<uint8_t>(y)); result(m, x); return true;
    case 0x2D: result(m, static_cast<uint32_t>(compare_bytes(m, x, y, z, false))); return true; // memcmp
    case 0x2E: { // memchr
      uint32_t found = 0;
      for (uint32_t i = 0; i < std::min(z, max_block) && !found; ++i)
        if (m.read8(x + i) == static_cast<uint8_t>(y)) found = x + i;
      result(m, found);
      return true;
    }
    case 0x2F: // rand: the BIOS's LCG
      rand_state_ = rand_state_ * 0x41C64E6Du + 0x3039u;
      result(m, (rand_state_ >> 16) & 0x7FFF);
      return true;
    case 0x30: rand_state_ = x; return true; // srand
    case 0x33: result(m, allocate(x)); return true;
    case 0x34: release(x); return true;
    case 0x37: { // calloc
      const uint64_t size = uint64_t{x} * y;
      const uint32_t p = size > max_block ? 0 : allocate(static_cast<uint32_t>(size));
      for (uint32_t i = 0; p && i < size; ++i) m.write8(p + i, 0);
      result(m, p);
      return true;
    }
    case 0x38: { // realloc
      if (x == 0) { result(m, allocate(y)); return true; }
      const auto it = allocated_.find(x);
      const uint32_t old_size = it == allocated_.end() ? 0 : it->second;
      const uint32_t p = allocate(y);
      if (p) copy_bytes(m, p, x, std::min(old_size, y));
      if (p) release(x);
      result(m, p);
      return true;
    }
    case 0x39: // InitHeap(address, size)
      heap_start_ = (x + 7) & ~7u;
      heap_end_ = x + y;
      allocated_.clear();
      free_.clear();
      if (heap_end_ > heap_start_) free_[heap_start_] = heap_end_ - heap_start_;
      return true;
    case 0x3C: m.print(std::string(1, static_cast<char>(x))); result(m, x); return true; // putchar
    case 0x3E: print_string(m, x, false); return true;                                    // puts
    case 0x3F: { // printf: arguments after the format in a1..a3, then the caller's stack from sp+10h
      const uint32_t stack = m.cpu.gpr[sp];
      const std::string text = format(m, x, [&](unsigned i) {
        const unsigned slot = i + 1;
        return slot < 4 ? m.cpu.gpr[a0 + slot] : m.read32(stack + 4 * slot);
      });
      m.print(text);
      result(m, static_cast<uint32_t>(text.size()));
      return true;
    }
    case 0x44: return true; // FlushCache: there is no instruction cache to flush
    case 0x49: m.gpu.write_gp0(x); return true; // GPU_cw
    default: return false;
  }
}

bool Bios::call_b(Machine& m, uint32_t n) {
  const uint32_t x = arg(m, 0), y = arg(m, 1), z = arg(m, 2), w = arg(m, 3);
  auto event = [&](uint32_t handle) -> Event* {
    const uint32_t index = handle - event_handle_base;
    return index < events_.size() && events_[index].open ? &events_[index] : nullptr;
  };
  switch (n) {
    case 0x38: throw ProgramStop{"exit() called", x};
    case 0x3D: m.print(std::string(1, static_cast<char>(x))); result(m, x); return true; // putchar
    case 0x3F: print_string(m, x, false); return true;                                    // puts
    case 0x02: case 0x04: case 0x05: case 0x06: result(m, 1); return true; // timer setup: accepted
    case 0x03: result(m, m.io.counters[x % 3].value); return true;         // get_timer
    case 0x07: case 0x20: // DeliverEvent / UnDeliverEvent(class, spec)
      for (Event& e : events_)
        if (e.open && e.class_ == x && e.spec == y) e.ready = n == 0x07;
      return true;
    case 0x08: // OpenEvent(class, spec, mode, handler)
      events_.push_back(Event{x, y, z, w, true, false, false});
      result(m, event_handle_base + static_cast<uint32_t>(events_.size() - 1));
      return true;
    case 0x09: if (Event* e = event(x)) e->open = false; result(m, 1); return true; // CloseEvent
    case 0x0C: if (Event* e = event(x)) e->enabled = true; result(m, 1); return true;
    case 0x0D: if (Event* e = event(x)) e->enabled = false; result(m, 1); return true;
    case 0x0A: case 0x0B: { // WaitEvent / TestEvent
      Event* e = event(x);
      if (!e) { result(m, 0); return true; }
      if (is_vblank_class(e->class_) && !e->ready && !m.in_callback()) {
        const uint32_t index = x - event_handle_base;
        m.vblank(); // the infinitely fast CPU has reached the next VBLANK
        e = &events_[index];
        e->ready = true;
      }
      if (n == 0x0A && !e->ready)
        throw ProgramStop{fmt::format("WaitEvent({:#x}) on class {:#x}, which nothing delivers", x, e->class_), 1};
      result(m, e->ready ? 1 : 0);
      e->ready = false;
      return true;
    }
    case 0x12: // InitPad(buf1, size1, buf2, size2): no controller: status byte FFh
      if (x) m.write8(x, 0xFF);
      if (z) m.write8(z, 0xFF);
      result(m, 2);
      return true;
    case 0x13: case 0x14: case 0x5B: result(m, 1); return true; // StartPad, StopPad, ChangeClearPad
    case 0x4A: case 0x4B: case 0x4C: result(m, 1); return true; // InitCard, StartCard, StopCard: no card answers
    case 0x17: // ReturnFromException: inside an interrupt's chain walk it resumes the interrupted code
      if (in_interrupt_ && m.in_callback()) throw InterruptReturn{};
      return true; // elsewhere there is no exception to return from: accepted
    case 0x18: case 0x19: return true; // SetDefault/SetCustomExitFromException: recorded nowhere, accepted
    default: return false;
  }
}

bool Bios::call_c(Machine& m, uint32_t n) {
  const uint32_t x = arg(m, 0), y = arg(m, 1);
  switch (n) {
    case 0x02: // SysEnqIntRP(priority, element): the new element goes in front of its chain
      if (x >= chain_heads_.size() || y == 0) { result(m, 0); return true; }
      m.write32(y, chain_heads_[x]);
      chain_heads_[x] = y;
      result(m, 1);
      return true;
    case 0x03: { // SysDeqIntRP(priority, element): unlinked wherever it is in the chain
      if (x >= chain_heads_.size()) { result(m, 0); return true; }
      uint32_t previous = 0;
      for (uint32_t e = chain_heads_[x], steps = 0; e != 0 && steps < max_chain_length; e = m.read32(e), ++steps) {
        if (e != y) { previous = e; continue; }
        if (previous) m.write32(previous, m.read32(e));
        else chain_heads_[x] = m.read32(e);
        result(m, y);
        return true;
      }
      result(m, 0);
      return true;
    }
    case 0x00: case 0x01: case 0x07: case 0x08: case 0x0A: case 0x12: case 0x1C: return true; // kernel setup
    default: return false;
  }
}

void Bios::run_interrupt_chains(Machine& m) {
  if (in_interrupt_) return; // the CPU masks interrupts while it handles one
  in_interrupt_ = true;
  try {
    for (uint32_t priority = 0; priority < chain_heads_.size(); ++priority) {
      uint32_t steps = 0;
      for (uint32_t e = chain_heads_[priority]; e != 0 && steps < max_chain_length; ++steps) {
        const uint32_t next = m.read32(e), handler = m.read32(e + 4), verifier = m.read32(e + 8);
        if (verifier != 0) {
          const uint32_t verdict = m.call_callback(verifier);
          if (verdict != 0 && handler != 0) m.call_callback(handler, verdict);
        }
        e = next;
      }
      if (steps == max_chain_length)
        log::warning("psx: the interrupt chain of priority {} has more than {} elements (a cycle?); walk cut short",
                     priority, max_chain_length);
    }
  } catch (const InterruptReturn&) {
  }
  in_interrupt_ = false;
}

void Bios::deliver_vblank(Machine& m) {
  constexpr uint32_t mode_callback = 0x1000, mode_ready = 0x2000;
  for (size_t i = 0; i < events_.size(); ++i) { // by index: a handler may open events
    const Event e = events_[i];
    if (!e.open || !e.enabled || !is_vblank_class(e.class_)) continue;
    if (e.mode == mode_ready) events_[i].ready = true;
    if (e.mode == mode_callback && e.handler) m.call_callback(e.handler);
  }
}

uint32_t Bios::allocate(uint32_t size) {
  size = (std::max(size, 1u) + 7) & ~7u;
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    if (it->second < size) continue;
    const uint32_t address = it->first, left = it->second - size;
    free_.erase(it);
    if (left) free_[address + size] = left;
    allocated_[address] = size;
    return address;
  }
  return 0;
}

void Bios::release(uint32_t address) {
  const auto it = allocated_.find(address);
  if (it == allocated_.end()) return;
  auto [block, inserted] = free_.emplace(address, it->second);
  allocated_.erase(it);
  // Merge with the neighbours.
  if (auto next = std::next(block); next != free_.end() && block->first + block->second == next->first) {
    block->second += next->second;
    free_.erase(next);
  }
  if (block != free_.begin()) {
    auto previous = std::prev(block);
    if (previous->first + previous->second == block->first) {
      previous->second += block->second;
      free_.erase(block);
    }
  }
}

} // namespace kiln::psx
