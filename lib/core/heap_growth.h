#pragma once
// How far the C library's allocator grows a heap at a time.
//
// glibc grows a thread's arena by what the allocation at hand needs, rounded to a page: a
// thread whose memory grows to a few MiB makes a system call (mprotect) per 4-12 KiB, and on a
// VM where page faults and VMA changes are costly that shows (docs/performance.md "Page
// faults"). set_heap_growth raises the step for every heap of the process, the main one
// included, and also what a trim leaves in place (glibc's M_TOP_PAD). Pages are still only
// backed when first touched: the resident size grows by what is used, plus at most `bytes` a
// heap kept after a trim. Process-wide: a command calls it before its threads start. Returns
// whether the allocator took the setting (false with another C library).

#include <cstddef>

namespace msdump {

bool set_heap_growth(std::size_t bytes);

}  // namespace msdump
