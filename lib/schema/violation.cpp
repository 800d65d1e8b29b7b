#include "schema/violation.h"

#include <charconv>

namespace msdump::schema {

void append_pointer_token(std::string& pointer, std::string_view token) {
  pointer.push_back('/');
  for (const char c : token) {
    if (c == '~') {
      pointer += "~0";
    } else if (c == '/') {
      pointer += "~1";
    } else {
      pointer.push_back(c);
    }
  }
}

void append_pointer_index(std::string& pointer, std::size_t index) {
  char buf[24];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, index);
  (void)ec;  // 24 digits always suffice for a size_t
  pointer.push_back('/');
  pointer.append(buf, end);
}

}  // namespace msdump::schema
