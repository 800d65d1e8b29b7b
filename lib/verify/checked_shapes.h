#pragma once
// CheckedShapes: verify's entries settled from their text when an entry of the same shape has
// been checked and found clean. Most entries of a dump repeat a few shapes (the same API or
// module called again, on tensors of other sizes and values), and what the schema and the
// structural entry checks find depends on the shape alone:
//
// - An entry's shape is its text with every number token cut out and replaced by the number's
//   class (schema::NumberClasses: kind, and position among the schema's numeric constants, 0
//   among them), prefixed with what the schema reads of the entry's name
//   (schema::MemberNameKey) and the name's kind (forward, backward, module, ...). Keys,
//   strings, literals (null, true, false, NaN, Infinity) and whitespace stay as they are.
// - The number tokens of ASCII text without backslashes are found by their bytes
//   (pyjson/number_tokens.h) and parsed, and the shape is built around them; no syntax check is
//   made. A shape learned before (an entry with that shape drew no finding at all) came from
//   valid text, and this text differs from it only in number tokens, each checked whole: so it
//   is valid too, and the entry is settled: its name is checked (check_entry_name) and each
//   tensor leaf's rules run on this entry's numbers (check_tensor_leaf); everything else would
//   find what it found before, nothing.
// - Otherwise the entry is parsed and checked whole, and learn() remembers its shape if the
//   checks found nothing: where each leaf's numbers are among the entry's number tokens (its
//   dtype and literal statistics are part of the shape).
//
// Shapes whose checks read more than the shape and the numbers that reach the leaf rules are
// never learned: leaves with data_name (compared with the entry name) or md5 (compared between
// leaves), and number tokens that read as an infinity (the tree cannot tell them from Infinity).
// Schemas the classes cannot account for turn the whole thing off (enabled() false).
//
// One per checking thread (it keeps scratch state); the shapes themselves are kept in a ShapeStore
// shared by the threads and files of one schema and context (shape_store.h), bounded.

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "pyjson/json_cursor.h"
#include "pyjson/json_value.h"
#include "pyjson/plain_scanner.h"  // (NumberText)
#include "pyjson/shape_writer.h"
#include "schema/compiled_schema.h"
#include "schema/verdict_inputs.h"
#include "verify/entry_checks.h"
#include "verify/finding_sink.h"
#include "verify/shape_store.h"

namespace msdump::verify {

class CheckedShapes {
 public:
  // Entries longer than this are checked whole (the shape buffer holds twice an entry's text;
  // long entries are rare and seldom repeat).
  static constexpr std::size_t k_max_entry_bytes = 256u << 10;

  // Learns into and settles from `store`: by default the process's store for this schema and
  // context (ShapeStore::shared), so the files of a tree share what they learn.
  CheckedShapes(std::shared_ptr<const schema::CompiledSchema> schema, std::shared_ptr<const EntryContext> ctx,
                std::shared_ptr<ShapeStore> store = nullptr);
  bool enabled() const { return m_classes != nullptr && m_name_key != nullptr; }

  // What a settled entry adds to verify's counts.
  struct Settled {
    std::uint64_t leaves = 0;
    std::uint32_t signals = 0;
    bool has_input_args = false;
  };

  // Entry `name` (JSON Pointer `pointer`) from its text: when its shape is known, runs the
  // name's and the leaves' checks into `sink` and returns what it counted; nullopt (nothing
  // added to `sink`) when the entry must be checked whole, its shape then kept for learn().
  std::optional<Settled> check_text(const std::string& name, std::string_view text, const std::string& pointer,
                                    FindingSink& sink);

  // After the whole checks of the entry check_text has just read: `clean` when they found
  // nothing and the entry repeats no key. Learns the entry's shape from its tree then. Any other
  // entry (one check_text did not read) is ignored.
  void learn(const std::string& name, const pyjson::Value& entry, bool clean);

  std::size_t shapes() const { return m_store ? m_store->size() : 0; }

 private:
  bool read_shape(const std::string& name, const dump::EntryName& parsed, std::string_view text);
  bool on_number(const pyjson::NumberText& n);
  std::optional<ShapePlan> plan_of(const pyjson::Value& entry, const dump::EntryName& parsed) const;
  Settled run(const ShapePlan& plan, const std::string& name, const dump::EntryName& parsed, const std::string& pointer,
              FindingSink& sink) const;

  std::shared_ptr<const schema::CompiledSchema> m_schema;
  std::shared_ptr<const EntryContext> m_ctx;
  // What the schema reads of names and numbers: made once per schema and process (building the
  // name automaton per file and thread cost ~1.5 ms, which a tree of small dumps pays per dump).
  struct SchemaInputs {
    std::optional<schema::MemberNameKey> name_key;
    std::optional<schema::NumberClasses> classes;
  };
  static std::shared_ptr<const SchemaInputs> inputs_of(const std::shared_ptr<const schema::CompiledSchema>& schema);
  std::shared_ptr<const SchemaInputs> m_inputs;
  const schema::MemberNameKey* m_name_key = nullptr;
  const schema::NumberClasses* m_classes = nullptr;
  std::shared_ptr<ShapeStore> m_store;

  // The entry being read: its shape (in m_shape_buffer, which only grows) and numbers.
  std::string m_shape_buffer;
  pyjson::ShapeWriter m_writer;
  std::string_view m_shape;
  std::string_view shape() const { return m_shape; }
  std::vector<pyjson::Value> m_numbers;  // the first m_count are the entry's
  std::size_t m_count = 0;
  pyjson::JsonCursor m_cursor;  // floats and long integers
  bool m_pending = false;       // m_shape is the unknown shape of the entry check_text last read
};

}  // namespace msdump::verify
