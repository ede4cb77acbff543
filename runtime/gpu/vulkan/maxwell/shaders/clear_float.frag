#version 450
layout(push_constant) uniform Clear { vec4 color; uvec4 color_bits; float depth; } clear_value;
layout(location = 0) out vec4 color;
void main() { color = clear_value.color; }
