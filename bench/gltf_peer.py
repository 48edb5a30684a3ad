#!/usr/bin/env python3
"""asset-baker against gltfpack on the same glTF files, side by side in one run.

Usage: python3 bench/gltf_peer.py <asset-baker> [corpus] [--jobs N] [--repeat R]

Every .gltf/.glb under the corpus (default ../shared/corpus) is staged with the files it names
(buffers, images) into a scratch tree, each in its own folder, then converted
  - by asset-baker: one bake of the staged tree, -jN (meshes, materials, textures by role in BCn,
    prefabs; the staged images are sources too, as in a user's tree);
  - by gltfpack (Debian package gltfpack, defaults): each file to .glb, N at a time.
Once for all files, once for the files without images, where both do the same kind of work.
Figures are medians of R repetitions of wall time; the ratio is gltfpack's time over the baker's
(above 1: the baker is faster). Files gltfpack or the baker refuse are counted, not hidden.
"""
import argparse
import json
import os
import shutil
import statistics
import struct
import subprocess
import sys
import tempfile
import time
import urllib.parse
from concurrent.futures import ThreadPoolExecutor


def gltf_json(path):
    data = open(path, "rb").read()
    if data[:4] == b"glTF":
        length = struct.unpack_from("<I", data, 12)[0]
        data = data[20:20 + length]
    return json.loads(data)


def referenced_files(path):
    """Relative paths of the external buffers and images a glTF names (data: URIs excluded)."""
    try:
        doc = gltf_json(path)
    except (ValueError, struct.error, UnicodeDecodeError):
        return []
    out = []
    for key in ("buffers", "images"):
        for item in doc.get(key, []) if isinstance(doc.get(key), list) else []:
            uri = item.get("uri") if isinstance(item, dict) else None
            if isinstance(uri, str) and not uri.startswith("data:") and "://" not in uri:
                out.append(urllib.parse.unquote(uri))
    return out


def stage(corpus, files, root):
    """Copies each glTF and what it names into root/<k>/ (its own folder: no sharing)."""
    for k, path in enumerate(files):
        folder = os.path.join(root, "%04d" % k)
        os.makedirs(folder)
        shutil.copy(path, folder)
        base = os.path.dirname(path)
        for rel in referenced_files(path):
            src = os.path.normpath(os.path.join(base, rel))
            dst = os.path.normpath(os.path.join(folder, rel))
            if not src.startswith(corpus) or not dst.startswith(folder) or not os.path.isfile(src):
                continue
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            shutil.copy(src, dst)


def timed(fn):
    start = time.perf_counter()
    result = fn()
    return time.perf_counter() - start, result


def bake(baker, tree, out, jobs):
    shutil.rmtree(out, ignore_errors=True)
    p = subprocess.run([baker, tree, "-o", out, "-j", str(jobs), "--quiet", "--json",
                        out + ".json"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if p.returncode not in (0, 1):
        sys.exit("asset-baker exited %d" % p.returncode)
    report = json.load(open(out + ".json"))
    return report


def gltfpack_all(files, out, jobs):
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)

    def one(k):
        p = subprocess.run(["gltfpack", "-i", files[k], "-o", os.path.join(out, "%04d.glb" % k)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        return p.returncode == 0

    with ThreadPoolExecutor(jobs) as pool:
        return sum(pool.map(one, range(len(files))))


def has_images(path):
    try:
        return bool(gltf_json(path).get("images"))
    except (ValueError, struct.error, UnicodeDecodeError, AttributeError):
        return False


def median_seconds(fn, repeat):
    runs = [timed(fn) for _ in range(repeat)]
    return statistics.median(t for t, _ in runs), runs[-1][1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("baker")
    ap.add_argument("corpus", nargs="?",
                    default=os.path.join(os.path.dirname(__file__), "../../shared/corpus"))
    ap.add_argument("--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    if not shutil.which("gltfpack"):
        sys.exit("gltfpack not found (Debian package gltfpack)")
    corpus = os.path.realpath(args.corpus)
    files = sorted(os.path.join(d, f) for d, _, names in os.walk(corpus) for f in names
                   if f.lower().endswith((".gltf", ".glb")))
    # All files: the bake a user runs (gltfpack leaves textures as they are, the baker compresses
    # every one to BCn per role). Files without images: the same work on both sides (meshes,
    # materials, the node tree).
    variants = [("all files", files), ("files without images",
                                       [f for f in files if not has_images(f)])]
    print("glTF/GLB files under %s, -j%d, median of %d runs; ratio = gltfpack's time / "
          "asset-baker's (above 1: the baker is faster)" % (corpus, args.jobs, args.repeat))
    print("| files | count | asset-baker s | baked, failed | gltfpack s | converted | ratio |")
    print("|---|---|---|---|---|---|---|")
    for name, subset in variants:
        work = tempfile.mkdtemp(prefix="gltf-peer-")
        try:
            tree = os.path.join(work, "in")
            stage(corpus, subset, tree)
            out = os.path.join(work, "out")
            baker_s, report = median_seconds(lambda: bake(args.baker, tree, out, args.jobs),
                                             args.repeat)
            gp_out = os.path.join(work, "gp")
            gp_s, converted = median_seconds(lambda: gltfpack_all(subset, gp_out, args.jobs),
                                             args.repeat)
            print("| %s | %d | %.2f | %d, %d | %.2f | %d | %.2fx |" %
                  (name, len(subset), baker_s, report["baked"], report["failed"], gp_s, converted,
                   gp_s / baker_s))
        finally:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
