#include "tensor/pickle_reader.h"

#include <fmt/format.h>

#include <bit>
#include <unordered_map>

#include "tensor/little_endian.h"

namespace msdump::tensor {
namespace {

using Kind = PickleValue::Kind;

const char* opcode_name(std::uint8_t op) {
  switch (op) {
    case 0x80: return "PROTO";
    case 0x95: return "FRAME";
    case 'c': return "GLOBAL";
    case 0x93: return "STACK_GLOBAL";
    case 'q': return "BINPUT";
    case 'r': return "LONG_BINPUT";
    case 0x94: return "MEMOIZE";
    case 'h': return "BINGET";
    case 'j': return "LONG_BINGET";
    case '(': return "MARK";
    case 't': return "TUPLE";
    case 0x85: return "TUPLE1";
    case 0x86: return "TUPLE2";
    case 0x87: return "TUPLE3";
    case ')': return "EMPTY_TUPLE";
    case ']': return "EMPTY_LIST";
    case '}': return "EMPTY_DICT";
    case 'a': return "APPEND";
    case 'e': return "APPENDS";
    case 's': return "SETITEM";
    case 'u': return "SETITEMS";
    case 'J': return "BININT";
    case 'K': return "BININT1";
    case 'M': return "BININT2";
    case 0x8a: return "LONG1";
    case 'X': return "BINUNICODE";
    case 0x8c: return "SHORT_BINUNICODE";
    case 0x8d: return "BINUNICODE8";
    case 'C': return "SHORT_BINBYTES";
    case 'B': return "BINBYTES";
    case 0x88: return "NEWTRUE";
    case 0x89: return "NEWFALSE";
    case 'N': return "NONE";
    case 'G': return "BINFLOAT";
    case 'Q': return "BINPERSID";
    case 'R': return "REDUCE";
    case 'b': return "BUILD";
    case '0': return "POP";
    case '1': return "POP_MARK";
    case '2': return "DUP";
    case '.': return "STOP";
    default: return nullptr;
  }
}

class Unpickler {
 public:
  Unpickler(std::span<const std::byte> bytes, const PickleGlobalCheck& check) : m_in(bytes), m_check(check) {}

  Result<Pickle> run() {
    while (true) {
      if (m_pos >= m_in.size()) return invalid_input("pickle: ends without STOP");
      m_op_pos = m_pos;
      m_op = std::to_integer<std::uint8_t>(m_in[m_pos++]);
      if (m_op == '.') {
        if (m_stack.empty()) return fail("STOP with an empty stack");
        m_out.root = m_stack.back();
        m_out.end = m_pos;
        return std::move(m_out);
      }
      if (auto r = step(); !r) return r.error();
    }
  }

 private:
  Error fail(std::string_view what) const {
    return invalid_input(fmt::format("pickle: {} at offset {}", what, m_op_pos));
  }
  Error truncated() const { return fail(fmt::format("truncated {}", opcode_name(m_op))); }
  Error underflow() const { return fail(fmt::format("stack underflow in {}", opcode_name(m_op))); }

  Result<std::span<const std::byte>> take(std::uint64_t n) {
    if (n > m_in.size() - m_pos) return truncated();
    auto s = m_in.subspan(m_pos, static_cast<std::size_t>(n));
    m_pos += static_cast<std::size_t>(n);
    return s;
  }
  template <typename T>
  Result<T> take_le() {
    auto s = take(sizeof(T));
    if (!s) return s.error();
    return le::load<T>(s->data());
  }
  // Reads up to and excluding '\n' (GLOBAL's text arguments).
  Result<std::string> take_line() {
    for (std::size_t k = m_pos; k < m_in.size(); ++k) {
      if (std::to_integer<char>(m_in[k]) == '\n') {
        std::string s(reinterpret_cast<const char*>(m_in.data() + m_pos), k - m_pos);
        m_pos = k + 1;
        return s;
      }
    }
    return truncated();
  }

  PickleValue* make(Kind kind) {
    auto& v = m_out.nodes.emplace_back();
    v.kind = kind;
    return &v;
  }
  PickleValue* push(Kind kind) {
    auto* v = make(kind);
    m_stack.push_back(v);
    return v;
  }
  Result<PickleValue*> pop() {
    if (m_stack.size() <= floor()) return underflow();
    auto* v = m_stack.back();
    m_stack.pop_back();
    return v;
  }
  std::size_t floor() const { return m_marks.empty() ? 0 : m_marks.back(); }
  // Removes everything above the last MARK and returns it.
  Result<std::vector<PickleValue*>> pop_mark() {
    if (m_marks.empty()) return fail(fmt::format("{} without MARK", opcode_name(m_op)));
    const std::size_t m = m_marks.back();
    m_marks.pop_back();
    std::vector<PickleValue*> items(m_stack.begin() + static_cast<std::ptrdiff_t>(m), m_stack.end());
    m_stack.resize(m);
    return items;
  }
  Result<void> memo_put(std::uint64_t key) {
    if (m_stack.empty()) return underflow();
    m_memo[key] = m_stack.back();
    return {};
  }
  Result<void> memo_get(std::uint64_t key) {
    auto it = m_memo.find(key);
    if (it == m_memo.end()) return fail(fmt::format("memo key {} is not defined ({})", key, opcode_name(m_op)));
    m_stack.push_back(it->second);
    return {};
  }
  Result<void> global(std::string module, std::string name) {
    MSDUMP_TRY(m_check(module, name));
    auto* v = push(Kind::global);
    v->text = std::move(module);
    v->name = std::move(name);
    return {};
  }
  void push_int(std::int64_t i) { push(Kind::integer)->integer = i; }
  Result<void> push_string(Kind kind, std::uint64_t n) {
    auto s = take(n);
    if (!s) return s.error();
    push(kind)->text.assign(reinterpret_cast<const char*>(s->data()), s->size());
    return {};
  }
  Result<void> tuple_of(std::size_t n) {
    if (m_stack.size() < floor() + n) return underflow();
    auto* t = make(Kind::tuple);
    t->items.assign(m_stack.end() - static_cast<std::ptrdiff_t>(n), m_stack.end());
    m_stack.resize(m_stack.size() - n);
    m_stack.push_back(t);
    return {};
  }
  Result<PickleValue*> top_of(Kind kind) {
    if (m_stack.size() <= floor()) return underflow();
    if (m_stack.back()->kind != kind)
      return fail(fmt::format("{} on {}", opcode_name(m_op), describe(*m_stack.back())));
    return m_stack.back();
  }
  Result<void> long1() {
    auto n = take_le<std::uint8_t>();
    if (!n) return n.error();
    auto s = take(*n);
    if (!s) return s.error();
    const auto& b = *s;
    const bool negative = !b.empty() && (std::to_integer<std::uint8_t>(b.back()) & 0x80) != 0;
    bool fits = true;
    for (std::size_t k = 8; k < b.size(); ++k)
      fits = fits && std::to_integer<std::uint8_t>(b[k]) == (negative ? 0xFF : 0x00);
    if (b.size() > 8 && fits) fits = ((std::to_integer<std::uint8_t>(b[7]) & 0x80) != 0) == negative;
    if (!fits) {
      push(Kind::big_integer)->text.assign(reinterpret_cast<const char*>(b.data()), b.size());
      return {};
    }
    std::uint64_t u = negative ? ~std::uint64_t{0} : 0;
    for (std::size_t k = 0; k < b.size() && k < 8; ++k) {
      u &= ~(std::uint64_t{0xFF} << (8 * k));
      u |= static_cast<std::uint64_t>(std::to_integer<std::uint8_t>(b[k])) << (8 * k);
    }
    push_int(static_cast<std::int64_t>(u));
    return {};
  }

  Result<void> step() {
    switch (m_op) {
      case 0x80: {
        auto v = take_le<std::uint8_t>();
        if (!v) return v.error();
        if (*v > 5) return unsupported(fmt::format("pickle: protocol {} is not supported", *v));
        return {};
      }
      case 0x95: {
        auto v = take_le<std::uint64_t>();
        if (!v) return v.error();
        return {};
      }
      case 'c': {
        auto module = take_line();
        if (!module) return module.error();
        auto name = take_line();
        if (!name) return name.error();
        return global(std::move(*module), std::move(*name));
      }
      case 0x93: {
        auto name = pop();
        if (!name) return name.error();
        auto module = pop();
        if (!module) return module.error();
        if ((*name)->kind != Kind::string || (*module)->kind != Kind::string)
          return fail("STACK_GLOBAL on non-strings");
        return global((*module)->text, (*name)->text);
      }
      case 'q': {
        auto k = take_le<std::uint8_t>();
        if (!k) return k.error();
        return memo_put(*k);
      }
      case 'r': {
        auto k = take_le<std::uint32_t>();
        if (!k) return k.error();
        return memo_put(*k);
      }
      case 0x94: return memo_put(m_memo.size());
      case 'h': {
        auto k = take_le<std::uint8_t>();
        if (!k) return k.error();
        return memo_get(*k);
      }
      case 'j': {
        auto k = take_le<std::uint32_t>();
        if (!k) return k.error();
        return memo_get(*k);
      }
      case '(': m_marks.push_back(m_stack.size()); return {};
      case 't': {
        auto items = pop_mark();
        if (!items) return items.error();
        auto* t = push(Kind::tuple);
        t->items.assign(items->begin(), items->end());
        return {};
      }
      case 0x85: return tuple_of(1);
      case 0x86: return tuple_of(2);
      case 0x87: return tuple_of(3);
      case ')': push(Kind::tuple); return {};
      case ']': push(Kind::list); return {};
      case '}': push(Kind::dict); return {};
      case 'a': {
        auto item = pop();
        if (!item) return item.error();
        auto list = top_of(Kind::list);
        if (!list) return list.error();
        (*list)->items.push_back(*item);
        return {};
      }
      case 'e': {
        auto items = pop_mark();
        if (!items) return items.error();
        auto list = top_of(Kind::list);
        if (!list) return list.error();
        (*list)->items.insert((*list)->items.end(), items->begin(), items->end());
        return {};
      }
      case 's': {
        auto value = pop();
        if (!value) return value.error();
        auto key = pop();
        if (!key) return key.error();
        // collections.OrderedDict() arrives as a call; its contents are not needed.
        if (m_stack.size() > floor() && m_stack.back()->kind == Kind::call) return {};
        auto dict = top_of(Kind::dict);
        if (!dict) return dict.error();
        (*dict)->items.push_back(*key);
        (*dict)->items.push_back(*value);
        return {};
      }
      case 'u': {
        auto items = pop_mark();
        if (!items) return items.error();
        if (items->size() % 2 != 0) return fail("SETITEMS with an odd number of items");
        if (m_stack.size() <= floor()) return underflow();
        auto* dict = m_stack.back();
        if (dict->kind != Kind::dict && dict->kind != Kind::call) return fail(fmt::format("SETITEMS on {}", describe(*dict)));
        if (dict->kind == Kind::call) {
          // Keep the call's {callable, args} intact; OrderedDict contents are not needed.
          return {};
        }
        dict->items.insert(dict->items.end(), items->begin(), items->end());
        return {};
      }
      case 'J': {
        auto v = take_le<std::uint32_t>();
        if (!v) return v.error();
        push_int(static_cast<std::int32_t>(*v));
        return {};
      }
      case 'K': {
        auto v = take_le<std::uint8_t>();
        if (!v) return v.error();
        push_int(*v);
        return {};
      }
      case 'M': {
        auto v = take_le<std::uint16_t>();
        if (!v) return v.error();
        push_int(*v);
        return {};
      }
      case 0x8a: return long1();
      case 'X': {
        auto n = take_le<std::uint32_t>();
        if (!n) return n.error();
        return push_string(Kind::string, *n);
      }
      case 0x8c: {
        auto n = take_le<std::uint8_t>();
        if (!n) return n.error();
        return push_string(Kind::string, *n);
      }
      case 0x8d: {
        auto n = take_le<std::uint64_t>();
        if (!n) return n.error();
        return push_string(Kind::string, *n);
      }
      case 'C': {
        auto n = take_le<std::uint8_t>();
        if (!n) return n.error();
        return push_string(Kind::bytes, *n);
      }
      case 'B': {
        auto n = take_le<std::uint32_t>();
        if (!n) return n.error();
        return push_string(Kind::bytes, *n);
      }
      case 0x88: push(Kind::boolean)->boolean = true; return {};
      case 0x89: push(Kind::boolean)->boolean = false; return {};
      case 'N': push(Kind::none); return {};
      case 'G': {
        auto v = take_le<std::uint64_t>();
        if (!v) return v.error();
        // BINFLOAT is big-endian; take_le read it little-endian, so reverse the bytes.
        std::uint64_t be = 0;
        for (int k = 0; k < 8; ++k) be |= ((*v >> (8 * k)) & 0xFF) << (8 * (7 - k));
        push(Kind::floating)->floating = std::bit_cast<double>(be);
        return {};
      }
      case 'Q': {
        auto pid = pop();
        if (!pid) return pid.error();
        push(Kind::persistent)->items = {*pid};
        return {};
      }
      case 'R': {
        auto args = pop();
        if (!args) return args.error();
        auto callable = pop();
        if (!callable) return callable.error();
        if ((*callable)->kind != Kind::global) return fail(fmt::format("REDUCE on {}", describe(**callable)));
        if ((*args)->kind != Kind::tuple) return fail(fmt::format("REDUCE with {} as arguments", describe(**args)));
        push(Kind::call)->items = {*callable, *args};
        return {};
      }
      case 'b': {
        auto state = pop();
        if (!state) return state.error();
        if (m_stack.size() <= floor()) return underflow();
        return {};
      }
      case '0': {
        if (m_stack.size() > floor()) {
          m_stack.pop_back();
          return {};
        }
        auto items = pop_mark();
        if (!items) return items.error();
        return {};
      }
      case '1': {
        auto items = pop_mark();
        if (!items) return items.error();
        return {};
      }
      case '2': {
        if (m_stack.size() <= floor()) return underflow();
        m_stack.push_back(m_stack.back());
        return {};
      }
      default:
        return unsupported(fmt::format("pickle: unsupported opcode 0x{:02x} at offset {}", m_op, m_op_pos));
    }
  }

  std::span<const std::byte> m_in;
  const PickleGlobalCheck& m_check;
  std::size_t m_pos = 0;
  std::size_t m_op_pos = 0;
  std::uint8_t m_op = 0;
  Pickle m_out;
  std::vector<PickleValue*> m_stack;
  std::vector<std::size_t> m_marks;
  std::unordered_map<std::uint64_t, PickleValue*> m_memo;
};

}  // namespace

std::string PickleValue::global_name() const {
  if (kind == Kind::global) return text + "." + name;
  if (kind == Kind::call && !items.empty()) return items[0]->global_name();
  return "";
}

std::string describe(const PickleValue& v) {
  switch (v.kind) {
    case Kind::none: return "None";
    case Kind::boolean: return "a bool";
    case Kind::integer: return "an int";
    case Kind::big_integer: return "an int wider than 64 bits";
    case Kind::floating: return "a float";
    case Kind::string: return "a str";
    case Kind::bytes: return "a bytes object";
    case Kind::tuple: return "a tuple";
    case Kind::list: return "a list";
    case Kind::dict: return "a dict";
    case Kind::global: return fmt::format("a reference to '{}'", v.global_name());
    case Kind::call:
      if (v.global_name() == "collections.OrderedDict") return "an OrderedDict";
      return fmt::format("a call to '{}'", v.global_name());
    case Kind::persistent: return "a storage";
  }
  return "an unknown value";
}

Result<Pickle> read_pickle(std::span<const std::byte> bytes, const PickleGlobalCheck& check) {
  return Unpickler(bytes, check).run();
}

}  // namespace msdump::tensor
