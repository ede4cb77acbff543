#pragma once
// The generated code a title's configuration adds: declarations of the porter's hook and replacement functions,
// the `<replacement>_original` entry points that run the guest code a replacement stands in for, and the key
// that identifies each function's generated C++.
#include <cstdint>
#include <string>

#include "recompiler/analysis/program.h"
#include "recompiler/emit/cpp_emitter.h"

namespace kiln::emit {

/// Prototypes for functions.h: hooks, replacements and their `_original` entry points.
std::string porter_declarations(const Customization& custom);

/// porter_glue.cpp: the `_original` definitions and, as comments, the applied patch sets.
std::string porter_glue(const analysis::Program& program, const Customization& custom);

/// What a function's generated C++ depends on: its guest bytes, the configuration entries that touch it
/// (hooks, stubs, replacements, jump-table targets), which of its direct callees are replaced or left out, and
/// the kiln version. Files are still compared byte for byte before they are rewritten.
uint64_t function_key(const analysis::Program& program, const analysis::Function& function, const Customization& custom);

} // namespace kiln::emit
