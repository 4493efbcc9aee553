"""How many sweeps a second the batched driver runs on each backend: ``make bench-gpu``'s last step.

For one puzzle (by default taai2011 #403, a tail puzzle of 25×25), each ``(backend, ladders)`` of the plan runs
:func:`~qpicross.samplers.blockshift.batched.sample_many` for ``--seconds`` of wall time with no target (every
ladder sweeps until the time limit), after a short call that compiles the kernels; the file records the sweeps every
ladder ran, so that the GPU's one CUDA thread per ladder and the CPU backend's ``prange`` over every core can be
compared in ladder-sweeps a second on the same machine, in one run. Run it from the repository root::

    python -m benchmarks.gpu_throughput PUZZLE --plan cuda:32,cuda:1024,cpu:16 --seconds 20 --json OUT.json

Examples:
    >>> parse_plan("cuda:32,cpu:16")
    [('cuda', 32), ('cpu', 16)]
    >>> throughput_row("cpu", 16, [100] * 16, 2.0)["ladder_sweeps_per_s"]
    800.0
    >>> print(throughput_table([throughput_row("cpu", 16, [100] * 16, 2.0)]))
    | backend | ladders | wall | sweeps a ladder | ladder-sweeps / s | sweeps / s a ladder |
    |---|---:|---:|---:|---:|---:|
    | cpu | 16 | 2.0 s | 100 | 800 | 50 |
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Sequence

__all__ = ["parse_plan", "throughput_row", "throughput_table", "measure", "main"]


def parse_plan(text: str) -> list[tuple[str, int]]:
    """``"cuda:32,cpu:16"`` → ``[("cuda", 32), ("cpu", 16)]``: the backends and ladder counts to time."""
    plan = []
    for item in text.split(","):
        backend, _, ladders = item.strip().partition(":")
        if backend not in ("cuda", "cpu") or not ladders.isdigit() or int(ladders) < 1:
            raise argparse.ArgumentTypeError(f"{item!r}: expected BACKEND:LADDERS, BACKEND cuda or cpu")
        plan.append((backend, int(ladders)))
    return plan


def throughput_row(backend: str, ladders: int, sweeps: Sequence[int], wall_s: float) -> dict:
    """One measurement: the sweeps each ladder ran in ``wall_s`` seconds, and their rate."""
    total = int(sum(sweeps))
    return {"backend": backend, "ladders": ladders, "wall_s": wall_s, "ladder_sweeps": total,
            "ladder_sweeps_per_s": total / wall_s if wall_s > 0 else float("nan"),
            "sweeps_per_ladder_per_s": total / ladders / wall_s if wall_s > 0 else float("nan"),
            "min_sweeps": int(min(sweeps)), "max_sweeps": int(max(sweeps))}


def throughput_table(rows: Sequence[dict]) -> str:
    """The docs' table of :func:`measure`'s rows: a line per backend and ladder count."""
    lines = ["| backend | ladders | wall | sweeps a ladder | ladder-sweeps / s | sweeps / s a ladder |",
             "|---|---:|---:|---:|---:|---:|"]
    for r in rows:
        each = (f"{r['min_sweeps']:,}" if r["min_sweeps"] == r["max_sweeps"]
                else f"{r['min_sweeps']:,} to {r['max_sweeps']:,}")
        lines.append(f"| {r['backend']} | {r['ladders']:,} | {r['wall_s']:.1f} s | {each} | "
                     f"{r['ladder_sweeps_per_s']:,.0f} | {r['sweeps_per_ladder_per_s']:,.3g} |")
    return "\n".join(lines)


def measure(formulation, backend: str, ladders: int, seconds: float, seed: int = 0) -> dict:
    """Time ``ladders`` ladders of ``formulation`` on ``backend`` for ``seconds`` (after a compiling call)."""
    from qpicross.samplers.blockshift.batched import sample_many

    sample_many([formulation], backend=backend, num_reads=min(ladders, 32), num_sweeps=64, seed=seed,
                target_energy=None, early_stop=None)
    start = time.perf_counter()
    out = sample_many([formulation], backend=backend, num_reads=ladders, num_sweeps=10**9, seed=seed,
                      target_energy=None, early_stop=None, time_limit=seconds)[0]
    wall = time.perf_counter() - start
    return {**throughput_row(backend, ladders, out.info["sweeps"], wall),
            "best_energy": float(out.first.energy), "launches": out.info["batch"]["launches"]}


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks.gpu_throughput", description=__doc__.split("\n")[0])
    parser.add_argument("puzzle", help="a puzzle file or FILE#N")
    parser.add_argument("--plan", type=parse_plan, default=parse_plan("cuda:32,cuda:1024,cuda:8192,cpu:16"))
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--json", required=True, help="results file to write")
    args = parser.parse_args(argv)

    from qpicross import build_formulation
    from qpicross.experiments.bench import expand_specs
    from benchmarks.provenance import run_meta, write_results
    from qpicross.experiments.result import load_average

    (name, puzzle), = expand_specs([args.puzzle])
    formulation = build_formulation(puzzle)
    meta = run_meta()
    rows = []
    for backend, ladders in args.plan:
        row = {"puzzle": name, **measure(formulation, backend, ladders, args.seconds)}
        rows.append(row)
        print(json.dumps(row), flush=True)
        # after every row: a step cut at its limit keeps what it measured
        write_results(args.json, {"meta": {**meta, "load_average_after": load_average()}, "results": rows})
    return 0


if __name__ == "__main__":
    sys.exit(main())
