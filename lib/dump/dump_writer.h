#pragma once
// DumpWriter: streams a dump.json to disk entry by entry, byte-identical to msprobe's
// json.dump(indent=1) of {"task", "level", "framework", "dump_data_dir", "data"}
// (docs/format.md §2, §9). The file appears atomically on finish(); a writer destroyed before
// finish() leaves nothing behind.

#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "core/atomic_file.h"
#include "core/profile.h"
#include "core/result.h"

namespace msdump::pyjson { class Value; class JsonWriter; }

namespace msdump::dump {

struct DumpHeader {
  std::string task;       // "statistics", "tensor", "structure", ...
  std::string level;      // "L0", "L1", "mix"
  std::string framework;  // "pytorch", "mindspore", "mindtorch"
  std::optional<std::string> dump_data_dir;  // null when no tensor files
};

class DumpWriter {
 public:
  static Result<std::unique_ptr<DumpWriter>> create(const std::string& path, const DumpHeader& header,
                                                    Overwrite overwrite);
  ~DumpWriter();
  DumpWriter(const DumpWriter&) = delete;
  DumpWriter& operator=(const DumpWriter&) = delete;

  // Appends one entry of "data".
  void write_entry(const std::string& name, const pyjson::Value& entry);
  // Appends `count` entries formatted elsewhere: `items` is what a JsonWriter wrote for them as
  // the first members of an object at depth 2 (see EntryFormatter).
  void write_raw_entries(std::string_view items, std::size_t count);
  std::size_t entry_count() const { return m_entries; }
  std::size_t bytes_written() const;
  // Closes the document and publishes the file.
  Result<void> finish();

 private:
  DumpWriter() = default;
  std::unique_ptr<AtomicFile> m_file;
  std::unique_ptr<pyjson::JsonWriter> m_json;
  std::size_t m_entries = 0;
};

// Formats entries into a string, exactly as DumpWriter::write_entry would write them, so that
// entries can be formatted on other threads and handed to DumpWriter::write_raw_entries.
class EntryFormatter {
 public:
  EntryFormatter();
  ~EntryFormatter();
  // Starts a new batch (drops the previous one).
  void reset();
  void write_entry(const std::string& name, const pyjson::Value& entry);
  // Starts entry `name` and returns the writer, on which the caller writes exactly one value
  // (the entry) before the next call.
  pyjson::JsonWriter& begin_entry(std::string_view name);
  std::size_t count() const { return m_count; }
  // Ends the batch: the formatted entries (empty if none; valid until reset()), or the
  // writer's error (invalid UTF-8).
  Result<std::string_view> finish();

 private:
  // Batches up to this size stay in the writer's buffer (no copy into m_text).
  static constexpr std::size_t k_buffer_bytes = std::size_t{1} << 20;
  std::string m_text;
  std::unique_ptr<pyjson::JsonWriter> m_json;
  std::size_t m_prefix = 0;
  std::size_t m_count = 0;
};

// Writes a whole small JSON document (stack.json, construct.json) atomically, using `emit`.
template <typename Emit>
Result<void> write_json_file(const std::string& path, Overwrite overwrite, Emit emit);

Result<void> write_json_file_impl(const std::string& path, Overwrite overwrite,
                                  const std::function<void(pyjson::JsonWriter&)>& emit);

// Formats a whole small JSON document into a temporary file beside `path`; the caller commits
// it (publishing it at `path`) or drops it by destroying it. write_json_file = this + commit.
Result<std::unique_ptr<AtomicFile>> format_json_file(const std::string& path, Overwrite overwrite,
                                                     const std::function<void(pyjson::JsonWriter&)>& emit);

template <typename Emit>
Result<void> write_json_file(const std::string& path, Overwrite overwrite, Emit emit) {
  return write_json_file_impl(path, overwrite, std::function<void(pyjson::JsonWriter&)>(emit));
}

}  // namespace msdump::dump
