#pragma once
// Reads `nvdisasm -hex` listings: each instruction's offset, its text and its 128-bit word, so tests can compare
// kiln's disassembly with NVIDIA's.
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "translator/sass/sm86/instruction.h"

namespace kiln::sass::sm86::testing {

struct ListedInstruction {
  std::string function;    ///< the kernel the listing places it in ("" for raw-code listings)
  uint64_t offset = 0;
  std::string text;        ///< normalised (see normalise_text)
  Word128 word;
};

/// Whitespace runs become one space; no space before ';'; the trailing ';' and surrounding spaces are dropped.
std::string normalise_text(std::string_view text);

/// How the listing lays out instruction words.
enum class ListingLayout : uint8_t {
  volta,    ///< 128-bit instructions: the low 64 bits on the instruction's line, the high 64 bits on the next
  maxwell,  ///< 64-bit instructions (`word.high` stays 0) after a control word on a line of its own; a dual-issue
            ///< pair is braced ("{ A ;" then "B }") and the second one's word follows on the next line
};

/// Parses a listing; throws kiln::Error on lines it cannot read. Label references ("`(.L_x_3)") are replaced by
/// the hex offset of the instruction the label names, which is how kiln prints branch targets.
std::vector<ListedInstruction> read_nvdisasm_listing(const std::filesystem::path& path,
                                                     ListingLayout layout = ListingLayout::volta);

/// Replaces each relocated operand of a listing's text ("32@lo(__cudart_i2opi_f)",
/// "32@hi((kernel + .L_x_0@srel))") by 0x0, the value its word holds until the loader patches it; returns whether
/// it replaced any (the caller checks that the cubin relocates that instruction).
bool replace_relocated_operands(std::string& text);

/// The CUDA 11.8 fixtures (tests/translator/cuda/regenerate_cuda118.sh): the cubins of one architecture folder
/// ("sm_53", "sm_86-G"), sorted by name; throws kiln::Error when the folder is missing.
std::vector<std::filesystem::path> cuda118_cubins(std::string_view folder);

} // namespace kiln::sass::sm86::testing
