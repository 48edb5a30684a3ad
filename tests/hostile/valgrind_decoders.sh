#!/usr/bin/env bash
# The baker's decoders under valgrind memcheck: no read of uninitialised or freed memory may reach
# an output, whatever the image (docs/robustness.md, "Decoders under valgrind"). ASan does not see
# uninitialised reads, and the third-party decoders are not built with MSan, so this is the check
# that catches, e.g., palette entries a BMP never defines being copied into a texture.
# Usage: valgrind_decoders.sh <asset-baker> <corpus-dir>
set -euo pipefail

baker=$1 corpus=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/valgrind-decoders.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL [valgrind]: $*" >&2; exit 1; }
command -v valgrind >/dev/null || fail "valgrind is not installed (scripts/install-deps.sh installs it)"

mkdir -p "$work/src"
cp -r "$corpus/stb/tests/pngsuite" "$work/src/pngsuite"
cp -r "$corpus/libpng/contrib/testpngs" "$work/src/testpngs" 2>/dev/null || true
# Palette images whose pixels index past the colours the file defines (BMP with every header, PNG):
# decoders that leave the missing entries unset copy stale memory into the image.
python3 "$(dirname "$0")/make_palette_images.py" "$work/src/palettes"
# Every other container stb_image reads: generated BMP, TGA, PNM, HDR and PSD files, and the
# corpus' small JPEG and GIF files.
python3 "$(dirname "$0")/../../fuzz/make_format_samples.py" "$work/src/formats"
mkdir -p "$work/src/jpeg-gif"
find "$corpus" \( -iname '*.jpg' -o -iname '*.jpeg' -o -iname '*.gif' \) -size -64k -print0 |
  while IFS= read -r -d '' f; do cp "$f" "$work/src/jpeg-gif/$(echo "${f#"$corpus"/}" | tr / _)"; done

set +e
valgrind --quiet --error-exitcode=99 --exit-on-first-error=no --undef-value-errors=yes \
  "$baker" "$work/src" -o "$work/out" -j1 -q >"$work/log" 2>&1
rc=$?
set -e
[ "$rc" != 99 ] || { grep -a -A12 "^==[0-9]*==" "$work/log" | head -80 >&2; fail "valgrind reported memory errors"; }
[ "$rc" -le 1 ] || { tail -20 "$work/log" >&2; fail "the baker exited $rc under valgrind"; }
# Twice the same bytes: nothing nondeterministic reached an output.
"$baker" "$work/src" -o "$work/again" -j1 -q >/dev/null 2>&1 || true
diff -r -x .assetlib-cache.json "$work/out" "$work/again" >/dev/null || fail "two bakes of the same tree differ"
echo "ok [valgrind]: $(find "$work/out" -name '*.tx' | wc -l) textures baked under memcheck, no errors"
