#include "dump/dump_writer.h"

#include "pyjson/json_value.h"
#include "pyjson/json_writer.h"

namespace msdump::dump {

DumpWriter::~DumpWriter() = default;

Result<std::unique_ptr<DumpWriter>> DumpWriter::create(const std::string& path, const DumpHeader& header,
                                                       Overwrite overwrite) {
  auto file = AtomicFile::create(path, overwrite);
  if (!file) return file.error();
  std::unique_ptr<DumpWriter> w(new DumpWriter());
  w->m_file = std::move(*file);
  AtomicFile* f = w->m_file.get();
  w->m_json = std::make_unique<pyjson::JsonWriter>([f](std::string_view bytes) { f->write(bytes); });
  auto& j = *w->m_json;
  j.begin_object();
  j.key("task");
  j.value(header.task);
  j.key("level");
  j.value(header.level);
  j.key("framework");
  j.value(header.framework);
  j.key("dump_data_dir");
  if (header.dump_data_dir) j.value(*header.dump_data_dir);
  else j.null();
  j.key("data");
  j.begin_object();
  return w;
}

void DumpWriter::write_entry(const std::string& name, const pyjson::Value& entry) {
  m_json->key(name);
  m_json->write(entry);
  ++m_entries;
}

void DumpWriter::write_raw_entries(std::string_view items, std::size_t count) {
  m_json->raw_items(items);
  m_entries += count;
}

EntryFormatter::EntryFormatter() { reset(); }
EntryFormatter::~EntryFormatter() = default;

void EntryFormatter::reset() {
  m_text.clear();
  m_count = 0;
  // One writer (and its buffer) for all batches: a fresh 256 KiB buffer per batch cost a
  // zero-fill and page faults each time.
  if (m_json) m_json->reset();
  else m_json = std::make_unique<pyjson::JsonWriter>(m_text, k_buffer_bytes);
  m_json->begin_object();
  m_json->key("data");
  m_json->begin_object();
  m_prefix = m_json->buffered().size();
}

void EntryFormatter::write_entry(const std::string& name, const pyjson::Value& entry) {
  m_json->key(name);
  m_json->write(entry);
  ++m_count;
}

pyjson::JsonWriter& EntryFormatter::begin_entry(std::string_view name) {
  m_json->key(name);
  ++m_count;
  return *m_json;
}

Result<std::string_view> EntryFormatter::finish() {
  if (m_json->error()) return *m_json->error();
  if (m_count == 0) return std::string_view{};
  // A batch that fit in the writer's buffer is read from there; a larger one spilled its start
  // into m_text, and the rest follows it.
  if (m_text.empty()) return m_json->buffered().substr(m_prefix);
  m_json->flush();
  return std::string_view(m_text).substr(m_prefix);
}

std::size_t DumpWriter::bytes_written() const { return m_file->bytes_written(); }

Result<void> DumpWriter::finish() {
  m_json->end_object();
  m_json->end_object();
  if (auto r = m_json->finish(); !r) return r.error().with_context(m_file->path());
  return m_file->commit();
}

Result<std::unique_ptr<AtomicFile>> format_json_file(const std::string& path, Overwrite overwrite,
                                                     const std::function<void(pyjson::JsonWriter&)>& emit) {
  auto file = AtomicFile::create(path, overwrite);
  if (!file) return file.error();
  AtomicFile* f = file->get();
  pyjson::JsonWriter w([f](std::string_view bytes) { f->write(bytes); });
  emit(w);
  if (auto r = w.finish(); !r) return r.error().with_context(path);
  return std::move(*file);
}

Result<void> write_json_file_impl(const std::string& path, Overwrite overwrite,
                                  const std::function<void(pyjson::JsonWriter&)>& emit) {
  auto file = format_json_file(path, overwrite, emit);
  if (!file) return file.error();
  return (*file)->commit();
}

}  // namespace msdump::dump
