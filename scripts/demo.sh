#!/usr/bin/env bash
# The README's main command: installs what is needed, builds, and runs msdump's main job on the
# bundled capture testdata/captures/tiny_mix: convert it into an msprobe dump, then show the
# dump's first lines.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
scripts/build.sh >/dev/null
out=${1:-demo-out}
echo "== msdump convert testdata/captures/tiny_mix -o $out/tiny_mix --force"
build/msdump convert testdata/captures/tiny_mix -o "$out/tiny_mix" --force
echo "== $out/tiny_mix/dump.json (first 30 lines)"
head -n 30 "$out/tiny_mix/dump.json"
echo
echo "== msdump stats testdata/captures/tiny_mix/y.pt"
build/msdump stats testdata/captures/tiny_mix/y.pt
