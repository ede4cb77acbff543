#pragma once
// Where hid's npad states come from: a process-wide source polled by hid's 200 Hz thread.
#include <functional>

#include "runtime/host/pad_state.h"

namespace kiln::hos {

/// The pad now, in the host shell's terms (runtime/host/pad_state.h). The default reports nothing held: a
/// headless run has no input. Setting it takes effect at the next sample.
using PadSource = std::function<host::PadState()>;
void set_pad_source(PadSource source);

} // namespace kiln::hos
