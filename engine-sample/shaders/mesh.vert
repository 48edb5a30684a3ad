#version 450
// A rigid mesh: its vertices placed by the draw's transform alone (mesh_vertex.glsl).
#include "mesh_vertex.glsl"

void main() { emit_vertex(mesh_vertex()); }
