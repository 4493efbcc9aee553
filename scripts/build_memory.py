"""Peak memory and build time of a QUBO build, per puzzle, each in a fresh process.

Usage::

    python scripts/build_memory.py [PUZZLE ...] [--random N[xM]] [--seed S] [--json]

PUZZLE is anything ``qpicross`` accepts (``FILE``, ``FILE#N``). ``--random 100``
adds a random 100x100 board (density 0.5, ``--seed``, default 0) turned into a
puzzle with ``Puzzle.from_board``. For each puzzle a child process loads it,
then times ``build_formulation(puzzle).bqm()`` and reports the growth of its
peak resident memory (``ru_maxrss``) over the resident memory just before the
build, next to :func:`qpicross.model.size.estimate_size`'s coupler count, so
the bytes-per-coupler figure behind the size guard can be re-measured.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys

CHILD = r"""
import gc, json, resource, sys, time
import numpy as np
from qpicross import Puzzle, load_puzzle
from qpicross.model.formulation import build_formulation
from qpicross.model.size import estimate_size

spec, seed = sys.argv[1], int(sys.argv[2])
if spec.startswith("random:"):
    rows, cols = map(int, spec[7:].split("x"))
    board = np.random.default_rng(seed).integers(0, 2, (rows, cols))
    puzzle = Puzzle.from_board(board, name=f"random{rows}x{cols}")
else:
    puzzle = load_puzzle(spec)
estimate = estimate_size(puzzle)
gc.collect()
def rss_kib():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmRSS:"))
before = rss_kib()
t0 = time.perf_counter()
formulation = build_formulation(puzzle)
bqm = formulation.bqm()
build_s = time.perf_counter() - t0
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # KiB on Linux
print(json.dumps({
    "puzzle": puzzle.name, "shape": list(puzzle.shape),
    "num_variables": bqm.num_variables, "num_interactions": bqm.num_interactions,
    "estimated_couplers": estimate["num_couplers"], "build_s": round(build_s, 3),
    "peak_growth_mib": round((peak - before) / 1024, 1), "rss_before_mib": round(before / 1024, 1),
    "bytes_per_coupler": round((peak - before) * 1024 / max(estimate["num_couplers"], 1), 1),
}))
"""


def measure(spec: str, seed: int) -> dict:
    out = subprocess.run([sys.executable, "-c", CHILD, spec, str(seed)], capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"{spec}: child failed:\n{out.stderr}")
    return json.loads(out.stdout)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("puzzles", nargs="*", metavar="PUZZLE")
    parser.add_argument("--random", action="append", default=[], metavar="N[xM]")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    args = parser.parse_args(argv)
    specs = list(args.puzzles) + [f"random:{r if 'x' in r else f'{r}x{r}'}" for r in args.random]
    if not specs:
        parser.error("name at least one PUZZLE or --random N")
    rows = [measure(spec, args.seed) for spec in specs]
    if args.json:
        for row in rows:
            print(json.dumps(row))
        return 0
    print("| puzzle | size | variables | couplers (estimate) | interactions (BQM) | build s | peak MiB "
          "| bytes/coupler |")
    print("|---|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['puzzle']} | {r['shape'][0]}x{r['shape'][1]} | {r['num_variables']:,} | "
              f"{r['estimated_couplers']:,} | {r['num_interactions']:,} | {r['build_s']:.2f} | "
              f"{r['peak_growth_mib']:,.0f} | {r['bytes_per_coupler']:.0f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
