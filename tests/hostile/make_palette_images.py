#!/usr/bin/env python3
"""Writes palette images whose pixels index past their palette (docs/robustness.md, finding F16), the
files tests/hostile/test_hostile_palettes.cpp builds in memory, to run the baker on them under
valgrind (no uninitialised read may reach an output):

  make_palette_images.py <folder>
  valgrind --error-exitcode=9 asset-baker <folder> -o <out> -j1

BMP: 1, 4 and 8 bits; OS/2 (12-byte) and Windows (40, 108, 124-byte) headers; bottom-up and
top-down; a complete 256-colour OS/2 palette; no palette at all; RLE8 and RLE4 (refused by
stb_image). PNG: colour type 3 at depths 1, 2, 4, 8 with a short PLTE, with and without tRNS.
"""
import os
import struct
import sys
import zlib


def colour(e):
    return (40 + e * 7) % 256, (200 - e * 3) % 256, (e * 11 + 1) % 256


def packed_rows(width, height, bits, indices, align4, top_down=True):
    rows = []
    for y in range(height):
        acc, n, line = 0, 0, bytearray()
        for x in range(width):
            acc = (acc << bits) | (indices[(y * width + x) % len(indices)] & ((1 << bits) - 1))
            n += bits
            if n == 8:
                line.append(acc)
                acc, n = 0, 0
        if n:
            line.append(acc << (8 - n))
        if align4:
            line += bytes(-len(line) % 4)
        rows.append(bytes(line))
    return rows if top_down else rows[::-1]


def bmp(path, bits, colours, indices, header=40, width=9, height=5, top_down=False, compression=0):
    os2 = header == 12
    palette = b"".join(bytes(colour(e)[::-1]) + (b"" if os2 else b"\0") for e in range(colours))
    data = b"".join(packed_rows(width, height, bits, indices, True, top_down))
    if os2:
        info = struct.pack("<IHHHH", 12, width, height, 1, bits)
    else:
        info = struct.pack("<IiiHHIIiiII", header, width, -height if top_down else height, 1, bits, compression,
                           len(data), 2835, 2835, colours, 0)
        info += bytes(header - len(info))
    offset = 14 + len(info) + len(palette)
    with open(path, "wb") as f:
        f.write(struct.pack("<2sIHHI", b"BM", offset + len(data), 0, 0, offset) + info + palette + data)


def png(path, depth, colours, alphas, indices, width=11, height=4):
    def chunk(kind, payload):
        return struct.pack(">I", len(payload)) + kind + payload + struct.pack(">I", zlib.crc32(kind + payload))
    raw = b"".join(b"\0" + row for row in packed_rows(width, height, depth, indices, False))
    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, depth, 3, 0, 0, 0))
    out += chunk(b"PLTE", b"".join(bytes(colour(e)) for e in range(colours)))
    if alphas:
        out += chunk(b"tRNS", bytes(255 - e * 13 for e in range(alphas)))
    out += chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b"")
    with open(path, "wb") as f:
        f.write(out)


def main():
    folder = sys.argv[1]
    os.makedirs(folder, exist_ok=True)
    past = {1: (1, [0, 1, 1, 0]), 4: (3, [0, 2, 9, 15, 1]), 8: (2, [0, 1, 7, 200, 255])}
    for header in (12, 40, 108, 124):
        for bits, (colours, indices) in past.items():
            bmp(f"{folder}/bmp{header}-{bits}bit.bmp", bits, colours, indices, header)
            if header != 12:
                bmp(f"{folder}/bmp{header}-{bits}bit-topdown.bmp", bits, colours, indices, header, top_down=True)
    bmp(f"{folder}/os2-full-256.bmp", 8, 256, list(range(256)), 12, 16, 16)
    bmp(f"{folder}/no-palette.bmp", 8, 0, [0, 1, 2])
    bmp(f"{folder}/rle8.bmp", 8, 2, [0, 1, 5], compression=1)
    bmp(f"{folder}/rle4.bmp", 4, 2, [0, 1, 5], compression=2)
    for depth in (1, 2, 4, 8):
        for alphas in (0, 1):
            png(f"{folder}/png-{depth}bit-trns{alphas}.png", depth, 1 if depth == 1 else 3, alphas,
                [0, 1, 2, 3, 7, 15, 200, 255, 2, 0])


if __name__ == "__main__":
    main()
