# All dependencies come from Debian packages (scripts/install-deps.sh installs them). The README's
# dependency table says what each is used for; simdjson and xtensor are not used (README).
set(THREADS_PREFER_PTHREAD_FLAG ON)
find_package(Threads REQUIRED)
find_package(CLI11 CONFIG REQUIRED)
# Debian's xsimd target names xtl as an interface library (headers only; xsimd does not need it
# otherwise): its package must be found for the target to resolve.
find_package(xtl CONFIG REQUIRED)
find_package(xsimd CONFIG REQUIRED)
find_package(fmt CONFIG REQUIRED)
find_package(spdlog CONFIG REQUIRED)
find_package(doctest CONFIG REQUIRED)
