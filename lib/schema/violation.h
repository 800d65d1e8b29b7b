#pragma once
// Violation: one way a JSON value breaks a JSON Schema rule. Both locations are JSON Pointers
// (RFC 6901: "/" separated, "~" written "~0" and "/" written "~1"):
//   instance_pointer  where in the validated value: "/data/Functional.relu.0.forward/input_args/0/shape/1"
//   schema_pointer    which rule, inside the schema document: "/definitions/shape/items/minimum"
// and message says what is wrong in words: "-1 is less than the minimum 0".

#include <string>
#include <string_view>

namespace msdump::schema {

struct Violation {
  std::string instance_pointer;
  std::string schema_pointer;
  std::string message;
};

// Appends "/" and `token` escaped for a JSON Pointer ("a/b~c" -> "/a~1b~0c") to `pointer`.
void append_pointer_token(std::string& pointer, std::string_view token);

// Appends "/" and the decimal `index` (an array position) to `pointer`.
void append_pointer_index(std::string& pointer, std::size_t index);

}  // namespace msdump::schema
