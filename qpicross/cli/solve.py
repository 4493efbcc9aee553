"""``qpicross solve PUZZLE``: solve exactly (SAT or CP-SAT) and check uniqueness, or run line logic alone."""

from __future__ import annotations

import argparse
import math
import sys

from qpicross.names import EXACT_MODELS as MODELS
from ._arguments import add_puzzles_argument
from ._progress import Progress
from ._puzzle_files import check_puzzle_size
from ._terminal import board_text, print_json, printable

METHODS = ("sat", "cpsat", "logic")

#: Seconds ``solve`` gives each puzzle unless ``--time-limit`` says otherwise. Every puzzle of the
#: collections here is solved and its uniqueness decided in well under a second; a minute is far
#: beyond that, yet ends a search that may run for hours (and gigabytes) on a large random puzzle.
DEFAULT_TIME_LIMIT = 60.0


def _time_limit(text: str) -> float | None:
    """``--time-limit``: positive seconds, or ``none`` for no limit."""
    if text.strip().lower() == "none":
        return None
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0):
        raise argparse.ArgumentTypeError(f"wants a positive number of seconds or 'none', got {text!r}")
    return value


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "solve", help="solve a puzzle exactly and say whether its solution is unique",
        description="Solve a puzzle with an exact classical solver (SAT or the CP report's CP-SAT model) "
                    "and look for a second solution; or run line logic alone (--method logic).",
    )
    add_puzzles_argument(p, "puzzle file(s) (.px, .non, .xml, .json, tournament or clue-only .txt), FILE#N, FILE#a-b or "
                            "FILE#a-b/STEP of a multi-puzzle file, or a directory, as bench reads them; several "
                            "are solved in one run (--json then prints a list)", dest="puzzle")
    p.add_argument("--method", choices=METHODS, default="sat",
                   help="sat: compact CNF with python-sat (default); cpsat: the CP report's model in "
                        "OR-tools CP-SAT; logic: line logic to a fixpoint, no search")
    p.add_argument("--model", choices=MODELS, default="M3",
                   help="cpsat constraint set: M1 (1a-1f), M2 (+ stacking 1g-1j), "
                        "M3 (+ blanks 1k-1n, default)")
    p.add_argument("--no-unique", action="store_true", help="do not look for a second solution")
    p.add_argument("--time-limit", type=_time_limit, default=DEFAULT_TIME_LIMIT, metavar="SECONDS",
                   help=f"give up on a puzzle after this long, building the model and both searches together "
                        f"(default {DEFAULT_TIME_LIMIT:g}; 'none': no limit; line logic always runs to its "
                        f"fixpoint, which takes polynomial time)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    return p


def run(args: argparse.Namespace) -> int:
    from qpicross.classical.exact import require_solver
    from qpicross.puzzle.formats import expand_puzzle_specs

    if args.method != "logic":
        require_solver(args.method)  # a missing extra is one line, before any file is read
    # Load every file and run every size guard first: bad input fails before any solving. A spec is read as
    # bench reads it: FILE, FILE#N, FILE#a-b, FILE#a-b/STEP or a directory.
    sourced = [(spec, puzzle) for spec in args.puzzle for puzzle in expand_puzzle_specs([spec], format=args.format)]
    for path, puzzle in sourced:
        check_puzzle_size(path, puzzle, args.method)
    puzzles = [puzzle for _, puzzle in sourced]
    outputs, codes = [], []
    for number, puzzle in enumerate(puzzles):
        if number and not args.json:
            print()
        solve = _run_logic if args.method == "logic" else _run_exact
        code, data = solve(puzzle, args)
        outputs.append(data)
        codes.append(code)
        if code == 130:  # Ctrl-C: what was found is printed, the puzzles after it are not started
            break
    if args.json:
        print_json(outputs[0] if len(outputs) == 1 else outputs)
    return max(codes)


def _run_exact(puzzle, args) -> tuple[int, dict]:
    from qpicross.classical.exact import estimate_size, solve_exact

    limit = "no time limit" if args.time_limit is None else f"time limit {args.time_limit:g} s"
    status = Progress(f"solving {printable(puzzle.name)} ({args.method}, {limit})", clock=True)
    if status.enabled:  # on a terminal, as the status line: how large the search is before it starts
        size = ", ".join(f"{count:,} {name}" for name, count in estimate_size(puzzle, args.method).items())
        print(f"{printable(puzzle)}: about {size} ({args.method}); {limit}", file=sys.stderr, flush=True)
    with status:
        status(0, 0)
        result = solve_exact(puzzle, args.method, model=args.model, check_unique=not args.no_unique,
                             time_limit_s=args.time_limit, progress=lambda elapsed: status(0, 0))
    code = 130 if result.interrupted else 0 if result.solved else 1
    if args.json:
        return code, result.to_dict()
    undecided = "interrupted" if result.interrupted else "out of time" if args.time_limit is not None else "undecided"
    what = {"unique": "unique solution", "multiple": "solved, NOT unique (a second solution exists)",
            "solved": "solved (uniqueness " + ("not checked)" if args.no_unique else f"{undecided})"),
            "infeasible": "no solution",
            "unknown": "interrupted before a solution was found" if result.interrupted else
            "no solution found (the solver gave up)" if args.time_limit is None else
            f"no solution found within the time limit ({args.time_limit:g} s; --time-limit none for no limit)"
            }[result.status]
    model = f" {result.model}" if result.model else ""
    print(f"{printable(puzzle)}: {what} [{result.method}{model}, {result.time_s:.3f} s]")
    if result.solved:
        print(board_text(puzzle, result.board))
    if result.second_board is not None:
        differ = int((result.board != result.second_board).sum())
        print(f"\nanother solution (differs in {differ} cells):")
        print(board_text(puzzle, result.second_board))
    return code, result.to_dict()


def _run_logic(puzzle, args) -> tuple[int, dict]:
    from qpicross.classical.logic import propagate  # numba: imported only when needed

    result = propagate(puzzle)
    data = result.to_dict()
    # Line logic settles only cells that hold in every solution: settling all proves uniqueness.
    data.update(method="logic", unique=True if result.solved else None)
    if args.json:
        pass
    elif result.contradiction:
        print(f"{printable(puzzle)}: no solution (line logic: {result.message})")
    else:
        unknown = result.known.size - result.num_settled
        verdict = "solved (unique)" if result.solved else f"not solved: {unknown} cells unknown"
        print(f"{printable(puzzle)}: line logic settles {100 * result.fraction_settled:.1f}% of the cells, {verdict} "
              f"[{result.line_solves} line solves, {result.time_s:.3f} s]")
        print(board_text(puzzle, result.board_strings))
    return (0 if result.solved else 1), data
