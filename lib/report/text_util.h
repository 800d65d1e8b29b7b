#pragma once
// Small text helpers the report renderers share (verify's and anomalies').

#include <cstdint>
#include <string>
#include <string_view>

namespace msdump::report {

// "1 entry" / "3 entries" style counts.
std::string plural(std::uint64_t n, std::string_view one, std::string_view many);
// "1 dump" / "3 dumps": the word with an "s" for n != 1.
std::string plural(std::uint64_t n, std::string_view word);
// Text for XML attributes and element content: & < > " ' escaped, control characters (but
// newline and tab) as character references.
std::string xml_escape(std::string_view s);

}  // namespace msdump::report
