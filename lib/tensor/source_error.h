#pragma once
// Prefixes a reader's error with the source name ("'x.pt': ..."). I/O errors from a FileSource
// already name the file and pass through unchanged.

#include "core/byte_source.h"
#include "core/error.h"

namespace msdump::tensor {

inline Error source_error(const ByteSource& src, const Error& e) {
  if (e.code == ErrorCode::io) return e;
  return e.with_context("'" + src.name() + "'");
}

}  // namespace msdump::tensor
