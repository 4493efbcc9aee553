"""A tournament run: every puzzle in order, each annealed until its first ground state, and one total time.

The TAAI and TCGA computer-game tournaments (2011-2015) gave each nonogram solver 1 000 puzzles of
25×25, one program on one core, and two hours; the figure every nonogram solver publishes is the
total time of that one pass. :func:`run_tournament` answers "could this sampler have entered?":
the puzzles are solved one after the other, in order, each until its first read that reaches the
model's ground state and passes the independent check (no per-puzzle limit other than what is left
of the total), on ``cores`` cores (default one, as the rules say). Every puzzle's time is its whole
run -- build, sampling, decoding and checking -- on the wall clock; compiling the kernels happens once,
before the clock starts, and is reported apart (``setup_s``).

Examples:
    >>> from qpicross import Puzzle
    >>> from qpicross.pipeline.config import SolverConfig
    >>> letter = Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]], name="A")
    >>> dot = Puzzle([[1], []], [[1], []], name="dot")
    >>> result = run_tournament([("x.px", letter), ("y.px", dot)], SolverConfig(seed=0), time_limit=60)
    >>> [entry.solved for entry in result.entries], result.num_solved, result.interrupted
    ([True, True], 2, False)
    >>> result.total_s == sum(entry.seconds for entry in result.entries)
    True
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np

from qpicross.exceptions import ParameterError
from qpicross.experiments.result import machine_info
from qpicross.pipeline.config import SolverConfig
from qpicross.pipeline.run import run
from qpicross.puzzle import Puzzle
from qpicross.samplers.registry import takes_threads

__all__ = ["TournamentEntry", "TournamentResult", "run_tournament", "TOURNAMENT_TIME_LIMIT_S", "MAX_READS"]

#: The tournaments' limit for the whole set: two hours.
TOURNAMENT_TIME_LIMIT_S = 7200.0
#: Reads a puzzle may take before it counts as unsolved (each read of the block-shift annealer is itself a
#: series of restarts of up to its ``num_sweeps``; the total time is the limit that binds in practice).
MAX_READS = 1000


@dataclasses.dataclass(frozen=True)
class TournamentEntry:
    """One puzzle of a tournament run.

    Attributes:
        puzzle, source: The puzzle's name and where it came from (``FILE#N``).
        rows, cols: Its size.
        solved: Whether a read reached the ground state and its board passed the independent check.
        seconds: Wall time of the puzzle's whole run (build, sampling, decoding, checking).
        reads: Reads drawn (the last one solved it, when it is solved).
        total_s: The running total after this puzzle.
        timed_out: Whether what was left of the total ran out during this puzzle.
        cells_settled: With ``presolve``, the cells line logic settled before annealing (of ``rows * cols``);
            None without.
        solved_by_logic: With ``presolve``, whether line logic settled every cell (nothing was annealed); None
            without.
    """

    puzzle: str
    source: str
    rows: int
    cols: int
    solved: bool
    seconds: float
    reads: int
    total_s: float
    timed_out: bool = False
    cells_settled: int | None = None
    solved_by_logic: bool | None = None


@dataclasses.dataclass
class TournamentResult:
    """A tournament run: its entries in order, how it ended, and where it ran.

    Attributes:
        entries: One :class:`TournamentEntry` a puzzle run, in order (a puzzle Ctrl-C cut short, and those
            after it, are absent).
        num_puzzles: Puzzles in the set (run or not).
        time_limit: The limit for the whole set, in seconds.
        cores: Cores each puzzle's run used.
        config: The configuration every puzzle ran with (reads and time limit set by the run).
        setup_s: Compiling the kernels before the clock started.
        interrupted: Ctrl-C stopped the run (the entries so far are kept).
        meta: The machine, the code (:func:`~qpicross.experiments.result.machine_info`) and the load after.
    """

    entries: list[TournamentEntry]
    num_puzzles: int
    time_limit: float
    cores: int
    config: SolverConfig
    setup_s: float = 0.0
    interrupted: bool = False
    meta: dict = dataclasses.field(default_factory=dict)

    @property
    def total_s(self) -> float:
        """The running total: every puzzle's time, added."""
        return self.entries[-1].total_s if self.entries else 0.0

    @property
    def num_solved(self) -> int:
        return sum(entry.solved for entry in self.entries)

    @property
    def finished(self) -> bool:
        """Every puzzle ran, and neither the limit nor Ctrl-C stopped the run."""
        return len(self.entries) == self.num_puzzles and not self.interrupted and not any(
            entry.timed_out for entry in self.entries)

    def summary(self) -> dict:
        """Solved count, total time and the per-puzzle median, 99th percentile and slowest; with ``presolve``,
        also the cells line logic settled (``cells_settled`` of ``cells``) and the puzzles it solved alone."""
        seconds = np.array([entry.seconds for entry in self.entries]) if self.entries else np.zeros(0)
        slowest = max(self.entries, key=lambda entry: entry.seconds) if self.entries else None
        logic = {}
        if self.config.presolve:
            logic = {"cells": sum(entry.rows * entry.cols for entry in self.entries),
                     "cells_settled": sum(entry.cells_settled or 0 for entry in self.entries),
                     "solved_by_logic": sum(bool(entry.solved_by_logic) for entry in self.entries)}
        return {
            "puzzles": self.num_puzzles,
            "run": len(self.entries),
            "solved": self.num_solved,
            "total_s": self.total_s,
            "within_limit": self.finished and self.num_solved == self.num_puzzles and self.total_s <= self.time_limit,
            "median_s": float(np.median(seconds)) if len(seconds) else math.nan,
            "p99_s": float(np.percentile(seconds, 99)) if len(seconds) else math.nan,
            "slowest_s": float(slowest.seconds) if slowest else math.nan,
            "slowest_puzzle": slowest.puzzle if slowest else None,
            "unsolved": [entry.puzzle for entry in self.entries if not entry.solved],
            **logic,
        }

    def to_dict(self) -> dict:
        """A JSON-ready record: ``meta`` (machine, code, settings), ``summary`` and ``results``, one row a puzzle."""
        meta = {**self.meta, "time_limit_s": self.time_limit, "cores": self.cores, "setup_s": self.setup_s,
                "interrupted": self.interrupted, "config": self.config.to_dict()}
        return {"meta": meta, "summary": self.summary(), "results": [dataclasses.asdict(e) for e in self.entries]}

    def write_json(self, path: str | os.PathLike) -> None:
        """Write :meth:`to_dict` to ``path`` (NaN as null)."""
        text = json.dumps(self.to_dict(), indent=1, default=str).replace("NaN", "null")
        Path(path).write_text(text + "\n")


def run_tournament(
    puzzles: Sequence[tuple[str, Puzzle]],
    config: SolverConfig | None = None,
    *,
    time_limit: float = TOURNAMENT_TIME_LIMIT_S,
    cores: int = 1,
    progress: Callable[[TournamentEntry, int], None] | None = None,
) -> TournamentResult:
    """Solve ``puzzles`` one after the other, each until its first solving read, within ``time_limit`` in all.

    Args:
        puzzles: ``(source, puzzle)`` pairs, in the order they are run
            (:func:`~qpicross.experiments.bench.expand_specs` gives them from ``FILE#1-1000``).
        config: The sampler and its settings (default: the block-shift annealer's defaults); its reads,
            early stop and time limit are set here: up to :data:`MAX_READS` reads a puzzle, stopping at
            the first that solves it, within what is left of ``time_limit``.
        time_limit: Seconds for the whole set (default :data:`TOURNAMENT_TIME_LIMIT_S`, two hours).
        cores: Cores a puzzle's run may use (the block-shift annealer's ``threads``; default one).
        progress: Called as ``progress(entry, num_puzzles)`` after each puzzle.

    Returns:
        The run, also when Ctrl-C stopped it (``interrupted``; what was measured is kept).

    Raises:
        ParameterError: For a time limit or core count that is not positive.
    """
    from qpicross.experiments.bench import warm_up

    if not (isinstance(time_limit, (int, float)) and time_limit > 0):
        raise ParameterError(f"time_limit must be a positive number of seconds, got {time_limit!r}")
    if not (isinstance(cores, int) and cores >= 1):
        raise ParameterError(f"cores must be a whole number at least 1, got {cores!r}")
    config = (config or SolverConfig()).validate()
    options = dict(config.options)
    if takes_threads(config.sampler):
        options.setdefault("threads", cores)
    config = config.replace(num_reads=MAX_READS, early_stop="puzzle", options=options)
    result = TournamentResult([], len(puzzles), float(time_limit), cores, config, meta=machine_info())
    t0 = time.perf_counter()
    try:
        warm_up(config)  # compiling, once and before the clock, as a tournament program's build would be
        result.setup_s = time.perf_counter() - t0
        total = 0.0
        for source, puzzle in puzzles:
            left = time_limit - total
            if left <= 0:
                break
            start = time.perf_counter()
            run_result = run(puzzle, config.replace(time_limit=left))
            if run_result.interrupted:  # a puzzle cut short by Ctrl-C is no measurement: the run ends before it
                raise KeyboardInterrupt
            seconds = time.perf_counter() - start
            total += seconds
            logic = run_result.presolve or {}
            entry = TournamentEntry(str(puzzle.name), source, *puzzle.shape, run_result.solved,
                                    seconds, run_result.num_reads, total,
                                    timed_out=run_result.stopped_by_budget and not run_result.solved,
                                    cells_settled=logic.get("cells_settled"),
                                    solved_by_logic=logic.get("solved_by_logic"))
            result.entries.append(entry)
            if progress is not None:
                progress(entry, len(puzzles))
    except KeyboardInterrupt:
        result.interrupted = True
    result.meta["load_average_after"] = machine_info()["load_average"]
    return result
