// The system's tinyobjloader (Debian libtinyobjloader-dev header, the version libtinyobjloader.so
// is built from, single precision like the library the baker links) compiled into the fuzz and
// replay executables, so that AddressSanitizer and libFuzzer's coverage see inside the parser: the
// prebuilt shared library is not instrumented. These definitions take precedence over the shared
// library's.
#define TINYOBJLOADER_IMPLEMENTATION
#include <tiny_obj_loader.h>
