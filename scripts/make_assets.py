#!/usr/bin/env python3
"""Generate the default assetlib sample assets (textures, OBJ/MTL models, README).

Usage:
    python3 scripts/make_assets.py [OUTPUT_DIR]

OUTPUT_DIR defaults to the repository's top-level ``assets/`` folder. The output is
byte-identical from run to run (no timestamps, no randomness, fixed zlib level, fixed float
formatting), so tests can regenerate into a temporary folder and ``diff -r`` against the
checked-in files.

Only the Python standard library is used so that the script runs anywhere the build runs.

Conventions shared by every generated file:
  * Right-handed, +Y up, 1 unit = 1 metre.
  * Faces wind counter-clockwise seen from outside (Vulkan sample culls back faces);
    ``ObjBuilder.face`` asserts this for every face.
  * OBJ texture coordinates follow the OBJ convention: v = 0 is the *bottom* row of the image.
  * Normal maps are tangent space, +X = +U (right), +Y = +V (up, "OpenGL"/glTF style, green up).
"""

import math
import struct
import sys
import zlib
from pathlib import Path

# --------------------------------------------------------------------------------------------
# Small helpers
# --------------------------------------------------------------------------------------------


def clamp01(x):
    return 0.0 if x < 0.0 else 1.0 if x > 1.0 else x


def smoothstep(e0, e1, x):
    t = clamp01((x - e0) / (e1 - e0))
    return t * t * (3.0 - 2.0 * t)


def to_u8(x):
    """Map [0, 1] to 0..255 with round-half-up, which does not depend on float printing."""
    return int(clamp01(x) * 255.0 + 0.5)


def to_u16(x):
    return int(clamp01(x) * 65535.0 + 0.5)


def hash01(x, y, seed=0):
    """Deterministic integer hash -> [0, 1). Used instead of `random` so the output can never
    change with the Python version's PRNG implementation."""
    h = (x * 374761393 + y * 668265263 + seed * 2246822519) & 0xFFFFFFFF
    h = ((h ^ (h >> 13)) * 1274126177) & 0xFFFFFFFF
    h ^= h >> 16
    return h / 4294967296.0


def tileable_value_noise(x, y, cell, period, seed):
    """Smooth value noise whose lattice wraps every `period` pixels, so textures tile without
    a visible seam when the sampler repeats them."""
    n = period // cell
    gx, gy = x / cell, y / cell
    x0, y0 = math.floor(gx), math.floor(gy)
    fx, fy = gx - x0, gy - y0
    fx, fy = fx * fx * (3 - 2 * fx), fy * fy * (3 - 2 * fy)

    def lattice(i, j):
        return hash01(i % n, j % n, seed)

    top = lattice(x0, y0) * (1 - fx) + lattice(x0 + 1, y0) * fx
    bottom = lattice(x0, y0 + 1) * (1 - fx) + lattice(x0 + 1, y0 + 1) * fx
    return top * (1 - fy) + bottom * fy


# 3-vectors as plain tuples.
def add(a, b):
    return (a[0] + b[0], a[1] + b[1], a[2] + b[2])


def sub(a, b):
    return (a[0] - b[0], a[1] - b[1], a[2] - b[2])


def mul(a, s):
    return (a[0] * s, a[1] * s, a[2] * s)


def dot(a, b):
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]


def cross(a, b):
    return (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])


def sum_points(points):
    total = (0.0, 0.0, 0.0)
    for p in points:
        total = add(total, p)
    return total


def normalize(a):
    length = math.sqrt(dot(a, a))
    return mul(a, 1.0 / length)


def fmt(x):
    """Fixed 6-decimal formatting; folds -0.000000 into 0.000000 so sign noise from
    trigonometry cannot make two mathematically equal vertices print differently."""
    s = f"{x:.6f}"
    return "0.000000" if s == "-0.000000" else s


def write_bytes(path, data):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def write_text(path, text):
    # Encode explicitly so the platform's newline/encoding defaults cannot change the bytes.
    write_bytes(path, text.encode("utf-8"))


# --------------------------------------------------------------------------------------------
# PNG writer (zlib + struct only)
# --------------------------------------------------------------------------------------------

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
CHANNELS = {0: 1, 2: 3, 6: 4}  # PNG colour type -> samples per pixel (grey, RGB, RGBA)


def png_chunk(tag, payload):
    crc = zlib.crc32(tag + payload) & 0xFFFFFFFF
    return struct.pack(">I", len(payload)) + tag + payload + struct.pack(">I", crc)


def encode_png(width, height, color_type, bit_depth, rows):
    """`rows` are the unfiltered scanlines as bytes. Filter type 0 everywhere keeps the encoder
    trivial; the images are small enough that the lost compression does not matter. Only the
    mandatory chunks are written (no tIME/gAMA/sRGB), which keeps the output reproducible."""
    row_size = width * CHANNELS[color_type] * bit_depth // 8
    raw = bytearray()
    for row in rows:
        assert len(row) == row_size, (len(row), row_size)
        raw.append(0)  # filter type: None
        raw += row
    assert len(rows) == height
    ihdr = struct.pack(">IIBBBBB", width, height, bit_depth, color_type, 0, 0, 0)
    return (PNG_SIGNATURE + png_chunk(b"IHDR", ihdr)
            + png_chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + png_chunk(b"IEND", b""))


def write_png(path, width, height, color_type, bit_depth, pixel):
    """`pixel(x, y)` returns a tuple of floats in [0, 1], one per channel; y = 0 is the top row."""
    pack = to_u8 if bit_depth == 8 else to_u16
    fmt_char = "B" if bit_depth == 8 else "H"
    rows = []
    for y in range(height):
        values = []
        for x in range(width):
            values.extend(pack(c) for c in pixel(x, y))
        rows.append(struct.pack(f">{len(values)}{fmt_char}", *values))  # PNG is big-endian
    write_bytes(path, encode_png(width, height, color_type, bit_depth, rows))


# --------------------------------------------------------------------------------------------
# Textures
# --------------------------------------------------------------------------------------------


def make_checker(out):
    """256x256 opaque RGB. The two-axis colour gradient makes every mip level look different
    (plain black/white would average to flat grey), so wrong mip selection is easy to spot."""
    size, cell = 256, 32

    def pixel(x, y):
        u, v = (x + 0.5) / size, (y + 0.5) / size
        light = (0.30 + 0.70 * u, 0.30 + 0.70 * (1.0 - v), 0.95 - 0.60 * (u + v) * 0.5)
        if ((x // cell) + (y // cell)) % 2:
            return light
        return tuple(c * 0.18 for c in light)

    write_png(out / "textures/checker.png", size, size, 2, 8, pixel)


def make_leaf_alpha(out):
    """128x128 RGBA leaf with a soft (2-3 px) alpha edge, for alpha blending / alpha-to-coverage
    and for checking that mip generation keeps the alpha coverage."""
    size = 128
    half_len, half_width, feather = 50.0, 25.0, 1.5
    c, s = math.cos(math.radians(45)), math.sin(math.radians(45))
    leaf = (0.22, 0.55, 0.14)
    vein = (0.55, 0.78, 0.32)
    stem = (0.40, 0.32, 0.12)

    def pixel(x, y):
        # Leaf axis runs from bottom-left (stem) to top-right (tip); image y grows downwards.
        px, py = x + 0.5 - size / 2, size / 2 - (y + 0.5)
        u = px * c + py * s + 6.0  # along the leaf, shifted so the stem fits in the image
        w = -px * s + py * c       # across the leaf
        t = u / half_len
        blade = half_width * (1.0 - t * t) - abs(w)  # > 0 inside the (pointed) leaf outline
        blade_a = smoothstep(-feather, feather, blade)
        stem_a = smoothstep(-feather, feather, 1.6 - abs(w)) if -half_len - 14 < u < -half_len + 4 else 0.0

        shade = 0.85 + 0.15 * clamp01(blade / half_width)  # slightly lighter towards the middle
        colour = tuple(ch * shade for ch in leaf)
        side_vein = abs(((u - abs(w) * 0.9) / 11.0) % 1.0 - 0.5) > 0.45 and abs(w) > 2
        if (abs(w) < 1.2 and abs(u) < half_len * 0.9) or (side_vein and blade > 3):
            colour = vein
        if stem_a > blade_a:
            colour = stem
        alpha = max(blade_a, stem_a)
        # Transparent texels keep the leaf colour (not black) so bilinear filtering and
        # non-premultiplied mip averaging do not produce dark fringes.
        return colour + (alpha,) if alpha > 0.0 else leaf + (0.0,)

    write_png(out / "textures/leaf_alpha.png", size, size, 6, 8, pixel)


# Brick layout shared by the colour and normal maps so they line up exactly.
BRICK_SIZE, BRICK_W, BRICK_H, MORTAR, BEVEL = 256, 64, 32, 4.0, 3.0


def brick_at(x, y):
    """Returns (brick id or None for mortar, distance in px to the nearest mortar edge).
    Every other row is offset by half a brick; 256 / 64 and 256 / 32 keep it tileable."""
    row = y // BRICK_H
    sx = x + (row % 2) * (BRICK_W // 2)
    lx, ly = (sx % BRICK_W) + 0.5, (y % BRICK_H) + 0.5
    m = MORTAR / 2
    edge = min(lx - m, BRICK_W - m - lx, ly - m, BRICK_H - m - ly)
    brick = ((sx // BRICK_W) % (BRICK_SIZE // BRICK_W), row)
    return (brick if edge > 0 else None), edge


def brick_height(x, y):
    """Height field in [0, 1]: mortar low, bricks high with a bevel and a little surface grain."""
    x, y = x % BRICK_SIZE, y % BRICK_SIZE  # wrap so the normal map tiles
    brick, edge = brick_at(x, y)
    grain = tileable_value_noise(x, y, 8, BRICK_SIZE, 7) - 0.5
    if brick is None:
        return 0.05 * grain
    return 0.75 * clamp01(edge / BEVEL) + 0.25 + 0.08 * grain


def make_bricks(out):
    size = BRICK_SIZE

    def pixel(x, y):
        brick, _ = brick_at(x, y)
        coarse = tileable_value_noise(x, y, 32, size, 3)
        fine = tileable_value_noise(x, y, 4, size, 5)
        if brick is None:
            g = 0.62 + 0.10 * (fine - 0.5)
            return (g, g * 0.97, g * 0.92)
        tint = hash01(brick[0], brick[1], 11)  # each brick gets its own shade
        k = 0.80 + 0.20 * coarse + 0.08 * (fine - 0.5)
        return (k * (0.55 + 0.20 * tint), k * (0.22 + 0.08 * tint), k * (0.15 + 0.05 * tint))

    write_png(out / "textures/bricks.png", size, size, 2, 8, pixel)


def make_bricks_normal(out):
    """Tangent-space normal map from the brick height field (central differences, wrapped).
    Green = +V = towards the *top* of the image (OpenGL/glTF convention)."""
    size, strength = BRICK_SIZE, 2.0
    heights = [[brick_height(x, y) for x in range(size)] for y in range(size)]

    def pixel(x, y):
        dh_du = (heights[y][(x + 1) % size] - heights[y][(x - 1) % size]) * 0.5
        dh_dv = (heights[(y - 1) % size][x] - heights[(y + 1) % size][x]) * 0.5  # row above = +V
        n = normalize((-strength * dh_du, -strength * dh_dv, 1.0))
        return tuple(0.5 + 0.5 * c for c in n)

    write_png(out / "textures/bricks_n.png", size, size, 2, 8, pixel)


def make_roughness(out):
    """128x128 single-channel (PNG grey) data texture: roughness rises left to right, with
    soft horizontal ripples so it is not a trivial ramp. Must be sampled as linear (UNORM)."""
    size = 128

    def pixel(x, y):
        ramp = (x + 0.5) / size
        ripple = math.sin((y + 0.5) / size * 2.0 * math.pi * 4.0)
        return (clamp01(0.05 + 0.85 * ramp + 0.08 * ripple),)

    write_png(out / "textures/roughness.png", size, size, 0, 8, pixel)


def make_gradient_16bit(out):
    """64x64 RGB, 16 bits per channel. The values are not multiples of 257, so a loader that
    silently truncates to 8 bits produces visibly different data (and banding if stretched)."""
    size = 64

    def pixel(x, y):
        u, v = x / (size - 1), y / (size - 1)
        return (u, 1.0 - v, (u + v) * 0.5)

    write_png(out / "textures/gradient_16bit.png", size, size, 2, 16, pixel)


# 5x7 bitmap glyphs for the button label.
GLYPHS = {
    "O": ["01110", "10001", "10001", "10001", "10001", "10001", "01110"],
    "K": ["10001", "10010", "10100", "11000", "10100", "10010", "10001"],
}


def make_button(out):
    """100x40 RGBA UI image (deliberately not a power of two). Alpha is strictly 0 or 1 and
    colours change in hard steps, so any unwanted filtering or mip blur is obvious."""
    width, height, radius, border = 100, 40, 7, 2
    outline = (0.08, 0.16, 0.35)
    highlight = (0.62, 0.78, 0.98)
    upper, lower = (0.28, 0.52, 0.88), (0.20, 0.40, 0.75)
    text = (1.0, 1.0, 1.0)
    label, scale = "OK", 3
    label_w = (len(label) * 6 - 1) * scale
    label_x0, label_y0 = (width - label_w) // 2, (height - 7 * scale) // 2

    def inside_rounded(x, y, inset):
        # Distance test on pixel centres against a rounded rectangle shrunk by `inset` px.
        px, py = x + 0.5, y + 0.5
        r = radius - inset
        cx = min(max(px, inset + r), width - inset - r)
        cy = min(max(py, inset + r), height - inset - r)
        return (px - cx) ** 2 + (py - cy) ** 2 <= r * r and inset <= px <= width - inset \
            and inset <= py <= height - inset

    def label_pixel(x, y):
        gx, gy = (x - label_x0) // scale, (y - label_y0) // scale
        if not (0 <= gy < 7 and 0 <= gx < len(label) * 6):
            return False
        column = gx % 6
        return column < 5 and GLYPHS[label[gx // 6]][gy][column] == "1"

    def pixel(x, y):
        if not inside_rounded(x, y, 0):
            return outline + (0.0,)  # outline colour under alpha 0: no dark/odd fringe
        if not inside_rounded(x, y, border):
            colour = outline
        elif label_pixel(x, y):
            colour = text
        elif y < border + 2:
            colour = highlight
        else:
            colour = upper if y < height // 2 else lower
        return colour + (1.0,)

    write_png(out / "textures/ui/button.png", width, height, 6, 8, pixel)


# --------------------------------------------------------------------------------------------
# OBJ / MTL
# --------------------------------------------------------------------------------------------

HEADER = "# Generated by scripts/make_assets.py - do not edit by hand; regenerate instead.\n"


class ObjBuilder:
    """Collects vertices (deduplicated by their printed text, so indices are stable) and face
    lines, then prints an OBJ. Faces are checked for outward counter-clockwise winding."""

    def __init__(self, mtllib, comment):
        self.head = [HEADER.rstrip("\n"), f"# {comment}", f"mtllib {mtllib}"]
        self.tables = {"v": {}, "vt": {}, "vn": {}}
        self.body = []
        self.triangles = 0

    def _index(self, kind, values):
        key = " ".join(fmt(v) for v in values)
        table = self.tables[kind]
        if key not in table:
            table[key] = len(table) + 1  # OBJ indices are 1-based
        return table[key]

    def line(self, text):
        self.body.append(text)

    def face(self, positions, outward, uvs=None, normals=None, colors=None):
        """Emit one polygon. `outward` is any vector pointing out of the surface; the polygon's
        own (Newell) normal must agree with it, otherwise culling would hide the face."""
        newell = (0.0, 0.0, 0.0)
        for a, b in zip(positions, positions[1:] + positions[:1]):
            newell = add(newell, ((a[1] - b[1]) * (a[2] + b[2]),
                                  (a[2] - b[2]) * (a[0] + b[0]),
                                  (a[0] - b[0]) * (a[1] + b[1])))
        assert dot(newell, outward) > 0, f"face wound clockwise: {positions}"

        corners = []
        for i, p in enumerate(positions):
            vi = self._index("v", p + (colors[i] if colors else ()))
            ti = self._index("vt", uvs[i]) if uvs else None
            ni = self._index("vn", normals[i]) if normals else None
            if ti and ni:
                corners.append(f"{vi}/{ti}/{ni}")
            elif ni:
                corners.append(f"{vi}//{ni}")
            elif ti:
                corners.append(f"{vi}/{ti}")
            else:
                corners.append(f"{vi}")
        self.body.append("f " + " ".join(corners))
        self.triangles += len(positions) - 2

    def text(self):
        lines = list(self.head)
        for kind in ("v", "vt", "vn"):
            lines.extend(f"{kind} {key}" for key in self.tables[kind])
        lines.extend(self.body)
        return "\n".join(lines) + "\n"


def material(name, kd, maps=(), extra=()):
    """One MTL entry. Ka/Ks/Ns/d/illum are always written so loaders that require them (or
    default them differently) all agree."""
    lines = [f"newmtl {name}",
             "Ka 0.000000 0.000000 0.000000",
             "Kd " + " ".join(fmt(c) for c in kd),
             "Ks 0.100000 0.100000 0.100000",
             "Ns 32.000000",
             "d 1.000000",
             "illum 2"]
    lines.extend(extra)
    lines.extend(f"{key} {path}" for key, path in maps)
    return "\n".join(lines) + "\n"


def write_mtl(path, comment, materials):
    write_text(path, HEADER + f"# {comment}\n\n" + "\n".join(materials))


def quad(center, normal, up, half_w, half_h):
    """Corners of a rectangle facing `normal`, in CCW order seen from the front, starting
    bottom-left; pairs with UVs (0,0) (1,0) (1,1) (0,1) to map a texture un-mirrored."""
    right = cross(up, normal)
    r, u = mul(right, half_w), mul(up, half_h)
    return [sub(sub(center, r), u), sub(add(center, r), u), add(add(center, r), u),
            add(sub(center, r), u)]


QUAD_UVS = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]


def planar_uvs(positions, normal, up, scale=1.0):
    """Project onto the face plane so the texture reads left-to-right seen from the front."""
    right = cross(up, normal)
    return [(dot(p, right) * scale, dot(p, up) * scale) for p in positions]


def make_cube(out):
    """Unit cube (-0.5..0.5) with one normal and full 0..1 UVs per face, written as triangles."""
    obj = ObjBuilder("cube.mtl", "Unit cube: 8 positions, per-face normals and UVs, 12 triangles.")
    obj.line("o cube")
    obj.line("usemtl bricks")
    obj.line("s off")
    faces = [  # (outward normal, direction that is "up" in the texture)
        ((1, 0, 0), (0, 1, 0)), ((-1, 0, 0), (0, 1, 0)),
        ((0, 0, 1), (0, 1, 0)), ((0, 0, -1), (0, 1, 0)),
        ((0, 1, 0), (0, 0, -1)), ((0, -1, 0), (0, 0, 1)),
    ]
    for n, up in faces:
        n, up = tuple(float(c) for c in n), tuple(float(c) for c in up)
        corners = quad(mul(n, 0.5), n, up, 0.5, 0.5)
        for tri in ((0, 1, 2), (0, 2, 3)):
            obj.face([corners[i] for i in tri], n, uvs=[QUAD_UVS[i] for i in tri],
                     normals=[n] * 3)
    write_text(out / "models/cube.obj", obj.text())
    write_mtl(out / "models/cube.mtl", "Brick material with colour, normal and roughness maps.", [
        material("bricks", (1.0, 1.0, 1.0),
                 maps=[("map_Kd", "../textures/bricks.png"),
                       # `norm` is tinyobjloader's normal-map key; `map_Bump` is what most
                       # exporters write. Both point at the same tangent-space normal map.
                       ("map_Bump", "../textures/bricks_n.png"),
                       ("norm", "../textures/bricks_n.png"),
                       ("map_Pr", "../textures/roughness.png")],
                 extra=["Pr 0.800000"]),
    ])
    return obj.triangles


def make_ground(out):
    """10x10 m plane as a 4x4 grid of quads (the baker must triangulate). UVs run 0..4 so the
    checker repeats, which needs a REPEAT sampler and shows mip/anisotropy at grazing angles."""
    obj = ObjBuilder("ground.mtl", "Ground plane: 4x4 grid of quads, 32 triangles, UVs 0..4.")
    obj.line("o ground")
    obj.line("usemtl checker")
    obj.line("s off")
    cells, extent, repeats = 4, 10.0, 4.0
    step = extent / cells
    n, up = (0.0, 1.0, 0.0), (0.0, 0.0, -1.0)  # texture top points away from a +Z camera
    for j in range(cells):
        for i in range(cells):
            center = (-extent / 2 + (i + 0.5) * step, 0.0, extent / 2 - (j + 0.5) * step)
            corners = quad(center, n, up, step / 2, step / 2)
            uvs = [(u + extent / 2, v + extent / 2) for u, v in planar_uvs(corners, n, up)]
            uvs = [(u * repeats / extent, v * repeats / extent) for u, v in uvs]
            obj.face(corners, n, uvs=uvs, normals=[n] * 4)
    write_text(out / "models/ground.obj", obj.text())
    write_mtl(out / "models/ground.mtl", "Checker ground material.", [
        material("checker", (1.0, 1.0, 1.0), maps=[("map_Kd", "../textures/checker.png")]),
    ])
    return obj.triangles


def make_multi_material(out):
    """Low-poly house: brick walls (textured), a roof with only a diffuse colour and no UVs, an
    octagonal chimney with smoothed sides, and an alpha-textured bush. No normals are written,
    so the baker has to generate them and honour the smoothing groups (`s 1` vs `s off`)."""
    obj = ObjBuilder("multi_material.mtl",
                     "House: 3 materials, usemtl switches, s 1/s off, 5- and 8-sided polygons, "
                     "no normals.")
    obj.line("o house")
    centre = (0.0, 0.6, 0.0)  # inside the house; walls and roof must face away from it
    hx, hz, wall_h, ridge_h = 1.0, 0.75, 1.0, 1.6
    y_up = (0.0, 1.0, 0.0)

    def wall(positions, normal):
        centroid = mul(sum_points(positions), 1.0 / len(positions))
        assert dot(sub(centroid, centre), normal) > 0, "wall normal points into the house"
        obj.face(positions, normal, uvs=planar_uvs(positions, normal, y_up))

    obj.line("g walls")
    obj.line("usemtl bricks")
    obj.line("s off")
    # Gable walls are single pentagons: polygons with > 4 vertices for the triangulator.
    wall([(-hx, 0.0, hz), (hx, 0.0, hz), (hx, wall_h, hz), (0.0, ridge_h, hz), (-hx, wall_h, hz)],
         (0.0, 0.0, 1.0))
    wall([(hx, 0.0, -hz), (-hx, 0.0, -hz), (-hx, wall_h, -hz), (0.0, ridge_h, -hz),
          (hx, wall_h, -hz)], (0.0, 0.0, -1.0))
    wall([(hx, 0.0, hz), (hx, 0.0, -hz), (hx, wall_h, -hz), (hx, wall_h, hz)], (1.0, 0.0, 0.0))
    wall([(-hx, 0.0, -hz), (-hx, 0.0, hz), (-hx, wall_h, hz), (-hx, wall_h, -hz)],
         (-1.0, 0.0, 0.0))

    obj.line("g roof")
    obj.line("usemtl roof")
    # Position-only faces (`f 1 2 3`): untextured material, so no UVs at all.
    for side in (1.0, -1.0):
        eave_a, eave_b = (side * hx, wall_h, side * hz), (side * hx, wall_h, -side * hz)
        ridge_b, ridge_a = (0.0, ridge_h, -side * hz), (0.0, ridge_h, side * hz)
        roof = [eave_a, eave_b, ridge_b, ridge_a]
        obj.face(roof, (side, 1.0, 0.0))

    obj.line("g chimney")
    obj.line("usemtl bricks")
    obj.line("s 1")  # smooth round-ish sides: normals must be averaged across the 8 quads
    segments, radius, cx, cz, y0, y1 = 8, 0.13, 0.5, 0.0, 1.2, 1.95  # base hidden in the roof
    circumference = 2 * math.pi * radius

    def ring(k, y):
        a = 2 * math.pi * (k % segments) / segments + math.pi / segments
        return (cx + radius * math.cos(a), y, cz - radius * math.sin(a))

    for k in range(segments):
        side = [ring(k, y0), ring(k + 1, y0), ring(k + 1, y1), ring(k, y1)]
        u0, u1 = circumference * k / segments, circumference * (k + 1) / segments
        obj.face(side, sub(add(side[0], side[2]), (2 * cx, y0 + y1, 2 * cz)),
                 uvs=[(u0, y0), (u1, y0), (u1, y1), (u0, y1)])
    obj.line("s off")  # the cap must stay flat and keep a hard edge against the sides
    obj.line("usemtl roof")
    obj.face([ring(k, y1) for k in range(segments)], y_up)  # 8-sided polygon

    obj.line("g bush")
    obj.line("usemtl leaves")
    obj.line("s off")  # front and back faces share positions; smoothing would cancel normals
    # Two crossed cards, each written twice (one per side) because the renderer culls back
    # faces; alpha (map_d) cuts out the leaf shape.
    bush = (1.55, 0.45, 0.95)
    for n in ((0.0, 0.0, 1.0), (1.0, 0.0, 0.0)):
        for facing in (n, mul(n, -1.0)):
            obj.face(quad(bush, facing, y_up, 0.45, 0.45), facing, uvs=QUAD_UVS)

    write_text(out / "models/multi_material.obj", obj.text())
    write_mtl(out / "models/multi_material.mtl", "House materials: textured, colour-only, alpha.", [
        material("bricks", (1.0, 1.0, 1.0), maps=[("map_Kd", "../textures/bricks.png")]),
        material("roof", (0.55, 0.16, 0.10)),
        material("leaves", (1.0, 1.0, 1.0),
                 maps=[("map_Kd", "../textures/leaf_alpha.png"),
                       ("map_d", "../textures/leaf_alpha.png")]),
    ])
    return obj.triangles


def make_sphere_smooth(out):
    """UV sphere (32 segments x 16 rings, radius 1) with UVs and `v x y z r g b` vertex colours
    but no normals: the baker must generate smooth ones (`s 1`). Positions are shared across
    the UV seam (u = 0 and u = 1 use different `vt`), so generated normals should be seamless."""
    segments, rings = 32, 16
    obj = ObjBuilder("sphere_smooth.mtl",
                     "UV sphere 32x16, radius 1: positions + vertex colours + UVs, no normals.")
    obj.line("o sphere")
    obj.line("usemtl sphere_checker")
    obj.line("s 1")

    def point(i, j):
        theta, phi = math.pi * j / rings, 2 * math.pi * (i % segments) / segments
        if j in (0, rings):  # exact poles, so every pole triangle shares one position
            return (0.0, 1.0 if j == 0 else -1.0, 0.0)
        return (math.sin(theta) * math.cos(phi), math.cos(theta), -math.sin(theta) * math.sin(phi))

    def colour(p):
        return tuple(0.5 + 0.5 * c for c in p)  # encodes the direction, easy to eyeball

    def uv(i, j, pole_u=None):
        return ((i if pole_u is None else pole_u) / segments, 1.0 - j / rings)

    for j in range(rings):
        for i in range(segments):
            # Corners bottom-left, bottom-right, top-right, top-left as seen from outside.
            quad_ij = [(i, j + 1), (i + 1, j + 1), (i + 1, j), (i, j)]
            if j == 0:
                tri = [quad_ij[0], quad_ij[1], quad_ij[2]]  # top pole
                uvs = [uv(i, j + 1), uv(i + 1, j + 1), uv(0, j, pole_u=i + 0.5)]
            elif j == rings - 1:
                tri = [quad_ij[0], quad_ij[2], quad_ij[3]]  # bottom pole
                uvs = [uv(i, j + 1, pole_u=i + 0.5), uv(i + 1, j), uv(i, j)]
            else:
                tri = None
            if tri:
                pts = [point(*c) for c in tri]
                obj.face(pts, add(add(pts[0], pts[1]), pts[2]), uvs=uvs,
                         colors=[colour(p) for p in pts])
                continue
            for t in ((0, 1, 2), (0, 2, 3)):
                pts = [point(*quad_ij[k]) for k in t]
                obj.face(pts, add(add(pts[0], pts[1]), pts[2]), uvs=[uv(*quad_ij[k]) for k in t],
                         colors=[colour(p) for p in pts])

    write_text(out / "models/sphere_smooth.obj", obj.text())
    write_mtl(out / "models/sphere_smooth.mtl", "Checker material for the sphere.", [
        material("sphere_checker", (1.0, 1.0, 1.0), maps=[("map_Kd", "../textures/checker.png")]),
    ])
    return obj.triangles


# --------------------------------------------------------------------------------------------
# README
# --------------------------------------------------------------------------------------------

README = """\
# Default sample assets

Every file in this folder is generated by

    python3 scripts/make_assets.py [OUTPUT_DIR]

(standard library only). Do not edit them by hand: change the script and regenerate. The
output is byte-identical from run to run, so a test can regenerate into a temporary folder and
`diff -r` it against this folder. (The PNG bytes depend on zlib's level-9 output; a different
zlib implementation, e.g. zlib-ng, produces other but equally valid compressed bytes.)

## Files and what they exercise

| File | Format | Demonstrates |
|------|--------|--------------|
| `textures/checker.png` | 256x256 RGB8, opaque | sRGB colour texture, power of two, coloured checker + gradient so each mip level differs |
| `textures/leaf_alpha.png` | 128x128 RGBA8 | real alpha with soft edges, transparent outside; transparent texels keep the leaf colour (no dark fringes) |
| `textures/bricks.png` | 256x256 RGB8 | tileable colour texture (bricks + mortar) |
| `textures/bricks_n.png` | 256x256 RGB8 | tangent-space normal map (`_n` suffix), from the bricks height field; +X right, +Y = +V (green up, OpenGL/glTF), must be sampled linear |
| `textures/roughness.png` | 128x128 Grey8 (PNG colour type 0) | single-channel linear data texture |
| `textures/gradient_16bit.png` | 64x64 RGB16 (bit depth 16) | 16-bit-per-channel source; values are not multiples of 257, so 8-bit truncation is detectable |
| `textures/ui/button.png` | 100x40 RGBA8 | non-power-of-two size, hard 0/1 alpha and sharp pixel edges (UI, no mips wanted), subfolder |
| `models/cube.obj` + `.mtl` | 12 triangles | unit cube, per-face normals and UVs; material `bricks` with `map_Kd`, `map_Bump` + `norm` (normal map), `map_Pr` (roughness) |
| `models/ground.obj` + `.mtl` | 16 quads = 32 triangles | quads that must be triangulated; UVs 0..4 need a REPEAT sampler; material `checker` |
| `models/multi_material.obj` + `.mtl` | 44 triangles | house: 3 materials (`bricks` textured, `roof` colour only, `leaves` with `map_Kd` + `map_d` alpha), `usemtl` switching back and forth, `s 1`/`s off`, 5- and 8-sided polygons, position-only faces (no UVs), no normals (baker generates them per smoothing group), double-sided alpha cards |
| `models/sphere_smooth.obj` + `.mtl` | 960 triangles | UV sphere 32x16 without normals (baker must generate smooth ones), `v x y z r g b` vertex colours, UV seam sharing positions |

## Conventions

- Right-handed, +Y up, metres. Faces are counter-clockwise seen from outside (back faces culled).
- OBJ `vt` uses v = 0 at the bottom of the image (standard OBJ); images are stored top row first.
- Texture paths in the `.mtl` files are relative to the `.mtl` file and stay inside `assets/`.

## License

Written by the assetlib project and dedicated to the public domain under
[CC0 1.0](https://creativecommons.org/publicdomain/zero/1.0/).
"""


def make_readme(out):
    write_text(out / "README.md", README)


# --------------------------------------------------------------------------------------------


def main(argv):
    if len(argv) > 2:
        sys.exit("usage: make_assets.py [OUTPUT_DIR]")
    default = Path(__file__).resolve().parent.parent / "assets"
    out = Path(argv[1]) if len(argv) == 2 else default

    for make_texture in (make_checker, make_leaf_alpha, make_bricks, make_bricks_normal,
                         make_roughness, make_gradient_16bit, make_button):
        make_texture(out)
    triangles = {
        "cube": make_cube(out),
        "ground": make_ground(out),
        "multi_material": make_multi_material(out),
        "sphere_smooth": make_sphere_smooth(out),
    }
    make_readme(out)
    print(f"make_assets: wrote assets to {out} (triangles: "
          + ", ".join(f"{k} {v}" for k, v in triangles.items()) + ")")


if __name__ == "__main__":
    main(sys.argv)
