#include "stats/float_convert.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

using namespace msdump;
using namespace msdump::stats;

TEST_SUITE("msdump::stats") {
  TEST_CASE("float16 bits decode exactly, including subnormals, infinities and NaN") {
    CHECK(half_to_float(0x3c00) == 1.0f);
    CHECK(half_to_float(0xc000) == -2.0f);
    CHECK(half_to_float(0x7bff) == 65504.0f);
    CHECK(half_to_float(0x0001) == std::ldexp(1.0f, -24));
    CHECK(half_to_float(0x03ff) == std::ldexp(1023.0f, -24));
    CHECK(std::signbit(half_to_float(0x8000)));
    CHECK(half_to_float(0x7c00) == std::numeric_limits<float>::infinity());
    CHECK(std::isnan(half_to_float(0x7e00)));
  }

  TEST_CASE("bfloat16 and float8 bits decode exactly") {
    CHECK(bfloat16_to_float(0x3f80) == 1.0f);
    CHECK(bfloat16_to_float(0x4081) == 4.03125f);
    CHECK(float8_e4m3fn_to_float(0x7e) == 448.0f);
    CHECK(float8_e4m3fn_to_float(0x01) == std::ldexp(1.0f, -9));
    CHECK(float8_e4m3fn_to_float(0x38) == 1.0f);
    CHECK(float8_e4m3fn_to_float(0xb8) == -1.0f);
    CHECK(std::isnan(float8_e4m3fn_to_float(0x7f)));
    CHECK(std::isnan(float8_e4m3fn_to_float(0xff)));
    CHECK(float8_e5m2_to_float(0x3c) == 1.0f);
    CHECK(float8_e5m2_to_float(0x7b) == 57344.0f);
    CHECK(float8_e5m2_to_float(0x7c) == std::numeric_limits<float>::infinity());
    CHECK(std::isnan(float8_e5m2_to_float(0x7d)));
  }

  TEST_CASE("round_to_dtype rounds once to nearest even") {
    // bf16 has 8 significant bits: 1 + 2^-8 is a tie between 1 and 1 + 2^-7 -> even (1)
    CHECK(round_to_dtype(1.0 + std::ldexp(1.0, -8), DType::bfloat16) == 1.0);
    CHECK(round_to_dtype(1.0 + 3 * std::ldexp(1.0, -8), DType::bfloat16) == 1.0 + std::ldexp(1.0, -6));
    // just above the tie rounds up: rounding via float32 first would have lost this bit
    CHECK(round_to_dtype(1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40), DType::bfloat16) ==
          1.0 + std::ldexp(1.0, -7));
    CHECK(round_to_dtype(0.1, DType::float32) == static_cast<double>(0.1f));
    CHECK(round_to_dtype(65519.0, DType::float16) == 65504.0);
    CHECK(std::isinf(round_to_dtype(65520.0, DType::float16)));
    CHECK(round_to_dtype(std::ldexp(1.0, -25), DType::float16) == 0.0);  // tie to even (0)
    CHECK(round_to_dtype(std::ldexp(3.0, -26), DType::float16) == std::ldexp(1.0, -24));
    CHECK(std::isnan(round_to_dtype(500.0, DType::float8_e4m3fn)));
    CHECK(std::signbit(round_to_dtype(-0.0, DType::bfloat16)));
    CHECK(round_to_dtype(0.1, DType::float64) == 0.1);
    CHECK(round_to_dtype(-4.0625 - 1e-9, DType::bfloat16) == -4.0625);
  }

  TEST_CASE("representable_in and ulp_of") {
    CHECK(representable_in(4.0625, DType::bfloat16));
    CHECK_FALSE(representable_in(4.03, DType::bfloat16));
    CHECK(representable_in(static_cast<double>(0.1f), DType::float32));
    CHECK_FALSE(representable_in(0.1, DType::float32));
    CHECK(representable_in(std::numeric_limits<double>::infinity(), DType::float16));
    CHECK(representable_in(127.0, DType::int8));
    CHECK_FALSE(representable_in(128.0, DType::int8));
    CHECK(ulp_of(1.0, DType::float32) == std::ldexp(1.0, -23));
    CHECK(ulp_of(1.5, DType::bfloat16) == std::ldexp(1.0, -7));
    CHECK(ulp_of(0.0, DType::float16) == std::ldexp(1.0, -24));
    CHECK(ulp_of(-3.0, DType::float64) == std::ldexp(1.0, -51));
  }
}
