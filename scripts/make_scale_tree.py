#!/usr/bin/env python3
"""Generates a tree of many small sources for scale measurements and tests of the baker.

    python3 scripts/make_scale_tree.py OUT [--count N] [--seed S]

About 88% tiny PNGs (8x8, some used as normal maps), 11% small OBJ files (a cube, each with its
own .mtl naming a PNG as base colour and, every third one, another as normal map), and one glTF
in a thousand (a triangle in an embedded data: buffer, its material naming two of the PNGs).
Folders hold at most 500 files. The same arguments give the same bytes; nothing is committed.
"""
import argparse
import base64
import json
import os
import random
import struct
import zlib


def png_bytes(width, height, pixels):
    """An 8-bit RGBA PNG of `pixels` (bytes, row by row)."""
    def chunk(tag, data):
        return (struct.pack(">I", len(data)) + tag + data +
                struct.pack(">I", zlib.crc32(tag + data) & 0xFFFFFFFF))
    rows = b"".join(b"\0" + pixels[y * width * 4:(y + 1) * width * 4] for y in range(height))
    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 6)) +
            chunk(b"IEND", b""))


def tiny_png(rng):
    return png_bytes(8, 8, bytes(rng.randrange(256) for _ in range(8 * 8 * 4)))


CUBE = """v -1 -1 -1
v 1 -1 -1
v 1 1 -1
v -1 1 -1
v -1 -1 1
v 1 -1 1
v 1 1 1
v -1 1 1
vt 0 0
vt 1 0
vt 1 1
vt 0 1
f 1/1 4/4 3/3 2/2
f 5/1 6/2 7/3 8/4
f 1/1 2/2 6/3 5/4
f 2/1 3/2 7/3 6/4
f 3/1 4/2 8/3 7/4
f 4/1 1/2 5/3 8/4
"""


def gltf_text(color_uri, normal_uri):
    positions = struct.pack("<9f", 0, 0, 0, 1, 0, 0, 0, 1, 0)
    uvs = struct.pack("<6f", 0, 0, 1, 0, 0, 1)
    data = positions + uvs
    doc = {
        "asset": {"version": "2.0"},
        "buffers": [{"byteLength": len(data),
                     "uri": "data:application/octet-stream;base64," +
                            base64.b64encode(data).decode()}],
        "bufferViews": [{"buffer": 0, "byteOffset": 0, "byteLength": 36},
                        {"buffer": 0, "byteOffset": 36, "byteLength": 24}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                       "min": [0, 0, 0], "max": [1, 1, 0]},
                      {"bufferView": 1, "componentType": 5126, "count": 3, "type": "VEC2"}],
        "images": [{"uri": color_uri}, {"uri": normal_uri}],
        "textures": [{"source": 0}, {"source": 1}],
        "materials": [{"pbrMetallicRoughness": {"baseColorTexture": {"index": 0}},
                       "normalTexture": {"index": 1}}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0, "TEXCOORD_0": 1},
                                    "material": 0}]}],
        "nodes": [{"mesh": 0}],
        "scenes": [{"nodes": [0]}],
        "scene": 0,
    }
    return json.dumps(doc, indent=1, sort_keys=True)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--count", type=int, default=100000, help="sources to make")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    scenes = max(1, args.count // 1000)
    models = max(1, args.count * 11 // 100)
    images = max(2, args.count - models - scenes)

    def folder(kind, index):
        path = os.path.join(args.out, kind, "%04d" % (index // 500))
        os.makedirs(path, exist_ok=True)
        return path

    image_paths = []
    for i in range(images):
        name = "img%06d.png" % i
        with open(os.path.join(folder("textures", i), name), "wb") as f:
            f.write(tiny_png(rng))
        image_paths.append("textures/%04d/%s" % (i // 500, name))
    for i in range(models):
        base = folder("models", i)
        color = image_paths[rng.randrange(images)]
        lines = ["newmtl m%d" % i, "Kd 1 1 1", "map_Kd ../../" + color]
        if i % 3 == 0:
            lines.append("norm ../../" + image_paths[rng.randrange(images)])
        with open(os.path.join(base, "mesh%06d.mtl" % i), "w") as f:
            f.write("\n".join(lines) + "\n")
        with open(os.path.join(base, "mesh%06d.obj" % i), "w") as f:
            f.write("mtllib mesh%06d.mtl\nusemtl m%d\n%s" % (i, i, CUBE))
    for i in range(scenes):
        color = image_paths[rng.randrange(images)]
        normal = image_paths[rng.randrange(images)]
        with open(os.path.join(folder("scenes", i), "scene%04d.gltf" % i), "w") as f:
            f.write(gltf_text("../../" + color, "../../" + normal))
    print("%d images, %d models, %d scenes in %s" % (images, models, scenes, args.out))


if __name__ == "__main__":
    main()
