#!/usr/bin/env python3
"""Tiny images in the stb_image formats the corpus lacks (BMP, TGA, PNM, HDR, PSD), written byte by
byte, for the fuzz seeds and the valgrind check of the decoders:

  make_format_samples.py <folder>      (files named gen-<what>.<ext>)
"""
import struct, sys, os
out = sys.argv[1]
os.makedirs(out, exist_ok=True)
def save(name, data):
    with open(os.path.join(out, "gen-" + name), "wb") as f:
        f.write(data)
W, H = 5, 3
px = [((x * 50) & 255, (y * 80) & 255, ((x + y) * 30) & 255, 255 if x else 128) for y in range(H) for x in range(W)]

# BMP: 24-bit bottom-up, 32-bit with alpha, 8-bit palette, 4-bit palette, top-down (negative height).
def bmp(bits, top_down=False):
    palette = b""
    if bits <= 8:
        palette = b"".join(struct.pack("<BBBB", i * 40 & 255, i * 90 & 255, i * 10 & 255, 0) for i in range(1 << bits))
    rows = []
    for y in (range(H) if top_down else reversed(range(H))):
        if bits == 24:
            row = b"".join(struct.pack("<BBB", p[2], p[1], p[0]) for p in px[y * W:(y + 1) * W])
        elif bits == 32:
            row = b"".join(struct.pack("<BBBB", p[2], p[1], p[0], p[3]) for p in px[y * W:(y + 1) * W])
        elif bits == 8:
            row = bytes((x + y) % 256 for x in range(W))
        else:
            idx = [(x + y) % 16 for x in range(W)] + [0]
            row = bytes((idx[i] << 4) | idx[i + 1] for i in range(0, W, 2))
        row += b"\0" * ((-len(row)) % 4)
        rows.append(row)
    pixels = b"".join(rows)
    offset = 14 + 40 + len(palette)
    header = struct.pack("<2sIHHI", b"BM", offset + len(pixels), 0, 0, offset)
    info = struct.pack("<IiiHHIIiiII", 40, W, -H if top_down else H, 1, bits, 0, len(pixels), 2835, 2835,
                       (1 << bits) if bits <= 8 else 0, 0)
    return header + info + palette + pixels
save("rgb24.bmp", bmp(24)); save("rgba32.bmp", bmp(32)); save("pal8.bmp", bmp(8)); save("pal4.bmp", bmp(4))
save("topdown.bmp", bmp(24, True))

# TGA: uncompressed true colour, RLE true colour with alpha, grey, colour-mapped.
def tga(kind, bits, data, cmap=b"", cmap_len=0):
    header = struct.pack("<BBBHHBHHHHBB", 0, 1 if cmap_len else 0, kind, 0, cmap_len, 24 if cmap_len else 0,
                         0, 0, W, H, bits, 0x28 if bits == 32 else 0x20)
    return header + cmap + data
save("rgb.tga", tga(2, 24, b"".join(struct.pack("<BBB", p[2], p[1], p[0]) for p in px)))
rle = b""
for y in range(H):
    p = px[y * W]
    rle += bytes([0x80 | 1]) + struct.pack("<BBBB", p[2], p[1], p[0], p[3])         # run of 2
    rle += bytes([W - 3]) + b"".join(struct.pack("<BBBB", q[2], q[1], q[0], q[3]) for q in px[y * W + 2:(y + 1) * W])
save("rle32.tga", tga(10, 32, rle))
save("grey.tga", tga(3, 8, bytes(p[0] for p in px)))
save("cmap.tga", tga(1, 8, bytes(i % 4 for i in range(W * H)),
                     b"".join(struct.pack("<BBB", i * 60, 255 - i * 60, i * 20) for i in range(4)), 4))

# PNM: grey and colour, 8 and 16 bits, binary.
save("grey.pgm", b"P5\n%d %d\n255\n" % (W, H) + bytes(p[0] for p in px))
save("rgb.ppm", b"P6\n# comment\n%d %d\n255\n" % (W, H) + b"".join(bytes(p[:3]) for p in px))
save("rgb16.ppm", b"P6 %d %d 65535\n" % (W, H) + b"".join(struct.pack(">HHH", p[0] * 257, p[1] * 257, p[2] * 257) for p in px))

# Radiance HDR: flat scanlines (width < 8) and RLE scanlines (width 8..32767).
def rgbe(r, g, b):
    return bytes([r, g, b, 129])
save("flat.hdr", b"#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y %d +X %d\n" % (H, W) + b"".join(rgbe(*p[:3]) for p in px))
w8 = 12
body = b""
for y in range(2):
    body += bytes([2, 2, w8 >> 8, w8 & 255])
    for c in range(4):
        values = [(x * 20 + y * 7 + c * 30) & 255 if c < 3 else 128 for x in range(w8)]
        body += bytes([128 + 6, values[0]])            # a run of 6
        body += bytes([w8 - 6]) + bytes(values[6:])    # then literals
save("rle.hdr", b"#?RGBE\nFORMAT=32-bit_rle_rgbe\nEXPOSURE=1.0\n\n-Y 2 +X %d\n" % w8 + body)

# PSD: RGB raw and RGBA PackBits, 8 bits.
def psd(channels, compression):
    head = b"8BPS" + struct.pack(">H6xHIIHH", 1, channels, H, W, 8, 3) + struct.pack(">III", 0, 0, 0)
    planes = [bytes(p[c] for p in px) for c in range(channels)]
    if compression == 0:
        return head + struct.pack(">H", 0) + b"".join(planes)
    counts, data = b"", b""
    for plane in planes:
        for y in range(H):
            row = plane[y * W:(y + 1) * W]
            packed = bytes([W - 1]) + row          # one literal packet per row
            counts += struct.pack(">H", len(packed))
            data += packed
    return head + struct.pack(">H", 1) + counts + data
save("rgb_raw.psd", psd(3, 0)); save("rgba_rle.psd", psd(4, 1))
