// The loader reads only regular files: a FIFO, a folder or a device in place of an asset or a
// manifest is refused at once, naming what it is, and never blocks (a FIFO without a writer would
// block an ordinary open() for ever; an alarm turns such a regression into a failure, not a hang).
// The writer creates its temporary exclusively, so nothing planted at its name is written through.
#include "test_helpers.h"

#include <catch2/catch.hpp>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <span>
#include <thread>

using namespace assetlib;

namespace {

// Runs `call` under a 10-second alarm: a call that blocks kills the test program (SIGALRM).
template <typename Call>
Status within_seconds(Call&& call) {
  ::alarm(10);
  Status s = call();
  ::alarm(0);
  return s;
}

bool refused(const Status& s, const std::string& path, const char* kind) {
  return s.code == ErrorCode::FileNotFound && s.message.rfind(path + ": ", 0) == 0 &&
         s.message.find(std::string("not a regular file (") + kind + ")") != std::string::npos;
}

}  // namespace

TEST_CASE(
    "assetlib special files: FIFOs, folders, devices and sockets are refused without blocking") {
  test::TempDir dir("special");
  std::string fifo = dir.file("fifo.tx"), folder = dir.file("folder.tx"),
              sock = dir.file("sock.tx");
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::filesystem::create_directory(folder);
  AssetFile file;
  Manifest manifest;
  CHECK(refused(within_seconds([&] { return load_binaryfile(fifo, file); }), fifo, "a FIFO"));
  CHECK(refused(within_seconds([&] { return load_manifest(fifo, manifest); }), fifo, "a FIFO"));
  CHECK(refused(load_binaryfile(folder, file), folder, "a folder"));
  CHECK(refused(load_manifest(folder, manifest), folder, "a folder"));
  CHECK(refused(load_binaryfile("/dev/zero", file), "/dev/zero", "a character device"));
  CHECK(refused(load_manifest("/dev/zero", manifest), "/dev/zero", "a character device"));
  // Through a symlink: what it leads to counts.
  std::filesystem::create_symlink(fifo, dir.file("link.tx"));
  CHECK(refused(within_seconds([&] { return load_binaryfile(dir.file("link.tx"), file); }),
                dir.file("link.tx"), "a FIFO"));
  // A socket cannot even be opened: FileNotFound all the same.
  int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  REQUIRE(fd >= 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  REQUIRE(sock.size() < sizeof(address.sun_path));
  std::memcpy(address.sun_path, sock.c_str(), sock.size() + 1);
  REQUIRE(::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) == 0);
  Status s = load_binaryfile(sock, file);
  ::close(fd);
  CHECK(s.code == ErrorCode::FileNotFound);
  CHECK(s.message.rfind(sock + ": ", 0) == 0);
  // A regular file still loads, and a missing one is FileNotFound naming it.
  REQUIRE(save_binaryfile(dir.file("t.tx"), test::packed_texture(8, 8, 1)).ok());
  CHECK(load_binaryfile(dir.file("t.tx"), file).ok());
  s = load_binaryfile(dir.file("missing.tx"), file);
  CHECK(s.code == ErrorCode::FileNotFound);
  CHECK(s.message.rfind(dir.file("missing.tx") + ": cannot open file", 0) == 0);
}

TEST_CASE("assetlib atomic writes never write through a file or symlink at the temporary's name") {
  // The writer's temporary is "<path>.assetlib-tmp-<pid>-<16 n + attempt>", n from this thread's
  // id: predictable to anyone who knows the process. A symlink planted there must not carry the
  // write to the file it names.
  test::TempDir dir("atomic");
  const std::string target = dir.file("out.tx"), victim = dir.file("victim.txt");
  { std::ofstream(victim) << "precious"; }
  const size_t n = std::hash<std::thread::id>{}(std::this_thread::get_id()) % 1000000007u;
  auto planted = [&](size_t attempt) {
    return target + ".assetlib-tmp-" + std::to_string(::getpid()) + "-" +
           std::to_string(n * 16 + attempt);
  };
  auto victim_text = [&] {
    std::ifstream in(victim);
    return std::string(std::istreambuf_iterator<char>(in), {});
  };
  std::filesystem::create_symlink(victim, planted(0));
  const std::string text = "new bytes";
  const auto bytes = std::as_bytes(std::span(text));
  const std::span<const std::byte> parts[] = {bytes};
  REQUIRE(write_file_atomically(target, parts).ok());
  CHECK(victim_text() == "precious");
  CHECK(std::filesystem::is_regular_file(std::filesystem::symlink_status(target)));
  CHECK(std::filesystem::file_size(target) == text.size());
  // Every name taken: an IoError, nothing written anywhere.
  for (size_t k = 1; k < 16; ++k) std::filesystem::create_symlink(victim, planted(k));
  std::filesystem::remove(target);
  Status s = write_file_atomically(target, parts);
  CHECK(s.code == ErrorCode::IoError);
  CHECK(s.message.rfind(target + ": cannot create temporary file", 0) == 0);
  CHECK(victim_text() == "precious");
  CHECK_FALSE(std::filesystem::exists(std::filesystem::symlink_status(target)));
}
