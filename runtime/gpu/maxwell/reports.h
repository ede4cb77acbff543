#pragma once
// Report semaphores of the 3D and compute classes (seed 002 §4.2): releases, acquires and counter reports
// {counter, timestamp}. Two ways in, one meaning: SET_REPORT_SEMAPHORE_A..D (0x1b00, the same in every 3D and
// compute class) and the Ampere 3D class's SET_REPORT_SEMAPHORE_PAYLOAD/ADDRESS + REPORT_SEMAPHORE_EXECUTE.
#include <cstdint>

namespace kiln::maxwell {

class Engine;
class Gpu;

/// Runs the operation that a SET_REPORT_SEMAPHORE_D write starts (the engine stored A..D already).
/// ZPASS_PIXEL_CNT reports ask the backend. Throws AcquireNotMet for an unmet acquire.
void report_semaphore(Gpu& gpu, const Engine& engine, uint32_t value);
/// The same for a REPORT_SEMAPHORE_EXECUTE write of the Ampere 3D class (C797).
void report_semaphore_execute(Gpu& gpu, const Engine& engine, uint32_t value);

} // namespace kiln::maxwell
