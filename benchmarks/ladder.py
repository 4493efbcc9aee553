"""A ladder of puzzles, smallest first: the rungs the studies (study, schedule, embedding) climb.

A :class:`Rung` is one puzzle: a file (shipped in ``instances/``, in the shared collections beside the
repository, or named on the command line) or a size to generate. The repository's ladders
(:mod:`benchmarks.study`, :mod:`benchmarks.frontier`) are built from :func:`shipped_rung`, :func:`shared_rung`
and generated rungs; :func:`spec_rung` makes one from a command line's ``FILE`` or ``FILE#N``.

Examples:
    >>> rung = Rung("random8", generated=(8, 8), seed=3)
    >>> rung.available() is None, rung.load().shape
    (True, (8, 8))
    >>> shipped_rung("star10", "star10.px").load().shape
    (10, 10)
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

from qpicross.puzzle import Puzzle

__all__ = ["Rung", "ROOT", "SHARED", "shipped_rung", "shared_rung", "spec_rung"]

#: The repository root, and the shared puzzle collections (never copied into the repository).
ROOT = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("QPICROSS_SHARED", ROOT.parent / "shared" / "instances"))


@dataclasses.dataclass(frozen=True)
class Rung:
    """One puzzle of a ladder: a file or a generated size.

    Attributes:
        label: The puzzle's name in the results.
        spec: The file spec as the results record it (``bompol/panda.px``, ``FILE.txt#N``).
        shared: Whether the file is in a collection outside the repository (recorded with ``spec``).
        generated: ``(rows, cols)`` of a puzzle drawn with a unique solution, density 0.55, instead of a file.
        seed: The generated puzzle's seed.
        path: Where the file is read from (default ``spec``, relative to the working directory).
    """

    label: str
    spec: str | None = None
    shared: bool = False
    generated: tuple[int, int] | None = None
    seed: int = 0
    path: str | None = None

    def load(self) -> Puzzle:
        """The puzzle (generated ones are drawn with a unique solution, density 0.55)."""
        from qpicross import load_puzzle

        if self.generated is not None:
            from qpicross.classical.generate import generate_puzzle

            return generate_puzzle(self.generated, density=0.55, seed=self.seed, unique=True, name=self.label).puzzle
        puzzle = load_puzzle(self.path or self.spec)
        return Puzzle(puzzle.rows, puzzle.cols, name=self.label, goal=puzzle.goal)

    def available(self) -> str | None:
        """None when the puzzle can be loaded here, else why not."""
        if self.generated is not None:
            return None
        path = Path((self.path or self.spec).split("#")[0])
        return None if path.exists() else f"{path} is absent (shared collections are not in the repository)"


def shipped_rung(label: str, name: str) -> Rung:
    """A puzzle shipped in instances/."""
    return Rung(label, f"instances/{name}", path=str(ROOT / "instances" / name))


def shared_rung(label: str, spec: str) -> Rung:
    """A puzzle of the shared collections (``spec`` relative to them)."""
    return Rung(label, spec, shared=True, path=str(SHARED / spec))


def spec_rung(spec: str) -> Rung:
    """A rung for a puzzle file named on the command line (``FILE`` or ``FILE#N``), labelled by its stem."""
    file, _, number = spec.partition("#")
    path = Path(file).resolve()
    suffix = f"#{number}" if number else ""
    return Rung(path.stem + suffix, str(path) + suffix)
