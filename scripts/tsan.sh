#!/usr/bin/env bash
# The threaded tests (the table shared by perft's threads, perft's parallel divide, the
# task farm's queues, ledger, checkpoint thread and driver) built with ThreadSanitizer in
# build-tsan (CHESSHPC_SANITIZE=thread, which adds -mpopcnt: GCC's target_clones
# resolvers crash TSan at load) and run with scripts/tsan.supp, whose entries are TBB's
# own task objects that TSan cannot see handed over (Debian's libtbb is not instrumented;
# what our code hands through TBB is annotated with core/tsan.h). A report that is left
# makes the run exit 66.
# usage: scripts/tsan.sh [BUILD_DIR]   (default: build-tsan in the repository)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build-tsan}

cmake -S "$root" -B "$build" -DCHESSHPC_SANITIZE=thread
cmake --build "$build" -j"$(nproc)" --target test_perft_table test_cluster
export TSAN_OPTIONS="suppressions=$root/scripts/tsan.supp exitcode=66 ${TSAN_OPTIONS:-}"
status=0
for test in test_perft_table test_cluster; do
  "$build/tests/$test" || status=$?
done
exit "$status"
