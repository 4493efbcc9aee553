"""``qpicross info PUZZLE``: sizes of the QUBO, per penalty term."""

from __future__ import annotations

import argparse
import statistics
import time

from qpicross.exceptions import UsageError
from ._arguments import add_force_and_json, add_puzzle_argument
from ._puzzle_files import load_puzzle_arg
from ._terminal import print_json, printable


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("info", help="QUBO sizes per penalty term",
                       description="Variables and couplers of the puzzle's QUBO, per penalty term.")
    add_puzzle_argument(p)
    p.add_argument("--bounds", choices=["stacking", "published"], default="stacking")
    p.add_argument("--time", type=int, default=0, metavar="REPEATS",
                   help="also time the BQM build (median of REPEATS fresh builds)")
    add_force_and_json(p, force="above the size guard (--max-memory), count the model exactly from the clues however "
                                "long that takes (within the machine's memory), where without it a model that large "
                                "gets a lower bound; info never builds a model above the guard")
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
    from qpicross.model.size import ModelTooLargeError, check_size

    if not 0 <= args.time <= MAX_TIME_REPEATS:
        raise UsageError(f"--time must be between 0 and {MAX_TIME_REPEATS}, got {args.time}")
    puzzle = load_puzzle_arg(args)
    try:
        check_size(puzzle, args.bounds, num_reads=0)  # estimated from the clues, before building
    except ModelTooLargeError as exc:  # reporting sizes is this command's job: the estimate, not a refusal
        return print_estimate(puzzle, args, exc)
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


#: Most variables ``info`` counts exactly above the size guard (a few arrays of this length); beyond, a lower bound.
MAX_COUNTED_VARIABLES = 2_000_000


def print_estimate(puzzle, args: argparse.Namespace, exc) -> int:
    """Sizes of a model above the size guard, counted from the clues without building it
    (:func:`~qpicross.model.size.estimate_size`; a lower bound where even counting would be large, unless
    ``--force``, and where counting would not fit in the machine's memory)."""
    from qpicross.model.size import BYTES_PER_COUPLER, _human, estimate_size, force_ceiling

    estimate = exc.estimate
    countable = args.force or estimate["num_variables"] <= MAX_COUNTED_VARIABLES
    if estimate.get("lower_bound") and countable and estimate["counting_bytes"] <= force_ceiling():
        estimate = estimate_size(puzzle, args.bounds)  # linear in the variables: exact counts
    bound = "at least " if estimate.get("lower_bound") else ""
    report = {"puzzle": puzzle.name, "bounds": args.bounds, "built": False,
              "lower_bound": bool(estimate.get("lower_bound")), "num_variables": estimate["num_variables"],
              "num_couplers": estimate["num_couplers"], "estimated_bytes": estimate["estimated_bytes"],
              "limit_bytes": exc.limit * BYTES_PER_COUPLER}
    if "couplers_per_term" in estimate:
        report["couplers_per_term"] = estimate["couplers_per_term"]
    if args.json:
        print_json(report)
        return 0
    how = "a lower bound (--force counts exactly)" if bound and not args.force else (
        "a lower bound (counting exactly would not fit in this machine's memory)" if bound else "counted exactly")
    print(f"{printable(puzzle)}, bounds={args.bounds}: above the size guard, so counted from the clues, not built: "
          f"{how}")
    print(f"variables:    {bound}{report['num_variables']:,}")
    print(f"couplers:     {bound}{report['num_couplers']:,} (entries before merging: the interactions are at most this)")
    for name, n in report.get("couplers_per_term", {}).items():
        print(f"  {name:<12} {n:>12,}")
    print(f"memory to build and anneal it: {bound or 'about '}{_human(report['estimated_bytes'])}, above the limit of "
          f"{_human(report['limit_bytes'])} (--max-memory)")
    return 0
