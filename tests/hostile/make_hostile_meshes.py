#!/usr/bin/env python3
"""Writes OBJ files that made stages of the baker superlinear (docs/robustness.md, "Baker"), to time
a bake before and after a change:

  make_hostile_meshes.py <kind> <size> <folder>
  /usr/bin/time -v asset-baker <folder> -o <out> -j1 --force

kinds (<size> is the count named; files go to <folder>, with a baker.json when the case needs one):
  polygon    one face of <size> corners on a circle (tinyobjloader's ear clipping is quadratic)
  polygons   faces of <size> corners over 9 shared vertices, about 8 MB of them (the triangulation
             budget; 2 bytes per corner)
  fan        <size> triangles around one vertex (vertex cache optimiser, simplifier, meshlets)
  soup       <size> disconnected triangles at one place, plus 4 far away, with meshlets (the
             meshlet builder's k-d tree collapses into one leaf)
  flat       <size> x <size> grid, every triangle with a normal of its own (unwelded, as flat-shaded
             exports are), plus 4 far-away triangles, with meshlets
  materials  <size> one-triangle materials beside a 300 x 300 grid, with LODs and meshlets
             (every meshoptimizer call costs O(all vertices), once per submesh)
  tags       <size> `t` lines and <size> groups (tinyobjloader copies every tag into every group)
  mtllib     <size> `mtllib dN/../a.mtl` lines naming one library of 2000 materials
"""
import math
import os
import sys


def write(folder, name, lines):
    with open(os.path.join(folder, name), "w") as f:
        f.write("\n".join(lines) + "\n")


def settings(folder, text):
    with open(os.path.join(folder, "baker.json"), "w") as f:
        f.write(text + "\n")


def main():
    kind, size, folder = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    os.makedirs(folder, exist_ok=True)
    if kind == "polygon":
        lines = [f"v {math.cos(2 * math.pi * i / size):.6f} {math.sin(2 * math.pi * i / size):.6f} 0" for i in range(size)]
        lines.append("f " + " ".join(str(i + 1) for i in range(size)))
        write(folder, "polygon.obj", lines)
    elif kind == "polygons":
        lines = [f"v {math.cos(2 * math.pi * i / 9):.4f} {math.sin(2 * math.pi * i / 9):.4f} 0" for i in range(9)]
        face = "f " + " ".join(str(i % 9 + 1) for i in range(size))
        lines += [face] * (8_000_000 // (len(face) + 1))
        write(folder, "polygons.obj", lines)
    elif kind == "fan":
        lines = ["v 0 0 0"]
        lines += [f"v {math.cos(2 * math.pi * i / (size + 1)):.6f} {math.sin(2 * math.pi * i / (size + 1)):.6f} 0"
                  for i in range(size + 1)]
        lines += [f"f 1 {i + 2} {i + 3}" for i in range(size)]
        write(folder, "fan.obj", lines)
    elif kind == "soup":
        lines = ["v 0 0 0", "v 1 0 0", "v 0 1 0"]
        lines += [f"vn 0 {i * 1e-6:.6f} 1" for i in range(size)]
        lines += [f"f 1//{i + 1} 2//{i + 1} 3//{i + 1}" for i in range(size)]
        for k in range(4):
            lines += [f"v {k + 1}e9 0 0", f"v {k + 1}.000001e9 0 0", f"v {k + 1}e9 1e3 0"]
            lines.append(f"f {4 + 3 * k} {5 + 3 * k} {6 + 3 * k}")
        write(folder, "soup.obj", lines)
        settings(folder, '{"settings": {"meshlets": true}}')
    elif kind == "flat":
        lines = [f"v {x} {y} {(x * y) % 5 * 0.1:.1f}" for y in range(size) for x in range(size)]
        n = 0
        for y in range(size - 1):
            for x in range(size - 1):
                a = y * size + x + 1
                for tri in ((a, a + 1, a + size + 1), (a, a + size + 1, a + size)):
                    n += 1
                    lines.append(f"vn 0 {n * 1e-7:.7f} 1")
                    lines.append("f " + " ".join(f"{v}//{n}" for v in tri))
        base = size * size
        for k in range(4):
            lines += [f"v {k + 1}e9 0 0", f"v {k + 1}.000001e9 0 0", f"v {k + 1}e9 1e3 0"]
            lines.append(f"f {base + 1 + 3 * k} {base + 2 + 3 * k} {base + 3 + 3 * k}")
        write(folder, "flat.obj", lines)
        settings(folder, '{"settings": {"meshlets": true}}')
    elif kind == "materials":
        g = 300
        write(folder, "m.mtl", [f"newmtl m{i}" for i in range(size)])
        lines = ["mtllib m.mtl"]
        lines += [f"v {x} {y} {(x * y) % 5}" for y in range(g) for x in range(g)]
        lines.append("usemtl m0")
        for y in range(g - 1):
            for x in range(g - 1):
                a = y * g + x + 1
                lines.append(f"f {a} {a + 1} {a + g + 1} {a + g}")
        for i in range(1, size):
            lines += [f"usemtl m{i}", f"f 1 2 {g + 1}"]
        write(folder, "materials.obj", lines)
        settings(folder, '{"settings": {"meshlets": true, "lod_count": 8}}')
    elif kind == "tags":
        lines = ["v 0 0 0", "v 1 0 0", "v 0 1 0"]
        lines += ["t crease 0/0/0"] * size
        for i in range(size):
            lines += [f"g g{i}", "f 1 2 3"]
        write(folder, "tags.obj", lines)
    elif kind == "mtllib":
        lines = []
        for i in range(2000):
            lines += [f"newmtl m{i}", "Kd 1 0 0"]
        write(folder, "a.mtl", lines)
        lines = ["v 0 0 0", "v 1 0 0", "v 0 1 0"]
        lines += [f"mtllib d{i}/../a.mtl" for i in range(size)]
        lines += ["usemtl m1", "f 1 2 3"]
        write(folder, "mtllib.obj", lines)
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main()
