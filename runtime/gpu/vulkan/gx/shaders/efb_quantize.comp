#version 450
// Re-quantises a rectangle of the RGBA8 EFB to the bits the pixel format keeps per channel: the top bits stay and
// are expanded back to 8 by bit replication (runtime/gpu/gx/raster_state.h, quantize_channel).
layout(local_size_x = 8, local_size_y = 8) in;
layout(set = 0, binding = 0, rgba8) uniform image2D efb;
layout(push_constant) uniform Quantize {
  ivec4 rect; // left, top, right, bottom (exclusive)
  uvec4 bits; // per channel, 5..8
} p;

void main() {
  const ivec2 at = ivec2(gl_GlobalInvocationID.xy) + p.rect.xy;
  if (at.x >= p.rect.z || at.y >= p.rect.w) return;
  const uvec4 value = uvec4(round(imageLoad(efb, at) * 255.0));
  const uvec4 kept = value >> (8u - p.bits);
  const uvec4 expanded = (kept << (8u - p.bits)) | (kept >> (2u * p.bits - 8u));
  imageStore(efb, at, vec4(expanded) / 255.0);
}
