// The outputs a bake has put in place but not yet recorded in its cache.
//
// A bake publishes each source's outputs as it finishes, and writes the cache (which outputs
// belong to which source, with their hashes) once at the end. A bake killed in between (kill -9, a
// power cut of the CI runner) leaves files the old cache does not describe: had their source
// then been deleted, no later bake would remove them (their hash is not the recorded one) and
// `check` would fail on them for good. So every output is noted here, with its hash, before it
// is renamed into place; a whole-folder bake reads what killed runs noted, removes those of them
// that no source of its own makes any more (while they still hold the noted bytes), and empties
// the journal once its cache is saved.
#pragma once

#include "common/bake_status.h"
#include "pipeline/output_tree.h"

#include <mutex>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace baker {

inline constexpr const char* kJournalFileName = ".assetlib-journal";

// Largest journal read (some 200000 outputs); a bigger one is ignored (its files stay, as before
// the journal existed): reading it costs about twice its size in memory.
inline constexpr uint64_t kMaxJournalBytes = 16ull << 20;

class OutputJournal {
 public:
  OutputJournal() = default;
  OutputJournal(const OutputJournal&) = delete;
  OutputJournal& operator=(const OutputJournal&) = delete;
  ~OutputJournal();

  // Reads what killed runs left in `output`'s journal (left_over); the first note() appends to
  // it. Only under the output lock.
  void open(const OutputTree& output);

  // (path, hash) of each output a killed run put in place, in the order noted: views into the
  // journal's text, valid while this object lives.
  const std::vector<std::pair<std::string_view, std::string_view>>& left_over() const {
    return left_over_;
  }

  // Notes outputs about to be put in place, one line each ("<hash> <path>"). Thread-safe. An
  // IoError (a full disk) means they must not be published.
  BakeStatus note(const std::vector<std::pair<std::string, std::string>>& outputs);

  // Removes the journal: call once the cache describing every noted output is saved. Nothing
  // more is noted after it.
  void clear();

 private:
  const OutputTree* output_ = nullptr;
  int fd_ = -1;
  bool torn_ = false;  // the text read ends inside a line (a kill mid-write): end it first
  std::mutex mutex_;
  std::string text_;
  std::vector<std::pair<std::string_view, std::string_view>> left_over_;
};

}  // namespace baker
