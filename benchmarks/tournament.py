"""The tournament table of the docs: published solvers' totals beside qpicross's own pass under the same rules.

``make bench-tournament-pass`` writes ``results/tournament_FILE.json``
(:func:`qpicross.experiments.tournament.run_tournament`: the 1 000 puzzles once, in order, each until its
first solving read, on one core); :func:`tournament_table` turns those files into the Markdown table of the
"tournament-pass" section, under the published anchors (:data:`ANCHORS`).

Examples:
    >>> pass_ = {"meta": {"cores": 1, "time_limit_s": 7200, "commit": "abc1234", "config": {"sampler": "shift"}},
    ...          "summary": {"puzzles": 2, "run": 2, "solved": 2, "total_s": 3.5, "median_s": 1.75, "p99_s": 2.0,
    ...                      "slowest_s": 2.0, "slowest_puzzle": "taai2011#2", "within_limit": True},
    ...          "results": [{"source": "taai2011.txt#1-2"}]}
    >>> print(tournament_table({"taai2011": pass_}).splitlines()[-1])
    | qpicross `shift` (commit abc1234) | this project's 2-core machine, 1 core | 2 of 2 | 3.5 s | 1.75 s | 2 s | 2 s (taai2011#2) | yes |
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from pathlib import Path

import numpy as np

from benchmarks.ratios import geometric_interval

__all__ = ["ANCHORS", "tournament_table", "tail_line", "load_passes", "passes_compared"]

#: Published totals for the 1 000 taai2011 puzzles (program, machine, total, per-puzzle figures, source), as
#: hyouv/FastNonogramSolver's ``results/README.md`` reports them; the TAAI 2011 figure is the tournament's own.
ANCHORS = [
    ("LalaFrogKK (winner of every TAAI/TCGA event 2011-2015)", "the TAAI 2011 tournament machine", "1000 of 1000",
     "645.5 s", "", "", "", "yes", "TAAI 2011 results"),
    ("LalaFrogKK", "a current Xeon, one core", "1000 of 1000", "463.4 s", "", "", "", "yes",
     "hyouv/FastNonogramSolver"),
    ("nonosolve (line solver, probing, search, SAT fallback)", "one core", "1000 of 1000", "83.7 CPU-s", "10 ms",
     "1.32 s", "13.1 s", "yes", "hyouv/FastNonogramSolver"),
]

_HEADER = ("program", "machine", "solved", "total", "median", "99th percentile", "slowest", "within 2 h")


def _seconds(value) -> str:
    if value is None:
        return "–"
    return f"{value * 1e3:.3g} ms" if value < 1 else f"{value:.3g} s" if value < 1000 else f"{value:.0f} s"


def load_passes(paths) -> dict[str, dict]:
    """The tournament files among ``paths`` (``results/tournament_FILE.json``), by puzzle file."""
    passes = {}
    for path in paths:
        path = Path(path)
        passes[path.stem.removeprefix("tournament_")] = json.loads(path.read_text())
    return passes


def tournament_table(passes: Mapping[str, dict] | list[str | os.PathLike]) -> str:
    """Markdown: for each puzzle file, the anchors (taai2011 only) and qpicross's pass, one row each; a pass with
    ``--presolve`` (``make bench-tournament-presolve``: ``FILE_presolve``, with a line on what line logic settled) or
    on both cores (``make bench-tournament-cores``: ``FILE_cores2``) is a row of its file's table (:data:`_VARIANTS`).

    >>> pass_ = {"meta": {"cores": 1, "commit": "abc1234", "config": {"sampler": "shift", "presolve": True}},
    ...          "summary": {"puzzles": 2, "run": 2, "solved": 2, "total_s": 3.5, "median_s": 1.75, "p99_s": 2.0,
    ...                      "slowest_s": 2.0, "slowest_puzzle": "t#2", "within_limit": True, "cells": 1250,
    ...                      "cells_settled": 250, "solved_by_logic": 0}, "results": []}
    >>> print(tournament_table({"t_presolve": pass_}))  # doctest: +NORMALIZE_WHITESPACE
    **t** (2 puzzles, every one run):
    <BLANKLINE>
    | program | machine | solved | total | median | 99th percentile | slowest | within 2 h |
    |---|---|---|---|---|---|---|---|
    | qpicross `shift --presolve` (commit abc1234) | this project's 2-core machine, 1 core | 2 of 2 | 3.5 s | 1.75 s | 2 s | 2 s (t#2) | yes |
    <BLANKLINE>
    With `--presolve`, line logic settled 250 of 1 250 cells (20 %) and solved 0 of 2 puzzles alone; the annealer found the other 1 000.
    """
    if not isinstance(passes, Mapping):
        passes = load_passes(passes)
    lines = []
    for name in dict.fromkeys(_file_of(key) for key in passes):
        runs = [passes[key] for key in (name, *(name + suffix for suffix in _VARIANTS)) if key in passes]
        first = runs[0]
        s = first["summary"]
        ran = "every one run" if s["run"] == s["puzzles"] else f"{s['run']} run"
        lines.append(f"**{name}** ({s['puzzles']} puzzles, {ran}):\n")
        lines.append("| " + " | ".join(_HEADER) + " |")
        lines.append("|" + "---|" * len(_HEADER))
        if name == "taai2011":
            for program, machine, solved, total, median, p99, slowest, within, _source in ANCHORS:
                lines.append(f"| {program} | {machine} | {solved} | {total} | {median or '–'} | {p99 or '–'} | "
                             f"{slowest or '–'} | {within} |")
        lines += [_pass_row(data) for data in runs] + [""]
        for data in runs:
            share = tail_line(data.get("results", []), data["summary"]["total_s"])
            logic = _logic_line(data["summary"])
            if share and len(runs) > 1:  # which pass the line is about
                share = _which_pass(data) + share[0].lower() + share[1:]
            if logic:
                logic = (f"Line logic {logic}" if share else f"With `--presolve`, line logic {logic}")
            lines += [" ".join(line for line in (share, logic) if line)] + [""] if share or logic else []
    return "\n".join(lines).rstrip()


#: The passes of a file beside its default one, by the suffix of their results file: ``make
#: bench-tournament-presolve`` (line logic first) and ``make bench-tournament-cores`` (restart streams on both cores).
_VARIANTS = ("_presolve", "_cores2")


def _file_of(key: str) -> str:
    """The tournament file a pass's name is of: ``taai2011_presolve`` -> ``taai2011``."""
    for suffix in _VARIANTS:
        key = key.removesuffix(suffix)
    return key


def _which_pass(data: dict) -> str:
    """The words that start a pass's line where its file has several: what it ran with."""
    if data["meta"].get("config", {}).get("presolve"):
        return "With `--presolve`: "
    cores = data["meta"]["cores"]
    return f"On {cores} cores: " if cores > 1 else "The default: "


def _pass_row(data: dict) -> str:
    meta, s = data["meta"], data["summary"]
    cores = meta["cores"]
    config = meta.get("config", {})
    sampler = (config.get("sampler", "shift") + (" --presolve" if config.get("presolve") else "")
               + (f" --option threads={cores}" if cores > 1 else ""))
    slowest = f"{_seconds(s['slowest_s'])} ({s['slowest_puzzle']})" if s.get("slowest_puzzle") else "–"
    load = meta.get("load_average"), meta.get("load_average_after")
    load = f", load average {load[0][0]:g} → {load[1][0]:g}" if all(load) else ""
    return (f"| qpicross `{sampler}` (commit {meta.get('commit') or '?'}) | this project's 2-core machine, "
            f"{cores} core{'s' if cores > 1 else ''}{load} | {s['solved']} of {s['puzzles']} | "
            f"{_seconds(s['total_s'])} | {_seconds(s['median_s'])} | {_seconds(s['p99_s'])} | {slowest} | "
            f"{'yes' if s['within_limit'] else 'no'} |")


def _logic_line(s: Mapping) -> str:
    """What line logic did in a ``--presolve`` pass (its summary's cells, from "settled"), or ``""``."""
    if "cells_settled" not in s:
        return ""
    cells, settled = s["cells"], s["cells_settled"]

    def count(n: int) -> str:
        return f"{n:,}".replace(",", " ")

    return (f"settled {count(settled)} of {count(cells)} cells "
            f"({100 * settled / cells:.0f} %) and solved {s['solved_by_logic']} of {s['run']} puzzles alone; the "
            f"annealer found the other {count(cells - settled)}.")


def tail_line(results, total_s: float, slowest: int = 10) -> str:
    """Where a pass's total goes: the share of its ``slowest`` slowest puzzles, and of the puzzles under a second.

    >>> tail_line([{"puzzle": f"p{i}", "seconds": t} for i, t in enumerate([0.5, 0.5, 9.0])], 10.0, slowest=1)
    'The slowest puzzle took 9 s, 90 % of the total (p2); the 2 puzzles under one second 1 s, 10 %.'
    """
    times = sorted(((float(r["seconds"]), r["puzzle"]) for r in results if r.get("seconds") is not None),
                   reverse=True)
    if not times or not total_s:
        return ""
    top = times[:slowest]
    quick = [t for t, _ in times if t < 1]
    head = ("The slowest puzzle took" if len(top) == 1 else f"The {len(top)} slowest puzzles took")
    return (f"{head} {_seconds(sum(t for t, _ in top))}, {100 * sum(t for t, _ in top) / total_s:.0f} % of the total "
            f"({', '.join(name for _, name in top)}); the {len(quick)} puzzles under one second "
            f"{_seconds(sum(quick))}, {100 * sum(quick) / total_s:.0f} %.")


def passes_compared(before: dict, after: dict, resamples: int = 9999) -> str:
    """One line on two passes of the same puzzles from the same seed by two commits (``before``, ``after``): on how
    many puzzles they drew the same reads, and the earlier pass's time over the later's, for the total (a ratio of
    sums, its 95 % percentile interval from resampling the puzzles with :func:`scipy.stats.bootstrap`, a fixed seed,
    as :func:`~benchmarks.ratios.geometric_interval` does) and per puzzle (the geometric mean, with
    :func:`~benchmarks.ratios.geometric_interval`'s interval). Only puzzles both solved count.

    >>> rows = lambda times: {"meta": {"commit": "c"}, "results": [
    ...     {"puzzle": f"p{i}", "solved": True, "seconds": t, "reads": 1} for i, t in enumerate(times)]}
    >>> passes_compared(rows([2.0, 4.0, 6.0]), rows([1.0, 2.0, 3.0]))  # doctest: +ELLIPSIS
    'commit c against commit c, the same 3 puzzles: the same reads on 3; total 12 s against 6 s, 2× [2, 2]; ...'
    """
    old = {r["puzzle"]: r for r in before["results"] if r.get("solved")}
    new = {r["puzzle"]: r for r in after["results"] if r.get("solved")}
    both = [p for p in new if p in old]
    if not both:
        return ""
    a = np.array([float(old[p]["seconds"]) for p in both])
    b = np.array([float(new[p]["seconds"]) for p in both])
    same = sum(old[p].get("reads") == new[p].get("reads") for p in both)
    if len(both) > 1:
        from scipy import stats

        found = stats.bootstrap((a, b), lambda x, y, axis: x.sum(axis=axis) / y.sum(axis=axis), paired=True,
                                vectorized=True, n_resamples=resamples, method="percentile", random_state=0)
        low, high = found.confidence_interval
    else:
        low = high = a.sum() / b.sum()
    per = a / b
    geo = float(np.exp(np.mean(np.log(per))))
    interval = geometric_interval(per.tolist()) or (geo, geo)
    return (f"commit {before['meta'].get('commit')} against commit {after['meta'].get('commit')}, the same "
            f"{len(both)} puzzles: the same reads on {same}; total {_seconds(a.sum())} against {_seconds(b.sum())}, "
            f"{a.sum() / b.sum():.3g}× [{low:.3g}, {high:.3g}]; per puzzle, geometric mean {geo:.3g}× "
            f"[{interval[0]:.3g}, {interval[1]:.3g}] (one read a puzzle in each pass, so the ratio of a single puzzle, "
            f"from {per.min():.3g}× to {per.max():.3g}×, has no interval)")
