// The nvidia-headsurface programs compiled by NVIDIA for Maxwell, Pascal and Turing are one set of GLSL sources, so
// their translations must draw the same images from the same inputs: every fragment program is drawn, fed by its
// architecture's vertex program, with one random scene (uniforms, handles, textures, samplers) on lavapipe with
// validation and synchronization validation on, and the colour targets are compared bit for bit.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cmath>
#include <filesystem>
#include <random>
#include <set>

#include <fmt/format.h>

#include "runtime/base/error.h"
#include "runtime/base/file_writer.h"
#include "runtime/gpu/vulkan/context.h"
#include "tests/translator/graphics/headsurface_renderer.h"
#include "tests/translator/graphics/jump_tables.h"
#include "translator/sass/sm5x/program.h"

namespace {

namespace fs = std::filesystem;
using namespace kiln;

struct ArchCorpus {
  const char* folder;
  graphics::Arch arch;
};
constexpr ArchCorpus kArches[] = {{"maxwell", graphics::Arch::sm53}, {"pascal", graphics::Arch::sm60}, {"turing", graphics::Arch::sm75}};
constexpr uint32_t kVertexSet = 0;
constexpr uint32_t kFragmentSet = 1;

/// The constant banks of one draw of the scene: the stages' uniforms, the handles, the fragment program's
/// compiler constants, and `method` as NvHsFragmentUniforms::resamplingMethod.
test::BankSet scene_banks(const test::HeadsurfaceScene& scene, int32_t method, const std::vector<uint32_t>& compiler_constants) {
  test::BankSet banks;
  banks.vertex[3] = scene.vertex_uniforms;
  banks.fragment[test::kFragmentUniformBank] = scene.fragment_uniforms;
  banks.fragment[test::kFragmentUniformBank][test::HeadsurfaceScene::resampling_method_offset / 4] = static_cast<uint32_t>(method);
  banks.fragment[test::kHandleBank] = scene.handles;
  banks.fragment[test::kCompilerConstantBank] = compiler_constants;
  return banks;
}

fs::path corpus_dir(const char* arch) { return fs::path(KILN_SHARED_DIR) / "corpus" / "nvidia-headsurface" / arch; }

std::vector<fs::path> program_files(const char* arch) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(corpus_dir(arch))) {
    const std::string name = entry.path().filename().string();
    if (name.size() > 3 && name[2] == '_' && entry.path().extension() == ".bin") files.push_back(entry.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

/// One architecture's program: its translation, or why there is none, and the compiler constants it reads.
struct Translated {
  std::optional<graphics::Translation> translation;
  std::string failure;
  std::vector<uint32_t> compiler_constants; ///< c[1]: jump tables derived from the program (jump_tables.h)
};

/// `tell_tables`: the translator is given c[1] (the derived jump tables); the banks drawn with hold it either way,
/// as the driver uploads it beside the code.
Translated translate(const fs::path& file, graphics::Arch arch, uint32_t set, bool tell_tables = true) {
  Translated result;
  try {
    const auto bytes = read_file(file);
    // Maxwell/Pascal switch through BRX jump tables in c[1]; Turing compiles the switch to branches.
    if (arch != graphics::Arch::sm75) result.compiler_constants = test::derive_compiler_constants(sass::sm5x::decode_program(bytes, file.filename().string()));
    graphics::TranslateOptions options;
    options.backend.descriptor_set = set;
    if (tell_tables) {
      options.constant_bank_word = [&](uint32_t bank, uint32_t offset) -> std::optional<uint32_t> {
        if (bank != test::kCompilerConstantBank || offset % 4 != 0 || offset / 4 >= result.compiler_constants.size()) return std::nullopt;
        return result.compiler_constants[offset / 4];
      };
    }
    result.translation = graphics::translate_graphics(bytes, arch, file.filename().string(), options);
  } catch (const Error& error) {
    result.failure = error.what();
  }
  return result;
}

struct Difference {
  size_t texels = 0;          ///< written components that differ
  size_t not_finite = 0;      ///< NaN or infinite written components (sane inputs give finite colours)
  std::set<uint32_t> values;  ///< distinct written values (a constant image would hide most bugs)
  size_t written = 0;         ///< written components compared
  size_t unwritten_pixels = 0; ///< pixels still holding the clear value in every written component
  std::string first;
  std::string first_not_finite;
};

bool same_value(float a, float b) { return std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b) || (std::isnan(a) && std::isnan(b)); }

Difference compare(const test::RenderedImage& a, const test::RenderedImage& b, const std::array<uint8_t, 8>& masks) {
  Difference difference;
  for (size_t target = 0; target < a.targets.size(); ++target) {
    if (a.targets[target].empty()) continue;
    for (size_t pixel = 0; pixel < test::kViewportSize * test::kViewportSize; ++pixel) {
      bool cleared = true;
      for (size_t component = 0; component < 4; ++component) {
        if (((masks[target] >> component) & 1) == 0) continue;
        const float va = a.targets[target][pixel * 4 + component];
        const float vb = b.targets[target][pixel * 4 + component];
        ++difference.written;
        if (!std::isfinite(va) && difference.not_finite++ == 0) {
          difference.first_not_finite = fmt::format("target {} pixel ({}, {}) component {}: {}", target, pixel % test::kViewportSize,
                                                    pixel / test::kViewportSize, component, va);
        }
        if (difference.values.size() < 16) difference.values.insert(std::bit_cast<uint32_t>(va));
        if (va != test::kClearValue) cleared = false;
        if (!same_value(va, vb)) {
          if (difference.texels++ == 0) {
            difference.first = fmt::format("target {} pixel ({}, {}) component {}: {} ({:#010x}) vs {} ({:#010x})", target,
                                           pixel % test::kViewportSize, pixel / test::kViewportSize, component, va,
                                           std::bit_cast<uint32_t>(va), vb, std::bit_cast<uint32_t>(vb));
          }
        }
      }
      if (cleared) ++difference.unwritten_pixels;
    }
  }
  return difference;
}

} // namespace

TEST_CASE("headsurface programs draw the same images from their maxwell, pascal and turing translations", "[gpu][graphics]") {
  if (!fs::exists(corpus_dir("maxwell"))) FAIL("corpus folder missing: " << corpus_dir("maxwell"));
  vulkan::Context context({.validation = true, .synchronization_validation = true});
  const uint64_t seed = std::random_device()() ^ (uint64_t{std::random_device()()} << 32);
  INFO("scene seed " << seed);
  std::mt19937_64 random(seed);
  const test::HeadsurfaceScene scene = test::make_headsurface_scene(random);
  test::HeadsurfaceRenderer renderer(context, scene);

  std::vector<std::vector<fs::path>> files;
  std::vector<Translated> vertex;
  for (const ArchCorpus& arch : kArches) {
    files.push_back(program_files(arch.folder));
    REQUIRE(files.back().size() == 34);
    vertex.push_back(translate(files.back()[0], arch.arch, kVertexSet));
    INFO(vertex.back().failure);
    REQUIRE(vertex.back().translation);
  }

  size_t rendered = 0;
  std::array<size_t, std::size(kArches)> exact{}; // per architecture: programs whose images equal Maxwell's
  std::vector<std::string> not_translated;
  size_t drawn_without_tables = 0;
  size_t spirv_words_with_tables = 0, spirv_words_without_tables = 0; // for the docs' figures
  for (size_t index = 1; index < 34; ++index) {
    const std::string name = files[0][index].filename().string();
    INFO(name);
    std::vector<Translated> fragment;
    for (size_t a = 0; a < std::size(kArches); ++a) fragment.push_back(translate(files[a][index], kArches[a].arch, kFragmentSet));
    const auto failed = std::find_if(fragment.begin(), fragment.end(), [](const Translated& t) { return !t.translation; });
    if (failed != fragment.end()) {
      not_translated.push_back(name + ": " + failed->failure);
      continue;
    }
    // The customSampling programs switch on resamplingMethod: draw every method (1-6 as in
    // nvidia-headsurface-constants.h; the driver selects these programs only for them); the others draw once.
    std::vector<int32_t> methods{static_cast<int32_t>(scene.fragment_uniforms[test::HeadsurfaceScene::resampling_method_offset / 4])};
    if (name.find("customSampling") != std::string::npos) methods = {1, 2, 3, 4, 5, 6};

    std::vector<std::vector<test::BankSet>> variants(std::size(kArches));
    std::vector<std::vector<test::RenderedImage>> images;
    for (size_t a = 0; a < std::size(kArches); ++a) {
      for (int32_t method : methods) variants[a].push_back(scene_banks(scene, method, fragment[a].compiler_constants));
      images.push_back(renderer.draw(*vertex[a].translation, *fragment[a].translation, variants[a]));
    }
    ++rendered;
    for (size_t a = 1; a < std::size(kArches); ++a) {
      INFO(kArches[a].folder << " against maxwell");
      bool all_exact = true;
      for (size_t m = 0; m < methods.size(); ++m) {
        INFO("resamplingMethod " << methods[m]);
        const Difference difference = compare(images[0][m], images[a][m], fragment[0].translation->color_masks);
        // Every pixel of the quad is drawn; a program that discards would show here and be stated per program.
        CHECK(difference.unwritten_pixels == 0);
        CHECK(difference.written > 0);
        INFO("first non-finite value: " << difference.first_not_finite);
        CHECK(difference.not_finite == 0);
        CHECK(difference.values.size() > 1);
        INFO("first difference: " << difference.first);
        CHECK(difference.texels == 0);
        if (difference.texels != 0) all_exact = false;
      }
      if (all_exact) ++exact[a];
    }
    // Point 3 of issue 19: an offline shader cache has no c[1], so BRX must translate without its jump table.
    // The Maxwell and Pascal customSampling programs translated without it must draw what their translations
    // with it drew above, for every resamplingMethod (each takes a different switch case), bit for bit.
    if (name.find("customSampling") != std::string::npos) {
      for (size_t a = 0; a < 2; ++a) { // maxwell, pascal: the architectures that switch through BRX
        INFO(kArches[a].folder << " translated without its jump table");
        REQUIRE(!fragment[a].compiler_constants.empty());
        const Translated without_tables = translate(files[a][index], kArches[a].arch, kFragmentSet, false);
        INFO(without_tables.failure);
        REQUIRE(without_tables.translation);
        spirv_words_with_tables += fragment[a].translation->spirv.size();
        spirv_words_without_tables += without_tables.translation->spirv.size();
        const auto drawn = renderer.draw(*vertex[a].translation, *without_tables.translation, variants[a]);
        size_t methods_unlike_first = 0; // the methods take different cases: their images differ
        for (size_t m = 0; m < methods.size(); ++m) {
          INFO("resamplingMethod " << methods[m]);
          const Difference difference = compare(drawn[m], images[a][m], fragment[a].translation->color_masks);
          CHECK(difference.unwritten_pixels == 0);
          CHECK(difference.written > 0);
          CHECK(difference.not_finite == 0);
          CHECK(difference.values.size() > 1);
          INFO("first difference: " << difference.first);
          CHECK(difference.texels == 0);
          if (compare(images[a][m], images[a][0], fragment[a].translation->color_masks).texels != 0) ++methods_unlike_first;
        }
        CHECK(methods_unlike_first > 0);
        ++drawn_without_tables;
      }
    }
    const auto log = context.validation_log().messages();
    for (const std::string& message : log) UNSCOPED_INFO(message);
    REQUIRE(log.empty());
  }
  for (const std::string& failure : not_translated) UNSCOPED_INFO(failure);
  fmt::print("headsurface images: {} fragment programs rendered per architecture, identical to maxwell's: {} pascal, {} turing; {} not translated\n",
             rendered, exact[1], exact[2], not_translated.size());
  fmt::print("customSampling without jump tables: {} programs (maxwell and pascal) drawn for resamplingMethod 1-6, identical to their "
             "translations with the tables; SPIR-V {} words without the tables, {} with them\n",
             drawn_without_tables, spirv_words_without_tables, spirv_words_with_tables);
  CHECK(rendered == 33);
  CHECK(drawn_without_tables == 28);
  CHECK(context.validation_log().count() == 0);
}
