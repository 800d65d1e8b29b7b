#pragma once
// TextShape: a JSON text with its number tokens cut out, kept so that another text can be
// recognised as one of the same shape by comparing bytes, with no syntax scan.
//
// The shape is the runs of bytes between the number tokens (the last run after the last token)
// and the '\n' bytes they hold. When the text it was made of is valid JSON and its tokens are the
// number tokens a JSON scan finds there, a text that has the same runs, each followed by a whole
// number token (pyjson/number_tokens.h: the grammar's token, not followed by a byte that would
// continue it), is valid JSON too: only number tokens differ, at the same places in the same
// structure. Callers add what else their plan depends on in a check of each token (compare: its
// kind, integer or float; anomalies: its magnitude).
//
// Users: compare's pass 1 and 2 (compare/row_shapes.h), anomalies' clean entries
// (anomalies/clean_shapes.h).

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pyjson/container_skip.h"  // (Newlines)
#include "pyjson/number_tokens.h"

namespace msdump::pyjson {

struct TextShape {
  std::string runs;                     // the bytes between the tokens, run after run
  std::vector<std::uint32_t> run_ends;  // per token, where the run before it ends in `runs`
  std::size_t newlines = 0;             // '\n' bytes in `runs`
  std::uint32_t last_newline = 0;       // offset in `runs` of the last one (when newlines > 0)

  // The shape of `text` whose number tokens are `tokens` ([begin, end) offsets, in text order).
  static TextShape of(std::string_view text, const std::vector<std::pair<std::uint32_t, std::uint32_t>>& tokens) {
    TextShape s;
    std::uint32_t at = 0;
    s.run_ends.reserve(tokens.size());
    for (const auto& [begin, end] : tokens) {
      s.runs.append(text.substr(at, begin - at));
      s.run_ends.push_back(static_cast<std::uint32_t>(s.runs.size()));
      at = end;
    }
    s.runs.append(text.substr(at));
    for (std::size_t i = 0; i < s.runs.size(); ++i)
      if (s.runs[i] == '\n') {
        ++s.newlines;
        s.last_newline = static_cast<std::uint32_t>(i);
      }
    return s;
  }

  std::size_t bytes() const { return runs.capacity() + run_ends.capacity() * sizeof(std::uint32_t); }

  // The end of the text at p when it has this shape and token(i, n) accepts each of its number
  // tokens (i counts from 0); then `seen` are the '\n' bytes in it. Else nullptr. Reads
  // nothing at or past `end`.
  template <class Token>
  const char* match(const char* p, const char* end, Newlines& seen, Token&& token) const {
    const char* last = nullptr;
    // The run [from, to) of `runs`, at p.
    const auto run = [&](std::uint32_t from, std::uint32_t to) {
      const std::size_t n = to - from;
      if (static_cast<std::size_t>(end - p) < n || std::memcmp(p, runs.data() + from, n) != 0) return false;
      if (newlines != 0 && last_newline >= from && last_newline < to) last = p + (last_newline - from);
      p += n;
      return true;
    };
    std::uint32_t at = 0;
    for (std::size_t i = 0; i < run_ends.size(); ++i) {
      if (!run(at, run_ends[i])) return nullptr;
      at = run_ends[i];
      NumberText n;
      const char* const token_end = detail::whole_number_token(p, end, n);
      if (token_end == nullptr || !token(i, n)) return nullptr;
      p = token_end;
    }
    if (!run(at, static_cast<std::uint32_t>(runs.size()))) return nullptr;
    seen.count = newlines;
    seen.last = last;
    return p;
  }

  // f(i, n) for each number token of a text known to have this shape (its runs are passed over
  // by their lengths, not compared); false when a token is not whole (then not that text).
  template <class Token>
  bool tokens_of(std::string_view text, Token&& f) const {
    const char* p = text.data();
    const char* const end = p + text.size();
    std::uint32_t at = 0;
    for (std::size_t i = 0; i < run_ends.size(); ++i) {
      const std::uint32_t n = run_ends[i] - at;
      at = run_ends[i];
      if (static_cast<std::size_t>(end - p) < n) return false;
      p += n;
      NumberText t;
      const char* const token_end = detail::whole_number_token(p, end, t);
      if (token_end == nullptr) return false;
      f(i, t);
      p = token_end;
    }
    return true;
  }
};

// `name` with each run of digits replaced by one '#', into `out`: the names of calls that differ
// only in their counters (and layer numbers) share it, and with it, mostly, their shapes.
inline void digit_runs_as_hash(std::string_view name, std::string& out) {
  out.resize(name.size());  // (written through a pointer: appending a byte at a time cost 3x)
  char* o = out.data();
  bool in_digits = false;
  for (const char c : name) {
    const bool digit = c >= '0' && c <= '9';
    if (!digit) *o++ = c;
    else if (!in_digits) *o++ = '#';
    in_digits = digit;
  }
  out.resize(static_cast<std::size_t>(o - out.data()));
}

}  // namespace msdump::pyjson
