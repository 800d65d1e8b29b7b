#pragma once
// A whitelist unpickler for torch.save's data.pkl (docs/tensor-formats.md §2). It never imports or
// calls anything: GLOBAL produces a reference that a caller-supplied check must approve, REDUCE
// produces an unevaluated call node, BINPERSID a persistent-id node. The caller (pt_reader)
// interprets the resulting tree.
//
// Opcodes: protocol 2 (PROTO, GLOBAL, BINPUT/LONG_BINPUT, BINGET/LONG_BINGET, MARK, TUPLE,
// TUPLE1-3, EMPTY_TUPLE/LIST/DICT, APPEND(S), SETITEM(S), BININT/BININT1/BININT2, LONG1,
// BINUNICODE, NEWTRUE/NEWFALSE, NONE, BINFLOAT, BINPERSID, REDUCE, BUILD (state ignored), POP,
// POP_MARK, DUP, SHORT_BINBYTES/BINBYTES, STOP) and protocol 4/5 (FRAME, MEMOIZE,
// SHORT_BINUNICODE, BINUNICODE8, STACK_GLOBAL).

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.h"

namespace msdump::tensor {

struct PickleValue {
  enum class Kind : std::uint8_t {
    none,
    boolean,
    integer,      // fits int64
    big_integer,  // LONG1 wider than int64; `text` holds the little-endian two's complement bytes
    floating,
    string,       // str (UTF-8) in `text`
    bytes,        // bytes in `text`
    tuple,
    list,
    dict,         // items = key0, value0, key1, value1, ...
    global,       // `text` = module, `name` = qualified name
    call,         // REDUCE: items = {callable (a global), args (a tuple)}
    persistent,   // BINPERSID: items = {persistent id}
  };
  Kind kind = Kind::none;
  bool boolean = false;
  std::int64_t integer = 0;
  double floating = 0.0;
  std::string text;
  std::string name;
  std::vector<const PickleValue*> items;

  // "module.name" of a global, or of the callable of a call; "" otherwise.
  std::string global_name() const;
};

// "a dict", "an OrderedDict", "a list", "a tuple", "an int", "a str", "a call to 'x.y'", ...
std::string describe(const PickleValue& v);

// Approves or rejects a GLOBAL/STACK_GLOBAL reference before it enters the tree. The returned
// error is reported as is.
using PickleGlobalCheck = std::function<Result<void>(std::string_view module, std::string_view name)>;

// The parsed pickle. Values are owned by `nodes`; pointers stay valid when a Pickle is moved.
struct Pickle {
  std::deque<PickleValue> nodes;
  const PickleValue* root = nullptr;
  std::size_t end = 0;  // offset just past STOP (the legacy torch format chains pickles)
};

// Parses one pickle starting at bytes[0] and ending at STOP. Fails (invalid_input) on truncated
// or malformed input ("pickle: truncated BINUNICODE at offset 12"), (unsupported) on an opcode
// outside the list above, and with `check`'s error on a rejected global.
Result<Pickle> read_pickle(std::span<const std::byte> bytes, const PickleGlobalCheck& check);

}  // namespace msdump::tensor
