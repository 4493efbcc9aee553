"""``qpicross generate --size 15x15 --density 0.55 --seed 1 --unique -o out.px``: random puzzles."""

from __future__ import annotations

import argparse

from qpicross.names import EXACT_METHODS as METHODS
from qpicross.exceptions import PuzzleFormatError
from qpicross.exceptions import UsageError
from ._arguments import add_force_and_json, output_file
from ._output_files import check_output_path, write_output
from ._terminal import print_json, printable

#: Most boards ``--max-tries`` may draw.
MAX_TRIES = 1_000_000


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("generate", help="make a random puzzle (optionally with a unique solution)",
                       description="Fill a random board with the given density and write its clues. "
                                   "With --unique, retry until an exact solver proves the solution unique.")
    p.add_argument("--size", default="15x15", metavar="ROWSxCOLS", help="board size (default 15x15)")
    p.add_argument("--density", type=float, default=0.55, help="probability a cell is filled (default 0.55)")
    p.add_argument("--seed", type=int, default=None, help="random seed, 0 <= S < 2**32, for a reproducible puzzle")
    p.add_argument("--unique", action="store_true", help="retry until the solution is provably unique")
    p.add_argument("--method", choices=METHODS, default="sat", help="exact solver for --unique (default sat)")
    p.add_argument("--max-tries", type=int, default=1000,
                   help="boards to draw before giving up (default 1000)")
    p.add_argument("--name", default=None, help="puzzle name (default random-RxC-dD-sS)")
    p.add_argument("-o", "--output", type=output_file, default=None, metavar="FILE",
                   help="write the puzzle here (format from the extension); default: .px text on stdout")
    p.add_argument("--format", default=None, help="output format, overriding the extension")
    add_force_and_json(p, force="overwrite an existing output file",
                       json="print one JSON object (clues, solution, tries)")
    return p


def run(args: argparse.Namespace) -> int:
    from qpicross.classical.exact import require_solver
    from qpicross.classical.generate import MAX_GENERATE_SIDE, generate_puzzle, parse_size
    from qpicross.puzzle.formats import format_px, save_puzzle
    from qpicross.puzzle.formats.registry import save_format

    try:
        shape = parse_size(args.size)
    except ValueError as exc:
        raise UsageError(f"--size: {exc}") from None
    if max(shape) > MAX_GENERATE_SIDE:
        raise UsageError(f"--size: each side must be at most {MAX_GENERATE_SIDE}, got {args.size}")
    if args.seed is not None and not 0 <= args.seed < 2**32:
        raise UsageError(f"--seed must be a whole number in [0, 2**32), got {args.seed}")
    if not 0.0 <= args.density <= 1.0:
        raise UsageError(f"--density must be between 0 and 1, got {args.density}")
    if not 1 <= args.max_tries <= MAX_TRIES:
        raise UsageError(f"--max-tries must be between 1 and {MAX_TRIES:,}, got {args.max_tries}")
    if args.output:
        check_output_path(args.output, args.force)  # before the work, not after
        try:
            output_format = save_format(args.output, args.format)
        except PuzzleFormatError as exc:
            raise UsageError(str(exc)) from None
    if args.unique:
        require_solver(args.method)
    try:
        generated = generate_puzzle(shape, density=args.density, seed=args.seed, unique=args.unique,
                                    method=args.method, max_tries=args.max_tries, name=args.name)
    except RuntimeError as exc:
        print(f"qpicross generate: {printable(exc)}")
        return 1
    except ValueError as exc:  # the size guard: refused before drawing
        raise UsageError(f"--size {args.size}: {exc}") from None
    puzzle = generated.puzzle
    if args.output:
        path = write_output(args.output, lambda tmp: save_puzzle(puzzle, tmp, format=output_format), args.force)
    if args.json:
        print_json({
            "puzzle": puzzle.name,
            "shape": list(puzzle.shape),
            "rows": [list(c) for c in puzzle.rows],
            "cols": [list(c) for c in puzzle.cols],
            "board": ["".join("#" if v else "." for v in row) for row in generated.board],
            "unique": generated.unique,
            "tries": generated.tries,
            "seed": generated.seed,
            "density": args.density,
            "output": str(path) if args.output else None,
        })
    elif args.output:
        verdict = (f"unique solution ({generated.tries} tries)" if generated.unique
                   else "uniqueness not checked")
        # the puzzle, not its solution: `qpicross solve FILE` shows that (and --json holds it)
        print(f"wrote {printable(path)}: {printable(puzzle)}, {puzzle.num_filled} filled cells, {verdict}")
    else:
        print(format_px(puzzle), end="")
    return 0
