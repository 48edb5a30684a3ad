// Internal: the public API never throws. Each entry point that can allocate runs its body through
// no_throw(), which turns an allocation failure (std::bad_alloc; std::length_error, a size beyond
// what a container can hold) into ErrorCode::OutOfMemory, and any other exception (a bug) into
// InvalidArgument, instead of letting it unwind into the caller (a game, which may not use
// exceptions at all).
#pragma once

#include <assetlib/status.h>

#include <exception>
#include <new>
#include <stdexcept>
#include <string>
#include <string_view>

namespace assetlib::detail {

// "<where>: <what>". Building the message can fail too when memory is that short: then the code
// alone, with an empty message (which allocates nothing).
inline Status failure_noexcept(ErrorCode code, std::string_view where, const char* what,
                               const char* detail = "") noexcept {
  try {
    std::string message(where);
    message += ": ";
    message += what;
    message += detail;
    return Status::error(code, std::move(message));
  } catch (...) {
    return Status{code, {}};
  }
}

template <typename Body>
Status no_throw(std::string_view where, Body&& body) noexcept {
  try {
    return body();
  } catch (const std::bad_alloc&) {
    return failure_noexcept(ErrorCode::OutOfMemory, where, "out of memory (std::bad_alloc)");
  } catch (const std::length_error&) {
    return failure_noexcept(ErrorCode::OutOfMemory, where, "out of memory (std::length_error)");
  } catch (const std::exception& e) {
    return failure_noexcept(ErrorCode::InvalidArgument, where, "internal error: ", e.what());
  } catch (...) {
    return failure_noexcept(ErrorCode::InvalidArgument, where, "internal error: unknown exception");
  }
}

}  // namespace assetlib::detail
