#include "core/heap_growth.h"

#include <climits>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace msdump {

bool set_heap_growth(std::size_t bytes) {
#if defined(__GLIBC__)
  return mallopt(M_TOP_PAD, bytes > INT_MAX ? INT_MAX : static_cast<int>(bytes)) == 1;
#else
  (void)bytes;
  return false;
#endif
}

}  // namespace msdump
