"""scripts/check_layers.py on small trees made here: it fails on what it must fail on.

Usage: check_layers_cases.py CHECKER CASE, CASE one of
  crossing  a core/ header including a jobs/io/ one: the crossing's one line, exit 1; the
            same tree without that include: exit 0
  missing   a core/ file the table does not name, a file name and a path the document
            names that do not exist: one line each, exit 1
"""

import os
import subprocess
import sys
import tempfile

TABLE = """# architecture

| folder | owns | may use |
|---|---|---|
| core/ | the position and FEN (position){core_names} | C++20 std, TBB |
| jobs/io/ | the HDF5 layer (h5, the only place HDF5's API appears) | core/, HDF5 |
{prose}
"""


def make_tree(root, doc, files):
    for path, text in {"docs/ARCHITECTURE.md": doc, **files}.items():
        os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
        with open(os.path.join(root, path), "w") as f:
            f.write(text)


def run(checker, root):
    r = subprocess.run([sys.executable, checker, root], capture_output=True, text=True, timeout=30)
    return r.returncode, r.stdout.splitlines(), r.stderr


def expect(what, got, want):
    if got != want:
        print(f"{what}: got {got!r}, want {want!r}")
        return False
    return True


def crossing(checker, root):
    doc = TABLE.format(core_names="", prose="")
    h5 = '#pragma once\n\n#include "core/position.h"\n'
    bad = '// The position.\n#pragma once\n#include "jobs/io/h5.h"  // header-only: it would link\n'
    make_tree(root, doc, {"core/position.h": bad, "core/position.cpp": '#include "core/position.h"\n',
                          "jobs/io/h5.h": h5})
    ok = expect("crossing", run(checker, root)[:2],
                (1, ['check_layers: core/position.h:3: core/ may not use jobs/io/: #include "jobs/io/h5.h"',
                     "check_layers: 1 problem(s): the code and docs/ARCHITECTURE.md disagree"]))
    make_tree(root, doc, {"core/position.h": "#pragma once\n"})
    return ok & expect("no crossing", run(checker, root)[:2],
                       (0, ["check_layers: every include keeps docs/ARCHITECTURE.md's layers, "
                            "and its table names every file"]))


def missing(checker, root):
    doc = TABLE.format(core_names=", legal move generation (movegen.h)",
                       prose="\nThe collectives (jobs/io/exchange.h), the layer (jobs/io/h5), each job's options\n"
                       "(jobs/JOB/options.h).\n")
    make_tree(root, doc, {"core/position.h": "#pragma once\n", "core/pack.h": "#pragma once\n",
                          "core/pack.cpp": '#include "core/pack.h"\n', "jobs/io/h5.cpp": '#include "core/pack.h"\n'})
    return expect("missing", run(checker, root)[:2],
                  (1, ["check_layers: docs/ARCHITECTURE.md: core/pack.cpp is not named in the row of core/",
                       "check_layers: docs/ARCHITECTURE.md: core/pack.h is not named in the row of core/",
                       "check_layers: docs/ARCHITECTURE.md:8: names jobs/io/exchange.h, which does not exist",
                       "check_layers: docs/ARCHITECTURE.md: the row of core/ names movegen.h, which is not in core/",
                       "check_layers: 4 problem(s): the code and docs/ARCHITECTURE.md disagree"]))


def main():
    checker, case = sys.argv[1], sys.argv[2]
    with tempfile.TemporaryDirectory() as root:
        ok = {"crossing": crossing, "missing": missing}[case](checker, root)
    print("ok" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
