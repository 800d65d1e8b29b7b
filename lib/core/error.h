#pragma once
// The one error type of msdump. Errors are values: every lib function that can fail on input
// returns Result<T> (core/result.h) holding either a value or an Error. Context is prepended
// layer by layer, so a message reads like
//   reading 'w.npy': tensor 'layer1.weight': shape [2,3] float32 needs 24 bytes, file has 20

#include <string>
#include <string_view>

namespace msdump {

enum class ErrorCode {
  invalid_input,  // the input is malformed or inconsistent (exit code 2)
  unsupported,    // well-formed but outside what msdump handles (exit code 2)
  io,             // a file could not be opened, read or written (exit code 2)
  exists,         // an output exists and --force was not given (exit code 2)
  internal,       // a bug or an impossible state (exit code 3)
};

struct Error {
  ErrorCode code = ErrorCode::invalid_input;
  std::string message;

  // Returns a copy whose message is "<context>: <message>".
  [[nodiscard]] Error with_context(std::string_view context) const;
};

// Shorthands for the common codes.
Error invalid_input(std::string message);
Error unsupported(std::string message);
Error io_error(std::string message);
Error internal_error(std::string message);

}  // namespace msdump
