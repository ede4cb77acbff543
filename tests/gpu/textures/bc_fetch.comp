#version 450
// Copies every texel of a sampled image, as the hardware (here lavapipe) decodes it, into a buffer.
layout(local_size_x = 8, local_size_y = 8) in;
layout(binding = 0) uniform sampler2D source;
layout(std430, binding = 1) writeonly buffer Texels { vec4 texels[]; };
layout(push_constant) uniform Size { uvec2 size; };

void main() {
  const uvec2 p = gl_GlobalInvocationID.xy;
  if (any(greaterThanEqual(p, size))) return;
  texels[p.y * size.x + p.x] = texelFetch(source, ivec2(p), 0);
}
