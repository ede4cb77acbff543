// Inline-to-memory (A140, cla140.h): pushbuffer data written into guest memory.
#include <memory>

#include "runtime/gpu/maxwell/classes.h"
#include "runtime/gpu/maxwell/engine.h"
#include "runtime/gpu/maxwell/inline_upload.h"

namespace kiln::maxwell {

namespace {

class InlineToMemoryEngine final : public Engine {
public:
  using Engine::Engine;
  uint32_t class_id() const override { return static_cast<uint32_t>(ClassId::inline_to_memory); }
  void write(uint32_t method, uint32_t value) override {
    store(method, value);
    if (InlineUpload::handles(method)) upload_.write(gpu_, *this, method, value);
  }

private:
  InlineUpload upload_;
};

} // namespace

std::unique_ptr<Engine> create_inline_engine(Gpu& gpu) { return std::make_unique<InlineToMemoryEngine>(gpu); }

} // namespace kiln::maxwell
