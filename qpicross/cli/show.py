"""``qpicross show PUZZLE``: print (and optionally draw) a puzzle's clues."""

from __future__ import annotations

import argparse

from ._common import add_puzzle_argument, board_text, load_puzzle_arg


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("show", help="print a puzzle's clues", description="Print a puzzle's clues.")
    add_puzzle_argument(p)
    p.add_argument("--plot", default=None, metavar="FILE", help="save a figure of the empty puzzle")
    return p


def run(args: argparse.Namespace) -> int:
    puzzle = load_puzzle_arg(args)
    print(f"{puzzle}, {puzzle.num_filled} filled cells")
    print(board_text(puzzle))
    if args.plot:
        from ..plot import plot_puzzle, save_figure

        save_figure(plot_puzzle(puzzle), args.plot)
    return 0
