#pragma once
// Writes one section of an entry from its JSON text, without building a pyjson::Value: the
// text-to-text form of "parse, walk_leaves, JsonWriter::write". Containers, value leaves,
// strings and numbers go straight from the text to the writer (numbers re-rendered where the
// parser would read them differently than they are written: "-0", floats); each tensor leaf
// (what classify_leaf calls tensor or ndarray) is handed to the caller, who writes it.
//
// The text must be a value that trace::scan_data_line accepted: valid JSON syntax, strings of
// plain printable ASCII without escapes. Under that condition the bytes written are those of
// `w.write(v)` for the Value `v` that pyjson::parse_json(text) gives after walk_leaves has
// replaced every tensor leaf by what `tensor_leaf` writes, and the leaves are visited in the
// same order with the same paths.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"
#include "dump/tensor_leaf.h"
#include "pyjson/json_cursor.h"
#include "pyjson/json_value.h"

namespace msdump::pyjson { class JsonWriter; }

namespace msdump::dump {

class SectionText {
 public:
  // Writes exactly one value to the writer for the tensor leaf `leaf` (the object's text) of
  // kind tensor or ndarray at `path` (the components walk_leaves gives).
  using TensorLeaf = std::function<Result<void>(std::string_view leaf, LeafKind kind, const std::vector<std::string>& path)>;

  // Writes `text` to `w`; stops at the first failure of `tensor_leaf` and returns it.
  Result<void> write(std::string_view text, pyjson::JsonWriter& w, const TensorLeaf& tensor_leaf);

 private:
  struct Member {
    std::string_view key;
    const char* value;
  };
  const char* walk(const char* p, std::size_t depth, bool leaves);
  const char* object(const char* p, std::size_t depth, bool leaves);
  const char* array(const char* p, std::size_t depth, bool leaves);
  const char* number(const char* p);

  pyjson::JsonWriter* m_w = nullptr;
  const TensorLeaf* m_tensor_leaf = nullptr;
  const char* m_end = nullptr;
  std::vector<std::string> m_path;
  std::vector<std::vector<Member>> m_members;  // per depth, reused
  std::optional<Error> m_error;
  pyjson::JsonCursor m_cursor;  // for floats (its buffers reused)
  pyjson::Value m_number;
};

}  // namespace msdump::dump
