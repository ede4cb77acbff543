#include "runtime/platform/linux-syscalls/process32.h"

#include <fmt/format.h>
#include <pthread.h>
#include <sys/mman.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "runtime/base/error.h"

namespace kiln::linux_calls {
namespace {

constexpr uint32_t page_size = 4096;
constexpr uint32_t brk_limit = 256u << 20;

// Auxiliary vector keys (linux/auxvec.h).
constexpr uint32_t at_null = 0, at_random = 25, at_execfn = 31;

} // namespace

void reserve_space32(Space32& space) {
  void* base = mmap(nullptr, size_t{1} << 32, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (base == MAP_FAILED) throw Error("cannot reserve the 4 GiB guest address space");
  space.memory = static_cast<uint8_t*>(base);
}

void map32(Space32& space, uint32_t address, uint32_t size) {
  const uint64_t start = address & ~uint64_t{page_size - 1};
  const uint64_t end = (uint64_t{address} + size + page_size - 1) & ~uint64_t{page_size - 1};
  if (end <= start) return;
  if (mprotect(space.memory + start, end - start, PROT_READ | PROT_WRITE) != 0)
    throw Error(fmt::format("cannot map guest memory {:#010x}+{:#x}", start, end - start));
}

void load_program32(Space32& space, const LoadSegment32* segments, size_t count) {
  uint32_t image_end = 0;
  for (size_t i = 0; i < count; ++i) {
    const LoadSegment32& s = segments[i];
    map32(space, s.address, s.memory_size);
    std::memcpy(space.memory + s.address, s.data, s.size);
    image_end = std::max(image_end, s.address + s.memory_size);
  }
  space.brk_start = space.brk_current = (image_end + page_size - 1) & ~(page_size - 1);
  space.mmap_next = mmap_base32;
  map32(space, stack_top32 - stack_size32, stack_size32);
}

uint32_t build_stack32(Space32& space, Endian order, const std::vector<std::string>& args, const std::vector<std::string>& env,
                       const std::vector<std::pair<uint32_t, uint32_t>>& auxv) {
  uint32_t top = stack_top32;
  auto push_string = [&](const std::string& s) {
    top -= static_cast<uint32_t>(s.size() + 1);
    std::memcpy(space.memory + top, s.c_str(), s.size() + 1);
    return top;
  };
  std::vector<uint32_t> arg_addresses, env_addresses;
  for (const std::string& s : args) arg_addresses.push_back(push_string(s));
  for (const std::string& s : env) env_addresses.push_back(push_string(s));
  const uint32_t execfn = arg_addresses.empty() ? 0 : arg_addresses[0];
  top &= ~15u;
  top -= 16;
  const uint32_t random_bytes = top;
  for (uint32_t i = 0; i < 16; ++i) space.memory[random_bytes + i] = static_cast<uint8_t>(0x5A ^ (i * 37));
  std::vector<uint32_t> words{static_cast<uint32_t>(args.size())};
  words.insert(words.end(), arg_addresses.begin(), arg_addresses.end());
  words.push_back(0);
  words.insert(words.end(), env_addresses.begin(), env_addresses.end());
  words.push_back(0);
  for (const auto& [key, value] : auxv) words.insert(words.end(), {key, value});
  words.insert(words.end(), {at_random, random_bytes, at_execfn, execfn, at_null, 0});
  top -= static_cast<uint32_t>(words.size() * 4);
  top &= ~15u;
  for (size_t i = 0; i < words.size(); ++i) store<uint32_t>(space.memory + top + i * 4, words[i], order);
  return top;
}

uint8_t* Process32::guest(uint64_t address, uint64_t size) {
  return address + size <= (uint64_t{1} << 32) ? space_.memory + address : nullptr;
}

int64_t Process32::map(uint64_t address, uint64_t size, bool fixed) {
  uint64_t at = address;
  if (!fixed) {
    at = space_.mmap_next;
    if (at + size > mmap_limit32) return -ENOMEM;
    space_.mmap_next += static_cast<uint32_t>(size);
  }
  map32(space_, static_cast<uint32_t>(at), static_cast<uint32_t>(size));
  std::memset(space_.memory + at, 0, size); // a fixed mapping replaces what was there: zeroed as well
  return static_cast<int64_t>(at);
}

uint64_t Process32::brk(uint64_t wanted) {
  if (wanted > space_.brk_current && wanted < space_.brk_start + brk_limit) {
    map32(space_, space_.brk_current, static_cast<uint32_t>(wanted - space_.brk_current));
    space_.brk_current = static_cast<uint32_t>(wanted);
  } else if (wanted >= space_.brk_start && wanted != 0) {
    space_.brk_current = static_cast<uint32_t>(wanted);
  }
  return space_.brk_current;
}

void Process32::exit(int status) { throw ProcessExit{status & 0xFF}; }

int run_on_large_stack(const std::function<int()>& program) {
  struct Work {
    const std::function<int()>* program;
    int status = 1;
  } work{&program};
  constexpr size_t stack_bytes = size_t{1} << 30;
  pthread_attr_t attributes;
  pthread_t thread;
  if (pthread_attr_init(&attributes) == 0 && pthread_attr_setstacksize(&attributes, stack_bytes) == 0 &&
      pthread_create(&thread, &attributes,
                     [](void* p) -> void* {
                       auto* w = static_cast<Work*>(p);
                       w->status = (*w->program)();
                       return nullptr;
                     },
                     &work) == 0) {
    pthread_join(thread, nullptr);
    return work.status;
  }
  return program(); // no large stack to be had: the usual one
}

} // namespace kiln::linux_calls
