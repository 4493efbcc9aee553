"""``qpicross show PUZZLE``: print (and optionally draw) a puzzle's clues."""

from __future__ import annotations

import argparse

from ._arguments import add_puzzle_argument, output_file
from ._output_files import PLOT_SUFFIXES, check_output_path, save_plot
from ._puzzle_files import load_puzzle_arg
from ._terminal import board_text, count, note_written, printable


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("show", help="print a puzzle's clues", description="Print a puzzle's clues.")
    add_puzzle_argument(p)
    p.add_argument("--plot", type=output_file, default=None, metavar="FILE", help="save a figure of the empty puzzle")
    p.add_argument("--force", action="store_true", help="overwrite the --plot file if it exists")
    return p


def run(args: argparse.Namespace) -> int:
    from qpicross.puzzle import check

    if args.plot:
        check_output_path(args.plot, args.force, PLOT_SUFFIXES)  # refuse the file before printing anything
    puzzle = load_puzzle_arg(args, guard="show")  # a 10 000 x 10 000 board is 200 MB of text
    print(f"{printable(puzzle)}, {puzzle.num_filled} filled cells")
    print(board_text(puzzle))
    if puzzle.goal is not None:
        broken = check(puzzle, puzzle.goal)
        names = ", ".join(b.name for b in broken[:10]) + (", ..." if len(broken) > 10 else "")
        verdict = "matches the clues" if not broken else f"breaks {count(len(broken), 'line')} ({names})"
        print(f"goal grid: {verdict}")
    if args.plot:
        from qpicross.plot import plot_puzzle

        note_written(save_plot(plot_puzzle(puzzle), args.plot, args.force))
    return 0
