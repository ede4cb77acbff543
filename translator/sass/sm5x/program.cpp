#include "translator/sass/sm5x/program.h"

#include <fmt/format.h>

#include "runtime/base/byte_reader.h"
#include "runtime/base/error.h"

namespace kiln::sass::sm5x {
namespace {

constexpr size_t kGroupWords = 4;  // one control word, then three instructions

bool is_control_slot(size_t word_index) { return word_index % kGroupWords == 0; }

} // namespace

Program decode_program(std::span<const uint8_t> bytes, std::string_view name, ProgramKind kind) {
  Program program;
  program.name = std::string(name);
  if (kind == ProgramKind::graphics) {
    if (bytes.size() < kSphSize) {
      throw Error(in_file(program.name), fmt::format("{} bytes: too short for the {:#x}-byte shader program header",
                                                     bytes.size(), kSphSize));
    }
    program.header = parse_sph(bytes.first(kSphSize), name);
    program.code_offset = kSphSize;
  }
  ByteReader reader(bytes.subspan(program.code_offset), program.name, Endian::little, program.code_offset);
  if (reader.size() % 8 != 0) reader.fail_at(reader.size() & ~size_t{7}, "code size is not a multiple of 8 bytes");
  while (reader.remaining() > 0) program.words.push_back(reader.u64());

  // Trailing groups that are entirely zero are alignment padding, not instructions.
  size_t end = program.words.size();
  while (end > 0 && program.words[end - 1] == 0) --end;
  end = std::min(program.words.size(), (end + kGroupWords - 1) / kGroupWords * kGroupWords);
  program.padding_words = program.words.size() - end;

  std::vector<Scheduling> group;
  for (size_t i = 0; i < end; ++i) {
    const uint64_t word = program.words[i];
    const uint64_t file_offset = program.code_offset + i * 8;
    if (is_control_slot(i)) {
      if ((word >> 63) != 0) {
        throw Error(at_offset(program.name, file_offset), fmt::format("control word {:#018x} has bit 63 set", word));
      }
      group = decode_control_word(word);
      continue;
    }
    try {
      program.instructions.push_back(decode(word, i * 8, program.name));
    } catch (const Error& error) {
      throw Error(at_offset(program.name, file_offset),
                  fmt::format("{} (code address {:#x})", error.message(), i * 8));
    }
    program.scheduling.push_back(group[i % kGroupWords - 1]);
  }
  return program;
}

std::vector<uint64_t> assemble_code(const Program& program) {
  std::vector<uint64_t> words;
  Scheduling slots[3];
  size_t group_start = 0;
  for (size_t i = 0; i < program.instructions.size(); ++i) {
    if (i % 3 == 0) {
      group_start = words.size();
      words.push_back(0);
      slots[0] = slots[1] = slots[2] = Scheduling{0, false, 0, 0, 0, 0};
    }
    slots[i % 3] = program.scheduling[i];
    words[group_start] = encode_control_word(slots[0], slots[1], slots[2]);
    words.push_back(assemble(program.instructions[i]));
  }
  words.resize(words.size() + program.padding_words, 0);
  return words;
}

std::string listing(const Program& program) {
  std::string text = fmt::format("// {}\n", program.name);
  if (program.header) {
    const std::string summary = program.header->describe();
    size_t start = 0;
    while (start < summary.size()) {
      const size_t end = summary.find('\n', start);
      text += "// " + summary.substr(start, end - start) + "\n";
      start = end + 1;
    }
  }
  size_t next = 0;
  for (size_t i = 0; i < program.words.size() - program.padding_words; ++i) {
    const uint64_t word = program.words[i];
    if (is_control_slot(i)) {
      text += fmt::format("{:>72}/* {:#018x} */\n", "", word);
      continue;
    }
    const Instruction& instruction = program.instructions[next];
    const Scheduling& scheduling = program.scheduling[next++];
    std::string line = fmt::format("        /*{:04x}*/                   {} ;", instruction.address, disassemble(instruction, scheduling.reuse));
    if (line.size() < 72) line.resize(72, ' ');
    text += fmt::format("{} /* {:#018x} */  // stall {}{}", line, word, scheduling.stall, scheduling.yield ? " yield" : "");
    if (scheduling.write_barrier != 7) text += fmt::format(" wr SB{}", scheduling.write_barrier);
    if (scheduling.read_barrier != 7) text += fmt::format(" rd SB{}", scheduling.read_barrier);
    if (scheduling.wait_mask != 0) text += fmt::format(" wait {:#x}", scheduling.wait_mask);
    text += "\n";
  }
  if (program.padding_words != 0) text += fmt::format("        // {} words of zero padding\n", program.padding_words);
  return text;
}

std::string disassemble_program(std::span<const uint8_t> bytes, std::string_view name, ProgramKind kind) {
  return listing(decode_program(bytes, name, kind));
}

} // namespace kiln::sass::sm5x
