#pragma once
// Python's text renderings of strings and lists of strings, as msprobe's compare table shows
// them: repr() of a str (Data_name, NPU_Stack_Info cells are list reprs) and json.dumps() of a
// list of str (the Err_message cell).
//
// Input is UTF-8. Bytes that are not valid UTF-8 cannot occur in a Python str; they are shown as
// Python shows the str that decode('utf-8', 'surrogateescape') gives: each such byte b as the
// lone surrogate U+DC00+b (repr '\udc80', json "\udc80").

#include <string>
#include <string_view>
#include <vector>

namespace msdump::compare {

// repr(s) for a Python 3 str: single quotes unless s contains ' and no "; \\, \n, \r, \t and the
// quote escaped; other ASCII controls and DEL as \xNN; non-ASCII kept as is when printable,
// else \xNN (below U+0100), \uNNNN or \UNNNNNNNN (lower-case hex).
// "Printable" follows str.isprintable() of Python 3.11 (Unicode 14) for assigned characters:
// the format/control/separator/private-use/surrogate code points are escaped, and so are the
// noncharacters (U+FDD0-U+FDEF, U+xxFFFE/F); other unassigned code points, which Python also
// escapes, are kept as is (the table of assigned characters changes with every Unicode version).
std::string python_str_repr(std::string_view utf8);
void append_python_str_repr(std::string& out, std::string_view utf8);

// repr(list_of_str): "['a', 'b']", "[]".
std::string python_list_repr(const std::vector<std::string>& items);

// json.dumps(list_of_str) with its defaults (ensure_ascii=True, separators ", " and ": "):
// "[]", "[\"error: x\", \"warning: y\"]"; every character outside 0x20-0x7E escaped (\" \\ \n
// \r \t \b \f short, the rest \u00XX / \uXXXX lower-case, surrogate pairs above U+FFFF).
std::string python_json_str_list(const std::vector<std::string_view>& items);
// The same written over `out` (its storage reused).
void python_json_str_list(const std::vector<std::string_view>& items, std::string& out);

}  // namespace msdump::compare
