"""The named tail sets: the tournament puzzles that took a pass longest, as lists in ``benchmarks/tail_sets/``.

A list is written from a tournament pass's results file (``make bench-tournament-pass``: every puzzle's time on one
core) by a stated rule, every puzzle whose time exceeded ``--above`` seconds, slowest first; its header names the
file, its commit and the rule, so the list can be written again from the same file and checked against it
(``tests/benchmarks/test_tail_set.py`` does). ``make bench-tail-set`` benches the puzzles of the lists::

    python -m benchmarks.tail_set write results/tournament_taai2011_9ebc4c0.json --above 10 -o benchmarks/tail_sets/taai2011.txt
    python -m benchmarks.tail_set specs benchmarks/tail_sets/taai2011.txt --dir ../shared/instances/external/NonogramRecord/question

A list's lines after its ``#`` header are ``FILE.txt#N SECONDS``: the puzzle's spec (as ``qpicross bench`` takes it,
relative to the tournament's ``question/`` folder) and its time in that pass. ``qpicross bench`` has no
``FILE#N,M`` selection (``#`` takes one number or one range), so the list is read into one spec a puzzle.

Examples:
    >>> text = list_text({"meta": {"commit": "abc1234", "cores": 1}, "summary": {"total_s": 30.0}, "results": [
    ...     {"puzzle": "set#1", "seconds": 4.0}, {"puzzle": "set#2", "seconds": 12.5}, {"puzzle": "set#3", "seconds": 13.5}]},
    ...     "results/tournament_set.json", 10.0)
    >>> print(text, end="")
    # The tail of the set pass: the 2 puzzles whose time exceeded 10 s, slowest first (26 s of its 30 s in all).
    # Written by `python -m benchmarks.tail_set write results/tournament_set.json --above 10` from that file
    # (the tournament pass at commit abc1234, 1 core): every entry of its "results" whose "seconds" > 10.
    # One puzzle a line: its spec relative to the tournament's question/ folder, then its seconds in that pass.
    set.txt#3 13.5
    set.txt#2 12.5
    >>> read_specs(text.splitlines(), "q")
    ['q/set.txt#3', 'q/set.txt#2']
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

__all__ = ["tail_puzzles", "list_text", "read_specs", "main"]


def tail_puzzles(data: dict, above_s: float) -> list[tuple[str, float]]:
    """``(puzzle, seconds)`` of every puzzle of a tournament pass (its results file's ``data``) whose time exceeded
    ``above_s``, slowest first (ties in file order)."""
    slow = [(row["puzzle"], float(row["seconds"])) for row in data["results"] if float(row["seconds"]) > above_s]
    return sorted(slow, key=lambda item: -item[1])


def list_text(data: dict, source: str, above_s: float) -> str:
    """The text of a tail list: the header naming ``source`` (the results file ``data`` was read from), its commit
    and the rule, then one ``FILE.txt#N SECONDS`` line a puzzle."""
    tail = tail_puzzles(data, above_s)
    name = tail[0][0].rpartition("#")[0] if tail else Path(source).stem.removeprefix("tournament_")
    above = f"{above_s:g}"
    total = data["summary"]["total_s"]
    count = data["meta"].get("cores")
    cores = f"{count} core{'s' * (count != 1)}" if count else "cores not recorded"
    lines = [f"# The tail of the {name} pass: the {len(tail)} puzzles whose time exceeded {above} s, slowest first "
             f"({sum(s for _, s in tail):.0f} s of its {total:.0f} s in all).",
             f"# Written by `python -m benchmarks.tail_set write {source} --above {above}` from that file",
             f"# (the tournament pass at commit {data['meta']['commit']}, {cores}): every entry of its \"results\" "
             f"whose \"seconds\" > {above}.",
             "# One puzzle a line: its spec relative to the tournament's question/ folder, then its seconds in that "
             "pass."]
    for puzzle, seconds in tail:
        file, _, number = puzzle.rpartition("#")
        lines.append(f"{file}.txt#{number} {seconds:.1f}")
    return "\n".join(lines) + "\n"


def read_specs(lines: Iterable[str], folder: str) -> list[str]:
    """The ``qpicross bench`` specs of a tail list's lines, each under ``folder`` (the tournament's ``question/``)."""
    return [f"{folder}/{line.split()[0]}" for line in lines if line.strip() and not line.startswith("#")]


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``write PASS.json --above S [-o LIST]`` or ``specs LIST --dir FOLDER``."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.tail_set", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    write = commands.add_parser("write", help="write a tail list from a tournament pass's results file")
    write.add_argument("results", help="a tournament pass's results file (make bench-tournament-pass)")
    write.add_argument("--above", type=float, required=True, help="every puzzle whose time exceeded this (s)")
    write.add_argument("-o", "--output", help="the list file (default: print it)")
    specs = commands.add_parser("specs", help="print the bench specs of a tail list, one a line")
    specs.add_argument("list", help="a tail list (benchmarks/tail_sets/*.txt)")
    specs.add_argument("--dir", required=True, help="the tournament's question/ folder")
    args = parser.parse_args(argv)
    try:
        if args.command == "write":
            text = list_text(json.loads(Path(args.results).read_text()), args.results, args.above)
            if args.output:
                Path(args.output).write_text(text)
            else:
                sys.stdout.write(text)
        else:
            print("\n".join(read_specs(Path(args.list).read_text().splitlines(), args.dir)))
    except (OSError, ValueError, KeyError) as exc:
        print(f"python -m benchmarks.tail_set: error: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
