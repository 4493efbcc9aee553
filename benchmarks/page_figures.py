"""The figure each results page opens with, drawn from its committed results files alone (seconds, no sampling).

``python -m benchmarks.page_figures [FOLDER]`` (``make figures`` runs it) writes into ``figures/``:

* ``tournament_pass.png`` -- the tournament passes against the champions' totals (the README and the index, the
  typical-puzzles page; :func:`tournament_figure`);
* ``tts_size_typical.png``, ``tts_size_random.png`` -- each puzzle's TTS99 with its 95 % interval against its cells
  (:func:`tts_against_size`; a puzzle no read solved is marked at the top, its TTS99 infinite);
* ``ttt_hard.png``, ``ttt_parallel.png`` -- time-to-target curves, the fraction of reads that reached the ground
  state by each time, reads cut by the budget censored (:func:`time_to_target_curves`);
* ``ablation.png`` -- what each part of the annealer buys: each configuration's TTS99 per puzzle (:func:`ablation`);
* ``survey.png`` -- Wolter's survey puzzles: our TTS99 beside the survey's fastest and median solver
  (:func:`survey_figure`);
* ``ladders.png`` -- the ladders page's interleaved runs, each change against the tree before it
  (:func:`ladders_figure`);
* ``tail_target.png`` -- issue 58's tail target: the tail set's TTS99 on this tree against ``d7e996d``, with the
  target's line (the page of the hardest puzzles; :func:`tail_target`);
* ``stall.png`` -- why large puzzles stall: restarts watched sweep by sweep, energy and exchange acceptance
  (:func:`stall`);
* ``frontier_sizes.png`` -- plain SA's solved fraction on random boards against size, alone and after line logic;
* ``embedding_chains.png`` -- the longest chain of each embedded model against its variables, by encoding and graph;
* ``tournament_long.png`` -- the full runs' TTS99 of each puzzle through both tournament files (the archive);
* ``gpu_throughput.png`` -- the batched annealer's ladder-sweeps a second, GPU and CPU (the GPU archive).

Examples:
    >>> [name for name, _ in PAGE_FIGURES][:3]
    ['tournament_pass.png', 'tts_size_typical.png', 'tts_size_random.png']
"""

from __future__ import annotations

import json
import math
import sys
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path

from benchmarks.report import load_rows, rows_by_config
from benchmarks.restate import _number

__all__ = ["PAGE_FIGURES", "tournament_figure", "tts_against_size", "time_to_target_curves", "ablation", "frontier_sizes",
           "stall", "survey_figure", "ladders_figure", "tail_target", "embedding_chains", "tournament_long", "gpu_throughput",
           "make_page_figures", "main"]

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "results"


def _rows(*names: str) -> list[dict]:
    """The rows of those of the results files ``names`` that are committed (:func:`benchmarks.report.load_rows`)."""
    return load_rows(path for path in (RESULTS / name for name in names) if path.is_file())


def _figure(title: str, size=(7.5, 3.6)):
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=size)
    # A title wider than the figure would widen the saved image (tight bounding box) and shrink the plot in it.
    ax.set_title("\n".join(textwrap.fill(line, width=int(size[0] * 13)) for line in title.split("\n")), fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    return fig, ax


def _save(fig, path: Path) -> Path:
    import matplotlib.pyplot as plt

    from qpicross.plot import save_figure

    save_figure(fig, path)
    plt.close(fig)
    return path


def _commits(*names: str) -> str:
    commits = []
    for name in names:
        path = RESULTS / name
        if path.is_file():
            commits.append((json.loads(path.read_text()).get("meta") or {}).get("commit") or "?")
    return ", ".join(dict.fromkeys(commits))


def tournament_figure(out: Path) -> Path:
    """Each tournament pass (``make bench-tournament-pass``) as its running total (seconds, log scale) against the
    puzzle number, with the file's champion's published total as a dashed line of the same colour: where the line
    ends against where the dash is."""
    from benchmarks.report import PASS_TARGETS

    fig, ax = _figure("Tournament rules: every puzzle once, in order, each until solved")
    passes = [RESULTS / f"tournament_{name}.json" for name in ("taai2011", "tcga2012")]
    for path, colour in zip([p for p in passes if p.is_file()], ("tab:blue", "tab:orange")):
        data = json.loads(path.read_text())
        name = path.stem.removeprefix("tournament_")
        totals = [r["total_s"] for r in data["results"]]
        s, cores = data["summary"], data["meta"]["cores"]
        ax.plot(range(1, len(totals) + 1), totals, color=colour,
                label=f"{name}: qpicross, {s['solved']} of {s['puzzles']} solved, {s['total_s']:.0f} s on {cores} core"
                      f" (commit {data['meta'].get('commit', '?')})")
        champion = PASS_TARGETS.get(name, (None,))[0]
        if champion is not None:
            ax.axhline(champion, color=colour, linestyle="--", linewidth=1,
                       label=f"{name}: the champion's published total, {champion:.0f} s")
    ax.set_yscale("log")
    ax.set_xlabel("puzzles solved, in the tournament's order")
    ax.set_ylabel("running total (s)")
    ax.legend(fontsize=7.5, loc="lower right")
    return _save(fig, out / "tournament_pass.png")


def tts_against_size(out: Path, files: Sequence[str], title: str, name: str) -> Path:
    """Each row's TTS99 and its interval against the puzzle's cells, one series per configuration (log-log)."""
    fig, ax = _figure(f"{title} (commit {_commits(*files)})")
    rows = _rows(*files)
    finite = [_number(r["tts99_high_s"]) for r in rows if math.isfinite(_number(r["tts99_high_s"]))]
    top = max(finite, default=1.0) * 3
    for config, marker in zip(dict.fromkeys(r["config"] for r in rows), "osd^v<>"):
        mine = [r for r in rows if r["config"] == config]
        solved = [r for r in mine if r["num_solved"] and math.isfinite(_number(r["tts99_s"]))]
        cells = [r["rows"] * r["cols"] for r in solved]
        tts = [_number(r["tts99_s"]) for r in solved]
        low = [t - _number(r["tts99_low_s"]) for t, r in zip(tts, solved)]
        high = [min(_number(r["tts99_high_s"]), top) - t for t, r in zip(tts, solved)]
        cores = sorted({r.get("threads") or 0 for r in mine})
        on = "/".join(str(c) if c else "GPU" for c in cores)
        line = ax.errorbar(cells, tts, yerr=[low, high], fmt=marker, markersize=4, capsize=2, linewidth=0.8,
                           label=f"{config}: {len(solved)} of {len(mine)} solved ({on} core{'s' * (cores != [1])})")
        unsolved = [r["rows"] * r["cols"] for r in mine if r not in solved]
        if unsolved:
            ax.scatter(unsolved, [top] * len(unsolved), marker="x", color=line[0].get_color(), s=18)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("cells (rows × columns)")
    ax.set_ylabel("TTS99 (s); × : never solved")
    ax.legend(fontsize=7.5, loc="upper left")
    return _save(fig, out / name)


def time_to_target_curves(out: Path, groups: Sequence[tuple[str, Callable[[dict], bool], Sequence[str]]],
                          title: str, name: str) -> Path:
    """For each ``(label, which rows, files)``: the fraction of the rows' reads that reached the target by each
    time (Kaplan-Meier over the reads, those cut by the budget censored at their run time)."""
    import numpy as np
    from scipy import stats

    files = [f for _, _, names in groups for f in names]
    fig, ax = _figure(f"{title} (commit {_commits(*files)})")
    for label, keep, names in groups:
        times, durations = [], []
        for row in _rows(*names):
            if keep(row) and row.get("time_to_target_s") and row.get("read_s"):
                times += [_number(t) for t in row["time_to_target_s"]]
                durations += [_number(d) for d in row["read_s"]]
        if not times:
            continue
        times, durations = np.array(times), np.array(durations)
        done = np.isfinite(times)
        data = stats.CensoredData(uncensored=times[done], right=durations[~done])
        if not done.any():
            continue
        cdf = stats.ecdf(data).cdf
        grid = np.geomspace(max(min(times[done].min(), durations.min()), 1e-4), durations.max(), 200)
        ax.step(grid, cdf.evaluate(grid), where="post",
                label=f"{label}: {int(done.sum())} of {len(times)} reads reached it")
    ax.set_xscale("log")
    ax.set_ylim(0, 1.02)
    ax.set_xlabel("seconds of one read (wall)")
    ax.set_ylabel("fraction of reads at the ground state")
    ax.legend(fontsize=7.5, loc="upper left")
    return _save(fig, out / name)


def ablation(out: Path) -> Path:
    """Each configuration of ``make bench-ablation``: its TTS99 on each puzzle, one column of points a
    configuration (a puzzle never solved at the top)."""
    names = [f"ablation_{n}.json" for n in ("shift", "shift_block_moves", "shift_luby250", "shift_fixed",
                                             "shift_anneal", "shift_no_line_moves", "shift_presolve", "sa",
                                             "sa_match2", "sa_domain_wall")]
    rows = _rows(*names)
    fig, ax = _figure(f"What each part of the annealer buys: TTS99 per puzzle (commit {_commits(*names)})",
                      size=(7.5, 4.2))
    labels = list(dict.fromkeys(r["config"] for r in rows))
    finite = [_number(r["tts99_s"]) for r in rows if r["num_solved"] and math.isfinite(_number(r["tts99_s"]))]
    top = max(finite, default=1.0) * 3
    for x, label in enumerate(labels):
        mine = [r for r in rows if r["config"] == label]
        tts = [_number(r["tts99_s"]) if r["num_solved"] else math.inf for r in mine]
        ax.scatter([x] * len(tts), [min(t, top) for t in tts], s=14, alpha=0.7,
                   marker="o", color=["tab:red" if math.isinf(t) else "tab:blue" for t in tts])
    ax.set_xticks(range(len(labels)), labels, rotation=35, ha="right", fontsize=7.5)
    ax.set_yscale("log")
    ax.set_ylabel("TTS99 (s); red at the top: never solved")
    return _save(fig, out / "ablation.png")


def stall(out: Path) -> Path:
    """``make bench-stall``: each watched restart's lowest energy against sweeps (left), and each neighbouring pair's
    exchange acceptance along the ladder (right), a line a puzzle, the short restarts' ladder solid, the long ones'
    dashed."""
    import matplotlib.pyplot as plt

    from benchmarks.survey import survey_name

    rows = _rows("stall.json")
    fig, (energy, exchange) = plt.subplots(1, 2, figsize=(10, 4.2))
    fig.suptitle(f"A default read's first restart, watched sweep by sweep (commit {_commits('stall.json')})",
                 fontsize=10)
    puzzles = list(dict.fromkeys(r["puzzle"] for r in rows))
    colours = dict(zip(puzzles, plt.get_cmap("tab10").colors))
    for r in rows:
        style = "-" if r["level"] == 0 else "--"
        name = survey_name(r['puzzle']).split(' (')[0]
        label = f"{name} {r['cols']}×{r['rows']}" if r["level"] == 0 else None  # width × height
        points = r["checkpoints"]
        energy.plot([c["sweep"] for c in points], [c["best"] for c in points], style, color=colours[r["puzzle"]],
                    label=label)
        exchange.plot(range(1, r["rungs"]), r["exchange_acceptance"], style, marker=".", color=colours[r["puzzle"]])
    energy.set_xscale("log")
    energy.set_yscale("symlog", linthresh=1)
    energy.set_ylim(bottom=-0.2)
    energy.set_xlabel("sweeps")
    energy.set_ylabel("lowest energy so far (0: solved)")
    energy.legend(fontsize=7, loc="lower left", title="puzzle, width × height", title_fontsize=7)
    exchange.set_xlabel("neighbouring pair, hot (1) to cold")
    exchange.set_ylabel("exchange acceptance")
    exchange.set_ylim(-0.02, 1.02)
    for ax in (energy, exchange):
        ax.grid(True, which="both", alpha=0.3)
    exchange.set_title("solid: 4 rungs (level 0), dashed: 8 (level 2)", fontsize=8)
    return _save(fig, out / "stall.png")


#: Where :func:`survey_figure` draws what has no time: not solved within the budget (ours), not finished (theirs).
_NOT_FINISHED_S = 2000.0
#: Where it draws the survey's 0 (its times are in hundredths: below 10 ms).
_BELOW_10_MS_S = 0.005


def survey_figure(out: Path) -> Path:
    """Wolter's survey puzzles (``make bench-survey``), one line each, slowest survey median at the top: our TTS99
    with its interval, the default and ``--presolve`` (each read on one core), beside the survey's fastest and
    median solver (its published seconds, on its own machine); ``×`` at the right: not solved within the budget,
    or not finished within the survey's limit."""
    from benchmarks.survey import published_for, survey_median

    files = ["survey.json", "survey_presolve.json"]
    by_config = rows_by_config(_rows(*files))
    entries = [(puzzle, published_for(puzzle)) for puzzle in by_config.get("shift", {})]
    entries = sorted(((p, e) for p, e in entries if e is not None),
                     key=lambda pe: (survey_median(pe[1].times), pe[1].name))

    def shown(seconds: float) -> float:
        return _NOT_FINISHED_S if not math.isfinite(seconds) else max(seconds, _BELOW_10_MS_S)

    fig, ax = _figure(f"Wolter's survey: our TTS99 beside the survey's solvers (commit {_commits(*files)})",
                      size=(7.5, 6.4))
    ys = range(len(entries))
    for offset, (config, label, marker) in enumerate((("shift", "qpicross, default", "o"),
                                                       ("shift+presolve", "qpicross, --presolve", "s"))):
        mine = [(y, by_config.get(config, {}).get(puzzle)) for y, (puzzle, _) in zip(ys, entries)]
        solved = [(y, r) for y, r in mine if r and r["num_solved"] and math.isfinite(_number(r["tts99_s"]))]
        tts = [_number(r["tts99_s"]) for _, r in solved]
        low = [t - _number(r["tts99_low_s"]) for t, (_, r) in zip(tts, solved)]
        high = [shown(_number(r["tts99_high_s"])) - t for t, (_, r) in zip(tts, solved)]
        shift = 0.18 * (offset * 2 - 1)
        line = ax.errorbar(tts, [y + shift for y, _ in solved], xerr=[low, high], fmt=marker, markersize=4,
                           capsize=2, linewidth=0.8, label=f"{label}: {len(solved)} of {len(mine)} solved, 1 core")
        missed = [y + shift for y, r in mine if r is not None and (y, r) not in solved]
        ax.scatter([_NOT_FINISHED_S] * len(missed), missed, marker="x", color=line[0].get_color(), s=22)
    fastest = [shown(min(t for t in e.times if t is not None)) for _, e in entries]
    median = [shown(survey_median(e.times)) for _, e in entries]
    ax.scatter(fastest, list(ys), marker="^", color="tab:grey", s=20, zorder=3, label="the survey's fastest solver")
    ax.scatter(median, list(ys), marker="|", color="black", s=90, zorder=3, label="the survey's median solver")
    ax.axvline(_NOT_FINISHED_S, color="tab:red", linewidth=0.6, linestyle=":")
    ax.set_yticks(list(ys), [f"{e.name} {e.size.replace('x', '×')}" for _, e in entries], fontsize=7.5)
    ax.set_xscale("log")
    ax.set_xlim(1e-3, _NOT_FINISHED_S * 2)
    ax.set_xlabel("seconds (ours: TTS99, 95 % interval; theirs: published, their 0 (< 10 ms) drawn at 5 ms; "
                  f"at {_NOT_FINISHED_S:.0f} s: not solved / not finished)", fontsize=8)
    ax.legend(fontsize=7, loc="lower right")
    return _save(fig, out / "survey.png")


#: The interleaved runs of the ladders page: (its results files, this tree first, and what the change was).
_LADDER_RUNS = ((("rungs_head.json", "rungs_293ae61.json"), "denser ladder (kept), 12 tail puzzles"),
                (("size_unit_head.json", "size_unit_fbedce9.json"), "unit growing with the board (not kept)"),
                (("size_rungs_head.json", "size_rungs_fbedce9.json"), "rungs growing with the board (not kept)"),
                (("window_head.json", "window_25ad9b1.json"), "window exchanges (not kept), 12 tail puzzles"))


def _paired(ax, head: str, base: str, label: str, edge: float) -> None:
    """Each puzzle of two interleaved files as a point: TTS99 of ``base`` across, of ``head`` up; a puzzle one of
    them never solved at ``edge`` (``×``), one neither solved left out."""
    mine, before = ({r["puzzle"]: r for r in _rows(name)} for name in (head, base))
    pairs = [(_number(before[p]["tts99_s"]), _number(mine[p]["tts99_s"])) for p in mine if p in before]
    pairs = [(x, y) for x, y in pairs if math.isfinite(x) or math.isfinite(y)]
    both = [(x, y) for x, y in pairs if math.isfinite(x) and math.isfinite(y)]
    line = ax.scatter([x for x, _ in both], [y for _, y in both], s=22, label=f"{label}: {len(both)} solved by both")
    lost = [(min(x, edge), min(y, edge)) for x, y in pairs if (x, y) not in both]  # inf: drawn at the edge
    ax.scatter([x for x, _ in lost], [y for _, y in lost], marker="x", s=30, color=line.get_facecolor()[0])


def _paired_axes(ax, edge: float, across: str, up: str, low: float = 0.1) -> None:
    """:func:`_paired`'s axes, log from ``low`` to past ``edge``, with the diagonal (equal TTS99)."""
    ax.plot([low, edge], [low, edge], color="black", linewidth=0.7, linestyle="--", label="equal TTS99")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlim(low, edge * 1.5)
    ax.set_ylim(low, edge * 1.5)
    ax.set_xlabel(f"{across} (s, one core; at {edge:.0f} s: never solved)")
    ax.set_ylabel(f"{up} (s; at {edge:.0f} s: never solved)")
    ax.legend(fontsize=7.5, loc="upper left")


def ladders_figure(out: Path) -> Path:
    """The ladders page's interleaved runs (``make bench-rungs``, ``bench-size-unit``, ``bench-size-rungs``,
    ``bench-window-ablation``): each puzzle's TTS99 with the change (up) against the tree before it (across), both
    with the same seeds on one core; below the diagonal the change was faster. A tree that never solved a puzzle is drawn at the edge (``×``)."""
    files = [name for names, _ in _LADDER_RUNS for name in names]
    fig, ax = _figure("Ladders, restarts, exchanges: each change against the tree before it "
                      f"(commits {_commits(*files)})", size=(7.5, 5.2))
    edge = 1e3
    for (head, base), label in _LADDER_RUNS:
        _paired(ax, head, base, label, edge)
    _paired_axes(ax, edge, "TTS99 of the tree before", "TTS99 with the change")
    return _save(fig, out / "ladders.png")


#: The tail target's runs (``make bench-tail-target``), the first whose files are committed drawn: the target's own,
#: else the preview.
_TAIL_TARGET_RUNS = ((("tail_target_head.json", "tail_target_d7e996d.json"), "10 reads or 600 s a puzzle and tree"),
                     (("tail_target_head_75s.json", "tail_target_d7e996d_75s.json"), "preview: 75 s a puzzle and tree"))


def tail_target(out: Path) -> Path:
    """Issue 58's tail target: each of the 35 taai2011 tail puzzles' TTS99 on today's tree (up) against ``d7e996d``
    (across), interleaved on one core with the same seeds, with the diagonal and the target's line (3x lower)."""
    (head, base), label = next((run for run in _TAIL_TARGET_RUNS if all((RESULTS / f).is_file() for f in run[0])),
                               _TAIL_TARGET_RUNS[0])
    fig, ax = _figure(f"The taai2011 tail set: this tree against d7e996d (commits {_commits(head, base)})",
                      size=(7.5, 5.2))
    edge = 1e3
    _paired(ax, head, base, label, edge)
    ax.plot([3.0, edge], [1.0, edge / 3], color="tab:red", linewidth=0.9, linestyle=":",
            label="the target: 3× lower than d7e996d")
    _paired_axes(ax, edge, "TTS99 of d7e996d", "TTS99 of this tree", low=1.0)
    return _save(fig, out / "tail_target.png")


def frontier_sizes(out: Path) -> Path:
    """Plain SA on the thermometer encoding on random boards: the fraction of each size's boards solved, alone and
    after line logic (``make schedule-random``)."""
    fig, ax = _figure("Plain SA on the thermometer encoding, random boards: solved fraction against size "
                      f"(commit {_commits('schedule_random_plain.json', 'schedule_random_presolve.json')})")
    for name, label in (("schedule_random_plain.json", "thermometer alone"),
                        ("schedule_random_presolve.json", "line logic first")):
        path = RESULTS / name
        if not path.is_file():
            continue
        data = json.loads(path.read_text())
        side = {p["label"]: p["rows"] for p in data["puzzles"]}
        solved: dict[int, set] = {}
        for r in data["records"]:
            solved.setdefault(side[r["puzzle"]], set())
            if r["num_solved"]:
                solved[side[r["puzzle"]]].add(r["puzzle"])
        boards = {s: sum(1 for p, v in side.items() if v == s) for s in solved}
        sizes = sorted(solved)
        ax.plot(sizes, [len(solved[s]) / boards[s] for s in sizes], marker="o",
                label=f"{label} ({sum(len(v) for v in solved.values())} of {sum(boards.values())} boards)")
    ax.set_ylim(-0.02, 1.02)
    ax.set_xlabel("side of the square board (cells)")
    ax.set_ylabel("fraction of boards solved")
    ax.legend(fontsize=7.5)
    return _save(fig, out / "frontier_sizes.png")


def embedding_chains(out: Path) -> Path:
    """Every model minorminer embedded (``make embedding``): its longest chain against its variables, by encoding
    and graph."""
    path = RESULTS / "embedding.json"
    fig, ax = _figure(f"What fits on a QPU: the longest chain of each embedding (commit {_commits('embedding.json')})")
    records = json.loads(path.read_text())["records"] if path.is_file() else []
    keys = dict.fromkeys((r["encoding"], r["topology"]) for r in records if r.get("embedded"))
    for (encoding, topology), marker in zip(keys, "os^dv<>p*hH"):
        mine = [r for r in records if r.get("embedded") and (r["encoding"], r["topology"]) == (encoding, topology)]
        ax.scatter([r["num_variables"] for r in mine], [r["max_chain"] for r in mine], marker=marker, s=18,
                   label=f"{encoding} on {topology} ({len(mine)})")
    ax.set_xscale("log")
    ax.set_xlabel("variables of the model")
    ax.set_ylabel("longest chain (qubits)")
    ax.legend(fontsize=7, ncol=2)
    return _save(fig, out / "embedding_chains.png")


def tournament_long(out: Path) -> Path:
    """The full runs of both tournament files: each puzzle's TTS99 against its number (the archive's)."""
    names = ("bench_tournament_long.json", "bench_tournament_long_tcga2012.json")
    fig, ax = _figure(f"The full runs: TTS99 of every tournament puzzle (commit {_commits(*names)})")
    for name in names:
        rows = _rows(name)
        if not rows:
            continue
        tts = [_number(r["tts99_s"]) if r["num_solved"] else math.inf for r in rows]
        number = [int(str(r["puzzle"]).rpartition("#")[2]) for r in rows]
        top = max((t for t in tts if math.isfinite(t)), default=1.0) * 3
        file = Path(str(rows[0]["source"]).partition("#")[0]).stem
        ax.scatter(number, [min(t, top) for t in tts], s=4, alpha=0.6,
                   label=f"{file}: {sum(math.isfinite(t) for t in tts)} of {len(rows)} solved")
    ax.set_yscale("log")
    ax.set_xlabel("puzzle number in its file")
    ax.set_ylabel("TTS99 (s)")
    ax.legend(fontsize=7.5)
    return _save(fig, out / "tournament_long.png")


def gpu_throughput(out: Path) -> Path:
    """The batched driver's ladder-sweeps a second against the ladders of one call, on the GPU and on every CPU core
    of the same machine (``make bench-gpu-throughput``)."""
    rows = _rows("bench_gpu_throughput.json")
    fig, ax = _figure("The batched annealer: ladder-sweeps a second against ladders in one call "
                      f"(commit {_commits('bench_gpu_throughput.json')})")
    for backend, marker in (("cuda", "o"), ("cpu", "s")):
        mine = sorted((r for r in rows if r["backend"] == backend), key=lambda r: r["ladders"])
        if mine:
            ax.plot([r["ladders"] for r in mine], [r["ladder_sweeps_per_s"] for r in mine], marker=marker,
                    label="one GPU (CUDA)" if backend == "cuda" else "every CPU core of the same machine")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("ladders in one call")
    ax.set_ylabel("ladder-sweeps a second")
    ax.legend(fontsize=7.5)
    return _save(fig, out / "gpu_throughput.png")


#: Each page's figure: (file name, function of the output folder that draws it).
PAGE_FIGURES: list[tuple[str, Callable[[Path], Path]]] = [
    ("tournament_pass.png", tournament_figure),
    ("tts_size_typical.png", lambda out: tts_against_size(
        out, ["bench_pure.json"], "The shipped, Bompol and taai2011 #1-20 puzzles: TTS99 against size",
        "tts_size_typical.png")),
    ("tts_size_random.png", lambda out: tts_against_size(
        out, ["bench_random.json"], "Random boards: TTS99 against size", "tts_size_random.png")),
    ("ttt_hard.png", lambda out: time_to_target_curves(
        out, [(f"{config}, {puzzle}", lambda r, c=config, p=puzzle: r["config"] == c and r["puzzle"] == p,
               ["bench_hard.json", "bench_hard_1thread.json"])
              for puzzle in ("kabuki", "phantom") for config in ("shift", "shift-1-thread")],
        "The hardest Bompol puzzles: time to target of each read", "ttt_hard.png")),
    ("ttt_parallel.png", lambda out: time_to_target_curves(
        out, [(f"{label}, {puzzle}", lambda r, p=puzzle: r["puzzle"] == p, [f"parallel_{n}_{k}.json"])
              for n, puzzle in (("403", "taai2011#403"), ("307", "taai2011#307"))
              for k, label in (("1", "1 stream"), ("2", "2 streams"))],
        "A read's restart streams on 1 and 2 processes: time to target", "ttt_parallel.png")),
    ("ablation.png", ablation),
    ("stall.png", stall),
    ("survey.png", survey_figure),
    ("ladders.png", ladders_figure),
    ("tail_target.png", tail_target),
    ("frontier_sizes.png", frontier_sizes),
    ("embedding_chains.png", embedding_chains),
    ("tournament_long.png", tournament_long),
    ("gpu_throughput.png", gpu_throughput),
]


def make_page_figures(out: str | Path = ROOT / "figures") -> list[Path]:
    """Draw every figure of :data:`PAGE_FIGURES` into ``out``; returns the paths written."""
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    return [draw(out) for _, draw in PAGE_FIGURES]


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    for path in make_page_figures(argv[0] if argv else ROOT / "figures"):
        print(path)
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
