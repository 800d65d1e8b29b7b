// msdump_bench_simdjson_walk: the JSON speed limit msdump's readers are measured against
// (docs/performance.md): a simdjson On-Demand walk of a whole dump.json on one thread that
// touches every value: every key unescaped, every string unescaped, every number parsed as the
// type its text has (get_int64 for integers, get_uint64 above INT64_MAX, get_double for the
// rest; get_number() instead, one call per number, took 1.4x as long on a 270 MB dump), every
// true/false/null read. The file is read once into a padded buffer; msprobe's
// non-standard tokens are then rewritten in that copy, outside strings, to numbers of the same
// length, so every byte offset stays where it was:
//   NaN -> 0.0     Infinity -> 1.0e+308     -Infinity -> -1.0e+308  (the '-' is kept)
// On-Demand is compiled into this file for the CPU its flags name (simdjson::builtin, fallback
// for plain x86-64), so the target is built with -march=native: the kernel it prints is the
// host's best (icelake on AVX-512, haswell on AVX2).
// The walk runs ROUNDS times over the same buffer with one parser (its buffers warm after the
// first round); prints the bytes, the best and median wall seconds, the best round's GB/s
// (10^9 bytes per second) and a checksum of what was read (keys' and strings' lengths, integers,
// doubles), so the compiler cannot drop the reads. scripts/bench_json_limit.py runs it against
// msdump verify / anomalies and reads the "best" line. Exits 1 if simdjson rejects the document.
// Usage: msdump_bench_simdjson_walk DUMP_JSON [ROUNDS=3]

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include <simdjson.h>

#include "bench_timing.h"

#define MSDUMP_BENCH_STR2(x) #x
#define MSDUMP_BENCH_STR(x) MSDUMP_BENCH_STR2(x)

namespace od = simdjson::ondemand;

namespace {

using Clock = std::chrono::steady_clock;

[[noreturn]] void die(const std::string& what) {
  std::fprintf(stderr, "msdump_bench_simdjson_walk: %s\n", what.c_str());
  std::exit(1);
}

// What the walk read, folded so that none of it is dead.
struct Tally {
  std::uint64_t values = 0;
  std::uint64_t text_bytes = 0;  // unescaped keys and strings
  std::uint64_t ints = 0;        // integers, added with wrap-around
  double doubles = 0;
};

// Rewrites NaN, Infinity and -Infinity outside strings to same-length numbers; returns how many.
std::size_t rewrite_non_finite(char* text, std::size_t size) {
  static constexpr std::string_view k_nan = "NaN";
  static constexpr std::string_view k_inf = "Infinity";
  std::size_t count = 0;
  bool in_string = false;
  for (std::size_t i = 0; i < size; ++i) {
    const char c = text[i];
    if (in_string) {
      if (c == '\\') ++i;
      else if (c == '"') in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
    } else if (c == 'N' && std::string_view(text + i, size - i).substr(0, 3) == k_nan) {
      std::copy_n("0.0", 3, text + i);
      i += 2;
      ++count;
    } else if (c == 'I' && std::string_view(text + i, size - i).substr(0, 8) == k_inf) {
      std::copy_n("1.0e+308", 8, text + i);
      i += 7;
      ++count;
    }
  }
  return count;
}

void check(simdjson::error_code error, const char* what) {
  if (error != simdjson::SUCCESS) die(std::string(what) + ": " + simdjson::error_message(error));
}

void walk(od::value value, Tally& t);

void walk_number(od::value value, Tally& t) {
  od::number_type type{};
  check(value.get_number_type().get(type), "number");
  if (type == od::number_type::signed_integer) {
    std::int64_t v = 0;
    check(value.get_int64().get(v), "int64");
    t.ints += static_cast<std::uint64_t>(v);
  } else if (type == od::number_type::unsigned_integer) {
    std::uint64_t v = 0;
    check(value.get_uint64().get(v), "uint64");
    t.ints += v;
  } else {
    double v = 0;
    check(value.get_double().get(v), "double");
    t.doubles += v;
  }
}

void walk_scalar(od::value value, od::json_type type, Tally& t) {
  if (type == od::json_type::number) {
    walk_number(value, t);
  } else if (type == od::json_type::string) {
    std::string_view s;
    check(value.get_string().get(s), "string");
    t.text_bytes += s.size();
  } else if (type == od::json_type::boolean) {
    bool b = false;
    check(value.get_bool().get(b), "bool");
    t.ints += b ? 1 : 0;
  } else {
    bool null = false;
    check(value.is_null().get(null), "null");
    if (!null) die("expected null");
  }
}

void walk(od::value value, Tally& t) {
  ++t.values;
  od::json_type type{};
  check(value.type().get(type), "type");
  if (type == od::json_type::object) {
    od::object object;
    check(value.get_object().get(object), "object");
    for (auto field : object) {
      std::string_view key;
      check(field.unescaped_key().get(key), "key");
      t.text_bytes += key.size();
      walk(field.value(), t);
    }
  } else if (type == od::json_type::array) {
    od::array array;
    check(value.get_array().get(array), "array");
    for (auto element : array) {
      od::value v;
      check(element.get(v), "element");
      walk(v, t);
    }
  } else {
    walk_scalar(value, type, t);
  }
}

Tally walk_document(od::parser& parser, const simdjson::padded_string& json) {
  od::document doc;
  check(parser.iterate(json).get(doc), "iterate");
  od::value root;
  check(doc.get_value().get(root), "document");
  Tally t;
  walk(root, t);
  return t;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) die("usage: msdump_bench_simdjson_walk DUMP_JSON [ROUNDS=3]");
  const int rounds = argc > 2 ? std::atoi(argv[2]) : 3;
  if (rounds < 1) die("ROUNDS must be at least 1");
  simdjson::padded_string json;
  check(simdjson::padded_string::load(argv[1]).get(json), argv[1]);
  const std::size_t rewritten = rewrite_non_finite(json.data(), json.size());
  od::parser parser;
  std::vector<double> wall;
  std::vector<double> cpu;
  Tally tally;
  for (int r = 0; r < rounds; ++r) {
    const double cpu0 = msdump::bench::thread_cpu_seconds();
    const auto start = Clock::now();
    tally = walk_document(parser, json);
    wall.push_back(std::chrono::duration<double>(Clock::now() - start).count());
    cpu.push_back(msdump::bench::thread_cpu_seconds() - cpu0);
  }
  double best = wall[0];
  for (double w : wall) best = std::min(best, w);
  std::printf("simdjson %d.%d.%d, On-Demand kernel %s\n", simdjson::SIMDJSON_VERSION_MAJOR,
              simdjson::SIMDJSON_VERSION_MINOR, simdjson::SIMDJSON_VERSION_REVISION,
              MSDUMP_BENCH_STR(SIMDJSON_BUILTIN_IMPLEMENTATION));
  std::printf("file: %s, %zu bytes, %zu NaN/Infinity tokens rewritten\n", argv[1], json.size(), rewritten);
  std::printf("walked: %llu values, %llu bytes of keys and strings, checksum %llu %.17g\n",
              static_cast<unsigned long long>(tally.values), static_cast<unsigned long long>(tally.text_bytes),
              static_cast<unsigned long long>(tally.ints), tally.doubles);
  std::printf("rounds: %d, median wall %.4f s, median thread CPU %.4f s\n", rounds, msdump::bench::median(wall),
              msdump::bench::median(cpu));
  std::printf("best: %.4f s, %.3f GB/s\n", best, static_cast<double>(json.size()) / best / 1e9);
  return 0;
}
