#!/usr/bin/env bash
# The GoogleTest suite (ctest label gtest) built with AddressSanitizer and
# UndefinedBehaviorSanitizer in build-asan (CHESSHPC_SANITIZE=address,undefined, with clang:
# GCC 12's UBSan rejects a compile-time check in jobs/io/h5_table.h) and run:
# a sanitizer report fails the test that made it. The Python tests (MPI ranks, reports,
# bench scripts) are left to the normal build: under mpirun the sanitizers would mostly
# report Open MPI's own allocations.
# usage: scripts/sanitize.sh [BUILD_DIR]   (default: build-asan in the repository)
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$root/build-asan}
jobs=$(nproc)

cmake -S "$root" -B "$build" -DCMAKE_C_COMPILER=clang -DCMAKE_CXX_COMPILER=clang++ -DCHESSHPC_SANITIZE=address,undefined
cmake --build "$build" -j"$jobs"
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_stack_use_after_return=1:strict_string_checks=1}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1}
ctest --test-dir "$build" -L gtest --output-on-failure --no-tests=error -j"$jobs"
