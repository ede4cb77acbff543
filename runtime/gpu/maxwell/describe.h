#pragma once
// Readable text for methods and snapshots (`kiln gpu dump`, `kiln gpu replay --dump-state`).
#include <string>

#include "runtime/gpu/maxwell/draw_snapshot.h"
#include "runtime/gpu/maxwell/gpu.h"

namespace kiln::maxwell {

/// "ch0 0x0000000200000010 sc0 3D (B197) SET_REPORT_SEMAPHORE_A = 0x00000002" (macro-emitted methods say so).
std::string describe_method(const MethodTrace& method);
/// Multi-line description of a draw's frozen state: what it draws, with which programs, buffers and targets,
/// and its decoded render state.
std::string describe_draw(const DrawSnapshot& draw);
/// The render state's enabled parts, one line each ("  blend 0: add(src_alpha, one_minus_src_alpha) ...").
std::string describe_render_state(const RenderState& state);
std::string describe_clear(const ClearSnapshot& clear);
std::string describe_dispatch(const DispatchSnapshot& dispatch);

} // namespace kiln::maxwell
