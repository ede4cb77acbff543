// The Shader Program Header of every corpus program agrees with index.json and with what its code does.
#include <set>

#include <catch2/catch.hpp>

#include "tests/translator/sm5x/corpus.h"
#include "translator/sass/sm5x/program.h"

namespace kiln::sass::sm5x::test {
namespace {

/// Attribute byte addresses the code reads (ALD, IPA) or writes (AST); ALD/AST.64/.96/.128 cover 2-4 words.
std::set<uint32_t> attributes_used(const Program& program, Opcode opcode) {
  std::set<uint32_t> addresses;
  for (const Instruction& instruction : program.instructions) {
    if (instruction.opcode != opcode) continue;
    const size_t slot = opcode == Opcode::ast ? 0 : 1;
    const Operand& attribute = instruction.operands[slot];
    REQUIRE(attribute.kind == OperandKind::attribute);
    REQUIRE(attribute.base == kRZ);  // no indexed attribute access in this corpus
    const uint32_t words = opcode == Opcode::ipa ? 1 : instruction.modifier("size") + 1;
    for (uint32_t i = 0; i < words; ++i) addresses.insert(static_cast<uint32_t>(attribute.value) + 4 * i);
  }
  return addresses;
}

/// Whether some instruction leaves a value in `reg`: a destination GPR in operand 0, or a TEX/TEX.B whose
/// component mask writes consecutive registers from its destination.
bool writes_register(const Program& program, unsigned reg) {
  static const std::set<Opcode> no_register_destination = {Opcode::ast, Opcode::st, Opcode::stg, Opcode::sts,
                                                           Opcode::stl, Opcode::fsetp, Opcode::isetp, Opcode::psetp,
                                                           Opcode::shfl};
  for (const Instruction& instruction : program.instructions) {
    if (no_register_destination.count(instruction.opcode) || instruction.operands.empty()) continue;
    const Operand& destination = instruction.operands[0];
    if (destination.kind != OperandKind::gpr) continue;
    unsigned count = 1;
    if (instruction.opcode == Opcode::tex) count = static_cast<unsigned>(std::popcount(static_cast<unsigned>(instruction.operands.back().value)));
    if (reg >= destination.index && reg < destination.index + count) return true;
  }
  return false;
}

TEST_CASE("sm5x: SPH stage agrees with index.json", "[sm5x][corpus][sph]") {
  for (const std::string architecture : {"maxwell", "pascal"}) {
    for (const CorpusProgram& source : corpus(architecture)) {
      INFO(source.file);
      const Program program = decode_program(source.bytes, source.file);
      REQUIRE(program.header);
      const ShaderProgramHeader& sph = *program.header;
      if (source.type == "NV3D_SHADER_TYPE_VERTEX") {
        CHECK(source.stage == "NV3D_HW_SHADER_STAGE_VERTEX_B");
        CHECK(sph.stage == ShaderStage::vertex);
        CHECK(sph.sph_type == SphType::vtg);
      } else {
        CHECK(source.type == "NV3D_SHADER_TYPE_PIXEL");
        CHECK(source.stage == "NV3D_HW_SHADER_STAGE_PIXEL");
        CHECK(sph.stage == ShaderStage::pixel);
        CHECK(sph.sph_type == SphType::ps);
      }
      CHECK(sph.local_memory_size == 0);  // no LDL/STL anywhere in the corpus
      // The header's SASS version tells the two compiles apart: 0 for Maxwell, 5 for Pascal.
      CHECK(sph.sass_version == (architecture == "maxwell" ? 0 : 5));
    }
  }
}

TEST_CASE("sm5x: SPH inputs and outputs agree with the code", "[sm5x][corpus][sph]") {
  for (const std::string architecture : {"maxwell", "pascal"}) {
    for (const CorpusProgram& source : corpus(architecture)) {
      INFO(source.file);
      const Program program = decode_program(source.bytes, source.file);
      const ShaderProgramHeader& sph = *program.header;
      const std::vector<uint32_t> inputs = sph.input_attributes();
      const std::set<uint32_t> declared_inputs(inputs.begin(), inputs.end());
      if (sph.stage == ShaderStage::vertex) {
        CHECK(attributes_used(program, Opcode::ald) == declared_inputs);
        const std::vector<uint32_t> outputs = sph.output_attributes();
        CHECK(attributes_used(program, Opcode::ast) == std::set<uint32_t>(outputs.begin(), outputs.end()));
        CHECK(sph.fragment_outputs().empty());
        continue;
      }
      // Fragment programs: every IPA reads a declared input, and every declared input is read by an IPA except
      // position.w, which some headers declare without reading it (the interpolator's perspective divide
      // uses it; programs 29-32 read only position.xy).
      const std::set<uint32_t> interpolated = attributes_used(program, Opcode::ipa);
      std::set<uint32_t> expected = declared_inputs;
      if (!interpolated.count(0x7c)) expected.erase(0x7c);
      CHECK(interpolated == expected);
      const std::vector<FragmentOutput> outputs = sph.fragment_outputs();
      CHECK(!outputs.empty());
      for (const FragmentOutput& output : outputs) {
        INFO("output register R" << int(output.reg));
        CHECK(writes_register(program, output.reg));
      }
      // KIL only in programs whose header allows killing pixels.
      bool kills = false;
      for (const Instruction& instruction : program.instructions) kills = kills || instruction.opcode == Opcode::kil;
      if (kills) CHECK(sph.kills_pixels);
    }
  }
}

TEST_CASE("sm5x: hand-read SPH of the vertex and first fragment program", "[sm5x][corpus][sph]") {
  // Vertex header bytes (maxwell/00): 0x00 = 0x61 (type 1 VTG, version 3), 0x01 = 0x04 (shader type 1),
  // 0x18 = 0x03 (generic0 x y), 0x1c = 0x0b (generic8 x y w), 0x35 = 0xb0 (OmapSystemValuesB: position x y w),
  // 0x4a/0x4b = 0x33/0x03 (OmapFixedFncTexture: texcoord0-2 s t).
  const ShaderProgramHeader vertex = *decode_program(corpus("maxwell")[0].bytes, "vertex").header;
  CHECK(vertex.input_attributes() == std::vector<uint32_t>{0x80, 0x84, 0x100, 0x104, 0x10c});
  CHECK(vertex.output_attributes() == std::vector<uint32_t>{0x70, 0x74, 0x7c, 0x300, 0x304, 0x310, 0x314, 0x320, 0x324});
  // Fragment header (maxwell/01): 0x17 = 0x80 (ImapSystemValuesB: position w), 0x3d/0x3e = 0x0a (texcoord1/2
  // S and T with PixelImap 2 = perspective), 0x48 = 0x07 (OmapTarget[0] red green blue).
  const ShaderProgramHeader fragment = *decode_program(corpus("maxwell")[1].bytes, "fragment").header;
  CHECK(fragment.input_attributes() == std::vector<uint32_t>{0x7c, 0x310, 0x314, 0x320, 0x324});
  CHECK(fragment.input_interpolation(0x310) == PixelImap::perspective);
  CHECK(fragment.input_interpolation(0x318) == PixelImap::unused);
  CHECK(fragment.omap_target[0] == 0x7);
  const std::vector<FragmentOutput> outputs = fragment.fragment_outputs();
  REQUIRE(outputs.size() == 3);
  CHECK((outputs[2].target == 0 && outputs[2].component == 2 && outputs[2].reg == 2));
  CHECK(attribute_name(0x7c) == "position.w");
  CHECK(attribute_name(0x324) == "texcoord2.t");
  CHECK(attribute_name(0x10c) == "generic8.w");
}

} // namespace
} // namespace kiln::sass::sm5x::test
