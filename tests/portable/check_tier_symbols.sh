#!/usr/bin/env bash
# A SIMD tier's object files (cmake/SimdTiers.cmake) must define no external symbol that
# baseline code could also use: an inline function or template instantiation shared with the
# baseline would be emitted with the tier's instructions, and the linker keeps one copy for
# every caller (an illegal instruction on an older CPU). Every global or weak symbol they
# define must match ALLOWED (an extended regex: the tier's namespace, xsimd code specialised
# for the tier's architecture).
#   check_tier_symbols.sh NM OBJECT_DIR ALLOWED_REGEX
set -uo pipefail
NM=$1 DIR=$2 ALLOWED=$3
mapfile -t objects < <(find "$DIR" -name '*.o' | sort)
if [ ${#objects[@]} -eq 0 ]; then
  echo "FAIL: no object files under $DIR"
  exit 1
fi
defined=$("$NM" -C --defined-only --extern-only "${objects[@]}" | grep -E '^[0-9a-f]+ [A-Za-z] ' | cut -d' ' -f3-)
if [ -z "$defined" ]; then
  echo "FAIL: no symbols defined in ${objects[*]}"
  exit 1
fi
# (DW.ref.__gxx_personality_v0: a pointer the unwinder reads, no code)
shared=$(grep -Ev -- "$ALLOWED|^DW\.ref\.__gxx_personality_v0\$" <<<"$defined")
if [ -n "$shared" ]; then
  echo "FAIL: symbols outside '$ALLOWED' in ${objects[*]}:"
  echo "$shared" | head -40
  exit 1
fi
echo "ok: $(wc -l <<<"$defined") symbols, all matching '$ALLOWED'"
