#pragma once
// Draws one translated vertex + fragment program pair over a 64x64 viewport with a HeadsurfaceScene's textures
// and samplers, on RGBA32F colour targets (so outputs compare bit for bit), and reads the targets back.
#include <array>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <span>
#include <utility>
#include <vector>

#include "runtime/gpu/vulkan/context.h"
#include "tests/translator/graphics/headsurface_scene.h"
#include "translator/graphics/graphics.h"

namespace kiln::test {

constexpr uint32_t kViewportSize = 64;

/// Constant-bank contents per bank number (64 KiB banks are zero beyond the given words).
using BankContents = std::map<uint32_t, std::vector<uint32_t>>;

struct BankSet {
  BankContents vertex;
  BankContents fragment;
};

struct RenderedImage {
  /// Per fragment colour target (index = target), kViewportSize² RGBA float texels; empty for unwritten targets.
  std::vector<std::vector<float>> targets;
};

/// Clear value of every colour target before the draw: a pixel still holding it was not written.
constexpr float kClearValue = -1234.5f;

class HeadsurfaceRenderer {
public:
  HeadsurfaceRenderer(vulkan::Context& context, const HeadsurfaceScene& scene);
  ~HeadsurfaceRenderer();

  /// One pipeline, one draw per entry of `variants` (the constant banks each draw reads).
  /// `geometry`, when given, sits between them (a program without resources: it reads no constant bank or texture).
  /// `tessellation`, when given (control, evaluation), draws vertices 0-2 as one 3-vertex patch instead of the
  /// 4-vertex strip (programs without resources).
  std::vector<RenderedImage> draw(const graphics::Translation& vertex, const graphics::Translation& fragment,
                                  std::span<const BankSet> variants, const graphics::Translation* geometry = nullptr,
                                  std::pair<const graphics::Translation*, const graphics::Translation*> tessellation = {});

private:
  struct Resources;
  vulkan::Context& context_;
  const HeadsurfaceScene& scene_;
  std::unique_ptr<Resources> resources_;
};

/// The Maxwell folder of the head-surface corpus (its vertex program places the quad that covers the viewport).
std::filesystem::path maxwell_corpus();

/// Colour target 0's texels of one draw behind the corpus Maxwell vertex program (its scene made from
/// `scene_seed`): `fragment_program` translated for descriptor set 1 with `fragment_options`, and the optional
/// geometry or tessellation programs as HeadsurfaceRenderer::draw takes them. Validation is on and the draw must
/// leave no validation message (checked).
std::vector<float> draw_behind_corpus_vertex_program(
    const std::vector<uint8_t>& fragment_program, uint64_t scene_seed, graphics::TranslateOptions fragment_options = {},
    const graphics::Translation* geometry = nullptr,
    std::pair<const graphics::Translation*, const graphics::Translation*> tessellation = {});

/// How many components of colour target 0's rgb differ (bit for bit) from `expected(x, y)`; the first few are
/// reported through the test log.
size_t count_wrong_rgb(const std::vector<float>& texels,
                       const std::function<std::array<float, 3>(uint32_t, uint32_t)>& expected);

} // namespace kiln::test
