"""Trees compared puzzle by puzzle: ``make bench-no-slowdown``'s runs interleaved.

Run one tree's whole bench and then the next, and whatever makes the machine faster or slower over
the half hour (other work, its clock, a neighbour on the host) falls on one tree more than the other:
the puzzle-bootstrap interval of a ratio cannot see it. Here every puzzle is run by every tree in turn
(``qpicross bench PUZZLE ARGS`` from the tree's own checkout, so that its qpicross is the one imported),
so a drift reaches every tree's reads of that puzzle alike; each tree's rows are then written to its own
results file, as one bench run of all the puzzles would have, with the puzzles' collections as their
sources and the tree's first ``meta`` stamped with its commit and samples fingerprints, plus the interleaving.

``python -m benchmarks.interleave --tree head=build/head:results/h.json --tree cc7ae6e=build/base:results/c.json
SPEC... -- BENCH-ARGS...`` (``make bench-no-slowdown`` writes the command). A tree given with a label
(``LABEL=DIR:OUT``) other than ``head`` runs with ``--label shift-LABEL``.

>>> [spec for spec, _ in single_specs(["x/taai2011.txt#3-5"])]
['x/taai2011.txt#3', 'x/taai2011.txt#4', 'x/taai2011.txt#5']
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.fingerprint import families_of
from benchmarks.provenance import stamp_meta
from qpicross.experiments.result import load_average
from qpicross.puzzle.formats.registry import _directory_files, split_spec

__all__ = ["single_specs", "tree_provenance", "interleave", "main"]


def single_specs(specs: list[str]) -> list[tuple[str, str]]:
    """``(one puzzle's spec, the collection it came from)`` for every puzzle the specs name, in bench's order."""
    out = []
    for spec in specs:
        path, numbers = split_spec(spec)
        if path.is_dir():
            out += [(str(file), spec) for file in _directory_files(path, None)]
        elif numbers is not None:
            out += [(f"{path}#{n}", spec) for n in numbers]
        else:
            out.append((spec, spec))
    return out


def tree_provenance(meta: dict, tree: Path, rows: list[dict]) -> dict:
    """``meta`` of the file a tree's runs wrote, stamped as :func:`benchmarks.provenance.stamp` would in that
    tree: its commit, whether it had uncommitted changes, and the fingerprints of the families its ``rows``
    measure, drawn by the tree's own package (:func:`~benchmarks.provenance.stamp_meta` with ``tree``)."""
    return stamp_meta(meta, families_of({"meta": {}, "results": rows}), tree)


def interleave(trees: list[tuple[str, Path, Path]], specs: list[str], bench_args: list[str], cpu: str | None) -> int:
    """Run every puzzle on every tree in turn and write each tree's results file; the exit status is 1 when
    some tree left a puzzle unsolved (as ``qpicross bench``'s), 2 when a run failed."""
    rows = {label: [] for label, _, _ in trees}
    metas: dict[str, dict] = {}
    worst = 0
    puzzles = single_specs(specs)
    with tempfile.TemporaryDirectory() as scratch:
        for index, (spec, collection) in enumerate(puzzles, 1):
            for label, tree, _ in trees:
                part = Path(scratch) / f"{label}.json"
                command = [sys.executable, "-m", "qpicross", "bench", spec, *bench_args, "--json", str(part)]
                if label != "head":
                    command += ["--label", f"shift-{label}"]
                if cpu is not None:
                    command = ["taskset", "-c", cpu, *command]
                code = subprocess.run(command, cwd=tree, stdout=subprocess.DEVNULL).returncode
                if code not in (0, 1):
                    print(f"interleave: {label} failed on {spec} (exit {code})", file=sys.stderr)
                    return 2
                worst = max(worst, code)
                data = json.loads(part.read_text())
                metas.setdefault(label, data["meta"])
                for row in data["results"]:
                    rows[label].append({**row, "source": collection})
            print(f"[{index}/{len(puzzles)}] {spec}", file=sys.stderr, flush=True)
    ended, after = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()), load_average()
    for label, tree, out in trees:
        meta = {**tree_provenance(metas[label], Path(tree), rows[label]), "interleaved": [name for name, _, _ in trees],
                "time_utc_end": ended, "load_average_after": after,
                "command": "python -m benchmarks.interleave " + " ".join(specs) + " -- " + " ".join(bench_args)}
        Path(out).write_text(json.dumps({"meta": meta, "results": rows[label]}, indent=1) + "\n")
    return worst


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    ours, bench_args = (argv[:argv.index("--")], argv[argv.index("--") + 1:]) if "--" in argv else (argv, [])
    parser = argparse.ArgumentParser(prog="python -m benchmarks.interleave", description=__doc__.split("\n")[0])
    parser.add_argument("specs", nargs="+", metavar="SPEC", help="puzzle files, directories, FILE#a-b")
    parser.add_argument("--tree", action="append", required=True, metavar="LABEL=DIR:OUT",
                        help="a checkout to run (head: this tree) and the results file it writes")
    parser.add_argument("--cpu", default=None, help="taskset's CPU list for every run")
    args = parser.parse_args(ours)
    trees = []
    for item in args.tree:
        label, _, rest = item.partition("=")
        tree, _, out = rest.partition(":")
        trees.append((label, Path(tree).resolve(), Path(out).resolve()))
    return interleave(trees, args.specs, bench_args, args.cpu)


if __name__ == "__main__":
    sys.exit(main())
