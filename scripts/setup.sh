#!/usr/bin/env bash
# Installs the Debian 12 packages chesshpc needs to build, test, benchmark and
# analyse. Idempotent: when everything is already installed it prints nothing,
# does not touch apt, and exits 0. Otherwise it runs `apt-get update` once and
# installs only the missing packages, printing a single line. Runs as root, or
# through sudo when not root.
#
#   bash scripts/setup.sh [--minimal] [--list]
#
# --minimal: only what building and running chesshpc needs (compiler, CMake, MPI, TBB,
#   HDF5, zlib, zstd, ISA-L); build it with -DCHESSHPC_TESTS=OFF, which needs no GoogleTest.
# --list: print the packages (one a line) and install nothing.
set -euo pipefail

minimal=(
  # toolchain (pkg-config finds libzstd)
  g++ cmake make pkg-config
  # MPI, threads, HDF5 output
  libopenmpi-dev openmpi-bin libtbb-dev libhdf5-dev
  # PGN corpora read compressed (.gz, .zst); HDF5 chunks deflated by ISA-L
  zlib1g-dev libzstd-dev libisal-dev
)
full=(
  "${minimal[@]}"
  # provenance (the commit in every result file), h5dump
  git hdf5-tools
  # fuzzing (scripts/fuzz.sh): clang with libFuzzer and its sanitizer runtimes
  clang libclang-rt-14-dev
  # tests (libgtest-dev ships CMake's GTestConfig and pulls in googletest)
  libgtest-dev
  # analysis and benchmarks
  python3 python3-h5py python3-numpy python3-matplotlib stockfish hyperfine
  # the Python package chesshpc's tests (pytest) and its optional pandas and PyTorch parts
  # (python3-torch 1.13 brings 224 packages, 854 MB installed: the three took 100 s to
  # install on the 2-core machine)
  python3-pytest python3-pandas python3-torch
  # the HTML report test opens the page in headless Chromium
  chromium
  # the emulated cluster (scripts/cluster.sh): ip netns and veth links (nsenter and
  # unshare come with util-linux, which every Debian has)
  iproute2
  # the Slurm templates' test starts a one-node cluster (3.5 MB to download, 13 MB
  # installed, about 20 s to install)
  slurm-wlm munge
)

die() {
  echo "setup.sh: error: $*" >&2
  exit 1
}

packages=("${full[@]}")
list=false
for arg in "$@"; do
  case $arg in
    --minimal) packages=("${minimal[@]}") ;;
    --list) list=true ;;
    *)
      echo "setup.sh: unknown option '$arg' (options: --minimal, --list)" >&2
      exit 2
      ;;
  esac
done
if $list; then
  printf '%s\n' "${packages[@]}"
  exit 0
fi

# A package counts as present only when dpkg reports it fully installed ("ii").
missing=()
for pkg in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$pkg" 2>/dev/null || true)
  if [[ "$status" != ii* ]]; then
    missing+=("$pkg")
  fi
done

((${#missing[@]} == 0)) && exit 0

command -v apt-get >/dev/null 2>&1 || die "apt-get not found; this script targets Debian 12"

if ((EUID == 0)); then
  as_root=()
elif command -v sudo >/dev/null 2>&1; then
  as_root=(sudo)
else
  die "not root and sudo is not available; run as root to install: ${missing[*]}"
fi

log=$(mktemp "${TMPDIR:-/tmp}/chesshpc-setup.XXXXXX.log")
apt_env=(env DEBIAN_FRONTEND=noninteractive)
# Wait for another apt/dpkg (e.g. unattended-upgrades on a fresh machine)
# instead of failing at once on its lock.
apt_opts=(-qq -o DPkg::Lock::Timeout=600)

fail() {
  echo "setup.sh: error: $1 failed; last lines of $log:" >&2
  tail -n 40 "$log" >&2 || true
  exit 1
}

"${as_root[@]}" "${apt_env[@]}" apt-get "${apt_opts[@]}" update >>"$log" 2>&1 \
  || fail "apt-get update"
"${as_root[@]}" "${apt_env[@]}" apt-get "${apt_opts[@]}" install -y --no-install-recommends \
  "${missing[@]}" >>"$log" 2>&1 \
  || fail "apt-get install ${missing[*]}"

# Make sure dpkg now agrees every requested package is installed.
still_missing=()
for pkg in "${missing[@]}"; do
  status=$(dpkg-query -W -f='${db:Status-Abbrev}' "$pkg" 2>/dev/null || true)
  [[ "$status" == ii* ]] || still_missing+=("$pkg")
done
((${#still_missing[@]} == 0)) || fail "installing ${still_missing[*]}"

rm -f "$log"
echo "setup.sh: installed ${#missing[@]} package(s): ${missing[*]}"
