#version 450
// A skinned mesh, skinned on the GPU: each vertex is moved by the weighted sum of up to four joint
// matrices of its draw's palette, then placed by the draw's transform (mesh_vertex.glsl) like a
// rigid one. The joint matrices (world(joint) x inverse bind) already hold every node above the
// joints, so the draw's transform is only the scene layout's move.
#include "mesh_vertex.glsl"

// The skin stream, a second vertex buffer (assetlib's skin_format_attributes()): joint indices as
// integers (R8G8B8A8_UINT or R16G16B16A16_UINT), weights as unorm (summing to 1). Every joint
// index is below the mesh's skin_joint_count, which the palette covers (scene_instances.cpp).
layout(location = 6) in uvec4 in_joints;
layout(location = 7) in vec4 in_weights;

// This draw's joint matrices: the dynamic offset bound with set 2 selects them.
layout(std430, set = 2, binding = 0) readonly buffer Palette { mat4 joints[]; } palette;

void main() {
  mat4 skin = in_weights.x * palette.joints[in_joints.x] +
              in_weights.y * palette.joints[in_joints.y] +
              in_weights.z * palette.joints[in_joints.z] +
              in_weights.w * palette.joints[in_joints.w];
  MeshVertex v = mesh_vertex();
  v.position = (skin * vec4(v.position, 1.0)).xyz;
  // Normals take the cofactor matrix: the inverse transpose times the determinant, so no matrix
  // inverse per vertex; the scale is normalised away here, and zero stays zero ("no normal").
  mat3 m = mat3(skin);
  vec3 n = mat3(cross(m[1], m[2]), cross(m[2], m[0]), cross(m[0], m[1])) * v.normal;
  float n_length = length(n);
  v.normal = n_length > 0.0 ? n / n_length : vec3(0.0);
  v.tangent.xyz = m * v.tangent.xyz;
  emit_vertex(v);
}
