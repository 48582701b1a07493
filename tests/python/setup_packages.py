"""scripts/setup.sh's two package sets, and a build without the tests.

`--list` prints the packages and installs nothing; `--minimal` is what building and running
chesshpc needs (compiler, CMake, MPI, TBB, HDF5, zlib, zstd), inside the full set CI
installs; a configure with -DCHESSHPC_TESTS=OFF asks for no GoogleTest (CMake is told that
none exists).

usage: setup_packages.py SOURCE_DIR CMAKE
"""
import os
import subprocess
import sys
import tempfile

MINIMAL = ["g++", "cmake", "make", "pkg-config", "libopenmpi-dev", "openmpi-bin", "libtbb-dev", "libhdf5-dev",
           "zlib1g-dev", "libzstd-dev", "libisal-dev"]
TEST_ONLY = ["libgtest-dev", "chromium", "slurm-wlm", "munge", "clang", "libclang-rt-14-dev"]


def setup(source, *options):
    return subprocess.run(["bash", os.path.join(source, "scripts", "setup.sh"), *options], capture_output=True,
                          text=True, timeout=60)


def main(source, cmake):
    r = setup(source, "--minimal", "--list")
    assert (r.returncode, r.stderr, r.stdout.split("\n")) == (0, "", MINIMAL + [""]), r
    full = setup(source, "--list")
    assert full.returncode == 0 and full.stderr == "", full
    full = full.stdout.split()
    assert full[:len(MINIMAL)] == MINIMAL and len(set(full)) == len(full), full
    assert all(p in full for p in TEST_ONLY) and not any(p in MINIMAL for p in TEST_ONLY), full
    r = setup(source, "--minimal", "--quick")
    assert (r.returncode, r.stdout) == (2, ""), r
    assert r.stderr == "setup.sh: unknown option '--quick' (options: --minimal, --list)\n", r.stderr

    with tempfile.TemporaryDirectory() as build:
        r = subprocess.run([cmake, "-S", source, "-B", build, "-DCHESSHPC_TESTS=OFF",
                            "-DCMAKE_DISABLE_FIND_PACKAGE_GTest=ON"], capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stdout + r.stderr
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            cache = f.read()
        assert "CHESSHPC_TESTS:BOOL=OFF" in cache, cache
        assert not os.path.exists(os.path.join(build, "tests")), os.listdir(build)
    print(f"--minimal: {len(MINIMAL)} packages of {len(full)}; -DCHESSHPC_TESTS=OFF configures without GoogleTest")


if __name__ == "__main__":
    main(os.path.abspath(sys.argv[1]), sys.argv[2])
