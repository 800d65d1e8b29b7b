#pragma once
// Findings are data: one problem found in a dump, with where it is and what was expected.
// The verifier collects all of them (not only the first); reports render them (lib/report).

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace msdump::verify {

enum class Severity { error, warning, info };
std::string_view to_string(Severity s);  // "error" | "warning" | "info"

// The kinds of findings, one table (finding.cpp) for names and descriptions.
enum class FindingKind {
  json,        // the file is not valid (Python) JSON: syntax, truncation, trailing garbage
  schema,      // a JSON Schema rule (schemas/) is violated
  duplicate,   // a key appears twice in one object (entry names included)
  name,        // an entry name does not fit the grammar, level or framework
  data_name,   // data_name inconsistent with the entry name and the leaf's position
  dtype,       // dtype string invalid for the framework, or differs from the tensor file/golden
  shape,       // shape differs from the tensor file/golden
  statistic,   // Max/Min/Mean/Norm inconsistent with dtype/shape, the tensor, or the golden
  checksum,    // md5 (CRC-32 / XOR) inconsistent
  missing,     // expected but absent: an entry of the golden, a tensor file named by data_name
  extra,       // present but not expected: an entry not in the golden, an unreferenced file
  file,        // a file cannot be read, or escapes its directory
  value,       // a non-tensor value differs from the golden
  stack,       // stack.json inconsistent with dump.json
  construct,   // construct.json inconsistent with dump.json
  rank,        // a rank's entry names diverge from the other ranks of its step
  profile,     // the file mixes forms of two format generations (docs/format.md §16)
};
std::string_view to_string(FindingKind k);
std::optional<FindingKind> finding_kind_from_string(std::string_view s);
std::span<const FindingKind> all_finding_kinds();

struct Finding {
  Severity severity = Severity::error;
  FindingKind kind = FindingKind::schema;
  std::string entry;     // entry name in "data" ("" for file-level findings)
  std::string pointer;   // JSON Pointer into the file ("/data/<entry>/input_args/0/Max")
  std::string expected;  // what should be there (may be empty)
  std::string actual;    // what is there (may be empty)
  std::string message;   // one sentence
  std::string file;      // the file the finding is about
  std::uint64_t line = 0;  // 1-based line in `file` (0: unknown)
};

}  // namespace msdump::verify
