#!/usr/bin/env bash
# Everything CI runs (README's test command, .ci/run): installs the packages, builds, runs
# the whole ctest suite, then the GoogleTest suite under ASan and UBSan
# (scripts/sanitize.sh) and every fuzz harness over a fixed set of inputs
# (scripts/fuzz.sh --fixed), saying how long each stage took.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$root"

stage() {
  local start=$SECONDS
  "$@"
  echo "test.sh: '$*' took $((SECONDS - start)) s"
}

stage bash scripts/setup.sh
stage cmake -S . -B build
stage cmake --build build -j"$(nproc)"
stage ctest --test-dir build --output-on-failure --no-tests=error -j"$(nproc)"
stage bash scripts/sanitize.sh
stage bash scripts/fuzz.sh --fixed
