#pragma once
// LeafConverter: rebuilds the leaves of one entry the way msprobe would have written them:
// tensor leaves get statistics (from their source file), msprobe's key order for the
// framework, data_name and a file in dump_tensor_data/ for task tensor; value leaves pass
// through. Tensors of entries that are filtered out are never read: only entries that reach
// the writer go through here.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "convert/convert.h"
#include "convert/tensor_source.h"
#include "core/profile.h"
#include "pyjson/json_value.h"
#include "stats/leaf_stats.h"

namespace msdump::pyjson { class JsonWriter; }

namespace msdump::convert {

// What a leaf is read from and written as: decided once per input (the Plan is one) and all a
// leaf needs of that decision.
struct LeafForm {
  InputKind input_kind = InputKind::capture;
  Framework framework = Framework::pytorch;
  Profile profile = Profile::current;
  Task task = Task::statistics;
  SummaryMode summary_mode = SummaryMode::statistics;
};

struct LeafContext : LeafForm {
  Precision precision = Precision::low;
  std::string source_dir;   // capture: the trace's directory; dump: its dump_tensor_data/
  std::string tensor_out;   // OUT/dump_tensor_data (task tensor)
  std::string input_file;   // trace.jsonl or dump.json, for problem reports
  Overwrite overwrite = Overwrite::no;
  int threads = 1;
};

class LeafConverter {
 public:
  explicit LeafConverter(LeafContext context) : m_ctx(std::move(context)) {}

  // Rewrites every leaf of `section` (a section value of entry `entry`) in place. `line` is
  // where the section came from. A leaf whose tensor is missing, unreadable or corrupt is
  // written with null statistics and reported in `problems`; a malformed leaf (bad dtype or
  // shape, a source outside the input, a file whose dtype/shape contradicts the leaf) fails
  // the whole conversion: the error's message starts with the leaf's JSON pointer.
  Result<void> convert_section(const std::string& entry, const std::string& section, bool is_parameters_grad,
                               pyjson::Value& value, std::uint64_t line, std::vector<Problem>& problems);
  // Writes to `w` what convert_section makes of one tensor leaf (dump::LeafKind tensor, or
  // ndarray) at `path` below `section` (the components dump::walk_leaves gives): the same bytes,
  // problems and errors, without building the new leaf.
  Result<void> write_leaf(const std::string& entry, const std::string& section, bool is_parameters_grad,
                          const std::vector<std::string>& path, const pyjson::Value& leaf, bool ndarray,
                          std::uint64_t line, std::vector<Problem>& problems, pyjson::JsonWriter& w);

  std::uint64_t tensors() const { return m_tensors; }
  std::uint64_t tensor_files() const { return m_tensor_files; }
  std::uint64_t bytes_read() const { return m_bytes_read; }

 private:
  struct Where {
    const std::string& entry;
    const std::string& section;
    bool is_parameters_grad;
    const std::vector<std::string>& path;
    std::uint64_t line;
    std::vector<Problem>& problems;
  };
  Result<void> walk(pyjson::Value& v, std::vector<std::string>& path, Where& where);
  // What a tensor leaf says and what its bytes give (steps 1 and 2 of the conversion); the
  // pointers are into the leaf.
  // One Converted is reused from leaf to leaf (its strings and vectors keep their capacity).
  struct Converted {
    const pyjson::Value* dtype_v = nullptr;
    const pyjson::Value* shape_v = nullptr;
    const pyjson::Value* rg = nullptr;
    std::optional<stats::LeafStats> st;
    TensorSource src;      // meaningful when has_src
    const FileSource* file = nullptr;  // src's open file when has_src (valid for this leaf)
    bool has_src = false;  // the leaf's bytes were read (src.info describes them)
    tensor::Shape shape;   // the leaf's shape
    bool keep_input_stats = false;
  };
  Result<void> convert_tensor(const pyjson::Value& leaf, Where& where, bool ndarray, Converted& c);
  // The new leaf, member by member, into `out` (a Value or a JsonWriter; steps 3 and 4).
  template <typename Out>
  Result<void> make_leaf(const pyjson::Value& leaf, Where& where, bool ndarray, const Converted& c, Out& out);
  std::string pointer(const Where& where) const;
  void problem(Where& where, const std::string& message);
  Error fatal(const Where& where, const std::string& message) const;
  stats::StatsOptions stats_options(DType reported) const;
  // Puts the tensor into dump_tensor_data/: a link or copy when the source file already has the
  // framework's format, else a .pt / .npy written from the loaded tensor.
  Result<void> write_tensor_file(const TensorSource& src, const FileSource& file, const std::string& dest);

  LeafContext m_ctx;
  stats::ReadBuffer m_buffer;
  TensorSourceCache m_sources;
  Converted m_converted;  // convert_tensor's output, reused
  std::uint64_t m_tensors = 0;
  std::uint64_t m_tensor_files = 0;
  std::uint64_t m_bytes_read = 0;
};

}  // namespace msdump::convert
