"""Where a tournament puzzle's time goes: ``make bench-breakdown``.

Each puzzle is solved as the tournament pass solves it (:func:`~qpicross.experiments.tournament.run_tournament`:
one core, reads until the first that reaches the ground state and passes the check, the kernels compiled once
before the clock: the first puzzle is also solved once unrecorded), and its wall time is split by the timings the pipeline and the block-shift annealer record:

* ``build``: the formulation and its BQM, with the size checks (the pipeline's ``build_s``);
* ``structure``: the annealer's preprocessing: its model arrays from the layout, the kernels' cache (``preprocess_s``);
* ``calibration``: the timed sweeps that estimate a sweep's cost (``calibration_s``);
* ``restarts``: the compiled restarts, a thread's start and wait included (``restart_s``);
* ``between``: Python between restarts and reads (the reads' time less the two above);
* ``sample set``: the rest of the sampling calls (the sample set and its energies, the run control);
* ``decode``: judging every read (``decode_s``); ``other``: whatever the pipeline does besides.

Code that records no ``restart_s`` (before the counters) gets ``restarts`` and ``between`` as one part. Run from the
repository root (``PYTHONPATH`` picks the tree measured)::

    python -m benchmarks.breakdown FILE#1-100 --label head --json OUT.json

Examples:
    >>> row = {"wall_s": 1.0, "build_s": 0.1, "sample_s": 0.8, "decode_s": 0.05, "preprocess_s": 0.1,
    ...        "calibration_s": 0.05, "restart_s": 0.5, "read_s": 0.6}
    >>> {k: round(v, 3) for k, v in parts(row).items()}  # doctest: +NORMALIZE_WHITESPACE
    {'build': 0.1, 'structure': 0.1, 'calibration': 0.05, 'restarts': 0.5, 'between': 0.05, 'sample set': 0.1,
     'decode': 0.05, 'other': 0.05}
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Mapping, Sequence

import numpy as np

__all__ = ["PARTS", "parts", "measure", "breakdown_table", "main"]

#: The parts of a puzzle's wall time, in the order the pipeline runs them.
PARTS = ("build", "structure", "calibration", "restarts", "between", "sample set", "decode", "other")


def parts(row: Mapping) -> dict[str, float]:
    """A puzzle's wall seconds split into :data:`PARTS` (``restarts`` holds ``between`` where the code measured
    no ``restart_s``, and ``between`` is then absent)."""
    reads = row["read_s"]  # every read's wall time, the first with the calibration
    split = {"build": row["build_s"], "structure": row["preprocess_s"], "calibration": row["calibration_s"]}
    if row.get("restart_s") is None:
        split["restarts"] = reads - row["calibration_s"]
    else:
        split["restarts"] = row["restart_s"]
        split["between"] = reads - row["calibration_s"] - row["restart_s"]
    split["sample set"] = row["sample_s"] - row["preprocess_s"] - reads
    split["decode"] = row["decode_s"]
    split["other"] = row["wall_s"] - row["build_s"] - row["sample_s"] - row["decode_s"]
    return split


def measure(source: str, puzzle, config) -> dict:
    """Solve ``puzzle`` once as the tournament pass does and return its timings (a results row)."""
    from qpicross.pipeline.run import run

    start = time.perf_counter()
    result = run(puzzle, config)
    wall = time.perf_counter() - start
    info = result.sampleset.info
    inner = info.get("timing", {})
    restarts = info.get("restarts")
    return {"source": source, "puzzle": str(puzzle.name), "solved": bool(result.solved), "wall_s": wall,
            "build_s": result.timing["build_s"], "sample_s": result.timing["sample_s"],
            "decode_s": result.timing["decode_s"], "preprocess_s": inner.get("preprocess_s", 0.0),
            "calibration_s": inner.get("calibration_s", 0.0), "restart_s": inner.get("restart_s"),
            "read_s": float(sum(info.get("read_s", []))), "reads": int(result.num_reads),
            "sweeps": int(sum(info.get("sweeps", []))),
            "restarts": int(sum(restarts)) if isinstance(restarts, list) else None}


def _line(label: str, rows: Sequence[dict]) -> str:
    split = [parts(r) for r in rows]
    total = sum(r["wall_s"] for r in rows)
    cells = []
    for name in PARTS:
        if not all(name in s for s in split):
            cells.append("–")
            continue
        seconds = sum(s[name] for s in split)
        cells.append(f"{seconds * 1e3 / len(rows):.3g} ms ({100 * seconds / total:.0f} %)")
    restarts = [r["restarts"] for r in rows]
    counted = f"{sum(restarts) / len(rows):.3g}" if None not in restarts else "–"
    return f"| {label} | {total * 1e3 / len(rows):.4g} ms | " + " | ".join(cells) + f" | {counted} |"


def breakdown_table(runs: Mapping[str, dict]) -> str:
    """Markdown: for each run (a results file by label), the median puzzle, the slowest and the mean over all,
    each part's time a puzzle and its share of the wall time."""
    lines = ["| run: puzzles | wall | " + " | ".join(PARTS) + " | restarts run |",
             "|---|---:|" + "---:|" * len(PARTS) + "---:|"]
    for label, data in runs.items():
        rows = [r for r in data["results"] if r["solved"]]
        by_wall = sorted(rows, key=lambda r: r["wall_s"])
        median, slowest = by_wall[(len(by_wall) - 1) // 2], by_wall[-1]
        lines.append(_line(f"{label}: median puzzle ({median['puzzle']})", [median]))
        lines.append(_line(f"{label}: slowest ({slowest['puzzle']})", [slowest]))
        lines.append(_line(f"{label}: mean of {len(rows)}", rows))
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.breakdown", description=__doc__.split("\n")[0])
    parser.add_argument("puzzles", help="puzzles, as qpicross bench takes them (FILE#1-100)")
    parser.add_argument("--label", required=True, help="the run's name in the results file (head, a commit)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", required=True, help="results file to write")
    args = parser.parse_args(argv)

    from qpicross.experiments.bench import warm_up, expand_specs
    from qpicross.experiments.result import load_average, machine_info
    from qpicross.experiments.tournament import MAX_READS
    from qpicross.pipeline.config import SolverConfig

    config = SolverConfig(seed=args.seed, num_reads=MAX_READS, early_stop="puzzle", options={"threads": 1})
    config = config.validate()
    # run with an earlier tree's package too (PYTHONPATH): the file is stamped afterwards, by that tree's package
    # (python -m benchmarks.stale --tree TREE --stamp FILE)
    meta = {**machine_info(), "label": args.label, "config": "the tournament pass's: shift, one core"}
    warm_up(config)
    puzzles = expand_specs([args.puzzles])
    if puzzles:  # once, unrecorded: an earlier tree's warm-up may leave the Picross kernels to the first puzzle
        measure(*puzzles[0], config)
    rows = []
    for source, puzzle in puzzles:
        rows.append(measure(source, puzzle, config))
        print(json.dumps(rows[-1]), file=sys.stderr, flush=True)
        with open(args.json, "w") as fh:  # after every puzzle: a cut run keeps what it measured
            json.dump({"meta": {**meta, "load_average_after": load_average()}, "results": rows}, fh, indent=1)
    print(breakdown_table({args.label: json.load(open(args.json))}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
