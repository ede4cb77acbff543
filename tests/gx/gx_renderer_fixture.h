#pragma once
// A GX renderer on lavapipe with the validation layers (synchronization validation too) over the RAM of a
// command processor harness: streams run through the processor, their events through the renderer in order.
#include <catch2/catch.hpp>

#include "runtime/gpu/vulkan/gx/gx_renderer.h"
#include "tests/gx/gx_harness.h"

namespace kiln::gx::test {

inline vulkan::Context& validated_context() {
  static vulkan::Context context({.validation = true, .synchronization_validation = true});
  return context;
}

struct RendererFixture {
  RendererFixture() : gx(0x200000), renderer(validated_context(), gx.ram), start(validated_context().validation_log().count()) {}

  void run(const GxStream& stream) {
    const size_t first = gx.events.size();
    gx.run(stream);
    REQUIRE(gx.processor.diagnostics().empty());
    for (size_t i = first; i < gx.events.size(); ++i) renderer.consume(gx.events[i]);
  }
  void check_validation() const {
    const auto messages = validated_context().validation_log().messages();
    for (size_t i = start; i < messages.size(); ++i) UNSCOPED_INFO(messages[i]);
    CHECK(messages.size() == start);
  }

  Gx gx;
  GxRenderer renderer;
  size_t start;
};

} // namespace kiln::gx::test
