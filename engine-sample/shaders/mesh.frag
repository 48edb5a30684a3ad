#version 450
// glTF 2.0 metallic-roughness shading: one directional light (GGX specular, Lambert diffuse) plus
// a sky-and-ground ambient that metals can reflect; normal, occlusion and emissive maps; alpha
// mask and blend; double-sided and unlit materials. The material is assetlib's MATL asset, laid
// out by src/render/material_bindings.cpp.

layout(push_constant) uniform Push {
  mat4 view_proj;
  vec4 eye;
  vec4 light;
  uint transform;
  uint material;
} push;

// Matches MaterialParams in src/render/material_bindings.h (std430).
struct Material {
  vec4 base_color;
  vec4 emissive;  // rgb: factor x strength
  vec4 surface;   // metallic, roughness, normal scale, occlusion strength
  vec4 alpha;     // mode (0 opaque, 1 mask, 2 blend), cutoff, unlit
  vec4 uv_transform[10];  // per slot two rows of a 2x3 matrix; the first row's w is the UV set
};
layout(std430, set = 0, binding = 1) readonly buffer Materials { Material materials[]; };

// Slots in MaterialBindings' order.
layout(set = 1, binding = 0) uniform sampler2D base_color_texture;
layout(set = 1, binding = 1) uniform sampler2D metallic_roughness_texture;  // G roughness, B metal
layout(set = 1, binding = 2) uniform sampler2D normal_texture;  // XY (BC5 or RGB); Z rebuilt
layout(set = 1, binding = 3) uniform sampler2D occlusion_texture;  // R
layout(set = 1, binding = 4) uniform sampler2D emissive_texture;

layout(location = 0) in vec3 in_position;
layout(location = 1) in vec3 in_normal;
layout(location = 2) in vec4 in_tangent;
layout(location = 3) in vec3 in_color;
layout(location = 4) in vec4 in_uv;

layout(location = 0) out vec4 out_color;

const float kPi = 3.14159265;
const vec3 kLightColor = vec3(3.0);
const vec3 kSky = vec3(0.55, 0.65, 0.85);
const vec3 kGround = vec3(0.25, 0.22, 0.20);

// Screen-space derivatives, taken once at the top of main(): in uniform control flow, before any
// discard, and only of interpolated inputs. Derivatives of values computed from the material
// buffer are not used, since helper invocations need not load from it (llvmpipe's do not).
vec4 uv_dx, uv_dy;
vec3 position_dx, position_dy;

// A texture slot's UV (set and KHR_texture_transform) and its derivatives, for textureGrad.
struct SlotUv {
  vec2 uv, dx, dy;
};

SlotUv slot_uv(Material m, int slot) {
  vec4 r0 = m.uv_transform[slot * 2];
  vec4 r1 = m.uv_transform[slot * 2 + 1];
  bool second = r0.w > 0.5;
  vec2 uv = second ? in_uv.zw : in_uv.xy;
  mat2 linear = mat2(r0.x, r1.x, r0.y, r1.y);  // columns
  return SlotUv(linear * uv + vec2(r0.z, r1.z), linear * (second ? uv_dx.zw : uv_dx.xy),
                linear * (second ? uv_dy.zw : uv_dy.xy));
}

vec4 sample_slot(sampler2D tex, SlotUv s) { return textureGrad(tex, s.uv, s.dx, s.dy); }

// Surface normal before the normal map: the vertex normal, or the face's when the mesh has none.
vec3 geometric_normal(vec3 to_eye) {
  float len = length(in_normal);
  if (len > 1e-6) return in_normal / len;
  vec3 face = normalize(cross(position_dx, position_dy));
  return dot(face, to_eye) < 0.0 ? -face : face;
}

// Tangent frame: the baked tangent (MikkTSpace, as glTF requires) or, for formats without one,
// one derived from the screen-space derivatives of position and uv.
mat3 tangent_frame(vec3 n, SlotUv uv) {
  if (dot(in_tangent.xyz, in_tangent.xyz) > 1e-12 && in_tangent.w != 0.0) {
    vec3 t = normalize(in_tangent.xyz - n * dot(n, in_tangent.xyz));
    return mat3(t, cross(n, t) * in_tangent.w, n);
  }
  vec3 dp_dx = position_dx, dp_dy = position_dy;
  vec2 duv_dx = uv.dx, duv_dy = uv.dy;
  float det = duv_dx.x * duv_dy.y - duv_dy.x * duv_dx.y;
  vec3 t = abs(det) > 1e-12 ? (duv_dy.y * dp_dx - duv_dx.y * dp_dy) / det : vec3(1, 0, 0);
  t = t - n * dot(n, t);
  if (dot(t, t) < 1e-12) t = cross(n, abs(n.y) < 0.9 ? vec3(0, 1, 0) : vec3(1, 0, 0));
  t = normalize(t);
  // The bitangent points where v decreases (glTF's "up" in the image), mirrored UVs included.
  vec3 towards_v = duv_dx.x * dp_dy - duv_dy.x * dp_dx;  // dP/dv times det
  float sign = dot(cross(n, t), towards_v) * det > 0.0 ? -1.0 : 1.0;
  return mat3(t, cross(n, t) * sign, n);
}

vec3 sky(vec3 direction) { return mix(kGround, kSky, clamp(direction.y * 0.5 + 0.5, 0.0, 1.0)); }

// (1 - c)^5 for c in 0..1; pow() is undefined for the negative bases rounding can produce.
float schlick_weight(float cos_theta) {
  float x = clamp(1.0 - cos_theta, 0.0, 1.0);
  float x2 = x * x;
  return x2 * x2 * x;
}

void main() {
  uv_dx = dFdx(in_uv);
  uv_dy = dFdy(in_uv);
  position_dx = dFdx(in_position);
  position_dy = dFdy(in_position);
  Material m = materials[push.material];
  vec4 base = sample_slot(base_color_texture, slot_uv(m, 0)) * m.base_color * vec4(in_color, 1.0);
  int alpha_mode = int(m.alpha.x + 0.5);
  if (alpha_mode == 1 && base.a < m.alpha.y) discard;
  float alpha = alpha_mode == 2 ? base.a : 1.0;
  if (m.alpha.z > 0.5) {  // unlit
    out_color = vec4(base.rgb, alpha);
    return;
  }

  vec3 to_eye = normalize(push.eye.xyz - in_position);
  vec3 n = geometric_normal(to_eye);
  SlotUv normal_uv = slot_uv(m, 2);
  // glTF: Z from the texel as stored, then X and Y scaled, then normalised.
  vec2 xy = sample_slot(normal_texture, normal_uv).xy * 2.0 - 1.0;
  vec3 mapped = vec3(xy * m.surface.z, sqrt(max(1.0 - dot(xy, xy), 0.0)));
  n = normalize(tangent_frame(n, normal_uv) * mapped);
  // The back of a double-sided surface: the whole frame turns around. (A face normal made up by
  // geometric_normal already faces the eye.)
  if (!gl_FrontFacing && dot(in_normal, in_normal) > 1e-12) n = -n;

  vec4 mr = sample_slot(metallic_roughness_texture, slot_uv(m, 1));
  float metallic = clamp(m.surface.x * mr.b, 0.0, 1.0);
  float roughness = clamp(m.surface.y * mr.g, 0.04, 1.0);
  float occlusion = mix(1.0, sample_slot(occlusion_texture, slot_uv(m, 3)).r, m.surface.w);
  vec3 emissive = sample_slot(emissive_texture, slot_uv(m, 4)).rgb * m.emissive.rgb;

  vec3 diffuse_color = base.rgb * (1.0 - metallic);
  vec3 f0 = mix(vec3(0.04), base.rgb, metallic);
  float n_v = clamp(dot(n, to_eye), 1e-4, 1.0);

  // The directional light: GGX distribution, Smith-Schlick visibility, Schlick Fresnel.
  vec3 to_light = -normalize(push.light.xyz);
  vec3 h = normalize(to_light + to_eye);
  float n_l = max(dot(n, to_light), 0.0);
  float n_h = max(dot(n, h), 0.0);
  float a2 = roughness * roughness * roughness * roughness;
  float denominator = n_h * n_h * (a2 - 1.0) + 1.0;
  float d = a2 / (kPi * denominator * denominator);
  float k = (roughness + 1.0) * (roughness + 1.0) / 8.0;
  float visibility = 1.0 / ((n_l * (1.0 - k) + k) * (n_v * (1.0 - k) + k) * 4.0);
  vec3 f = f0 + (1.0 - f0) * schlick_weight(dot(h, to_eye));
  vec3 direct = ((1.0 - f) * diffuse_color / kPi + f * d * visibility) * kLightColor * n_l;

  // Ambient: diffuse from the hemisphere, specular from the sky in the mirror direction, blurred
  // towards the hemisphere's average as the surface gets rougher.
  float ambient = push.light.w * 4.0;
  vec3 reflected = mix(sky(reflect(-to_eye, n)), 0.5 * (kSky + kGround), roughness);
  vec3 f_ambient = f0 + (max(vec3(1.0 - roughness), f0) - f0) * schlick_weight(n_v);
  vec3 indirect = (diffuse_color * sky(n) + f_ambient * reflected) * ambient * occlusion;

  vec3 color = direct + indirect + emissive;
  // Filmic curve (Narkowicz's ACES fit): highlights roll off instead of clipping.
  color = clamp((color * (2.51 * color + 0.03)) / (color * (2.43 * color + 0.59) + 0.14), 0.0, 1.0);
  out_color = vec4(color, alpha);
}
