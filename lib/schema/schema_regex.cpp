#include "schema/schema_regex.h"

#include <algorithm>
#include <array>
#include <bit>
#include <bitset>
#include <map>
#include <utility>

#include "schema/state_numbers.h"

namespace msdump::schema {
namespace {

using ByteSet = std::bitset<256>;

constexpr std::size_t k_max_states = 4096;

// Parse tree of a pattern.
struct Ast {
  enum class Kind { bytes, caret, dollar, concat, alternation, repeat };
  Kind kind = Kind::concat;
  ByteSet set;  // Kind::bytes
  std::vector<Ast> kids;
  int min = 0;
  int max = -1;  // Kind::repeat; -1 = unbounded
};

// The byte of a one-byte set, or -1.
int only_byte(const ByteSet& s) {
  if (s.count() != 1) return -1;
  for (int b = 0; b < 256; ++b) {
    if (s.test(static_cast<std::size_t>(b))) return b;
  }
  return -1;
}

ByteSet range(unsigned char lo, unsigned char hi) {
  ByteSet s;
  for (unsigned c = lo; c <= hi; ++c) s.set(c);
  return s;
}
ByteSet digit_set() { return range('0', '9'); }
ByteSet word_set() { return range('a', 'z') | range('A', 'Z') | digit_set() | range('_', '_'); }
ByteSet space_set() {
  ByteSet s;
  for (const char c : std::string_view(" \t\n\r\f\v")) s.set(static_cast<unsigned char>(c));
  return s;
}

class Parser {
 public:
  explicit Parser(std::string_view p) : m_p(p) {}

  Result<Ast> parse() {
    Ast ast = alternation();
    if (!m_error.empty()) return fail();
    if (m_i != m_p.size()) {
      m_error = "unbalanced ')'";
      return fail();
    }
    return ast;
  }

 private:
  Error fail() const {
    return unsupported("pattern '" + std::string(m_p) + "': " + m_error + " (offset " + std::to_string(m_i) + ")");
  }
  bool at_end() const { return m_i >= m_p.size(); }
  char peek() const { return m_p[m_i]; }

  Ast alternation() {
    Ast alt;
    alt.kind = Ast::Kind::alternation;
    alt.kids.push_back(concatenation());
    while (m_error.empty() && !at_end() && peek() == '|') {
      ++m_i;
      alt.kids.push_back(concatenation());
    }
    return alt.kids.size() == 1 ? std::move(alt.kids[0]) : alt;
  }

  Ast concatenation() {
    Ast cat;
    cat.kind = Ast::Kind::concat;
    while (m_error.empty() && !at_end() && peek() != '|' && peek() != ')') cat.kids.push_back(repetition());
    return cat;
  }

  Ast repetition() {
    Ast atom_ast = atom();
    while (m_error.empty() && !at_end()) {
      int min = 0;
      int max = -1;
      const char c = peek();
      if (c == '*') {
        ++m_i;
      } else if (c == '+') {
        min = 1;
        ++m_i;
      } else if (c == '?') {
        max = 1;
        ++m_i;
      } else if (c == '{' && braces(min, max)) {
      } else {
        break;
      }
      if (!at_end() && peek() == '?') ++m_i;  // lazy: same set of matching strings
      if (atom_ast.kind == Ast::Kind::caret || atom_ast.kind == Ast::Kind::dollar) {
        m_error = "quantifier after an anchor";
        break;
      }
      Ast rep;
      rep.kind = Ast::Kind::repeat;
      rep.min = min;
      rep.max = max;
      rep.kids.push_back(std::move(atom_ast));
      atom_ast = std::move(rep);
    }
    return atom_ast;
  }

  // {n}, {n,}, {n,m}; returns false (consuming nothing) when '{' does not start a quantifier.
  bool braces(int& min, int& max) {
    std::size_t j = m_i + 1;
    auto number = [&](int& out) {
      const std::size_t start = j;
      long v = 0;
      while (j < m_p.size() && m_p[j] >= '0' && m_p[j] <= '9' && v < 100000) v = v * 10 + (m_p[j++] - '0');
      out = static_cast<int>(v);
      return j > start;
    };
    if (!number(min)) return false;
    max = min;
    if (j < m_p.size() && m_p[j] == ',') {
      ++j;
      max = -1;
      if (j < m_p.size() && m_p[j] != '}' && !number(max)) return false;
    }
    if (j >= m_p.size() || m_p[j] != '}') return false;
    if (max != -1 && max < min) {
      m_error = "numbers out of order in {} quantifier";
      return false;
    }
    if (min > 1000 || max > 1000) {
      m_error = "repetition count above 1000";
      return false;
    }
    m_i = j + 1;
    return true;
  }

  Ast bytes(ByteSet s) {
    Ast a;
    a.kind = Ast::Kind::bytes;
    a.set = s;
    return a;
  }

  Ast atom() {
    const char c = peek();
    switch (c) {
      case '(': {
        ++m_i;
        if (!at_end() && peek() == '?') {
          if (m_i + 1 < m_p.size() && m_p[m_i + 1] == ':') {
            m_i += 2;
          } else {
            m_error = "lookaround and named groups are not supported";
            return {};
          }
        }
        Ast inner = alternation();
        if (!m_error.empty()) return inner;
        if (at_end() || peek() != ')') {
          m_error = "missing ')'";
          return inner;
        }
        ++m_i;
        return inner;
      }
      case '[':
        return char_class();
      case '.': {
        ++m_i;
        ByteSet s;
        s.set();
        s.reset('\n');
        s.reset('\r');
        return bytes(s);
      }
      case '^':
      case '$': {
        ++m_i;
        Ast a;
        a.kind = c == '^' ? Ast::Kind::caret : Ast::Kind::dollar;
        return a;
      }
      case '*':
      case '+':
      case '?':
        m_error = "nothing to repeat";
        return {};
      case '\\': {
        ++m_i;
        ByteSet s;
        if (escape(s)) return bytes(s);
        return {};
      }
      default:
        ++m_i;
        return bytes(ByteSet().set(static_cast<unsigned char>(c)));
    }
  }

  // After a backslash: fills `out` with the bytes the escape stands for.
  bool escape(ByteSet& out) {
    if (at_end()) {
      m_error = "pattern ends with '\\'";
      return false;
    }
    const char c = m_p[m_i++];
    switch (c) {
      case 'd': out = digit_set(); return true;
      case 'D': out = ~digit_set(); return true;
      case 'w': out = word_set(); return true;
      case 'W': out = ~word_set(); return true;
      case 's': out = space_set(); return true;
      case 'S': out = ~space_set(); return true;
      case 'n': out.set('\n'); return true;
      case 'r': out.set('\r'); return true;
      case 't': out.set('\t'); return true;
      case 'f': out.set('\f'); return true;
      case 'v': out.set('\v'); return true;
      default:
        break;
    }
    const auto u = static_cast<unsigned char>(c);
    if ((u >= 'a' && u <= 'z') || (u >= 'A' && u <= 'Z') || (u >= '0' && u <= '9') || u >= 0x80) {
      --m_i;
      m_error = std::string("escape '\\") + c + "' is not supported";
      return false;
    }
    out.set(u);  // escaped punctuation stands for itself
    return true;
  }

  Ast char_class() {
    ++m_i;  // '['
    bool negate = false;
    if (!at_end() && peek() == '^') {
      negate = true;
      ++m_i;
    }
    ByteSet s;
    bool first = true;
    while (true) {
      if (at_end()) {
        m_error = "missing ']'";
        return {};
      }
      if (peek() == ']' && !first) break;
      first = false;
      ByteSet item;
      int lo = -1;
      if (peek() == '\\') {
        ++m_i;
        if (!escape(item)) return {};
        lo = only_byte(item);
      } else {
        lo = static_cast<unsigned char>(m_p[m_i++]);
        item.set(static_cast<std::size_t>(lo));
      }
      if (lo >= 0 && m_i + 1 < m_p.size() && peek() == '-' && m_p[m_i + 1] != ']') {
        ++m_i;
        int hi = -1;
        if (peek() == '\\') {
          ++m_i;
          ByteSet h;
          if (!escape(h)) return {};
          hi = only_byte(h);
        } else {
          hi = static_cast<unsigned char>(m_p[m_i++]);
        }
        if (hi < lo) {
          m_error = "range out of order in character class";
          return {};
        }
        item = range(static_cast<unsigned char>(lo), static_cast<unsigned char>(hi));
      }
      s |= item;
    }
    ++m_i;  // ']'
    return bytes(negate ? ~s : s);
  }

  std::string_view m_p;
  std::size_t m_i = 0;
  std::string m_error;
};

// Thompson NFA: a node moves to `trans[i].second` on a byte in `trans[i].first`, and to its
// epsilon successors; caret edges are followed only at the start of the text, dollar edges
// only at its end.
struct Nfa {
  struct Node {
    std::vector<std::pair<ByteSet, int>> trans;
    std::vector<int> eps;
    std::vector<int> caret;
    std::vector<int> dollar;
  };
  std::vector<Node> nodes;
  int accept = -1;

  int add() {
    nodes.emplace_back();
    return static_cast<int>(nodes.size()) - 1;
  }

  // Adds states so that `from` reaches the returned state by matching `a`.
  int emit(const Ast& a, int from) {
    switch (a.kind) {
      case Ast::Kind::bytes: {
        const int t = add();
        nodes[from].trans.emplace_back(a.set, t);
        return t;
      }
      case Ast::Kind::caret:
      case Ast::Kind::dollar: {
        const int t = add();
        (a.kind == Ast::Kind::caret ? nodes[from].caret : nodes[from].dollar).push_back(t);
        return t;
      }
      case Ast::Kind::concat: {
        int cur = from;
        for (const Ast& k : a.kids) cur = emit(k, cur);
        return cur;
      }
      case Ast::Kind::alternation: {
        const int t = add();
        for (const Ast& k : a.kids) {
          const int start = add();
          nodes[from].eps.push_back(start);
          nodes[emit(k, start)].eps.push_back(t);
        }
        return t;
      }
      case Ast::Kind::repeat: {
        int cur = from;
        for (int i = 0; i < a.min; ++i) cur = emit(a.kids[0], cur);
        if (a.max < 0) {
          const int loop = add();
          nodes[cur].eps.push_back(loop);
          nodes[emit(a.kids[0], loop)].eps.push_back(loop);
          return loop;
        }
        for (int i = a.min; i < a.max; ++i) {
          const int t = add();
          nodes[cur].eps.push_back(t);
          const int start = add();
          nodes[cur].eps.push_back(start);
          nodes[emit(a.kids[0], start)].eps.push_back(t);
          cur = t;
        }
        return cur;
      }
    }
    return from;
  }

  // Epsilon closure of `set` (sorted, unique), following caret / dollar edges when allowed.
  std::vector<int> closure(std::vector<int> set, bool at_start, bool at_end) const {
    std::vector<char> seen(nodes.size(), 0);
    std::vector<int> stack = set;
    for (const int s : set) seen[static_cast<std::size_t>(s)] = 1;
    auto push = [&](int t) {
      if (!seen[static_cast<std::size_t>(t)]) {
        seen[static_cast<std::size_t>(t)] = 1;
        set.push_back(t);
        stack.push_back(t);
      }
    };
    while (!stack.empty()) {
      const int s = stack.back();
      stack.pop_back();
      const Node& n = nodes[static_cast<std::size_t>(s)];
      for (const int t : n.eps) push(t);
      if (at_start) for (const int t : n.caret) push(t);
      if (at_end) for (const int t : n.dollar) push(t);
    }
    std::sort(set.begin(), set.end());
    return set;
  }
};

// For each byte, the first byte that every transition of `nfa` takes or refuses with it.
std::array<std::uint8_t, 256> first_of_class(const Nfa& nfa) {
  std::vector<ByteSet> sets;
  for (const Nfa::Node& n : nfa.nodes) {
    for (const auto& [bytes, to] : n.trans) {
      if (std::find(sets.begin(), sets.end(), bytes) == sets.end()) sets.push_back(bytes);
    }
  }
  std::array<std::uint8_t, 256> first{};
  std::map<std::vector<bool>, std::uint8_t> seen;  // membership in each set -> first byte
  for (unsigned b = 0; b < 256; ++b) {
    std::vector<bool> in(sets.size());
    for (std::size_t i = 0; i < sets.size(); ++i) in[i] = sets[i].test(b);
    first[b] = seen.emplace(std::move(in), static_cast<std::uint8_t>(b)).first->second;
  }
  return first;
}

}  // namespace

Result<SchemaRegex> SchemaRegex::compile(std::string_view pattern) {
  auto ast = Parser(pattern).parse();
  if (!ast) return ast.error();

  // Search semantics: the start node loops on every byte (a match may begin anywhere) and the
  // accept node absorbs every byte (a match may end anywhere).
  Nfa nfa;
  const int start = nfa.add();
  ByteSet all;
  all.set();
  nfa.nodes[static_cast<std::size_t>(start)].trans.emplace_back(all, start);
  const int end = nfa.emit(*ast, start);
  nfa.accept = nfa.add();
  nfa.nodes[static_cast<std::size_t>(end)].eps.push_back(nfa.accept);
  nfa.nodes[static_cast<std::size_t>(nfa.accept)].trans.emplace_back(all, nfa.accept);

  // Subset construction, one byte per class of bytes no transition tells apart (a byte moves
  // every state where the first byte of its class does).
  const std::array<std::uint8_t, 256> first = first_of_class(nfa);
  SchemaRegex re;
  re.m_pattern = std::string(pattern);
  StateNumbers<std::vector<int>> sets;
  auto intern = [&](std::vector<int> set) { return sets.intern(std::move(set)); };
  intern(nfa.closure({start}, true, false));
  for (std::size_t i = 0; i < sets.size(); ++i) {
    if (sets.size() > k_max_states) {
      return unsupported("pattern '" + re.m_pattern + "': needs more than " + std::to_string(k_max_states) +
                         " automaton states");
    }
    State st;
    const std::vector<int> set = sets[i];  // copy: intern() may reallocate `sets`
    st.accepting = std::binary_search(set.begin(), set.end(), nfa.accept);
    const auto at_end = nfa.closure(set, false, true);
    st.accepting_at_end = std::binary_search(at_end.begin(), at_end.end(), nfa.accept);
    for (unsigned b = 0; b < 256; ++b) {
      if (first[b] != b) {
        st.next[b] = st.next[first[b]];
        continue;
      }
      std::vector<int> moved;
      for (const int s : set) {
        for (const auto& [bytes, to] : nfa.nodes[static_cast<std::size_t>(s)].trans) {
          if (bytes.test(b)) moved.push_back(to);
        }
      }
      std::sort(moved.begin(), moved.end());
      moved.erase(std::unique(moved.begin(), moved.end()), moved.end());
      st.next[b] = moved.empty() ? -1 : intern(nfa.closure(std::move(moved), false, false));
    }
    re.m_states.push_back(st);
  }
  // Byte classes: two bytes share a class when every state moves the same way on both.
  std::map<std::vector<std::int32_t>, std::uint8_t> columns;
  for (unsigned b = 0; b < 256; ++b) {
    std::vector<std::int32_t> column;
    column.reserve(re.m_states.size());
    for (const State& st : re.m_states) column.push_back(st.next[b]);
    const auto it = columns.emplace(std::move(column), static_cast<std::uint8_t>(columns.size())).first;
    re.m_class[b] = it->second;
  }
  re.m_classes = columns.size();
  re.m_table.assign(re.m_states.size() * re.m_classes, -1);
  for (std::size_t s = 0; s < re.m_states.size(); ++s) {
    for (unsigned b = 0; b < 256; ++b) {
      const std::int32_t to = re.m_states[s].next[b];  // stored as the row offset of the state
      re.m_table[s * re.m_classes + re.m_class[b]] = to < 0 ? -1 : static_cast<std::int32_t>(static_cast<std::size_t>(to) * re.m_classes);
    }
    re.m_accept.resize(re.m_table.size());  // indexed by row offset, like the table
    re.m_accept[s * re.m_classes] = static_cast<std::uint8_t>((re.m_states[s].accepting ? 1 : 0) |
                                                               (re.m_states[s].accepting_at_end ? 2 : 0));
  }
  return re;
}

bool SchemaRegex::search(std::string_view text) const {
  // `row` = state * m_classes (the table holds row offsets): one load per byte, no multiply.
  std::int32_t row = 0;
  const std::int32_t* table = m_table.data();
  const std::uint8_t* accept = m_accept.data();
  for (const char c : text) {
    if (accept[row] & 1u) return true;
    row = table[static_cast<std::size_t>(row) + m_class[static_cast<unsigned char>(c)]];
    if (row < 0) return false;
  }
  return accept[row] != 0;
}

std::uint64_t SchemaRegex::search_many(const SchemaRegex* const* res, std::size_t count, std::string_view text) {
  constexpr std::size_t k_max = 64;
  if (count > k_max) count = k_max;
  std::int32_t rows[k_max];
  std::uint64_t result = 0;
  std::uint64_t running = count == k_max ? ~std::uint64_t{0} : (std::uint64_t{1} << count) - 1;
  for (std::size_t i = 0; i < count; ++i) rows[i] = 0;
  for (const char c : text) {
    if (running == 0) break;
    const auto byte = static_cast<unsigned char>(c);
    for (std::uint64_t live = running; live != 0; live &= live - 1) {
      const auto i = static_cast<std::size_t>(std::countr_zero(live));
      const SchemaRegex& re = *res[i];
      const std::int32_t row = rows[i];
      if (re.m_accept[static_cast<std::size_t>(row)] & 1u) {
        result |= std::uint64_t{1} << i;
        running &= ~(std::uint64_t{1} << i);
        continue;
      }
      const std::int32_t next = re.m_table[static_cast<std::size_t>(row) + re.m_class[byte]];
      if (next < 0) running &= ~(std::uint64_t{1} << i);
      rows[i] = next;
    }
  }
  for (std::uint64_t live = running; live != 0; live &= live - 1) {
    const auto i = static_cast<std::size_t>(std::countr_zero(live));
    if (res[i]->m_accept[static_cast<std::size_t>(rows[i])] != 0) result |= std::uint64_t{1} << i;
  }
  return result;
}

}  // namespace msdump::schema
