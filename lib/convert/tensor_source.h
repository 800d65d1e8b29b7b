#pragma once
// Where a leaf's tensor bytes are: a capture leaf's "source" (docs/trace-format.md) or an
// msprobe dump leaf's "data_name" in dump_tensor_data/. Files are opened beneath the input
// directory without following any link inside it (core/beneath.h).

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/byte_source.h"
#include "core/result.h"
#include "pyjson/json_value.h"
#include "tensor/tensor.h"

namespace msdump::convert {

// What kind of input the leaves come from.
enum class InputKind { capture, msprobe_dump };

struct TensorSource {
  std::string path;            // the file, as messages name it ("<base>/<name>")
  std::string base;            // the directory it is opened beneath (core/beneath.h): the
                               // capture, or the dump holding dump_tensor_data/
  std::string name;            // its path relative to `base`, no link along it followed
  bool raw_allowed = false;    // captures: a file without .pt/.npy magic holds raw elements
  std::uint64_t offset = 0;    // raw blobs: byte offset of the tensor
  tensor::TensorInfo info;     // filled once opened
};

// A leaf's "shape" into `out` (its capacity reused); false when it is not a list of
// non-negative integers.
bool shape_from_value(const pyjson::Value* shape, tensor::Shape& out);

// The source of `leaf` into `out` (its strings' capacity reused: no allocation per leaf once
// warm); false when the leaf has no bytes ("source": null; an msprobe leaf without data_name).
// `dir` is the capture directory, or an msprobe dump's dump_tensor_data/. Fails on a malformed
// source or a path that leaves `dir`. out.info is left as it was.
Result<bool> locate_tensor_source(const pyjson::Value& leaf, InputKind kind, const std::string& dir,
                                  TensorSource& out);

struct OpenedTensor {
  std::shared_ptr<const FileSource> source;
  tensor::TensorInfo info;
};

// What opening a source gave: the tensor, or a problem that spoils only this leaf (a missing,
// unreadable or corrupt file: the entry is still written, with null statistics).
struct OpenOutcome {
  std::optional<OpenedTensor> opened;
  std::optional<Error> problem;
};

// Opens the file beneath its base (core/beneath.h) and reads its tensor header (.pt, .npy,
// else — captures only — raw bytes with the leaf's dtype and shape at `offset`). The Result
// fails (the input is invalid) when the name is a symbolic link or has one along it, or when the file's shape differs from the leaf's
// or its dtype is neither the leaf's nor float32 holding a bfloat16 / float8 leaf (msprobe's
// np.save path stores those as float32). Messages name the file and the disagreement.
Result<OpenOutcome> open_tensor_source(const TensorSource& src, DType leaf_dtype, const tensor::Shape& leaf_shape);

// Keeps the last files opened (validated, with their format known), so the leaves of a capture
// that share one blob open, resolve and probe it once instead of once per leaf (that was half
// of convert's time). Bounded: at most k_open_files descriptors stay open.
class TensorSourceCache {
 public:
  static constexpr std::size_t k_open_files = 32;
  // What open() gives: the file and where to read the elements (valid until the next open()),
  // or the problem that spoils the leaf.
  struct Opened {
    const FileSource* source = nullptr;
    const ByteSource* elements = nullptr;  // `source`, or an in-memory copy of a small raw blob
    std::optional<Error> problem;
  };
  // As open_tensor_source, reusing a file already opened and checked for `src.path`; the
  // tensor's header goes to src.info (in place: no allocation per leaf once warm).
  Result<Opened> open(TensorSource& src, DType leaf_dtype, const tensor::Shape& leaf_shape);

 private:
  // Raw blobs up to this size are read into memory once (at most k_memory_bytes in all).
  static constexpr std::uint64_t k_memory_file_bytes = std::uint64_t{8} << 20;
  static constexpr std::uint64_t k_memory_bytes = std::uint64_t{64} << 20;
  struct Entry {
    std::shared_ptr<const FileSource> file;
    bool known_format = true;  // has .pt / .npy magic (else: raw bytes)
    std::shared_ptr<const ByteSource> memory;  // raw blob's bytes (MemorySource over `bytes`)
    std::shared_ptr<std::vector<std::byte>> bytes;
  };
  std::unordered_map<std::string, Entry> m_files;
  std::uint64_t m_memory_bytes = 0;
  // The file of the previous call (leaves in a row mostly share one): no hashing of the path.
  const std::string* m_last_path = nullptr;
  const Entry* m_last = nullptr;
};

}  // namespace msdump::convert
