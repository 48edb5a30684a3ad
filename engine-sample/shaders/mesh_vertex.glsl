// What mesh.vert and mesh_skinned.vert share: the vertex inputs of the mesh's own vertex buffer,
// the push constants, the draw's transform, and the outputs mesh.frag reads.
//
// Inputs follow assetlib's vertex_format_attributes(): 0 position, 1 normal, 2 colour, 3 uv,
// 4 tangent, 5 second uv. Packed formats (snorm normals, unorm colours, half uvs) arrive as floats
// already. The *_OCT formats' octahedral normal arrives as (x, y, 0) and their tangent as
// (x, y, sign, 0); both are decoded here. Inputs a format lacks read zeros (mesh_pipeline.cpp).
layout(constant_id = 0) const bool kOctahedral = false;

layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec3 in_color;
layout(location = 3) in vec2 in_uv0;
layout(location = 4) in vec4 in_tangent;
layout(location = 5) in vec2 in_uv1;

// Same block in both stages; matches PushConstants in src/render/mesh_pipeline.h.
layout(push_constant) uniform Push {
  mat4 view_proj;
  vec4 eye;    // xyz: camera position
  vec4 light;  // xyz: direction the light travels; w: ambient
  uint transform;
  uint material;
} push;

struct Transform {
  mat4 model;
  mat4 normal;  // inverse transpose of model's upper 3x3; [3][3]: -1 when model mirrors, else 1
};
layout(std430, set = 0, binding = 0) readonly buffer Transforms { Transform transforms[]; };

layout(location = 0) out vec3 out_position;  // world space
layout(location = 1) out vec3 out_normal;
layout(location = 2) out vec4 out_tangent;  // xyz world space, w bitangent sign; 0: none
layout(location = 3) out vec3 out_color;
layout(location = 4) out vec4 out_uv;  // xy: set 0, zw: set 1

// docs/format.md, "PNCVT_OCT": (x, y) in -1..1 back to a unit vector.
vec3 octahedral_decode(vec2 e) {
  vec3 n = vec3(e, 1.0 - abs(e.x) - abs(e.y));
  if (n.z < 0.0) n.xy = (1.0 - abs(n.yx)) * vec2(n.x >= 0.0 ? 1.0 : -1.0, n.y >= 0.0 ? 1.0 : -1.0);
  return normalize(n);
}

// The vertex in the mesh's own space, decoded.
struct MeshVertex {
  vec3 position;
  vec3 normal;   // zero: "no normal" (mesh.frag derives the face's)
  vec4 tangent;  // xyz, w bitangent sign; zero: none
};

MeshVertex mesh_vertex() {
  MeshVertex v;
  v.position = in_position;
  v.normal = kOctahedral ? octahedral_decode(in_normal.xy) : in_normal;
  v.tangent = in_tangent;
  // Both *_OCT formats carry a tangent (z holds its sign, never 0).
  if (kOctahedral) v.tangent = vec4(octahedral_decode(v.tangent.xy), v.tangent.z < 0.0 ? -1.0 : 1.0);
  return v;
}

// Places `v` with the draw's transform and writes every output.
void emit_vertex(MeshVertex v) {
  Transform t = transforms[push.transform];
  vec4 world = t.model * vec4(v.position, 1.0);
  gl_Position = push.view_proj * world;
  out_position = world.xyz;
  out_normal = mat3(t.normal) * v.normal;  // zero stays zero: "no normal" (mesh.frag)
  // Tangents follow the surface, so they take the model matrix itself; a mirror turns the
  // bitangent around (cross(normal, tangent) flips with it).
  out_tangent = vec4(mat3(t.model) * v.tangent.xyz, v.tangent.w * t.normal[3][3]);
  out_color = in_color;
  out_uv = vec4(in_uv0, in_uv1);
}
