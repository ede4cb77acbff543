#pragma once
// SET_REPORT_SEMAPHORE_A..D (0x1b00, the same in the 3D and compute classes): releases, acquires and counter
// reports {counter, timestamp} as seed 002 §4.2 describes.
#include <cstdint>

namespace kiln::maxwell {

class Engine;
class Gpu;

/// Runs the operation that a SET_REPORT_SEMAPHORE_D write starts (the engine stored A..D already).
/// `samples_passed` answers ZPASS_PIXEL_CNT reports. Throws AcquireNotMet for an unmet acquire.
void report_semaphore(Gpu& gpu, const Engine& engine, uint32_t value);

} // namespace kiln::maxwell
