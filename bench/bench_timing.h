#pragma once
// What every bench main times with: thread CPU time (a descheduled thread does not count, so
// rounds on a shared VM stay comparable) and the median of a set of rounds
// (docs/performance.md "Measuring on a shared 2-core VM").

#include <algorithm>
#include <ctime>
#include <vector>

namespace msdump::bench {

inline double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

// The upper median of a non-empty set of rounds.
inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace msdump::bench
