#!/usr/bin/env bash
# Configures and builds msdump into build/ (or $BUILD_DIR). Extra arguments go to cmake.
#   --pgo   a profile-guided release build: an instrumented msdump is built and trained on
#           bundled data (scripts/pgo_train.sh), then everything is rebuilt with that profile
#           (about twice the build time; docs/performance.md "PGO build" has what it buys).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR=${BUILD_DIR:-build}
pgo=0
args=()
for a in "$@"; do
  if [ "$a" = --pgo ]; then pgo=1; else args+=("$a"); fi
done
configure() { cmake -S . -B "$BUILD_DIR" -G Ninja -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-Release} "${args[@]}" "$@" >/dev/null; }
if [ "$pgo" -eq 0 ]; then
  configure -DMSDUMP_PGO=  # (undoes an earlier --pgo in the same build directory)
  cmake --build "$BUILD_DIR" -j "$(nproc)"
  exit 0
fi
profile=$(realpath -m "$BUILD_DIR/pgo-profile")
rm -rf "$profile"
configure -DMSDUMP_PGO=generate "-DMSDUMP_PGO_DIR=$profile"
cmake --build "$BUILD_DIR" -j "$(nproc)" --target msdump
echo "build.sh: training the instrumented msdump (scripts/pgo_train.sh)"
scripts/pgo_train.sh "$BUILD_DIR/msdump"
configure -DMSDUMP_PGO=use "-DMSDUMP_PGO_DIR=$profile"
cmake --build "$BUILD_DIR" -j "$(nproc)"
