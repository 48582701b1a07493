#!/usr/bin/env python3
"""The layer rule of docs/ARCHITECTURE.md, checked against the code.

Reads the table of docs/ARCHITECTURE.md's "Layers and folders" (its folder, owns and may
use columns: the document is the rule's only declaration) and every source file of the
table's folders, and fails (exit 1) with one line for each of:

- an #include "..." of one folder's file into a folder it may not use: a folder may use
  the folders its "may use" column names ("io" for jobs/io/, "jobs/" for every folder of
  jobs/, "everything"), and what those may use in turn;
- an #include "..." that names its path from the including file's folder, not the root;
- a C++ file in none of the table's folders;
- a source file of core/, jobs/ or cluster/ that its folder's row does not name (by its
  name or its name without extension, as a whole word of the row);
- a file, folder or path the document names that does not exist: any path written from
  the root (jobs/perft/units, cluster/slurm/, tests/reference/; jobs/JOB/options.h, a
  part in upper case, is a pattern) anywhere in the document, and any file name with an
  extension (movegen.h, match.py) in a row.

Usage: check_layers.py [ROOT] (the repository's root; default: this script's parent's
parent). Exit 0: the code keeps the rule; 1: it does not; 2: bad usage; 3: the document
has no table to read. Standard library only (Debian's python3).
"""

import os
import re
import sys

DOC = "docs/ARCHITECTURE.md"
CPP = (".h", ".hpp", ".cpp", ".cc", ".c", ".h.in")
NAMED = ("core/", "jobs/", "cluster/")  # folders whose every C++ source file the table names
FILE_NAME = re.compile(r"(?<![\w/.-])[\w-]+(?:\.\w+)*\.(?:h|hpp|cpp|cc|c|in|py|sh|rs|sbatch)\b")
PLACEHOLDER = re.compile(r"[A-Z][A-Z0-9_]+(?:\.|$)")  # JOB, FILE.h5: upper case stands for a name
INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"')


class DocError(Exception):
    """The document cannot be read as the rule (exit 3)."""


def read_table(text):
    """The table's rows as (folder, owns, may_use) from its header row on."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        cells = [c.strip().lower() for c in line.strip().strip("|").split("|")]
        if line.lstrip().startswith("|") and "folder" in cells and "may use" in cells:
            folder, owns, may = cells.index("folder"), cells.index("owns"), cells.index("may use")
            break
    else:
        raise DocError(f"{DOC} has no table with the columns folder, owns and may use")
    rows = []
    for line in lines[i + 2 :]:
        if not line.lstrip().startswith("|"):
            break
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        name = cells[folder].strip("`")
        rows.append((name if name.endswith("/") else name + "/", cells[owns], cells[may]))
    if not rows:
        raise DocError(f"{DOC}'s table has no rows")
    return rows


def resolve(token, folders, row):
    """The folders a token of a "may use" cell names: none for a library or words."""
    if token == "everything":
        return set(folders)
    t = token if token.endswith("/") else token + "/"
    if t in folders:
        return {t}
    under = {f for f in folders if f.startswith(t)}
    if under:  # "jobs/": every folder under it
        return under
    named = {f for f in folders if f.rstrip("/").rsplit("/", 1)[-1] == token}
    if len(named) > 1:
        raise DocError(f"{DOC}: the row of {row} may use '{token}', which names {' and '.join(sorted(named))}")
    return named


def allowed(rows):
    """Each folder's usable folders: what its cell names, closed under use."""
    folders = [r[0] for r in rows]
    direct = {}
    for folder, _, may in rows:
        bare = re.sub(r"\([^)]*\)", "", may)
        direct[folder] = set()
        for token in re.split(r"[,;]", bare):
            direct[folder] |= resolve(token.strip(), folders, folder)
    closed = {}
    for folder in folders:
        seen, todo = {folder}, [folder]
        while todo:
            for f in direct[todo.pop()]:
                if f not in seen:
                    seen.add(f)
                    todo.append(f)
        closed[folder] = seen
    return closed


def folder_of(path, folders):
    """The table folder that holds path (the longest one), or None."""
    best = None
    for f in folders:
        if path.startswith(f) and (best is None or len(f) > len(best)):
            best = f
    return best


def source_files(root, folders):
    """Every file under the table folders' top folders, relative to root, sorted."""
    tops = sorted({f.split("/")[0] for f in folders})
    out = []
    for top in tops:
        for dirpath, dirnames, filenames in os.walk(os.path.join(root, top)):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
            for name in filenames:
                out.append(os.path.relpath(os.path.join(dirpath, name), root).replace(os.sep, "/"))
    return sorted(out)


def crossings(root, files, folders, may):
    """Includes into folders their folder may not use, includes not from the root, and
    C++ files outside the table's folders."""
    out = []
    for path in files:
        if not path.endswith(CPP):
            continue
        source = folder_of(path, folders)
        if source is None:
            out.append(f"{path}: in none of the folders of {DOC}'s table")
            continue
        with open(os.path.join(root, path), encoding="utf-8", errors="replace") as f:
            for n, line in enumerate(f, 1):
                m = INCLUDE.match(line)
                if not m:
                    continue
                target = folder_of(m.group(1), folders)
                if target is None:
                    here = os.path.join(root, os.path.dirname(path), m.group(1))
                    if os.path.isfile(here):
                        out.append(f'{path}:{n}: #include "{m.group(1)}" names its path from {os.path.dirname(path)}/, '
                                   "not from the root")
                elif target not in may[source]:
                    out.append(f'{path}:{n}: {source} may not use {target}: #include "{m.group(1)}"')
    return out


def words(text):
    """The words of text, with and without the dots and dashes of file names."""
    return set(re.findall(r"[\w.-]+", text)) | set(re.findall(r"\w+", text))


def unnamed(files, rows):
    """Source files of NAMED folders their row does not name."""
    text = {folder: words(owns) for folder, owns, _ in rows}
    folders = list(text)
    out = []
    for path in files:
        if not path.startswith(NAMED) or not path.endswith(CPP):
            continue
        folder = folder_of(path, folders)
        if folder is None:
            continue
        name = path[len(folder) :]
        stem = name.split(".")[0]
        if name not in text[folder] and stem not in text[folder]:
            out.append(f"{DOC}: {path} is not named in the row of {folder}")
    return out


def missing(root, text, rows, files):
    """Paths and file names the document names that are not there."""
    folders = [r[0] for r in rows]
    tops = sorted({f.split("/")[0] for f in folders})
    out = []
    path_re = re.compile(r"\b(?:%s)/[\w./-]*" % "|".join(map(re.escape, tops)))
    for n, line in enumerate(text.splitlines(), 1):
        for m in path_re.finditer(line):
            p = m.group(0).rstrip(".")
            stem = p.rstrip("/")
            if os.path.exists(os.path.join(root, stem)) or any(f.startswith(stem + ".") for f in files):
                continue
            if any(PLACEHOLDER.match(part) for part in stem.split("/")):
                continue  # jobs/JOB/options.h: a pattern, not a file
            out.append(f"{DOC}:{n}: names {p}, which does not exist")
    for folder, owns, _ in rows:
        for name in sorted(set(FILE_NAME.findall(owns))):
            under = [f for f in files if f.startswith(folder) and (f == folder + name or f.endswith("/" + name))]
            if not under:
                out.append(f"{DOC}: the row of {folder} names {name}, which is not in {folder}")
    return out


def check(root):
    with open(os.path.join(root, DOC), encoding="utf-8") as f:
        text = f.read()
    rows = read_table(text)
    folders = [r[0] for r in rows]
    files = source_files(root, folders)
    return crossings(root, files, folders, allowed(rows)) + unnamed(files, rows) + missing(root, text, rows, files)


def main(argv):
    if len(argv) > 2 or (len(argv) == 2 and argv[1].startswith("-")):
        print("usage: check_layers.py [ROOT]", file=sys.stderr)
        return 2
    root = argv[1] if len(argv) == 2 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    try:
        problems = check(root)
    except (DocError, OSError) as e:
        print(f"check_layers: {e}", file=sys.stderr)
        return 3
    for p in problems:
        print(f"check_layers: {p}")
    if problems:
        print(f"check_layers: {len(problems)} problem(s): the code and {DOC} disagree")
        return 1
    print(f"check_layers: every include keeps {DOC}'s layers, and its table names every file")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
