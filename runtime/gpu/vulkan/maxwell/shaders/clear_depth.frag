#version 450
// Depth/stencil clears write through fixed function only.
void main() {}
