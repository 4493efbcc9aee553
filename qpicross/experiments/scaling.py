"""Success probability and TTS99 against puzzle size: the scaling plot.

:func:`scaling_rows` reads rows from ``qpicross bench`` results files (or measures puzzles now with
:func:`scaling_configs`), and :func:`plot_scaling` draws them: success probability (Wilson 95 %) and
TTS99 against the number of cells, one line per configuration. Nothing here runs at import;
matplotlib is imported by the functions that draw.

Examples:
    >>> rows = [
    ...     {"puzzle": "a", "config": "baseline", "rows": 5, "cols": 5, "num_variables": 60,
    ...      "p": 0.5, "p_low": 0.4, "p_high": 0.6, "tts99_s": 0.02},
    ...     {"puzzle": "b", "config": "baseline", "rows": 10, "cols": 10, "num_variables": 200,
    ...      "p": 0.0, "p_low": 0.0, "p_high": 0.04, "tts99_s": float("inf")},
    ... ]
    >>> fig = plot_scaling(rows)
    >>> [ax.get_xlabel() for ax in fig.axes]
    ['cells (rows x columns)', 'cells (rows x columns)']
"""

from __future__ import annotations

import math
import os
from collections.abc import Sequence

import numpy as np

from qpicross.exceptions import ParameterError

__all__ = ["BEST_SHIFT", "scaling_configs", "scaling_rows", "plot_scaling"]

#: The package's default sampler settings, as ``make bench`` runs them (each read stops at energy 0).
BEST_SHIFT = {"sampler": "shift"}


def scaling_configs() -> list:
    """What the scaling plot compares when it measures: the published baseline, plain SA on the
    package's formulation, and the package's best sampler (``shift``,
    :class:`~qpicross.samplers.blockshift.sampler.BlockShiftSampler`, stopping a read at energy 0) without and
    with line-logic presolve."""
    from qpicross.experiments.bench import BASELINE
    from qpicross.pipeline.config import SolverConfig

    return [BASELINE, SolverConfig(sampler="sa", name="stacking (SA)"), SolverConfig(name="shift", **BEST_SHIFT),
            SolverConfig(name="shift + presolve", presolve=True, **BEST_SHIFT)]


def scaling_rows(
    results: str | os.PathLike | Sequence[str | os.PathLike] | None = None,
    *,
    puzzles: Sequence | None = None,
    num_reads: int = 100,
    time_limit: float = 1.0,
    workers: int = 1,
) -> list[dict]:
    """Rows for :func:`plot_scaling`: read from results files, or measured now on ``puzzles``.

    Args:
        results: One or more files written by ``qpicross bench --json FILE`` (or
            ``--csv``). When None, ``puzzles`` are benchmarked now with :func:`scaling_configs`.
        puzzles: :class:`~qpicross.puzzle.puzzle.Puzzle` objects to measure when ``results`` is None.
        num_reads: Reads per puzzle and configuration (when measuring).
        time_limit: Seconds of sampling per puzzle and configuration (when measuring).
        workers: Processes (when measuring).

    Returns:
        One dict per puzzle and configuration, with infinite TTS99 as ``inf``;
        a configuration that presolved is named ``... + presolve``.
    """
    from qpicross.experiments.bench import read_results, run_bench

    if results is not None:
        paths = [results] if isinstance(results, (str, os.PathLike)) else list(results)
        rows = [row for path in paths for row in read_results(path)]
    elif puzzles:
        from qpicross.classical.logic import propagate

        puzzles = sorted(puzzles, key=lambda p: p.num_rows * p.num_cols)
        propagate(puzzles[0])  # compile the line solver once: no puzzle's presolve time includes it
        results_now = run_bench(puzzles, scaling_configs(), num_reads=num_reads, time_limit=time_limit,
                                seed=0, workers=workers, baseline=True)
        rows = [r.to_dict() for r in results_now]
    else:
        raise ParameterError("scaling_rows needs results files or puzzles to measure")
    for row in rows:
        for key in ("tts99_s", "tts99_low_s", "tts99_high_s"):
            if key in row:
                row[key] = math.inf if row[key] in (None, "", "inf") else float(row[key])
        if str(row.get("presolve")).lower() in ("true", "1") and "presolve" not in row["config"]:
            row["config"] = f"{row['config']} + presolve"
    return rows


def _settled_by_logic(row: dict) -> bool:
    """Presolve left nothing to anneal (one trivial read)."""
    return str(row.get("presolve")).lower() in ("true", "1") and int(float(row["num_variables"])) == 0


def plot_scaling(rows: Sequence[dict], title: str | None = None):
    """Success probability (Wilson 95 %) and TTS99 against puzzle size, one line per configuration.

    With one puzzle per size, each configuration is a line through its puzzles.
    With several puzzles of a size (a benchmark collection), every puzzle is a
    faint marker and the line goes through the median per size.
    Runs that never solved the puzzle are drawn as ``x`` on a dotted line above
    every finite TTS99; puzzles that line logic settled entirely (no variable
    left to anneal) are hollow markers without an interval. Runs that raised
    (an ``error`` in their row) are left out.

    Returns:
        The :class:`matplotlib.figure.Figure`.
    """
    from matplotlib.figure import Figure

    rows = [r for r in rows if not r.get("error")]  # a run that raised measured nothing
    configs = list(dict.fromkeys(r["config"] for r in rows))
    markers = dict(zip(configs, "osD^v<>p"))
    all_tts = [float(r["tts99_s"]) for r in rows]
    finite = [t for t in all_tts if math.isfinite(t) and t > 0]
    ceiling = max(finite) * 5 if finite else 1.0
    fig = Figure(figsize=(10, 3.9), layout="constrained")
    ax_p, ax_t = fig.subplots(1, 2)
    size = lambda r: int(r["rows"]) * int(r["cols"])  # noqa: E731
    crowded = any(sum(1 for r in rows if r["config"] == c and size(r) == s) > 1
                  for c in configs for s in {size(r) for r in rows})
    for i, name in enumerate(configs):
        mine = sorted((r for r in rows if r["config"] == name), key=size)
        dodge = 1 + 0.03 * (i - (len(configs) - 1) / 2)
        cells = np.array([size(r) for r in mine], dtype=float) * dodge
        p = np.array([float(r["p"]) for r in mine])
        tts = np.array([float(r["tts99_s"]) for r in mine])
        solved = np.isfinite(tts)
        by_logic = np.array([_settled_by_logic(r) for r in mine], dtype=bool)
        if crowded:
            sizes = np.unique(cells)
            median_p = [float(np.median(p[cells == c])) for c in sizes]
            # The median TTS99 counts never-solved runs as infinite: no line where over half failed.
            median_t = [float(np.median(tts[cells == c])) for c in sizes]
            line, = ax_p.plot(sizes, median_p, marker=markers[name], label=f"{name} (median)")
            colour = line.get_color()
            ax_p.scatter(cells, p, marker=markers[name], s=12, color=colour, alpha=0.25, lw=0)
            finite_median = np.isfinite(median_t)
            ax_t.plot(sizes[finite_median], np.array(median_t)[finite_median], marker=markers[name],
                      color=colour)
            ax_t.scatter(cells[solved], tts[solved], marker=markers[name], s=12, color=colour, alpha=0.25,
                         lw=0)
        else:
            low = p - np.array([float(r["p_low"]) for r in mine])
            high = np.array([float(r["p_high"]) for r in mine]) - p
            low[by_logic] = high[by_logic] = 0
            bars = ax_p.errorbar(cells, p, yerr=[low, high], marker=markers[name], capsize=3, label=name)
            colour = bars.lines[0].get_color()
            ax_t.plot(cells[solved], tts[solved], marker=markers[name], color=colour, label=name)
            for ax, values, keep in ((ax_p, p, by_logic), (ax_t, tts, by_logic & solved)):
                ax.scatter(cells[keep], values[keep], marker=markers[name], s=90, facecolors="white",
                           edgecolors=colour, zorder=3)
        ax_t.scatter(cells[~solved], np.full(int((~solved).sum()), ceiling), marker="x", s=60, color=colour)
    if not crowded and any(_settled_by_logic(r) for r in rows):
        ax_p.scatter([], [], marker="o", facecolors="white", edgecolors="#555555",
                     label="settled by logic alone")
    all_sizes = sorted({size(r) for r in rows})
    gap = 1.25 if len(all_sizes) <= 6 else 1.45  # label the sizes, skipping any too close to the last label
    ticks: list[int] = []
    for s in all_sizes:
        if not ticks or s >= gap * ticks[-1]:
            ticks.append(s)
    for ax in (ax_p, ax_t):
        ax.set_xscale("log")
        ax.set_xticks(ticks, [str(s) for s in ticks], fontsize=8 if len(ticks) > 6 else 10)
        ax.minorticks_off()
        ax.set_xlabel("cells (rows x columns)")
    ax_p.set_ylim(-0.03, 1.03)
    ax_p.set_ylabel("success probability per read" + ("" if crowded else " (95 % Wilson)"))
    ax_p.legend(fontsize=8)
    ax_t.set_yscale("log")
    ax_t.axhline(ceiling, color="#999999", lw=0.8, ls=":")
    ax_t.set_ylabel("TTS99 (s); x on dotted line = never solved")
    if title:
        fig.suptitle(title, fontsize=11)
    return fig
