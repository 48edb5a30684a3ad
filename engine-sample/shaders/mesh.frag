#version 450
layout(set = 0, binding = 0) uniform sampler2D base_color_texture;

layout(push_constant) uniform Push {
  mat4 view_proj;
  vec4 offset;
  vec4 base_color;
  vec4 light;
} push;

layout(location = 0) in vec3 in_normal;
layout(location = 1) in vec3 in_color;
layout(location = 2) in vec2 in_uv;

layout(location = 0) out vec4 out_color;

void main() {
  vec3 to_light = -push.light.xyz;
  float len = length(in_normal);
  // A mesh baked without normals carries zeros: light it fully rather than leave it black.
  vec3 normal = len > 1e-6 ? in_normal / len : to_light;
  float ambient = push.light.w;
  float lit = ambient + (1.0 - ambient) * max(dot(normal, to_light), 0.0);
  vec4 albedo = texture(base_color_texture, in_uv) * push.base_color * vec4(in_color, 1.0);
  // Alpha-tested, not blended: cut-out cards (leaves) need no sorting, and the rest is opaque.
  if (albedo.a < 0.5) discard;
  // Opaque output: the screenshot is of the scene, not of its alpha.
  out_color = vec4(albedo.rgb * lit, 1.0);
}
