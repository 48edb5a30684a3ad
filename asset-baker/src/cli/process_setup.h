// The process made safe to run a command in, before any command runs: what the baker inherits
// (closed standard streams, signal dispositions, resource limits) must not decide what it writes.
#pragma once

namespace baker {

// Applies everything below. Call first thing in main().
void prepare_process();

// Standard streams that are closed (`<&- >&- 2>&-`) are opened on /dev/null. Otherwise the first
// files the baker opens take descriptors 0-2, and its messages land in them: a lock file, the
// journal, or another thread's output.
void open_closed_standard_streams();

// A write to a closed pipe (`asset-baker in -o out | head -1`) fails with EPIPE instead of killing
// the process between an output and its manifest.
void survive_broken_pipes();

// A write past the file size limit (ulimit -f) would kill the process (SIGXFSZ) with a temporary
// left behind and nothing said. Ignored, the write fails with EFBIG and is reported as a full disk
// is: that output fails, its previous version stays, the other sources still bake.
void fail_writes_past_size_limit();

// A source of many outputs (a glTF of 1100 materials) holds a folder descriptor per output until
// they are all published together; the usual soft limit of 1024 open files failed it. The soft
// limit is raised to the hard one.
void raise_open_file_limit();

// A bake allocates and frees the same large buffers (source text, vertex soups, index lists) file
// after file. glibc's defaults map each buffer over its adaptive threshold afresh, every page of
// it faulting in zeroed, and return the top of the heap to the kernel after each free: a tenth of
// an OBJ bake went to page faults. Blocks up to 32 MiB now come from the heap, and up to 64 MiB
// of free heap top is kept for the next file. Larger buffers (decoded images) are still mapped
// and unmapped. The cost is memory held between files: a full bake of the corpus at -j2 peaks
// about a tenth higher, well inside the bench's baker_rss budget (docs/benchmarks.md).
void reuse_freed_memory();

}  // namespace baker
