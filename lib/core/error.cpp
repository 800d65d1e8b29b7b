#include "core/error.h"

#include <utility>

namespace msdump {

Error Error::with_context(std::string_view context) const {
  Error e{code, std::string(context)};
  e.message += ": ";
  e.message += message;
  return e;
}

Error invalid_input(std::string message) { return Error{ErrorCode::invalid_input, std::move(message)}; }
Error unsupported(std::string message) { return Error{ErrorCode::unsupported, std::move(message)}; }
Error io_error(std::string message) { return Error{ErrorCode::io, std::move(message)}; }
Error internal_error(std::string message) { return Error{ErrorCode::internal, std::move(message)}; }

}  // namespace msdump
