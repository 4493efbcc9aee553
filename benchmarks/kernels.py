"""The structured annealer's two kernels side by side: same samples, sweeps per second.

``make bench-kernels`` (``python -m benchmarks.kernels PUZZLE... --json results/kernels.json``)
runs :class:`~qpicross.samplers.blockshift.sampler.BlockShiftSampler` with a fixed ladder (4
replicas, no early stop) on each puzzle twice, on the BQM kernel and on the board kernel
(``paints=``), with the same seed, and records the replica-sweeps per second of each and
whether their samples are identical. The docs' kernel table (results, what paid) is generated from the file.

Examples:
    >>> from qpicross import Puzzle
    >>> row = measure(Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]]), "letter A",
    ...               sweeps=50, reads=2)
    >>> row["board_kernel"], row["same_samples"]
    ('board', True)
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from qpicross.model.formulation import build_formulation
from qpicross.puzzle.formats.registry import load_puzzles
from qpicross.puzzle.puzzle import Puzzle
from qpicross.samplers.blockshift.sampler import BlockShiftSampler

__all__ = ["measure", "main"]


def measure(puzzle: Puzzle, name: str, sweeps: int = 2000, reads: int = 3, replicas: int = 4, seed: int = 1) -> dict:
    """One puzzle on both kernels: replica-sweeps per second and whether the samples agree."""
    f = build_formulation(puzzle)
    bqm, lines = f.bqm(), f.one_hot_lines()
    sampler = BlockShiftSampler()
    params = dict(lines=lines, num_reads=reads, num_sweeps=sweeps, num_replicas=replicas, seed=seed)
    row = {"puzzle": name, "rows": puzzle.num_rows, "cols": puzzle.num_cols, "num_variables": bqm.num_variables,
           "sweeps": sweeps, "reads": reads, "replicas": replicas}
    samplesets = {}
    for label, extra in (("bqm", {}), ("board", {"paints": f.paints(), "chain": "joint"})):  # one chain, two kernels
        sampler.sample(bqm, **{**params, "num_reads": 1, "num_sweeps": 1}, **extra)  # compiled before timing
        ss = sampler.sample(bqm, **params, **extra)
        samplesets[label] = ss
        row[f"{label}_kernel"] = ss.info["kernel"]
        row[f"{label}_replica_sweeps_per_s"] = reads * sweeps * replicas / ss.info["timing"]["sample_s"]
    row["speedup"] = row["board_replica_sweeps_per_s"] / row["bqm_replica_sweeps_per_s"]
    row["same_samples"] = bool(np.array_equal(samplesets["bqm"].record.sample, samplesets["board"].record.sample))
    return row


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``python -m benchmarks.kernels PUZZLE [PUZZLE ...] [--json FILE]``."""
    from benchmarks.provenance import run_meta, write_results

    parser = argparse.ArgumentParser(prog="python -m benchmarks.kernels", description=__doc__.split("\n")[0])
    parser.add_argument("puzzles", nargs="+", help="puzzle files or FILE#N / FILE#a-b specs")
    parser.add_argument("--sweeps", type=int, default=2000)
    parser.add_argument("--reads", type=int, default=3)
    parser.add_argument("--json", help="write the rows here")
    args = parser.parse_args(argv)
    rows = []
    for spec in args.puzzles:
        for puzzle in load_puzzles(spec):
            name = puzzle.name or Path(spec).stem
            row = measure(puzzle, name, sweeps=args.sweeps, reads=args.reads)
            rows.append(row)
            print(f"{name}: BQM kernel {row['bqm_replica_sweeps_per_s']:.0f}, board kernel "
                  f"{row['board_replica_sweeps_per_s']:.0f} replica-sweeps/s ({row['speedup']:.2f}x), "
                  f"same samples: {row['same_samples']}", flush=True)
    if args.json:
        write_results(args.json, {"meta": run_meta(), "results": rows})
    return 0 if all(r["same_samples"] for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
