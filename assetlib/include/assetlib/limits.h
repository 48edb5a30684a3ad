// assetlib: the hard limits every reader enforces, and why each has its value.
//
// An asset file may be corrupt or crafted (a mod, a download, a planted file in a CI checkout). The
// limits below bound what reading one can cost: each is checked before the memory it guards is
// allocated, and a file over one is refused with ErrorCode::InvalidValue (InvalidJson for the
// nesting depth) and a message naming the file or metadata and the constant, e.g.
// "TEXI metadata: unpacked size 11453246120 bytes is over the 4 GiB limit
// (assetlib::kMaxUnpackedSize)". Writers (pack_texture, pack_mesh, save_binaryfile) refuse to
// produce what readers would refuse.
//
// What a reader then costs, at most:
//   load_binaryfile       the file's own size (the blob) + kMaxJsonSize
//   read_*_info           the parsed JSON (simdjson's tape): about 14x the text reserved,
//                         56 MB at kMaxJsonSize; headers up to 64 KiB reuse the thread's parser
//   unpack_* destinations what the info says: at most kMaxUnpackedSize
//   unpack_chunk          one chunk: at most kMaxChunkSize (a loader that streams needs no more)
// Counts (chunks, mips, materials, submeshes, LOD ranges) need no cap of their own: every entry
// takes several bytes of JSON, so kMaxJsonSize bounds them.
#pragma once

#include <cstdint>

namespace assetlib {

// Unpacked bytes of one asset: all texture levels, or vertex + index + meshlet data.
// 4 GiB: the largest texture the baker writes (16384 x 16384 RGBA16 with its full mip chain) is
// 2.67 GiB, and a mesh this size would be some 70 million vertices of 60 bytes in one buffer; real
// assets are far below either. Without this cap the format's own limits allow 10.7 GiB (a 32768^2
// RGBA16 chain) from a 45 MB file, and 15 GiB for a mesh (2^28 vertices of 60 bytes).
inline constexpr uint64_t kMaxUnpackedSize = uint64_t(4) << 30;

// Bytes of an asset's JSON metadata (the header's json_length, padding included).
// 4 MiB: baked metadata is a few hundred bytes to a few KB (3 KB for the largest mesh of the test
// corpus); a 4 GiB texture in the default 1 MiB chunks lists 4096 chunks in 140 KB, and a mesh
// takes some 600 bytes per material and submesh, so 4 MiB still holds about 7000 of them. Parsed,
// JSON costs about 14x its text: at this limit, under 60 MB.
inline constexpr uint64_t kMaxJsonSize = uint64_t(4) << 20;

// Nesting depth of the JSON metadata and of the manifest (arrays and objects, the outer one is 1).
// 64: assets nest at most 5 deep (mesh -> lods -> a LOD -> its ranges -> a range), the manifest 3.
// Deeper text is refused by the parser, and before a parser is allocated for it, so crafted nesting
// costs no memory; and no code walking a parsed tree recursively can run out of stack.
inline constexpr uint32_t kMaxJsonDepth = 64;

// Unpacked bytes of one chunk (PackOptions::chunk_size, at most this; the default is 1 MiB).
// 1 GiB: LZ4's block format stops at 2 GiB. A loader that unpacks chunk by chunk (unpack_chunk)
// needs one buffer this large at most; asset-baker check and --verify hold one such buffer (the
// largest chunk of the file: 1 MiB by default) and, for a mesh, its meshlet section.
inline constexpr uint64_t kMaxChunkSize = uint64_t(1) << 30;

// Unpacked bytes a compressed chunk may claim per packed byte.
// 256: LZ4 cannot expand more (about 255:1 on a run of one byte), so a larger claim is a
// decompression bomb, refused before anything is allocated.
inline constexpr uint64_t kMaxChunkExpansion = 256;

// Bytes of a manifest file, checked by load_manifest before reading it (read_manifest parses the
// text it is given, within kMaxJsonDepth).
// 256 MiB: a manifest of a million assets is about 200 MB.
inline constexpr uint64_t kMaxManifestSize = uint64_t(256) << 20;

}  // namespace assetlib
