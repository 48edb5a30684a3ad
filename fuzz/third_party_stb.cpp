// The system's stb_image (Debian libstb-dev headers, the very version
// libstb.so is built from) compiled into the fuzz and replay executables, so that AddressSanitizer
// and libFuzzer's coverage see inside the decoders: the prebuilt libstb.so is not instrumented.
// Symbols defined here take precedence over the shared library's, for the whole executable.
#define STB_IMAGE_IMPLEMENTATION
#include <stb/stb_image.h>
