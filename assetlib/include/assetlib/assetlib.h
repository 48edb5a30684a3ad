// assetlib: everything in one include.
#pragma once

#include <assetlib/asset_file.h>
#include <assetlib/clip_asset.h>
#include <assetlib/limits.h>
#include <assetlib/manifest.h>
#include <assetlib/material_asset.h>
#include <assetlib/mesh_asset.h>
#include <assetlib/pack_file.h>
#include <assetlib/prefab_asset.h>
#include <assetlib/skeleton_asset.h>
#include <assetlib/status.h>
#include <assetlib/texture_asset.h>
#include <assetlib/unpack_jobs.h>
