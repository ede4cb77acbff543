// GLSL output for reading a translated kernel (`kiln shaders translate --glsl`), via SPIRV-Cross' C API.
#include <spirv_cross/spirv_cross_c.h>

#include <fmt/format.h>

#include "runtime/base/error.h"
#include "translator/spirv/validate.h"

namespace kiln::spirv {

std::string to_glsl(std::span<const uint32_t> words) {
  spvc_context context = nullptr;
  if (spvc_context_create(&context) != SPVC_SUCCESS) throw Error("SPIRV-Cross: cannot create a context");
  struct Release {
    spvc_context context;
    ~Release() { spvc_context_destroy(context); }
  } release{context};
  spvc_parsed_ir ir = nullptr;
  spvc_compiler compiler = nullptr;
  spvc_compiler_options options = nullptr;
  const char* source = nullptr;
  if (spvc_context_parse_spirv(context, words.data(), words.size(), &ir) != SPVC_SUCCESS ||
      spvc_context_create_compiler(context, SPVC_BACKEND_GLSL, ir, SPVC_CAPTURE_MODE_TAKE_OWNERSHIP, &compiler) != SPVC_SUCCESS ||
      spvc_compiler_create_compiler_options(compiler, &options) != SPVC_SUCCESS ||
      spvc_compiler_options_set_uint(options, SPVC_COMPILER_OPTION_GLSL_VERSION, 460) != SPVC_SUCCESS ||
      spvc_compiler_options_set_bool(options, SPVC_COMPILER_OPTION_GLSL_VULKAN_SEMANTICS, SPVC_TRUE) != SPVC_SUCCESS ||
      spvc_compiler_install_compiler_options(compiler, options) != SPVC_SUCCESS ||
      spvc_compiler_compile(compiler, &source) != SPVC_SUCCESS) {
    throw Error(fmt::format("SPIRV-Cross cannot produce GLSL: {}", spvc_context_get_last_error_string(context)));
  }
  return source;
}

} // namespace kiln::spirv
