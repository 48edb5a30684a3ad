#version 450
// Inputs follow assetlib's vertex_format_attributes(): 0 position, 1 normal, 2 colour, 3 uv.
// Packed formats (snorm8 normals, unorm8 colours, half uvs) arrive here as floats already; the
// *_OCT formats' two-component octahedral normal arrives as (x, y, 0) and is decoded here.
layout(constant_id = 0) const bool kOctahedralNormal = false;

layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec3 in_color;
layout(location = 3) in vec2 in_uv;

// Same block in both stages; matches PushConstants in src/render/mesh_pipeline.h.
layout(push_constant) uniform Push {
  mat4 view_proj;
  vec4 offset;      // xyz: where this mesh sits in the scene; w: its uniform scale
  vec4 base_color;  // material colour and opacity
  vec4 light;       // xyz: direction the light travels; w: ambient
} push;

layout(location = 0) out vec3 out_normal;
layout(location = 1) out vec3 out_color;
layout(location = 2) out vec2 out_uv;

// docs/format.md, "PNCVT_OCT": (x, y) in -1..1 back to a unit vector.
vec3 octahedral_decode(vec2 e) {
  vec3 n = vec3(e, 1.0 - abs(e.x) - abs(e.y));
  if (n.z < 0.0) n.xy = (1.0 - abs(n.yx)) * vec2(n.x >= 0.0 ? 1.0 : -1.0, n.y >= 0.0 ? 1.0 : -1.0);
  return normalize(n);
}

void main() {
  gl_Position = push.view_proj * vec4(in_position * push.offset.w + push.offset.xyz, 1.0);
  // Meshes are only moved and uniformly scaled, so object-space normals stay world-space normals.
  out_normal = kOctahedralNormal ? octahedral_decode(in_normal.xy) : in_normal;
  out_color = in_color;
  out_uv = in_uv;
}
