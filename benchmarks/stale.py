"""``make stale-results``: every results file listed as current or changed (:mod:`benchmarks.provenance`).

``python -m benchmarks.stale [FOLDER]`` draws today's samples fingerprints, prints each file's status with the
commit it names and, for a changed file, which family changed and why, then how many of each the README and the
current docs pages quote and how many only the archive pages do. ``--stamp FILE...`` stamps files instead
(``--tree DIR``: drawn by another checkout's package); ``--check`` exits 1 when a file is changed;
``--upgrade [FILE...]`` stamps files (default: every one of the folder that needs it) with today's probes where an
older probe version stamped them (:func:`benchmarks.provenance.upgrade`), each drawn by the package of the commit
it names, checked out in a temporary git worktree (one for every commit whose ``qpicross/`` differs).
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from benchmarks.provenance import ROOT, _git, outdated_families, results_status, stamp, upgrade

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m benchmarks.stale [FOLDER]``: list every results file as current or changed.

    With ``--stamp FILE...``: stamp those files instead (:func:`stamp`). Exit status 1 with ``--check`` when a
    file is changed."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.stale",
                                     description="Sort results files by whether today's code draws their samples.")
    parser.add_argument("folder", nargs="?", default=str(ROOT / "results"), help="a folder of results files")
    parser.add_argument("--stamp", nargs="+", metavar="FILE", help="stamp these results files with fingerprints")
    parser.add_argument("--tree", type=Path, help="with --stamp: the checkout whose package ran (default: this one)")
    parser.add_argument("--check", action="store_true", help="exit 1 when some file is changed")
    parser.add_argument("--upgrade", nargs="*", metavar="FILE", help="stamp these results files (default: every one "
                        "of the folder an older probe version stamped) with today's probes, at their commits")
    args = parser.parse_args(argv)
    if args.upgrade is not None:
        return _upgrade(args.upgrade or sorted(Path(args.folder).glob("*.json")))
    if args.stamp:
        for path in args.stamp:
            meta = stamp(path, tree=args.tree)
            print(f"{path}: " + ", ".join(meta["fingerprints"]))
        return 0
    start = time.perf_counter()
    rows = results_status(args.folder)
    for name, status, detail in rows:
        print(f"{status:8} {name}  {detail}")
    counts = {s: sum(status == s for _, status, _ in rows) for s in ("current", "changed")}
    print(f"{counts['current']} current, {counts['changed']} changed "
          f"(today's fingerprints drawn in {time.perf_counter() - start:.1f} s)")
    if Path(args.folder).resolve() == (ROOT / "results").resolve():  # the repository's: say which the pages quote
        from benchmarks.report import quoted_files

        for archive, where in ((False, "the README and the current pages"), (True, "the archive pages")):
            quoted = quoted_files(archive=archive)
            mine = [status for name, status, _ in rows if name in quoted]
            print(f"quoted by {where}: " + ", ".join(f"{mine.count(s)} {s}" for s in counts))
    return 1 if args.check and counts["changed"] else 0


def _upgrade(paths) -> int:
    """``--upgrade``: each file an older probe version stamped, drawn again at its commit (:func:`upgrade`)."""
    by_package: dict[str, tuple[str, list[Path]]] = {}  # qpicross/'s tree -> a commit that has it, its files
    for path in map(Path, paths):
        meta = json.loads(path.read_text()).get("meta") or {}
        if not outdated_families(meta):
            continue
        if meta.get("dirty") or not meta.get("commit"):
            print(f"{path.name}: left as it is: {'uncommitted changes ran it' if meta.get('commit') else 'no commit'}")
            continue
        package = _git("rev-parse", f"{meta['commit']}:qpicross")
        if package is None:
            print(f"{path.name}: left as it is: commit {meta['commit']} is not in this repository")
            continue
        by_package.setdefault(package, (meta["commit"], []))[1].append(path)
    for commit, files in by_package.values():
        with tempfile.TemporaryDirectory(prefix=f"fingerprint-{commit}-") as folder:
            tree = Path(folder) / commit
            if _git("worktree", "add", "--detach", "--quiet", str(tree), commit) is None:
                names = ", ".join(path.name for path in files)
                print(f"{names}: left as it is: commit {commit} could not be checked out")
                continue
            try:
                for name, done in upgrade(files, tree).items():
                    print(f"{name}: {done}", flush=True)
            finally:
                _git("worktree", "remove", "--force", str(tree))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
