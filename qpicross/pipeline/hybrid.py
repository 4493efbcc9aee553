"""Annealing and logic in turns: the reads point at cells, logic proves them, the QUBO shrinks.

:func:`anneal_with_logic` starts like ``anneal(presolve=True)`` (line logic,
then anneal what is left). While no read solves the puzzle it takes the
unknown cells on which the low-energy reads agree most, and *probes* them:
it sets a cell to the value the reads disagree with and runs line logic; a
contradiction proves the reads' value, which is then propagated. Every cell
it settles is therefore proven (never a guess), and the next anneal works on
a smaller QUBO. It stops when a read solves the puzzle, when logic settles
every cell (0 variables left), or after ``rounds`` anneals.

Examples:
    >>> from qpicross import Puzzle, check
    >>> p = Puzzle.from_board(["#....", ".##..", "##..#", ".#.##", ".#.#."])
    >>> r = anneal_with_logic(p, rounds=3, num_reads=20, seed=1)
    >>> r.solved, check(p, r.board)
    (True, [])
    >>> r.presolve["variables_before"] >= r.presolve["variables_after"] >= r.presolve["variables_final"]
    True
"""

from __future__ import annotations

import numpy as np

from qpicross.samplers.parameters import MAX_COUNT, integer, number as real_number
from qpicross.pipeline.run import AnnealResult, anneal
from qpicross.classical.logic import UNKNOWN, propagate
from qpicross.puzzle import Puzzle

__all__ = ["anneal_with_logic", "read_agreement"]


def read_agreement(result: AnnealResult, top_fraction: float = 0.25) -> np.ndarray:
    """Per cell, the fraction of the lowest-energy reads that fill it.

    Both boards of a read count (the one its row variables paint and the one
    its column variables paint), weighted by how often the read occurred.

    Args:
        result: An annealing run.
        top_fraction: Share of the reads, lowest energy first, to use.

    Returns:
        A ``puzzle.shape`` float array in ``[0, 1]``.
    """
    ev = result.evaluation
    order = np.argsort(ev.energy, kind="stable")
    weight = ev.num_occurrences[order].astype(float)
    before = np.cumsum(weight) - weight
    chosen = order[before < max(1.0, top_fraction * weight.sum())]
    w = ev.num_occurrences[chosen].astype(float)
    rows = ev.boards[chosen].astype(float)
    cols = result.formulation.boards(ev.samples[chosen], side="col").astype(float)
    return (np.tensordot(w, rows, axes=1) + np.tensordot(w, cols, axes=1)) / (2 * w.sum())


def _probe(
    puzzle: Puzzle, known: np.ndarray, cells: np.ndarray, values: np.ndarray
) -> tuple[np.ndarray, int, int]:
    """Try each cell at the value opposite to ``values``, then at ``values``; keep what contradictions prove.

    Returns the new known cells, probes run, and cells proven by probing.
    """
    probes = proven = 0
    flat_known = known.reshape(-1)
    for cell, value in zip(cells.tolist(), values.tolist()):
        if flat_known[cell] != UNKNOWN:
            continue  # settled by an earlier probe's propagation
        for tried in (1 - value, value):
            trial = known.copy()
            trial.reshape(-1)[cell] = tried
            probes += 1
            if propagate(puzzle, trial).contradiction:
                trial.reshape(-1)[cell] = 1 - tried
                known = propagate(puzzle, trial).known  # sound: the other value led to a contradiction
                flat_known = known.reshape(-1)
                proven += 1
                break
    return known, probes, proven


def anneal_with_logic(
    puzzle: Puzzle,
    *,
    rounds: int = 10,
    probes_per_round: int | None = None,
    top_fraction: float = 0.25,
    seed: int | None = None,
    **anneal_kwargs,
) -> AnnealResult:
    """Alternate annealing and line logic (see the module docstring).

    Args:
        puzzle: The puzzle.
        rounds: Most anneals to run.
        probes_per_round: Cells to probe after each unsolved anneal, most agreed
            first (default: every unknown cell).
        top_fraction: Share of the lowest-energy reads whose agreement ranks cells.
        seed: Seed of the first anneal; round ``r`` uses ``seed + r``.
        **anneal_kwargs: Passed to :func:`~qpicross.pipeline.run.anneal` (``num_reads``, ...).

    Returns:
        The last anneal's result. Its ``presolve`` dict has the line-logic
        presolve figures (``variables_before``, ``variables_after``, ...) plus
        ``variables_final`` (the last QUBO's size), ``variables_annealed_final``
        (0 when logic settled every cell), ``rounds`` (per anneal: variables,
        variables annealed, unknown cells, reads, success probability, energy),
        ``total_reads``, ``probes`` and ``cells_proven`` (by probing).
    """
    integer(1, MAX_COUNT).check("rounds", rounds)
    real_number(0, 1, above=True).check("top_fraction", top_fraction)
    integer(0, MAX_COUNT, none=True).check("probes_per_round", probes_per_round)
    anneal_kwargs.pop("presolve", None)
    config = anneal_kwargs.get("config")
    if seed is None and config is not None:
        seed = config.seed
    result = anneal(puzzle, presolve=True, seed=seed, **anneal_kwargs)
    info = dict(result.presolve)
    history, probes, proven = [], 0, 0
    known = propagate(puzzle, anneal_kwargs.get("known")).known
    for number in range(rounds):
        if number:
            round_seed = None if seed is None else seed + number
            result = anneal(puzzle, presolve=True, seed=round_seed, **{**anneal_kwargs, "known": known})
        history.append({
            "variables": result.presolve["variables_after"],
            "variables_annealed": result.presolve["variables_annealed"],
            "unknown_cells": int((known == UNKNOWN).sum()),
            "num_reads": result.num_reads,
            "success_probability": result.success_probability,
            "energy": result.energy,
        })
        if result.solved or info["contradiction"] or number == rounds - 1:
            break
        unknown = np.flatnonzero(known.reshape(-1) == UNKNOWN)
        fill = read_agreement(result, top_fraction).reshape(-1)[unknown]
        agreement = np.maximum(fill, 1 - fill)
        budget = probes_per_round or len(unknown)
        order = np.argsort(-agreement, kind="stable")[:budget]
        known, ran, found = _probe(puzzle, known, unknown[order], (fill[order] > 0.5).astype(np.int8))
        probes += ran
        proven += found
    info.update(
        variables_final=result.presolve["variables_after"],
        variables_annealed_final=result.presolve["variables_annealed"],
        rounds=history,
        total_reads=sum(h["num_reads"] for h in history),
        probes=probes,
        cells_proven=proven,
        cells_settled_final=int((known != UNKNOWN).sum()),
    )
    result.presolve = info
    return result
