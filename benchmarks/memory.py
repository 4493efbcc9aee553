"""The size guard against the memory runs really take: ``make bench-memory``.

For random boards of density 0.55 (seed 1) of a few sizes, and the paths the guard admits
(the default annealer, ``--presolve``, plain SA, the domain-wall and thermometer encodings, tabu's
dense matrix), each run is ``qpicross anneal BOARD --reads 1 --time-limit 2 --seed 1 [OPTIONS]`` in
a fresh process, whose peak resident memory is read with ``getrusage`` in a wrapper process, next
to the estimate the guard makes for it before building anything
(:func:`qpicross.pipeline.run.check_run_size`). Writes ``results/memory.json``; the docs' size-guard
table (:func:`memory_table`) is generated from it. Run it from the repository root::

    python -m benchmarks.memory --json results/memory.json

Examples:
    >>> print(memory_table([{"size": 60, "path": "anneal", "num_couplers": 10, "estimated_bytes": 2**30,
    ...                      "peak_bytes": 2**29, "exit": 0}]))
    | board | path | coupler entries | estimate | peak RSS | peak / estimate |
    |---|---|---:|---:|---:|---:|
    | 60×60 | anneal | 10 | 1024 MiB | 512 MiB | 0.50 |
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

import numpy as np

__all__ = ["CASES", "peak_rss", "measure", "memory_table", "main"]

#: (board side, label, anneal options, SolverConfig fields of the same run)
CASES: tuple[tuple[int, str, tuple[str, ...], dict], ...] = (
    (60, "anneal", (), {}),
    (100, "anneal", (), {}),
    (100, "anneal --presolve", ("--presolve",), {"presolve": True}),
    (100, "anneal --sampler sa", ("--sampler", "sa"), {"sampler": "sa"}),
    (100, "anneal --encoding domain-wall --sampler sa", ("--encoding", "domain-wall", "--sampler", "sa"),
     {"sampler": "sa", "encoding": "domain_wall"}),
    (100, "anneal --encoding thermometer --sampler sa", ("--encoding", "thermometer", "--sampler", "sa"),
     {"sampler": "sa", "encoding": "thermometer"}),
    (40, "anneal --sampler tabu", ("--sampler", "tabu"), {"sampler": "tabu"}),
    (150, "anneal", (), {}),
    (150, "anneal --presolve", ("--presolve",), {"presolve": True}),
)

#: Runs the command line in a grandchild and prints its exit status and peak resident memory (bytes).
_PEAK = ("import resource, subprocess, sys; "
         "rc = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode; "
         "print(rc, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * 1024)")


def peak_rss(argv: Sequence[str], *, env: dict | None = None, cwd: str | Path | None = None,
             timeout: float | None = None) -> tuple[int, int]:
    """``(exit status, peak resident bytes)`` of the command ``argv`` run in a fresh process: its own peak,
    whatever the caller's process held before (read by a wrapper process that runs nothing else)."""
    proc = subprocess.run([sys.executable, "-c", _PEAK, *argv], capture_output=True, text=True, check=True, env=env,
                          cwd=cwd, timeout=timeout)
    rc, peak = map(int, proc.stdout.split())
    return rc, peak


def measure(side: int, options: Sequence[str], config: dict, folder: Path) -> dict:
    """One case: the guard's estimate and the run's peak resident memory."""
    from qpicross import Puzzle, save_puzzle
    from qpicross.classical.generate import random_board
    from qpicross.model.size import estimate_size
    from qpicross.pipeline.config import SolverConfig
    from qpicross.pipeline.run import check_run_size

    puzzle = Puzzle.from_board(random_board((side, side), 0.55, np.random.default_rng(1)), name=f"random{side}")
    path = folder / f"random{side}.px"
    save_puzzle(puzzle, path)
    estimate = check_run_size(puzzle, SolverConfig(num_reads=1, **config), max_couplers=10**12)["estimated_bytes"]
    argv = [sys.executable, "-m", "qpicross", "anneal", str(path), "--reads", "1", "--time-limit", "2", "--seed", "1",
            "--max-memory", "20G", *options]
    rc, peak = peak_rss(argv)
    return {"size": side, "num_couplers": estimate_size(puzzle)["num_couplers"], "estimated_bytes": int(estimate),
            "peak_bytes": peak, "exit": rc}


def _mib(n: float) -> str:
    return f"{n / 2**30:.1f} GiB" if n >= 4 * 2**30 else f"{n / 2**20:.0f} MiB"


def memory_table(rows: Sequence[dict]) -> str:
    """Board, path, coupler entries, the guard's estimate, the measured peak and their ratio."""
    lines = ["| board | path | coupler entries | estimate | peak RSS | peak / estimate |", "|---|---|---:|---:|---:|---:|"]
    for r in rows:
        lines.append(f"| {r['size']}×{r['size']} | {r['path']} | {r['num_couplers']:,} | {_mib(r['estimated_bytes'])} "
                     f"| {_mib(r['peak_bytes'])} | {r['peak_bytes'] / r['estimated_bytes']:.2f} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.memory", description=__doc__.split("\n")[0])
    parser.add_argument("--json", default="results/memory.json")
    args = parser.parse_args(argv)
    from benchmarks.provenance import run_meta, write_results
    from qpicross.experiments.result import load_average

    meta = run_meta()  # at the start: the code that runs
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        for side, label, options, config in CASES:
            row = {"path": label, **measure(side, options, config, Path(folder))}
            print(f"{side}x{side} {label}: estimate {_mib(row['estimated_bytes'])}, peak {_mib(row['peak_bytes'])}",
                  file=sys.stderr, flush=True)
            rows.append(row)
    meta["load_average_after"] = load_average()
    write_results(args.json, {"meta": meta, "results": rows})
    print(memory_table(rows))
    return 1 if any(r["peak_bytes"] > r["estimated_bytes"] for r in rows) else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
