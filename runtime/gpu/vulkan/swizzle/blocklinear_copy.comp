#version 450
// Block-linear <-> linear copy of one region of one level, one 32-bit word per invocation. The address
// formula is the one of runtime/gpu/textures/blocklinear/gob.h and swizzle.cpp (element_offset); the tests
// compare this shader's results with the CPU path byte for byte.
layout(local_size_x = 64, local_size_y = 1, local_size_z = 1) in;

layout(set = 0, binding = 0, std430) buffer Guest { uint guest_words[]; };
layout(set = 0, binding = 1, std430) buffer Linear { uint linear_words[]; };

layout(push_constant) uniform Copy {
  uint guest_level_word;   // first word of the level in the guest buffer
  uint linear_base_word;
  uint region_x_bytes;     // multiple of 4
  uint region_y;
  uint region_z;
  uint width_words;
  uint height;
  uint depth;
  uint row_pitch_words;
  uint slice_pitch_words;
  uint gobs_per_row;
  uint blocks_per_column;
  uint block_height_log2;
  uint block_depth_log2;
  uint to_linear;          // 1: deswizzle (guest -> linear), 0: swizzle
} copy;

uint gob_offset(uint x, uint y) {
  return ((x >> 5) & 1u) << 8 | ((y >> 1) & 3u) << 6 | ((x >> 4) & 1u) << 5 | (y & 1u) << 4 | (x & 15u);
}

void main() {
  const uvec3 id = gl_GlobalInvocationID;
  if (id.x >= copy.width_words || id.y >= copy.height || id.z >= copy.depth) return;
  const uint x = copy.region_x_bytes + id.x * 4u;
  const uint y = copy.region_y + id.y;
  const uint z = copy.region_z + id.z;
  const uint bh = copy.block_height_log2, bd = copy.block_depth_log2;
  const uint block_bytes = 512u << (bh + bd);
  const uint gob_y = y >> 3;
  const uint offset = ((z >> bd) * copy.blocks_per_column + (gob_y >> bh)) * copy.gobs_per_row * block_bytes +
                      (x >> 6) * block_bytes + (((z & ((1u << bd) - 1u)) << bh) + (gob_y & ((1u << bh) - 1u))) * 512u +
                      gob_offset(x & 63u, y & 7u);
  const uint guest_index = copy.guest_level_word + offset / 4u;
  const uint linear_index = copy.linear_base_word + id.z * copy.slice_pitch_words + id.y * copy.row_pitch_words + id.x;
  if (copy.to_linear != 0u) linear_words[linear_index] = guest_words[guest_index];
  else guest_words[guest_index] = linear_words[linear_index];
}
