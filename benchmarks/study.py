r"""The formulation study: which encoding and weights let a *generic* annealer solve the largest puzzles.

For each generic sampler x encoding (:data:`COMBINATIONS`) the study

1. tunes the penalty weights with :func:`qpicross.experiments.tune.tune` on small puzzles that
   are not on the ladder's upper part (:data:`TUNING_PUZZLES`, named by each combination's
   ``tune_on``); a small grid, a few reads per point, the same seeds for every point; then
2. climbs a ladder of puzzles (:data:`LADDER`: the shipped instances, Bompol's puzzles and a tournament
   puzzle from the shared collections, and generated ones, from 5x5 to 25x25; any sequence of
   :class:`~benchmarks.ladder.Rung` works) with the tuned weights, measuring the success probability and
   TTS99 at each rung with :func:`qpicross.experiments.bench.bench_puzzle` (the run ``qpicross anneal``
   makes), under a time budget per rung; each rung tries the combination's sweep counts and keeps the best
   TTS99. After two unsolved rungs in a row the climb stops (the rest is recorded as not tried).

The structured annealer ``shift`` and the exact SAT solver are measured on the same ladder for
reference. Results go to a JSON file (:func:`run_study`), a figure of TTS99 against puzzle size
(:func:`plot_study`) and a markdown table (:func:`study_table`), which the docs' results page quotes.
Run it from the repository root (``make study``)::

    python -m benchmarks.study run --json results/study.json --plot figures/study.png
    python -m benchmarks.study table results/study.json

Examples:
    >>> combo = Combination("sa", "thermometer", sweeps=(200,), grid="match=1:2:2")
    >>> combo.label, combo.config().encoding
    ('sa/thermometer', 'thermometer')
    >>> [r.label for r in ladder(include_shared=False, generated=())][:3]
    ['5x5', 'smile7', 'house8']
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import numpy as np

from benchmarks.ladder import Rung, shared_rung, shipped_rung
from benchmarks.tables import finite_or_none, fmt_seconds, load_results
from qpicross.exceptions import ParameterError
from qpicross.experiments.bench import bench_puzzle
from benchmarks.provenance import run_meta, write_results
from qpicross.experiments.result import load_average
from qpicross.model.formulation import PenaltyWeights
from qpicross.pipeline.config import SolverConfig
from qpicross.puzzle import Puzzle

__all__ = [
    "LADDER",
    "TUNING_PUZZLES",
    "ladder",
    "Combination",
    "COMBINATIONS",
    "tune_combination",
    "climb",
    "run_study",
    "plot_study",
    "study_table",
    "main",
]

#: The fixed ladder of sizes, smallest first: shipped instances, Bompol's puzzles, generated ones
#: (density 0.55, unique) and a 25x25 tournament puzzle.
LADDER: tuple[Rung, ...] = (
    shipped_rung("5x5", "5x5.px"),
    shipped_rung("smile7", "smile7.px"),
    shipped_rung("house8", "house8.px"),
    shared_rung("pikachu", "bompol/pikachu.px"),
    shipped_rung("star10", "star10.px"),
    shared_rung("clock", "bompol/clock.px"),
    shipped_rung("boat12", "boat12.px"),
    shared_rung("layton", "bompol/layton.px"),
    shared_rung("bird", "bompol/bird.px"),
    shared_rung("knife", "bompol/knife.px"),
    shared_rung("ratz", "bompol/ratz.px"),
    Rung("random15", generated=(15, 15), seed=1),
    shared_rung("panda", "bompol/panda.px"),
    Rung("random20", generated=(20, 20), seed=1),
    shared_rung("taai2011#1", "external/NonogramRecord/question/taai2011.txt#1"),
    Rung("random25", generated=(25, 25), seed=1),
)

#: Puzzles the weights are tuned on: two shipped ones, and generated ones that are not on the ladder.
TUNING_PUZZLES: dict[str, Rung] = {
    "house8": shipped_rung("house8", "house8.px"),
    "star10": shipped_rung("star10", "star10.px"),
    "tune12": Rung("tune12", generated=(12, 12), seed=7),
    "tune15": Rung("tune15", generated=(15, 15), seed=7),
}


def ladder(include_shared: bool = True, generated: Sequence[str] | None = None) -> list[Rung]:
    """The rungs to climb: shared puzzles only when asked for; ``generated`` labels to keep (None: all)."""
    out = []
    for rung in LADDER:
        if rung.shared and not include_shared:
            continue
        if rung.generated is not None and generated is not None and rung.label not in generated:
            continue
        out.append(rung)
    return out


#: Tuning puzzles the thermometer combinations are tuned on (labels of :func:`run_study`'s ``tuning``): it solves
#: the small shipped ones every time, so their points would not differ.
HARD = ("tune12", "tune15")


@dataclasses.dataclass(frozen=True)
class Combination:
    """A generic sampler with an encoding, what to tune and which sweep counts to try per rung.

    Attributes:
        sampler: Registry name.
        encoding: ``one_hot``, ``domain_wall`` or ``thermometer``.
        presolve: Line logic first (one-hot only).
        sweeps: Sweep counts (steps, for ``sb``) tried at each rung; the best TTS99 is kept.
        grid: The tuning grid (``qpicross tune --grid`` syntax), or None to keep ``weights``.
        weights: Weights before tuning (and the fixed ones of the grid).
        reads: Reads per rung and sweep count (at most; the time budget may stop earlier).
        options: Other sampler options.
        reference: A reference line (not tuned; drawn dashed).
        tune_on: Labels of :func:`run_study`'s ``tuning`` puzzles the grid is swept on: puzzles this
            combination solves sometimes but not always, so the points differ.
    """

    sampler: str
    encoding: str = "one_hot"
    presolve: bool = False
    sweeps: tuple[int | None, ...] = (None,)
    grid: str | None = None
    weights: PenaltyWeights = PenaltyWeights()
    reads: int = 100
    options: tuple[tuple[str, object], ...] = ()
    reference: bool = False
    tune_on: tuple[str, ...] = ("house8", "star10")

    @property
    def label(self) -> str:
        return f"{self.sampler}/{self.encoding}" + ("+presolve" if self.presolve else "")

    def config(self, weights: PenaltyWeights | None = None, sweeps: int | None = None) -> SolverConfig:
        return SolverConfig(sampler=self.sampler, encoding=self.encoding, presolve=self.presolve,
                            weights=weights or self.weights, num_sweeps=sweeps if sweeps else self.sweeps[0],
                            num_reads=self.reads, options=dict(self.options), name=self.label)


ONE_HOT_GRID = "one_hot=1:2:2,match=1:2:2"
THERMO_GRID = "one_hot=1:2:2,order=1:2:2"
#: Generic samplers x encodings, and the references. Grids are small: 4 points each.
COMBINATIONS: tuple[Combination, ...] = (
    Combination("sa", "one_hot", sweeps=(1000, 10000), grid=ONE_HOT_GRID),
    Combination("sa", "one_hot", presolve=True, sweeps=(1000, 10000)),
    Combination("sa", "domain_wall", sweeps=(1000, 10000), grid="one_hot=4:16:2,match=1:2:2"),
    Combination("sa", "thermometer", sweeps=(1000, 10000), grid=THERMO_GRID, tune_on=HARD),
    Combination("sa+descent", "thermometer", sweeps=(1000, 10000), grid=THERMO_GRID, tune_on=HARD),
    Combination("openjij-sa", "one_hot", sweeps=(1000, 10000), grid=ONE_HOT_GRID),
    Combination("openjij-sa", "thermometer", sweeps=(1000, 10000), grid=THERMO_GRID, tune_on=HARD),
    Combination("openjij-sqa", "one_hot", sweeps=(1000,), grid=ONE_HOT_GRID, reads=20),
    Combination("openjij-sqa", "thermometer", sweeps=(1000,), grid=THERMO_GRID, reads=20, tune_on=HARD),
    Combination("sb", "one_hot", sweeps=(2000,), grid=ONE_HOT_GRID, reads=64),
    Combination("sb", "thermometer", sweeps=(2000, 10000), grid=THERMO_GRID, reads=64, tune_on=HARD),
    Combination("pt", "thermometer", sweeps=(1000,), reads=10, options=(("max_time", 5.0),)),
    Combination("pa", "thermometer", sweeps=(100,), reads=10),
    Combination("shift", "one_hot", sweeps=(5000,), options=(("target_energy", 0),), reads=20, reference=True),
)


def tune_combination(combo: Combination, puzzles: Sequence[Puzzle], *, num_reads: int = 20,
                     seed: int = 0) -> tuple[PenaltyWeights, dict | None]:
    """Tune ``combo``'s grid on ``puzzles`` (its first sweep count); returns the best weights and the sweep's summary."""
    if combo.grid is None:
        return combo.weights, None
    from qpicross.experiments.tune import grid_points, parse_grid, tune

    points = grid_points(parse_grid(combo.grid), base=combo.weights)
    result = tune(list(puzzles), points, config=combo.config(), num_reads=num_reads, seed=seed, workers=1)
    best = result.best
    weights = combo.weights if best is None else PenaltyWeights(**{k: best[k] for k in combo.weights.as_dict()})
    summary = {"puzzles": result.puzzles, "grid": combo.grid, "num_reads": num_reads, "elapsed_s": result.elapsed_s,
               "points": [{k: (None if isinstance(v, float) and math.isinf(v) else v) for k, v in row.items()}
                          for row in result.summary]}
    return weights, summary


def climb(combo: Combination, rungs: Sequence[Rung], weights: PenaltyWeights, *, budget_s: float,
          seed: int = 0, stop_after: int = 2, log: Callable[[str], None] | None = None) -> list[dict]:
    """Measure ``combo`` on each rung in turn (see the module docstring); one record per rung."""
    records = []
    misses = 0
    for index, rung in enumerate(rungs):
        record: dict = {"puzzle": rung.label}
        why = rung.available()
        if why is not None:
            records.append({**record, "status": "absent", "reason": why})
            continue
        if misses >= stop_after:
            records.append({**record, "status": "not tried",
                            "reason": f"stopped after {stop_after} unsolved rungs in a row"})
            continue
        puzzle = rung.load()
        record.update(rows=puzzle.num_rows, cols=puzzle.num_cols)
        best = None
        tries = []
        for sweeps in combo.sweeps:
            config = combo.config(weights, sweeps)
            options = dict(config.options)
            if combo.sampler.startswith("sb"):
                options["timeout"] = budget_s / len(combo.sweeps)  # the package stops its run itself
            config = config.replace(options=options)
            r = bench_puzzle(puzzle, config, time_limit=budget_s / len(combo.sweeps), seed=seed + index)
            tries.append({"sweeps": sweeps, "p": r.p, "num_reads": r.num_reads, "tts99_s": finite_or_none(r.tts99_s),
                          "best_energy": r.best_energy, "t_read_s": r.t_read_s, "error": r.error or None})
            if best is None or (r.tts99_s, -r.p) < (best.tts99_s, -best.p) or (
                    not math.isfinite(best.tts99_s) and r.best_energy < best.best_energy):
                best = r
        solved = best.num_solved > 0
        misses = 0 if solved else misses + 1
        record.update(status="solved" if solved else "unsolved", num_variables=best.num_variables,
                      num_couplers=best.num_couplers, sweeps=best.num_sweeps, p=best.p, p_low=best.p_low,
                      p_high=best.p_high, num_reads=best.num_reads, num_solved=best.num_solved,
                      t_read_s=best.t_read_s, tts99_s=finite_or_none(best.tts99_s), best_energy=best.best_energy,
                      tries=tries)
        if log is not None:
            log(f"{combo.label:28s} {rung.label:12s} p={best.p:.3f} ({best.num_solved}/{best.num_reads}) "
                f"tts99={best.tts99_s:.3g}s best energy {best.best_energy:g}")
        records.append(record)
    return records


def _exact_reference(rungs: Sequence[Rung]) -> list[dict]:
    from qpicross.classical.exact import solve_exact

    records = []
    for rung in rungs:
        why = rung.available()
        if why is not None:
            records.append({"puzzle": rung.label, "status": "absent", "reason": why})
            continue
        puzzle = rung.load()
        result = solve_exact(puzzle, "sat", check_unique=False)
        records.append({"puzzle": rung.label, "rows": puzzle.num_rows, "cols": puzzle.num_cols,
                        "status": "solved" if result.board is not None else "unsolved", "p": 1.0,
                        "tts99_s": result.time_s, "best_energy": 0.0})
    return records


def _study_task(shared, combo: Combination) -> dict:
    rungs, tuning, budget_s, tune_reads, seed = shared
    start = time.perf_counter()
    tune_puzzles = [tuning[label].load() for label in combo.tune_on] if combo.grid else []
    weights, tuning = tune_combination(combo, tune_puzzles, num_reads=tune_reads, seed=seed)
    records = climb(combo, rungs, weights, budget_s=budget_s, seed=seed,
                    log=lambda line: print(line, file=sys.stderr, flush=True))
    return {"label": combo.label, "sampler": combo.sampler, "encoding": combo.encoding, "presolve": combo.presolve,
            "tune_on": list(combo.tune_on) if combo.grid else [],
            "reference": combo.reference, "sweeps": list(combo.sweeps), "weights": weights.as_dict(),
            "tuning": tuning, "rungs": records, "elapsed_s": time.perf_counter() - start}


def run_study(combinations: Sequence[Combination], rungs: Sequence[Rung], *, tuning: Mapping[str, Rung] | None = None,
              budget_s: float = 6.0, tune_reads: int = 20,
              seed: int = 0, workers: int = 1, exact: bool = True, path: str | os.PathLike | None = None) -> dict:
    """Tune and climb every combination (in ``workers`` processes); returns (and writes) the results.

    Args:
        combinations: What to measure.
        rungs: The ladder, smallest first.
        tuning: The puzzles a combination's ``tune_on`` names, by label (needed by combinations with a ``grid``).
        budget_s: Sampling seconds per rung (split over a combination's sweep counts).
        tune_reads: Reads per tuning point and puzzle.
        seed: Base seed.
        workers: Local processes, one combination at a time each.
        exact: Add the exact SAT solver as a reference.
        path: Write the JSON here.
    """
    from qpicross.samplers.workers import run_tasks

    rungs = list(rungs)
    tuning = dict(tuning or {})
    missing = sorted({label for c in combinations if c.grid for label in c.tune_on} - set(tuning))
    if missing:
        raise ParameterError(f"no tuning puzzle named {', '.join(missing)}")
    start = time.perf_counter()
    results: list[dict | None] = [None] * len(combinations)

    def record(index: int, ok: bool, value) -> None:
        results[index] = value if ok else {"label": combinations[index].label, "error": str(value), "rungs": []}

    run_tasks(_study_task, list(combinations), on_result=record, shared=(rungs, tuning, budget_s, tune_reads, seed),
              workers=workers)
    out = {"meta": {**run_meta(), "budget_s": budget_s, "tune_reads": tune_reads,
                    "seed": seed, "elapsed_s": None},
           "ladder": [{"label": r.label, "spec": r.spec, "shared": r.shared,
                       "generated": list(r.generated) if r.generated else None, "seed": r.seed} for r in rungs],
           "combinations": [r for r in results if r is not None]}
    if exact:
        out["combinations"].append({"label": "exact (SAT)", "sampler": "exact-sat", "encoding": "-", "presolve": False,
                                    "reference": True, "weights": None, "tuning": None,
                                    "rungs": _exact_reference(rungs)})
    out["meta"]["elapsed_s"] = time.perf_counter() - start
    out["meta"]["load_average_after"] = load_average()
    if path is not None:
        out = write_results(path, out)
    return out


# -- reading the results --------------------------------------------------------------------

def _largest_solved(combo: dict) -> dict | None:
    """The highest rung of the ladder (the last in its order) that the combination solved."""
    solved = [r for r in combo["rungs"] if r.get("status") == "solved"]
    return solved[-1] if solved else None


def plot_study(results: dict | str | os.PathLike, path: str | os.PathLike | None = None):
    """TTS99 against puzzle size (the ladder, smallest first), one line per combination; ✕ where not solved."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = load_results(results)
    fig, ax = plt.subplots(figsize=(11, 6))
    order = [r["label"] for r in data["ladder"]]
    sizes = {}
    for combo in data["combinations"]:
        for r in combo["rungs"]:
            if "rows" in r:
                sizes.setdefault(r["puzzle"], f"{r['rows']}×{r['cols']}")
    order = [name for name in order if name in sizes]
    where = {name: i for i, name in enumerate(order)}
    finite = [r["tts99_s"] for c in data["combinations"] for r in c["rungs"] if r.get("tts99_s")]
    top = max(finite) * 5 if finite else 1.0
    markers = "osD^v<>pPhX*"
    for i, combo in enumerate(data["combinations"]):
        rungs = [r for r in combo["rungs"] if r.get("status") in ("solved", "unsolved") and r["puzzle"] in where]
        if not rungs:
            continue
        shift = 0.02 * (i - len(data["combinations"]) / 2)  # keep markers on the same rung apart
        # the line breaks at an unsolved rung (NaN), which is marked ✕ on the top line instead
        solved = [(where[r["puzzle"]] + shift, r["tts99_s"] if r["status"] == "solved" else np.nan) for r in rungs]
        failed = [where[r["puzzle"]] + shift for r in rungs if r["status"] == "unsolved"]
        style = dict(color="black", linestyle="--" if combo["sampler"] == "shift" else ":", linewidth=1.6) \
            if combo.get("reference") else dict(linestyle="-", linewidth=1.2, color=plt.cm.tab20(i % 20))
        line, = ax.plot([s[0] for s in solved], [s[1] for s in solved], marker=markers[i % len(markers)],
                        markersize=4, label=combo["label"], **style)
        if failed:
            ax.scatter(failed, [top] * len(failed), marker="x", color=line.get_color(), s=30)
    ax.set_yscale("log")
    ax.set_xticks(range(len(order)), [f"{name}\n{sizes[name]}" for name in order], rotation=60, fontsize=7)
    ax.axhline(top, color="grey", linewidth=0.5)
    ax.set_xlabel("puzzle ladder, smallest first")
    ax.set_ylabel("TTS99 (s, log scale); ✕ on the top line = not solved")
    ax.set_title("Generic samplers × encodings, tuned weights (black: shift and exact SAT for reference)", fontsize=10)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0))
    fig.tight_layout()
    if path is not None:
        fig.savefig(path, dpi=120)
    return fig


def study_table(results: dict | str | os.PathLike, moonshot: Sequence[str] = ("bird", "knife", "ratz")) -> str:
    """The results page's table: per combination, its tuned weights, the largest puzzle solved and its TTS99,
    p on the moonshot puzzles, and where the climb stopped (best energy there)."""
    data = load_results(results)
    head = ("| sampler / encoding | tuned weights (one_hot, order, match) | largest solved | TTS99 there | "
            + " | ".join(f"p {m}" for m in moonshot) + " | first unsolved rung: best energy |")
    lines = [head, "|" + "---|" * (5 + len(moonshot))]
    for combo in data["combinations"]:
        if "error" in combo:
            lines.append(f"| {combo['label']} | error: {combo['error'][:60]} |" + " |" * (4 + len(moonshot)))
            continue
        top = _largest_solved(combo)
        w = combo.get("weights")
        weights = "–" if not w else f"{w['one_hot']:g}, {w['order']:g}, {w['match']:g}"
        if combo.get("reference"):
            weights = "(reference)" if not w else weights + " (reference)"
        by_name = {r["puzzle"]: r for r in combo["rungs"]}
        moon = []
        for name in moonshot:
            r = by_name.get(name)
            if r is None or r.get("status") in ("absent", "not tried"):
                moon.append("–")
            else:
                moon.append(f"{r['p']:.2f} ({r.get('num_solved', '')}/{r.get('num_reads', '')})"
                            if "num_reads" in r else f"{r['p']:.2f}")
        miss = next((r for r in combo["rungs"] if r.get("status") == "unsolved"), None)
        where = "none (all solved)" if miss is None else f"{miss['puzzle']}: {miss['best_energy']:g}"
        largest = "none" if top is None else f"{top['puzzle']} ({top['rows']}×{top['cols']})"
        lines.append(f"| {combo['label']} | {weights} | {largest} | {fmt_seconds(top['tts99_s']) if top else '–'} | "
                     + " | ".join(moon) + f" | {where} |")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """``run`` the study (JSON, figure, table) or print the ``table`` (or draw the ``plot``) of a results file."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.study", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run_p = sub.add_parser("run", help="tune and climb every combination")
    run_p.add_argument("--json", default="results/study.json")
    run_p.add_argument("--plot", default="figures/study.png")
    run_p.add_argument("--budget", type=float, default=6.0, help="sampling seconds per rung (default 6)")
    run_p.add_argument("--workers", type=int, default=2)
    run_p.add_argument("--only", default=None, help="comma list of combination labels to run")
    run_p.add_argument("--seed", type=int, default=0)
    table_p = sub.add_parser("table", help="the markdown table of a results file")
    table_p.add_argument("results")
    plot_p = sub.add_parser("plot", help="the figure of a results file")
    plot_p.add_argument("results")
    plot_p.add_argument("--plot", default="figures/study.png")
    args = parser.parse_args(argv)
    if args.command == "table":
        print(study_table(args.results))
        return 0
    if args.command == "plot":
        plot_study(args.results, args.plot)
        return 0
    combos = COMBINATIONS
    if args.only:
        wanted = set(args.only.split(","))
        combos = tuple(c for c in COMBINATIONS if c.label in wanted)
    data = run_study(combos, ladder(), tuning=TUNING_PUZZLES, budget_s=args.budget, workers=args.workers,
                     seed=args.seed, path=args.json)
    plot_study(data, args.plot)
    print(study_table(data))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
