"""``qpicross info PUZZLE``: sizes of the QUBO, per penalty term."""

from __future__ import annotations

import argparse
import statistics
import time

from qpicross.exceptions import UsageError
from ._arguments import add_force_and_json, add_puzzle_argument
from ._puzzle_files import load_puzzle_arg, size_error
from ._terminal import print_json, printable


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("info", help="QUBO sizes per penalty term",
                       description="Variables and couplers of the puzzle's QUBO, per penalty term.")
    add_puzzle_argument(p)
    p.add_argument("--bounds", choices=["stacking", "published"], default="stacking")
    p.add_argument("--time", type=int, default=0, metavar="REPEATS",
                   help="also time the BQM build (median of REPEATS fresh builds)")
    add_force_and_json(p, force="build even above the size guard (QPICROSS_MAX_COUPLERS)")
    return p


def time_build(puzzle, bounds: str, repeats: int) -> dict:
    """Median seconds to build the formulation and then the weighted BQM, over fresh builds."""
    from qpicross.model.formulation import build_formulation

    formulation_s, bqm_s = [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        formulation = build_formulation(puzzle, bounds=bounds)
        t1 = time.perf_counter()
        formulation.bqm()
        t2 = time.perf_counter()
        formulation_s.append(t1 - t0)
        bqm_s.append(t2 - t1)
    total = [a + b for a, b in zip(formulation_s, bqm_s)]
    return {"repeats": repeats, "formulation_s": statistics.median(formulation_s),
            "bqm_s": statistics.median(bqm_s), "total_s": statistics.median(total)}


#: Most fresh builds ``--time`` repeats (each is a full build of the model).
MAX_TIME_REPEATS = 1000


def run(args: argparse.Namespace) -> int:
    from qpicross.model.formulation import build_formulation
    from qpicross.model.size import check_size

    if not 0 <= args.time <= MAX_TIME_REPEATS:
        raise UsageError(f"--time must be between 0 and {MAX_TIME_REPEATS}, got {args.time}")
    puzzle = load_puzzle_arg(args)
    if not args.force:
        try:
            check_size(puzzle, args.bounds, num_reads=0)  # estimated from the clues, before building
        except ValueError as exc:
            raise size_error(args.puzzle, exc) from None
    info = build_formulation(puzzle, bounds=args.bounds).info()
    if args.time > 0:
        info["build_time"] = time_build(puzzle, args.bounds, args.time)
    if args.json:
        print_json(info)
        return 0
    print(f"{printable(puzzle)}, bounds={info['bounds']}")
    print(f"variables:    {info['num_variables']} (published formulation: {info['num_published_variables']})")
    print(f"interactions: {info['num_interactions']}")
    print(f"{'term':<12} {'linear':>8} {'couplers':>10} {'offset':>8}")
    for name, t in info["terms"].items():
        if "linear" in t:
            print(f"{name:<12} {t['linear']:>8} {t['interactions']:>10} {t['offset']:>8g}")
        else:
            print(f"{name:<12} {t['pruned_variables']:>8} variables removed instead of penalised")
    if "build_time" in info:
        b = info["build_time"]
        print(f"build time (median of {b['repeats']}): {b['total_s']:.3f} s "
              f"(formulation {b['formulation_s']:.3f} s + BQM {b['bqm_s']:.3f} s)")
    return 0
