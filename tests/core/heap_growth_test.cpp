#include "core/heap_growth.h"

#include <doctest/doctest.h>

#include <memory>
#include <thread>
#include <vector>

TEST_SUITE("msdump::core") {
  TEST_CASE("set_heap_growth is taken by glibc's allocator, and allocation goes on as before") {
#if defined(__GLIBC__) && !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
    CHECK(msdump::set_heap_growth(std::size_t{16} << 20));  // (glibc's own allocator, not a sanitizer's)
#elif !defined(__GLIBC__)
    CHECK_FALSE(msdump::set_heap_growth(std::size_t{16} << 20));
#else
    msdump::set_heap_growth(std::size_t{16} << 20);  // (a sanitizer's allocator may refuse it)
#endif
    std::size_t total = 0;
    std::thread t([&] {  // (a thread's arena grows by the new step)
      std::vector<std::unique_ptr<char[]>> blocks;
      for (int i = 0; i < 1000; ++i) {
        blocks.push_back(std::make_unique<char[]>(4096));
        blocks.back()[4095] = 1;
      }
      for (const auto& b : blocks) total += static_cast<std::size_t>(b[4095]);
    });
    t.join();
    CHECK(total == 1000);
    CHECK(msdump::set_heap_growth(0) == msdump::set_heap_growth(std::size_t{1} << 40));  // (clamped, not refused)
    msdump::set_heap_growth(128 * 1024);  // glibc's documented default, for the tests after this one
  }
}
