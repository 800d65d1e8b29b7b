#include "dump/leaf_walk.h"

namespace msdump::dump {

void append_pointer_token(std::string& pointer, std::string_view token) {
  pointer += '/';
  bool plain = true;
  for (const char c : token) plain &= c != '~' && c != '/';
  if (plain) {  // the usual token: one append
    pointer.append(token);
    return;
  }
  for (char c : token) {
    if (c == '~') pointer += "~0";
    else if (c == '/') pointer += "~1";
    else pointer += c;
  }
}

std::string leaf_pointer(const std::string& prefix, const std::string& section, const std::vector<std::string>& path) {
  std::string p = prefix;
  append_pointer_token(p, section);
  for (const auto& c : path) append_pointer_token(p, c);
  return p;
}

}  // namespace msdump::dump
