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
(``LABEL=DIR:OUT``) other than ``head`` runs with ``--label shift-LABEL``. With ``--journal DIR`` a run longer than a
sitting (``make bench-tail-target``'s hours) keeps each puzzle as it finishes and resumes where it was cut; with
``--shard K/N`` it is split between ``N`` runs, one a core, that share the journal (:func:`interleave`).

>>> [spec for spec, _ in single_specs(["x/taai2011.txt#3-5"])]
['x/taai2011.txt#3', 'x/taai2011.txt#4', 'x/taai2011.txt#5']
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.fingerprint import families_of
from benchmarks.provenance import repository_state, stamp_meta
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


def interleave(trees: list[tuple[str, Path, Path]], specs: list[str], bench_args: list[str], cpu: str | None,
               journal: Path | None = None, shard: tuple[int, int] = (0, 1)) -> int:
    """Run every puzzle on every tree in turn and write each tree's results file; the exit status is 1 when
    some tree left a puzzle unsolved (as ``qpicross bench``'s), 2 when a run failed.

    With a ``journal`` directory each puzzle's runs are kept there as they finish (:func:`_part`), so that a run
    cut short resumes where it stopped: a puzzle already there, run by the same commits with the same arguments,
    is not run again (another run's journal is an error, not overwritten). ``shard=(k, n)`` runs only the
    puzzles whose index is ``k`` modulo ``n``: ``n`` runs with one journal, on ``n`` cores or one after another,
    measure the puzzles once between them. The results files are written when the journal holds every puzzle,
    by whichever run completes it, and the journal is then removed: a later run measures afresh.
    """
    puzzles = single_specs(specs)
    own = journal is None
    journal = Path(tempfile.mkdtemp(prefix="interleave-")) if own else Path(journal).resolve()  # runs elsewhere
    journal.mkdir(parents=True, exist_ok=True)
    key = {"trees": {label: repository_state(Path(tree)) for label, tree, _ in trees}, "bench_args": bench_args}
    worst = 0
    try:
        for index, (spec, collection) in enumerate(puzzles):
            if index % shard[1] != shard[0]:
                continue
            kept = _part(journal, index, spec, key)
            if kept is not None:
                worst = max(worst, kept["worst"])
                print(f"[{index + 1}/{len(puzzles)}] {spec}: in the journal, not run again", file=sys.stderr, flush=True)
                continue
            runs = _run_puzzle(trees, spec, collection, bench_args, cpu, journal)
            if runs is None:
                return 2
            worst = max(worst, runs["worst"])
            _write_atomic(journal / f"{index:05d}.json", {**runs, "key": key, "spec": spec})
            print(f"[{index + 1}/{len(puzzles)}] {spec}", file=sys.stderr, flush=True)
        parts = [_part(journal, i, spec, key) for i, (spec, _) in enumerate(puzzles)]
        if any(part is None for part in parts):
            done = sum(part is not None for part in parts)
            print(f"interleave: {done} of {len(puzzles)} puzzles in {journal}; the results files are written once "
                  "the other shards (or a resumed run) measure the rest", file=sys.stderr)
            return worst
        _write_trees(trees, parts, specs, bench_args)
        shutil.rmtree(journal, ignore_errors=True)
        return max(part["worst"] for part in parts) if parts else worst
    except _JournalMismatch as error:
        print(f"interleave: {error}", file=sys.stderr)
        return 2
    finally:
        if own:
            shutil.rmtree(journal, ignore_errors=True)


class _JournalMismatch(Exception):
    """A journal written by another run (other commits, arguments or puzzles)."""


def _part(journal: Path, index: int, spec: str, key: dict) -> dict | None:
    """The journal's runs of puzzle ``index`` (``spec``), or None where it has none; a :class:`_JournalMismatch`
    where they are another run's."""
    path = journal / f"{index:05d}.json"
    if not path.is_file():
        return None
    part = json.loads(path.read_text())
    if part.get("key") != key or part.get("spec") != spec:
        raise _JournalMismatch(f"{path} holds a run of other commits, arguments or puzzles ({part.get('key')}, "
                               f"{part.get('spec')}); remove {journal} to measure afresh")
    return part


def _run_puzzle(trees, spec: str, collection: str, bench_args: list[str], cpu: str | None, scratch: Path):
    """Every tree's ``qpicross bench`` of one puzzle, in turn: ``{"rows": {label: rows}, "metas": {label: meta},
    "worst": exit status}``, or None where a run failed."""
    runs = {"rows": {}, "metas": {}, "worst": 0, "cpu": cpu}
    for label, tree, _ in trees:
        part = scratch / f"running-{os.getpid()}-{label}.json"  # shards share the folder
        command = [sys.executable, "-m", "qpicross", "bench", spec, *bench_args, "--json", str(part)]
        if label != "head":
            command += ["--label", f"shift-{label}"]
        if cpu is not None:
            command = ["taskset", "-c", cpu, *command]
        code = subprocess.run(command, cwd=tree, stdout=subprocess.DEVNULL).returncode
        if code not in (0, 1):
            print(f"interleave: {label} failed on {spec} (exit {code})", file=sys.stderr)
            return None
        runs["worst"] = max(runs["worst"], code)
        data = json.loads(part.read_text())
        part.unlink()
        runs["metas"][label] = {**data["meta"], "time_utc_end": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                                "load_average_after": load_average()}
        runs["rows"][label] = [{**row, "source": collection} for row in data["results"]]
    return runs


def _write_trees(trees, parts: list[dict], specs: list[str], bench_args: list[str]) -> None:
    """Each tree's results file from the journal's ``parts`` (in the puzzles' order): its rows, and the meta of its
    first puzzle's run stamped with the tree's provenance, the interleaving, the run's first start and last end,
    and the CPUs the shards ran on."""
    for label, tree, out in trees:
        rows = [row for part in parts for row in part["rows"][label]]
        metas = [part["metas"][label] for part in parts]
        first = min(metas, key=lambda m: m.get("time_utc", ""))
        last = max(metas, key=lambda m: m.get("time_utc_end", ""))
        meta = {**tree_provenance(metas[0], Path(tree), rows), "interleaved": [name for name, _, _ in trees],
                "time_utc": first.get("time_utc"), "time_utc_end": last.get("time_utc_end"),
                "load_average_after": last.get("load_average_after"),
                "interleave_cpus": sorted({str(part.get("cpu")) for part in parts}),
                "command": "python -m benchmarks.interleave " + " ".join(specs) + " -- " + " ".join(bench_args)}
        _write_atomic(Path(out), {"meta": meta, "results": rows})


def _write_atomic(path: Path, data: dict) -> None:
    """``data`` as JSON at ``path``, by a rename: a run stopped while writing leaves no half file."""
    scratch = path.with_name(path.name + ".tmp")
    scratch.write_text(json.dumps(data, indent=1) + "\n")
    scratch.replace(path)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    ours, bench_args = (argv[:argv.index("--")], argv[argv.index("--") + 1:]) if "--" in argv else (argv, [])
    parser = argparse.ArgumentParser(prog="python -m benchmarks.interleave", description=__doc__.split("\n")[0])
    parser.add_argument("specs", nargs="+", metavar="SPEC", help="puzzle files, directories, FILE#a-b")
    parser.add_argument("--tree", action="append", required=True, metavar="LABEL=DIR:OUT",
                        help="a checkout to run (head: this tree) and the results file it writes")
    parser.add_argument("--cpu", default=None, help="taskset's CPU list for every run")
    parser.add_argument("--journal", type=Path, default=None, metavar="DIR",
                        help="keep each puzzle's runs here as they finish; a run cut short resumes from it")
    parser.add_argument("--shard", default="0/1", metavar="K/N",
                        help="run only the puzzles whose index is K modulo N (N runs share one journal)")
    args = parser.parse_args(ours)
    trees = []
    for item in args.tree:
        label, _, rest = item.partition("=")
        tree, _, out = rest.partition(":")
        trees.append((label, Path(tree).resolve(), Path(out).resolve()))
    k, _, n = args.shard.partition("/")
    if not (k.isdigit() and n.isdigit() and int(k) < int(n)):
        parser.error(f"--shard {args.shard}: give K/N with 0 <= K < N")
    return interleave(trees, args.specs, bench_args, args.cpu, args.journal, (int(k), int(n)))


if __name__ == "__main__":
    sys.exit(main())
