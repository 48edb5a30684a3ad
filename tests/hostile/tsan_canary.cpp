// A deliberate data race, built only in the ThreadSanitizer build: its test passes only on TSan's
// report, which proves that the TSan stage of scripts/test.sh can report a race at all.
#include <thread>

int main() {
  static int shared = 0;
  std::thread writer([] {
    for (int i = 0; i < 100000; ++i) shared = shared + 1;
  });
  for (int i = 0; i < 100000; ++i) shared = shared + 1;
  writer.join();
  return 0;
}
