#pragma once
// The parallel pass anomalies tries first on a dump judged without tensor files: dump.json's
// entries cut into blocks of 1 MiB by byte offset, each block read and scanned by one thread,
// with no reader thread ahead of them. (dump/entry_workers.h's reader passes every byte by its
// brackets before a worker scans it again; here each byte is scanned once, and the reads run on
// every thread.)
//
// A block begins at its first entry key on a line of its own indented by two spaces
// ("\n  \"": json.dump(indent=1) puts every member of "data" there, and a raw newline is never
// inside a JSON string) and takes the entries that begin in it; the last one may run on into
// the next block. That guess is checked: blocks are taken in order, and each must begin exactly
// where the entries of the block before it, scanned from a checked start, left off; the first
// block begins at the first entry the header's parse (DumpJsonStream) found. So the entries are
// those of a sequential scan, or the pass gives up: a dump laid out otherwise, an entry that
// does not parse or is not an object or array, an escape or a non-ASCII byte in an entry's name,
// anything after "data" but the document's end. The caller then takes the entry-workers pass,
// whose messages are the reference.
//
// An entry whose text is clean (clean_entry.h) is only counted; any other is parsed and scanned
// (entry_scan.h).

#include <cstdint>

#include "anomalies/entry_scan.h"
#include "anomalies/origin_tracker.h"
#include "core/byte_source.h"

namespace msdump::anomalies {

inline constexpr std::uint64_t k_scan_block_bytes = 1 << 20;

// Adds the entries to `tracker` in file order; false when the pass gave up (the tracker is
// then to be dropped), and always when `options` names a tensor directory. `block_bytes`: for
// tests, which cut small dumps into many blocks.
bool scan_in_blocks(const ByteSource& source, const ScanOptions& options, int threads, OriginTracker& tracker,
                    std::uint64_t block_bytes = k_scan_block_bytes);

}  // namespace msdump::anomalies
