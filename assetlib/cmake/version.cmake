# The library's version, read by the top-level project and by assetlib/CMakeLists.txt when another
# project adds this folder alone.
set(ASSETLIB_VERSION 0.1.0)
