#pragma once
// 3D engines: Maxwell B197 (clb197.h) and Ampere C797 (clc797.h), one implementation: the methods they share sit
// at the same offsets with the same meaning (engine_3d.cpp checks the ones that differ). The register file, draws
// frozen into snapshots, clears, reports, conditional rendering, constant buffer updates, inline uploads, and on
// B197 the MME that expands macro calls into 3D methods.
#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "runtime/gpu/maxwell/classes.h"
#include "runtime/gpu/maxwell/draw_snapshot.h"
#include "runtime/gpu/maxwell/engine.h"
#include "runtime/gpu/maxwell/inline_upload.h"
#include "runtime/gpu/maxwell/mme/macro_context.h"

namespace kiln::maxwell {

class Engine3D final : public Engine, private mme::MacroHost {
public:
  /// `class_id`: ClassId::threed (B197) or ClassId::threed_ampere (C797).
  Engine3D(Gpu& gpu, uint32_t channel, ClassId class_id = ClassId::threed);
  uint32_t class_id() const override;
  void write(uint32_t method, uint32_t value) override;
  void flush() override;
  bool has_deferred() const override { return pending_macro_.has_value(); }

  const std::array<std::array<ConstantBufferBinding, constant_buffer_slots>, shader_stage_count>&
  constant_buffers() const { return constant_buffers_; }
  /// Macro code RAM and start table as uploaded (for capture tools that compile a title's macros).
  const std::vector<uint32_t>& macro_code() const { return macro_code_; }
  const std::array<uint32_t, 0x80>& macro_starts() const { return macro_starts_; }
  /// The instruction words of macro `index` (its extent), or empty when it has none.
  std::vector<uint32_t> macro_words(uint32_t index) const;

  /// The snapshot a draw issued now would get, built from scratch.
  std::shared_ptr<DrawSnapshot> snapshot_draw() const { return build_snapshot(nullptr, all_state_groups); }
  /// Whether conditional rendering lets work through now (reads guest memory in command order).
  bool render_enabled() const;

private:
  struct PendingMacro {
    uint32_t index;
    std::vector<uint32_t> parameters;
  };

  // Groups of 3D state a snapshot holds; a draw copies the previous snapshot and rebuilds only the groups whose
  // methods were written since (the SPH is read from memory at every draw regardless).
  enum StateGroup : uint32_t {
    vertex_group = 1, program_group = 2, target_group = 4, viewport_group = 8, pool_group = 16,
    render_state_group = 32, constant_buffer_group = 64, all_state_groups = 127
  };
  static uint8_t state_group_of(uint32_t method);
  std::shared_ptr<DrawSnapshot> build_snapshot(const DrawSnapshot* previous, uint32_t dirty) const;

  void write_method(uint32_t method, uint32_t value);
  void run_macro(uint32_t index, const std::vector<uint32_t>& parameters);
  uint32_t read_state(uint32_t method) override { return reg(method << 2); }
  void emit(uint32_t method, uint32_t value) override;

  void load_constant_buffer(uint32_t value);
  void bind_constant_buffer(uint32_t group, uint32_t value);
  void add_inline_indices(uint32_t word, uint32_t per_word, uint32_t bits);
  void begin(uint32_t value);
  void end();
  /// `index_size` overrides SET_INDEX_BUFFER_E for the draw methods that name their index size (0: keep it).
  void issue_draw(uint32_t topology, bool indexed, uint32_t first, uint32_t count, uint32_t index_size = 0);
  void clear_surface(uint32_t value);

  bool ampere() const { return class_id_ == ClassId::threed_ampere; }

  uint32_t channel_;
  ClassId class_id_;
  InlineUpload upload_;
  std::array<std::array<ConstantBufferBinding, constant_buffer_slots>, shader_stage_count> constant_buffers_{};
  std::vector<uint32_t> macro_code_;
  std::array<uint32_t, 0x80> macro_starts_{};
  std::optional<PendingMacro> pending_macro_;
  uint32_t macro_depth_ = 0;
  // Draw in progress between BEGIN and END.
  bool in_begin_ = false;
  bool indexed_draw_ = false;
  uint32_t draw_count_ = 0;
  uint32_t instance_ = 0;
  std::vector<uint32_t> inline_indices_;
  uint32_t inline_skip_ = 0;
  std::optional<uint32_t> inline_limit_;
  std::shared_ptr<const DrawSnapshot> last_draw_;
  uint32_t dirty_groups_ = all_state_groups;
};

} // namespace kiln::maxwell
