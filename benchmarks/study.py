"""The formulation study's ladder of puzzles and its command line (``make study``).

The study itself (tuning, climbing, the table and the figure) is
:mod:`qpicross.experiments.study`; this module names the puzzles it climbs here: the shipped
instances, Bompol's puzzles and a tournament puzzle from the shared collections (``../shared/instances``
or ``QPICROSS_SHARED``), and generated ones, from 5x5 to 25x25. Run it from the repository root::

    python -m benchmarks.study run --json results/study.json --plot figures/study.png
    python -m benchmarks.study table results/study.json

Examples:
    >>> [r.label for r in ladder(include_shared=False, generated=())][:3]
    ['5x5', 'smile7', 'house8']
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from pathlib import Path

from qpicross.experiments.study import COMBINATIONS, Rung, plot_study, run_study, study_table

__all__ = ["LADDER", "TUNING_PUZZLES", "ladder", "shipped_rung", "shared_rung", "main"]

#: The repository root, and the shared puzzle collections (never copied into the repository).
ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("QPICROSS_SHARED", ROOT.parent / "shared" / "instances"))


def shipped_rung(label: str, name: str) -> Rung:
    """A puzzle shipped in instances/."""
    return Rung(label, f"instances/{name}", path=str(ROOT / "instances" / name))


def shared_rung(label: str, spec: str) -> Rung:
    """A puzzle of the shared collections (``spec`` relative to them)."""
    return Rung(label, spec, shared=True, path=str(SHARED / spec))


#: The fixed ladder of sizes, smallest first: shipped instances, Bompol's puzzles, generated ones
#: (density 0.55, unique) and a 25x25 tournament puzzle.
LADDER: tuple[Rung, ...] = (
    shipped_rung("5x5", "5x5.px"),
    shipped_rung("smile7", "smile7.px"),
    shipped_rung("house8", "house8.px"),
    shared_rung("pikachu", "bompol/pikachu.px"),
    shipped_rung("star10", "star10.px"),
    shared_rung("clock", "bompol/clock.px"),
    shipped_rung("boat12", "boat12.px"),
    shared_rung("layton", "bompol/layton.px"),
    shared_rung("bird", "bompol/bird.px"),
    shared_rung("knife", "bompol/knife.px"),
    shared_rung("ratz", "bompol/ratz.px"),
    Rung("random15", generated=(15, 15), seed=1),
    shared_rung("panda", "bompol/panda.px"),
    Rung("random20", generated=(20, 20), seed=1),
    shared_rung("taai2011#1", "external/NonogramRecord/question/taai2011.txt#1"),
    Rung("random25", generated=(25, 25), seed=1),
)

#: Puzzles the weights are tuned on: two shipped ones, and generated ones that are not on the ladder.
TUNING_PUZZLES: dict[str, Rung] = {
    "house8": shipped_rung("house8", "house8.px"),
    "star10": shipped_rung("star10", "star10.px"),
    "tune12": Rung("tune12", generated=(12, 12), seed=7),
    "tune15": Rung("tune15", generated=(15, 15), seed=7),
}


def ladder(include_shared: bool = True, generated: Sequence[str] | None = None) -> list[Rung]:
    """The rungs to climb: shared puzzles only when asked for; ``generated`` labels to keep (None: all)."""
    out = []
    for rung in LADDER:
        if rung.shared and not include_shared:
            continue
        if rung.generated is not None and generated is not None and rung.label not in generated:
            continue
        out.append(rung)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """``run`` the study (JSON, figure, table) or print the ``table`` (or draw the ``plot``) of a results file."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.study", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run_p = sub.add_parser("run", help="tune and climb every combination")
    run_p.add_argument("--json", default="results/study.json")
    run_p.add_argument("--plot", default="figures/study.png")
    run_p.add_argument("--budget", type=float, default=6.0, help="sampling seconds per rung (default 6)")
    run_p.add_argument("--workers", type=int, default=2)
    run_p.add_argument("--only", default=None, help="comma list of combination labels to run")
    run_p.add_argument("--seed", type=int, default=0)
    table_p = sub.add_parser("table", help="the markdown table of a results file")
    table_p.add_argument("results")
    plot_p = sub.add_parser("plot", help="the figure of a results file")
    plot_p.add_argument("results")
    plot_p.add_argument("--plot", default="figures/study.png")
    args = parser.parse_args(argv)
    if args.command == "table":
        print(study_table(args.results))
        return 0
    if args.command == "plot":
        plot_study(args.results, args.plot)
        return 0
    combos = COMBINATIONS
    if args.only:
        wanted = set(args.only.split(","))
        combos = tuple(c for c in COMBINATIONS if c.label in wanted)
    data = run_study(combos, ladder(), tuning=TUNING_PUZZLES, budget_s=args.budget, workers=args.workers,
                     seed=args.seed, path=args.json)
    plot_study(data, args.plot)
    print(study_table(data))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
