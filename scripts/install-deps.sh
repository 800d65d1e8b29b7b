#!/usr/bin/env bash
# Installs what msdump needs to build and test, from Debian packages. Idempotent: packages
# already present are left alone, so a second run costs one dpkg query.
#   --with-reference  also valijson, the test-only reference JSON Schema validator the compiled
#                     one is tested against (tests/schema/reference/; its Debian package pulls in
#                     Qt 5 and Poco); scripts/test.sh installs it so CI runs the differential tests
#   --with-torch      also the fixture generator's python3-torch + python3-numpy (testdata/gen/)
#   --with-scheduler  also munge, Slurm (slurmctld, slurmd, slurm-client), GNU parallel and
#                     python3-yaml, for the tests of the README's sharding examples (tests/scheduler/)
#   --with-qemu       also qemu-user, for the portable_qemu test (msdump on CPUs without AVX)
#   --with-fuzz       also clang and its sanitizer runtimes, for the libFuzzer targets (scripts/fuzz.sh)
#   --with-bench      also hyperfine, python3-numpy and libsimdjson-dev (msdump_bench_simdjson_walk),
#                     for scripts/bench_*.py
# Without options: what building msdump and its unit tests needs, and no more.
set -euo pipefail

packages=(cmake ninja-build g++ pkg-config
          libcli11-dev libxsimd-dev xtl-dev libspdlog-dev libfmt-dev doctest-dev libxlsxwriter-dev libyaml-cpp-dev
          zlib1g-dev libxxhash-dev
          python3)
for arg in "$@"; do
  case "$arg" in
    --with-reference) packages+=(libvalijson-dev) ;;
    --with-torch) packages+=(python3-torch python3-numpy) ;;
    --with-fuzz) packages+=(clang libclang-rt-14-dev) ;;
    --with-bench) packages+=(hyperfine python3-numpy libsimdjson-dev) ;;
    --with-scheduler) packages+=(munge slurmctld slurmd slurm-client parallel python3-yaml) ;;
    --with-qemu) packages+=(qemu-user) ;;
    *) echo "install-deps.sh: unknown option '$arg'" >&2; exit 2 ;;
  esac
done

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps.sh: all ${#packages[@]} packages present"
  exit 0
fi
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "install-deps.sh: installing ${missing[*]}"
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
