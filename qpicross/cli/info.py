"""``qpicross info PUZZLE``: sizes of the QUBO, per penalty term."""

from __future__ import annotations

import argparse

from ..formulation import build_formulation
from ._common import add_puzzle_argument, load_puzzle_arg, print_json


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("info", help="QUBO sizes per penalty term",
                       description="Variables and couplers of the puzzle's QUBO, per penalty term.")
    add_puzzle_argument(p)
    p.add_argument("--bounds", choices=["stacking", "published"], default="stacking")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    return p


def run(args: argparse.Namespace) -> int:
    puzzle = load_puzzle_arg(args)
    info = build_formulation(puzzle, bounds=args.bounds).info()
    if args.json:
        print_json(info)
        return 0
    print(f"{puzzle}, bounds={info['bounds']}")
    print(f"variables:    {info['num_variables']} (published formulation: {info['num_published_variables']})")
    print(f"interactions: {info['num_interactions']}")
    print(f"{'term':<12} {'linear':>8} {'couplers':>10} {'offset':>8}")
    for name, t in info["terms"].items():
        if "linear" in t:
            print(f"{name:<12} {t['linear']:>8} {t['interactions']:>10} {t['offset']:>8g}")
        else:
            print(f"{name:<12} {t['pruned_variables']:>8} variables removed instead of penalised")
    return 0
