#include "core/scalar.h"

#include <cstring>

namespace msdump {

bool Scalar::identical(const Scalar& o) const {
  if (kind != o.kind) return false;
  switch (kind) {
    case Kind::null: return true;
    case Kind::boolean: return b == o.b;
    case Kind::integer: return i == o.i;
    case Kind::unsigned_integer: return u == o.u;
    case Kind::floating: return std::memcmp(&d, &o.d, sizeof d) == 0 || (d != d && o.d != o.d);
    case Kind::string: return s == o.s;
  }
  return false;
}

}  // namespace msdump
