#pragma once
// The BIOS functions homebrew calls, answered in C++ (psx-spx "BIOS Function Summary"): a program calls
// A(nn)/B(nn)/C(nn) by jumping to A0h/B0h/C0h with the function number in $t1 and arguments in $a0..$a3 (more on
// the stack from $sp+10h). Unknown calls are reported once each with their table and number and return 0.
#include <array>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace kiln::psx {

class Machine;

class Bios {
public:
  /// Runs function `number` of table 'A', 'B' or 'C'; the result goes to $v0. Throws ProgramStop for exit().
  void call(Machine& m, char table, uint32_t number);

  /// A VBLANK happened: enabled VBLANK-class events become ready (mode 2000h) or have their handler run (1000h).
  void deliver_vblank(Machine& m);

  /// An interrupt the CPU takes: the elements SysEnqIntRP queued are walked as the BIOS exception handler walks
  /// them (psx-spx "BIOS Interrupt/Exception Handling"): priority 0 to 3, each chain from its head; an element is
  /// {+0 next, +4 handler, +8 verifier, +C 0}; a non-zero verifier result is passed to the handler in $a0. A
  /// handler (or verifier) calling ReturnFromException ends the walk, as it resumes the interrupted code.
  void run_interrupt_chains(Machine& m);

  /// printf as the BIOS formats it (%d %i %u %x %X %o %c %s %p %%, flags -0+ space #, width, precision, l/h),
  /// reading the format and strings from guest memory and arguments through `argument(i)`.
  static std::string format(Machine& m, uint32_t format_address, const std::function<uint32_t(unsigned)>& argument);

  struct Event {
    uint32_t class_ = 0, spec = 0, mode = 0, handler = 0;
    bool open = false, enabled = false, ready = false;
  };

private:
  bool call_a(Machine& m, uint32_t number);
  bool call_b(Machine& m, uint32_t number);
  bool call_c(Machine& m, uint32_t number);
  void print_string(Machine& m, uint32_t address, bool newline);

  // Heap (InitHeap/malloc/free/calloc/realloc): first fit over the area InitHeap gave.
  uint32_t allocate(uint32_t size);
  void release(uint32_t address);
  uint32_t heap_start_ = 0, heap_end_ = 0;
  std::map<uint32_t, uint32_t> allocated_; ///< address -> size
  std::map<uint32_t, uint32_t> free_;      ///< address -> size

  std::vector<Event> events_;
  /// SysEnqIntRP chains: the head element per priority; elements link through their +0 word in guest memory,
  /// where the program may read or edit them as the real kernel's lists allow.
  std::array<uint32_t, 4> chain_heads_{};
  bool in_interrupt_ = false;
  uint32_t rand_state_ = 0x24040001u;
  std::set<std::pair<char, uint32_t>> reported_;
};

} // namespace kiln::psx
