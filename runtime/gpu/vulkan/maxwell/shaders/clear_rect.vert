#version 450
// A triangle covering the whole viewport at the clear depth (push constant).
layout(push_constant) uniform Clear { vec4 color; uvec4 color_bits; float depth; } clear_value;
void main() {
  const vec2 corner = vec2((gl_VertexIndex << 1) & 2, gl_VertexIndex & 2);
  gl_Position = vec4(corner * 2.0 - 1.0, clear_value.depth, 1.0);
}
