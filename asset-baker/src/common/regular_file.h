// Reading a file the baker did not write (a source, baker.json, a PSNR reference) without ever
// blocking or reading for ever: only regular files are read. A FIFO is opened without blocking and
// refused, a device (/dev/zero) is refused, and a file swapped for either between a check and the
// open makes no difference, since the check is on the open descriptor.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace baker {

enum class ReadResult { Ok, NotFound, NotRegular, TooLarge, ReadError };

// Reads the regular file at `path` into `out` when it holds at most `max_bytes`.
ReadResult read_regular_file(const std::filesystem::path& path, uint64_t max_bytes,
                             std::vector<std::byte>& out);

// The same from a file the caller opened (O_NONBLOCK, so a FIFO did not block); closes `fd`.
ReadResult read_opened_file(int fd, uint64_t max_bytes, std::vector<std::byte>& out);

// Reads at most the first `max_bytes` of the regular file at `path` into `out` (fewer when the
// file is shorter): a header, without reading the rest.
ReadResult read_regular_prefix(const std::filesystem::path& path, uint64_t max_bytes,
                               std::vector<std::byte>& out);

// What went wrong, for messages: "cannot read (not a regular file)".
std::string read_result_reason(ReadResult result, uint64_t max_bytes);

}  // namespace baker
