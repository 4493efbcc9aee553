"""The README's figures, made from measurements taken when they are made.

``make figures`` (or ``python -m qpicross.figures figures/``) writes:

* ``solved_5x5.png`` -- the letter "A" solved by annealing;
* ``broken_read.png`` -- an unsolved read of the 10x10 star: broken lines in red,
  cells where row and column variables disagree crossed out;
* ``tuning_heatmap.png`` -- success probability over ``one_hot`` x ``match`` weights
  (:func:`qpicross.tune.tune`) on the 7x7 smile;
* ``scaling.png`` -- success probability and TTS99 against puzzle size for the
  baseline, plain SA on the package's formulation, and the package's best sampler
  without and with presolve (:func:`plot_scaling`),
  from a committed ``qpicross bench --json`` results file if one is given,
  else measured on the puzzles shipped in ``instances/``.

Nothing here runs at import; matplotlib is imported by the functions that draw.

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

import argparse
import math
import os
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

__all__ = ["INSTANCES", "scaling_configs", "scaling_rows", "plot_scaling", "make_figures", "main"]

#: The puzzles shipped with the repository.
INSTANCES = Path(__file__).resolve().parent.parent / "instances"


def _solved_5x5(out: Path) -> Path:
    from .anneal import anneal
    from .formats import load_puzzle
    from .plot import plot_puzzle, save_figure

    puzzle = load_puzzle(INSTANCES / "5x5.px")
    result = anneal(puzzle, num_reads=100, seed=1)
    title = (f'The letter "A" (5x5): solved, p = {result.success_probability:.2f} '
             f"over {result.num_reads} reads")
    path = out / "solved_5x5.png"
    save_figure(plot_puzzle(puzzle, result.board, title=title, cell_size=0.45), path)
    return path


def _broken_read(out: Path) -> Path:
    from .anneal import anneal
    from .formats import load_puzzle
    from .plot import plot_puzzle, save_figure

    puzzle = load_puzzle(INSTANCES / "star10.px")
    result = anneal(puzzle, num_reads=100, seed=1)
    read = result.best  # a solved read if any; the star is rarely solved at these settings
    disagree = [tuple(int(v) for v in cell) for cell in np.argwhere(read.board != read.col_board)]
    status = "solved" if read.solved else f"{len(read.broken_lines)} broken lines"
    title = (f"{puzzle.name} (10x10), lowest-energy read of {result.num_reads}: energy {result.energy:g},\n"
             f"{status}; x = rows and columns disagree")
    path = out / "broken_read.png"
    save_figure(plot_puzzle(puzzle, read.board, broken=read.broken_lines, marked=disagree, title=title,
                            cell_size=0.42), path)
    return path


def _tuning(out: Path, workers: int, quick: bool) -> Path:
    from .formats import load_puzzle
    from .plot import save_figure
    from .tune import grid_points, parse_grid, plot_tuning, tune

    puzzle = load_puzzle(INSTANCES / "smile7.px")
    points = grid_points(parse_grid("one_hot=0.25:4:5,match=0.25:4:5"), log=True)
    result = tune(puzzle, points, num_reads=50 if quick else 100, seeds=1 if quick else 2, seed=0,
                  workers=workers)
    reads = result.records[0]["num_reads"]
    fig = plot_tuning(result, title=f"{puzzle.name} (7x7): success probability, {reads} reads per point")
    path = out / "tuning_heatmap.png"
    save_figure(fig, path)
    return path


def scaling_configs() -> list:
    """What the scaling plot compares: the published baseline, the package's formulation under plain
    SA, and the package's best sampler (``shift``, :class:`~qpicross.structured.BlockShiftSampler`)
    without and with line-logic presolve."""
    from .bench import BASELINE, BenchConfig

    return [BASELINE, BenchConfig("stacking (SA)"), BenchConfig("shift", sampler="shift"),
            BenchConfig("shift + presolve", sampler="shift", presolve=True)]


def scaling_rows(
    results: str | os.PathLike | None = None,
    *,
    num_reads: int = 100,
    time_budget: float = 1.0,
    workers: int = 1,
) -> list[dict]:
    """Rows for :func:`plot_scaling`: read from a results file, or measured on ``instances/``.

    Args:
        results: A file written by ``qpicross bench --json FILE`` (or ``--csv``).
            When None, the shipped puzzles are benchmarked now with
            :func:`scaling_configs`.
        num_reads: Reads per puzzle and configuration (when measuring).
        time_budget: Seconds of sampling per puzzle and configuration (when measuring).
        workers: Processes (when measuring).

    Returns:
        One dict per puzzle and configuration, with infinite TTS99 as ``inf``.
    """
    from .bench import read_results, run_bench

    if results is not None:
        rows = read_results(results)
    else:
        from .formats import load_puzzle
        from .logic import propagate

        puzzles = sorted((load_puzzle(p) for p in INSTANCES.glob("*.px")), key=lambda p: p.num_rows * p.num_cols)
        propagate(puzzles[0])  # compile the line solver once: no puzzle's presolve time includes it
        rows = [r.to_dict() for r in run_bench(puzzles, scaling_configs(), num_reads=num_reads, time_budget=time_budget,
                                                seed=0, workers=workers, baseline=True)]
    for row in rows:
        for key in ("tts99_s", "tts99_low_s", "tts99_high_s"):
            if key in row:
                row[key] = math.inf if row[key] in (None, "", "inf") else float(row[key])
    return rows


def plot_scaling(rows: Sequence[dict], title: str | None = None):
    """Success probability (Wilson 95 %) and TTS99 against puzzle size, one line per configuration.

    Runs that never solved the puzzle are drawn as ``x`` on a dotted line above
    every finite TTS99; puzzles that line logic settled entirely (no variable
    left to anneal) are hollow markers without an interval.

    Returns:
        The :class:`matplotlib.figure.Figure`.
    """
    from matplotlib.figure import Figure

    configs = list(dict.fromkeys(r["config"] for r in rows))
    markers = dict(zip(configs, "osD^v<>p"))
    finite = [float(r["tts99_s"]) for r in rows if math.isfinite(float(r["tts99_s"])) and float(r["tts99_s"]) > 0]
    ceiling = max(finite) * 5 if finite else 1.0
    fig = Figure(figsize=(10, 3.9), layout="constrained")
    ax_p, ax_t = fig.subplots(1, 2)
    size = lambda r: int(r["rows"]) * int(r["cols"])  # noqa: E731
    for i, name in enumerate(configs):
        mine = sorted((r for r in rows if r["config"] == name), key=size)
        cells = np.array([size(r) for r in mine], dtype=float) * (1 + 0.03 * (i - (len(configs) - 1) / 2))
        p = np.array([float(r["p"]) for r in mine])
        low = p - np.array([float(r["p_low"]) for r in mine])
        high = np.array([float(r["p_high"]) for r in mine]) - p
        by_logic = np.array([int(r["num_variables"]) == 0 for r in mine], dtype=bool)
        low[by_logic] = high[by_logic] = 0
        bars = ax_p.errorbar(cells, p, yerr=[low, high], marker=markers[name], capsize=3, label=name)
        colour = bars.lines[0].get_color()
        tts = np.array([float(r["tts99_s"]) for r in mine])
        solved = np.isfinite(tts)
        ax_t.plot(cells[solved], tts[solved], marker=markers[name], color=colour, label=name)
        ax_t.scatter(cells[~solved], np.full(int((~solved).sum()), ceiling), marker="x", s=60, color=colour)
        for ax, values, keep in ((ax_p, p, by_logic), (ax_t, tts, by_logic & solved)):
            ax.scatter(cells[keep], values[keep], marker=markers[name], s=90, facecolors="white",
                       edgecolors=colour, zorder=3)
    if any(int(r["num_variables"]) == 0 for r in rows):
        ax_p.scatter([], [], marker="o", facecolors="white", edgecolors="#555555", label="settled by logic alone")
    sizes = sorted({size(r) for r in rows})
    for ax in (ax_p, ax_t):
        ax.set_xscale("log")
        ax.set_xticks(sizes, [str(s) for s in sizes])
        ax.minorticks_off()
        ax.set_xlabel("cells (rows x columns)")
    ax_p.set_ylim(-0.03, 1.03)
    ax_p.set_ylabel("success probability per read (95 % Wilson)")
    ax_p.legend(fontsize=8)
    ax_t.set_yscale("log")
    ax_t.axhline(ceiling, color="#999999", lw=0.8, ls=":")
    ax_t.set_ylabel("TTS99 (s); x on dotted line = never solved")
    if title:
        fig.suptitle(title, fontsize=11)
    return fig


def _scaling(out: Path, results: str | None, quick: bool) -> Path:
    from .bench import machine_info
    from .plot import save_figure

    # One process: parallel jobs would share the CPUs and inflate each other's time per read.
    rows = scaling_rows(results, num_reads=100 if quick else 300, time_budget=1.0 if quick else 3.0, workers=1)
    if results:
        title = f"Scaling, from {Path(results).name}"
    else:
        info = machine_info()
        reads = max(int(r["num_reads"]) for r in rows)
        title = (f"Scaling on the shipped puzzles: up to {reads} reads per point, "
                 f"{info['cpus']} CPUs, {info['time_utc'][:10]}")
    path = out / "scaling.png"
    save_figure(plot_scaling(rows, title=title), path)
    return path


def make_figures(
    out_dir: str | os.PathLike = "figures",
    *,
    results: str | os.PathLike | None = None,
    workers: int = 2,
    quick: bool = False,
) -> list[Path]:
    """Regenerate every figure into ``out_dir``; returns the paths written.

    Args:
        out_dir: Folder for the PNGs (created if missing).
        results: A ``qpicross bench`` results file for the scaling plot (else measured now).
        workers: Processes for the tuning sweep (the scaling benchmark runs in one, for fair timings).
        quick: Fewer reads (for a smoke test); the README's figures use the default.
    """
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    return [
        _solved_5x5(out),
        _broken_read(out),
        _tuning(out, workers, quick),
        _scaling(out, str(results) if results else None, quick),
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m qpicross.figures", description=__doc__.split("\n\n")[0])
    parser.add_argument("out_dir", nargs="?", default="figures", help="folder for the PNGs (default figures/)")
    parser.add_argument("--results", default=None, help="qpicross bench --json/--csv file for the scaling plot")
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--quick", action="store_true", help="fewer reads, for a smoke test")
    args = parser.parse_args(argv)
    for path in make_figures(args.out_dir, results=args.results, workers=args.workers, quick=args.quick):
        print(path)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
