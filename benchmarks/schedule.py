r"""A fair schedule for generic samplers: TTS99 against sweep count, and a β range from the model's energy scale.

Rønnow et al. (2014) measure an annealer at the annealing time that minimises its TTS99 *at each
size*; a single sweep count per size is not a scaling. This module measures plain dwave-samplers
SA (``--sampler sa``) on the thermometer encoding over a ladder of sweep counts
(:data:`SWEEPS`) on a size ladder of puzzles (the repository's: :mod:`benchmarks.frontier`), each cell with
:func:`~qpicross.experiments.bench.bench_puzzle` -- the run ``qpicross anneal`` makes -- under a time
budget, and keeps per puzzle the sweep count of the smallest TTS99 (fixed-length reads:
:math:`t_{read} R(p)`, with the Wilson interval of :mod:`qpicross.experiments.tts`). Two β ranges:

* ``default``: dwave-samplers' own (from the Ising model's largest and smallest biases), which
  today's study (:mod:`benchmarks.study`) uses;
* ``rule``: :func:`beta_rule`, from the model's *energy gap* :math:`\delta` -- the smallest weight
  the encoding uses, which every non-solution costs at least (each thermometer term is a
  non-negative integer on every assignment, :mod:`qpicross.model.thermometer`; checked exhaustively
  on small puzzles in ``tests/model/test_encodings.py``) -- and its number of variables :math:`n`:

  .. math:: \beta_{hot} = \frac{\ln 2}{H\,\delta}, \qquad
            \beta_{cold} = \frac{\ln(n / \varepsilon)}{\delta},

  i.e. at the hot end a move costing :math:`H\delta` (:data:`HOT_MULTIPLE`) is accepted half of
  the time; at the cold end the expected number of accepted :math:`\delta`-excitations per sweep
  is :math:`\varepsilon` (:data:`EXCITATION`). Both are fixed for every puzzle: a user computes
  the range of a new puzzle from its model alone (``python -m benchmarks.schedule beta
  PUZZLE [--weights W] [--presolve]`` prints the ``--beta-range`` to pass to ``qpicross anneal``). The two constants
  were chosen before any measurement and tuned on no puzzle.

``make schedule`` writes ``results/schedule.json``; :func:`schedule_table` and :func:`optimum_table`
are its markdown tables.

The same ladder measures the peers on their own schedules (``make schedule-peers``): an arm is also the name of
any registered sampler (``openjij-sa``, ``openjij-sqa``, ``sb``, ``pt``, ``tabu``, ...; :func:`parse_arm`), run with
its own β range (or none) over the same sweep counts -- sweeps, steps or sweeps per temperature, as the sampler
counts them -- on the same puzzles, model and weights as SA, in the same run. An arm ``ARM@ENCODING`` runs on
another encoding (``rule@one_hot``: :func:`arm_encoding`), so encodings are compared in one run too.

Examples:
    >>> from qpicross import Puzzle, build_formulation
    >>> from qpicross.model.thermometer import thermometer_bqm
    >>> p = Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]])
    >>> bqm = thermometer_bqm(build_formulation(p)).bqm
    >>> hot, cold = beta_rule(bqm, gap=1.0)
    >>> round(cold, 3) == round(math.log(30 / EXCITATION), 3), hot < cold
    (True, True)
"""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import dimod

from qpicross.exceptions import ParameterError
from benchmarks.ladder import spec_rung
from benchmarks.tables import finite_or_none, fmt_seconds, load_results
from qpicross.model.formulation import PenaltyWeights
from qpicross.pipeline.config import SolverConfig
from qpicross.puzzle import Puzzle

__all__ = ["HOT_MULTIPLE", "EXCITATION", "SWEEPS", "STUDY_WEIGHTS", "ARMS", "PEER_ARMS", "parse_arm", "arm_encoding",
           "energy_gap",
           "beta_rule", "rule_beta_range", "range_key", "run_schedule", "sample_specs", "schedule_table", "optimum_table",
           "size_table", "comparison_list", "summary_line", "plot_schedule", "main"]

#: The hot end accepts a move costing this many gaps half of the time.
HOT_MULTIPLE = 8.0
#: Expected accepted gap-sized excitations per sweep at the cold end.
EXCITATION = 0.01
#: Sweep counts of the ladder (each cell is one ``qpicross anneal --sweeps N`` configuration).
SWEEPS = (100, 300, 1000, 3000, 10000, 30000)
#: The weights today's study tuned for sa/thermometer (results/study.json; a test keeps them in step).
STUDY_WEIGHTS = PenaltyWeights(one_hot=1.0, at_most_one=1.0, order=2.0, match=1.0)
#: The weight each encoding's penalty terms use (its gap is the smallest of them).
_TERMS = {"thermometer": ("one_hot", "order", "match"), "one_hot": ("one_hot", "at_most_one", "order", "match"),
          "domain_wall": ("one_hot", "at_most_one", "order", "match")}


def energy_gap(weights: PenaltyWeights, encoding: str = "thermometer") -> float:
    """The smallest weight ``encoding``'s terms use: a lower bound on any non-solution's energy (thermometer)."""
    return min(getattr(weights, name) for name in _TERMS[encoding] if getattr(weights, name) > 0)


def beta_rule(bqm: dimod.BinaryQuadraticModel, gap: float, *, hot_multiple: float = HOT_MULTIPLE,
              excitation: float = EXCITATION) -> tuple[float, float]:
    """``(beta_hot, beta_cold)`` of the rule (module docstring) for a model with ``n`` variables and energy gap ``gap``."""
    if gap <= 0:
        raise ParameterError(f"the energy gap must be positive, got {gap}")
    n = max(1, bqm.num_variables)
    cold = math.log(n / excitation) / gap
    hot = min(cold, math.log(2) / (hot_multiple * gap))
    return hot, cold


def rule_beta_range(puzzle: Puzzle, weights: PenaltyWeights | None = None, encoding: str = "thermometer",
                    presolve: bool = False, **kw) -> tuple[float, float]:
    """The rule's β range for the model ``qpicross anneal --encoding ENCODING [--presolve]`` builds for ``puzzle``."""
    from benchmarks.embedding import encoded_bqm

    weights = weights or PenaltyWeights()
    return beta_rule(encoded_bqm(puzzle, encoding, weights=weights, presolve=presolve), energy_gap(weights, encoding),
                     **kw)


#: Arms of plain dwave-samplers SA: the β range each cell gets (``default``: the sampler's own) and whether line logic
#: runs first (``--presolve``: the thermometer model of what logic leaves, its rule range from that model).
ARMS = ("default", "rule", "rule+presolve")
#: The peers of ``make schedule-peers``, each an arm of its own (:func:`parse_arm`).
PEER_ARMS = ("openjij-sa", "openjij-sqa", "sb", "pt", "tabu")


def arm_encoding(arm: str, *, known: bool = True) -> str:
    """The encoding an arm anneals: ``thermometer``, or ``ENCODING`` for an arm ``ARM@ENCODING``.

    Raises:
        ParameterError: With ``known``, for an encoding qpicross does not build (:data:`qpicross.names.ENCODINGS`);
            the tables of a results file pass ``known=False``: it may name an encoding measured once and not kept.

    >>> arm_encoding("rule"), arm_encoding("rule+presolve@one-hot")
    ('thermometer', 'one_hot')
    """
    from qpicross.names import ENCODINGS

    _, at, encoding = arm.partition("@")
    encoding = encoding.replace("-", "_") if at else "thermometer"
    if known and encoding not in ENCODINGS:
        raise ParameterError(f"arm {arm!r}: unknown encoding {encoding!r}; use one of {', '.join(ENCODINGS)}")
    return encoding


def parse_arm(arm: str, *, known: bool = True) -> tuple[str, bool, bool]:
    """``(sampler, rule β range, presolve)`` of an arm: ``default``, ``rule`` and ``rule+presolve`` are
    dwave-samplers SA (:data:`ARMS`); any registered sampler's name is an arm on that sampler's own schedule, and
    ``NAME+presolve`` the same after line logic; any of these ``@ENCODING`` on that encoding (:func:`arm_encoding`).

    Raises:
        ParameterError: For a name that is neither.

    >>> parse_arm("rule+presolve"), parse_arm("openjij-sqa"), parse_arm("sb+presolve")
    (('sa', True, True), ('openjij-sqa', False, False), ('sb', False, True))
    """
    from qpicross.samplers.registry import SAMPLERS

    encoding = arm_encoding(arm, known=known)
    arm = arm.partition("@")[0]
    presolve = arm.endswith("+presolve")
    base = arm[:-len("+presolve")] if presolve else arm
    if known:  # an encoding that refuses line logic (domain wall), in one line before anything runs
        SolverConfig(encoding=encoding, presolve=presolve).validate()
    if base in ("default", "rule"):
        return "sa", base == "rule", presolve
    if base not in SAMPLERS:
        raise ParameterError(f"unknown arm {arm!r}: use {', '.join(ARMS)} or a sampler's name "
                             f"({', '.join(sorted(SAMPLERS))}), with +presolve for line logic first")
    return base, False, presolve


def range_key(presolve: bool, encoding: str = "thermometer") -> str:
    """Where a results file's puzzle entry keeps the rule's β range of one model (``rule_beta_range``,
    ``rule_beta_range_presolve``, then ``@ENCODING`` for an encoding other than the thermometer)."""
    return "rule_beta_range" + ("_presolve" if presolve else "") + ("" if encoding == "thermometer" else f"@{encoding}")


def run_schedule(rungs: Sequence, sweeps: Sequence[int] = SWEEPS, arms: Sequence[str] = ARMS, *,
                 weights: PenaltyWeights = STUDY_WEIGHTS, budget_s: float = 15.0, max_reads: int = 200,
                 seed: int = 0, path: str | os.PathLike | None = None, log=None, meta: dict | None = None) -> dict:
    """Every puzzle x arm x sweep count (ascending); a row of the ladder stops once p = 1 (more sweeps only cost more).

    Each cell: ``qpicross anneal PUZZLE --sampler SAMPLER --encoding ENCODING --weights W --sweeps N
    --reads max_reads --time-limit budget_s --seed S [--beta-range HOT,COLD] [--presolve]``, the sampler and
    options and encoding of its arm (:func:`parse_arm`, :func:`arm_encoding`); a sampler that takes no sweep count (``tabu``) runs one cell, at
    the ladder's first rung, at its own default.
    """
    from qpicross.samplers.registry import get_sampler
    from qpicross.experiments.bench import bench_puzzle
    from benchmarks.provenance import run_meta, write_results
    from qpicross.experiments.result import load_average

    meta = run_meta() if meta is None else meta  # at the start: the commit whose code runs
    start = time.perf_counter()
    records, puzzles = [], []
    encodings = {arm: arm_encoding(arm) for arm in arms}
    gap = energy_gap(weights)

    samplers = {arm: parse_arm(arm)[0] for arm in arms}
    takes_sweeps = {name: "num_sweeps" in get_sampler(name).parameters for name in set(samplers.values())}

    def results() -> dict:
        sampler = samplers[arms[0]] if len(set(samplers.values())) == 1 else samplers
        encoding = encodings[arms[0]] if len(set(encodings.values())) == 1 else encodings
        return {"meta": {**meta, "sampler": sampler, "encoding": encoding, "weights": weights.as_dict(),
                         "energy_gap": gap, "hot_multiple": HOT_MULTIPLE, "excitation": EXCITATION,
                         "budget_s": budget_s, "max_reads": max_reads, "seed": seed, "sweeps": list(sweeps),
                         "arms": list(arms), "planned": [rung.label for rung in rungs],
                         "elapsed_s": time.perf_counter() - start, "load_average_after": load_average()},
                "puzzles": puzzles, "records": records}

    def save() -> dict:  # after every puzzle, so that a run cut short keeps what it measured
        out = results()
        if path is not None:
            out = write_results(path, out)
        return out

    for index, rung in enumerate(rungs):
        why = rung.available()
        if why is not None:
            puzzles.append({"label": rung.label, "spec": rung.spec, "absent": why})
            save()
            continue
        puzzle = rung.load()
        models = {(False, "thermometer"), (True, "thermometer")} | {(parse_arm(a)[2], encodings[a]) for a in arms}
        ranges = {(p, e): rule_beta_range(puzzle, weights, e, presolve=p) for p, e in sorted(models)}
        puzzles.append({"label": rung.label, "spec": rung.spec, "rows": puzzle.num_rows, "cols": puzzle.num_cols,
                        **{range_key(p, e): list(r) for (p, e), r in ranges.items()}})
        for arm in arms:
            sampler, rule, presolve = parse_arm(arm)
            options = {"beta_range": ranges[presolve, encodings[arm]]} if rule else {}
            done = None
            for s in sweeps:
                rec = {"puzzle": rung.label, "arm": arm, "sweeps": s}
                if not takes_sweeps[sampler] and s != sweeps[0]:
                    records.append({**rec, "status": "not measured", "reason": f"{sampler} takes no sweep count"})
                    continue
                if done is not None:
                    records.append({**rec, "status": "not measured", "reason": f"p = 1 at {done} sweeps"})
                    continue
                config = SolverConfig(sampler=sampler, encoding=encodings[arm], weights=weights,
                                      num_sweeps=s if takes_sweeps[sampler] else None, presolve=presolve,
                                      num_reads=max_reads, time_limit=budget_s, seed=seed + index, options=options)
                r = bench_puzzle(puzzle, config)
                if not takes_sweeps[sampler]:
                    rec["own_schedule"] = True  # the sampler's default: no sweep count given
                rec.update(status="solved" if r.num_solved else "unsolved", num_reads=r.num_reads,
                           num_solved=r.num_solved, p=r.p, p_low=r.p_low, p_high=r.p_high, t_read_s=r.t_read_s,
                           tts99_s=finite_or_none(r.tts99_s), tts99_low_s=finite_or_none(r.tts99_low_s),
                           tts99_high_s=finite_or_none(r.tts99_high_s), best_energy=r.best_energy,
                           num_variables=r.num_variables, beta_range=list(options.get("beta_range", ())) or None)
                records.append(rec)
                if log is not None:
                    log(f"{rung.label:12s} {arm:8s} {s:6d} sweeps: {r.num_solved}/{r.num_reads} "
                        f"t_read {r.t_read_s:.3g}s TTS99 {r.tts99_s:.3g}s")
                if r.num_reads and r.num_solved == r.num_reads:
                    done = s
        save()
    return save()  # with the run's whole elapsed time and the load after it


def sample_specs(specs: Sequence[str], size: int, seed: int) -> list[str]:
    """``size`` single puzzles drawn without replacement (``random.Random(seed)``) from those ``specs`` name
    (``FILE#1-1000`` names a thousand), in the order the specs give them.

    >>> sample_specs(["x/taai2011.txt#1-1000"], 3, seed=1) == sample_specs(["x/taai2011.txt#1-1000"], 3, seed=1)
    True
    >>> len(set(sample_specs(["x/taai2011.txt#1-10"], 10, seed=0)))
    10
    """
    import random

    from benchmarks.interleave import single_specs

    every = [spec for spec, _ in single_specs(list(specs))]
    if not 0 < size <= len(every):
        raise ParameterError(f"a sample of {size} from {len(every)} puzzles: give 1 to {len(every)}")
    chosen = set(random.Random(seed).sample(range(len(every)), size))
    return [spec for i, spec in enumerate(every) if i in chosen]


# -- tables ---------------------------------------------------------------------------------

def _best(records: list[dict], sweeps: Sequence[int] | None = None) -> dict | None:
    cells = [r for r in records if r.get("tts99_s") is not None and (sweeps is None or r["sweeps"] in sweeps)]
    return min(cells, key=lambda r: r["tts99_s"]) if cells else None


def schedule_table(results) -> str:
    """TTS99 per puzzle, arm and sweep count (solved/reads in brackets; – not measured once p = 1)."""
    data = load_results(results)
    sweeps = data["meta"]["sweeps"]
    lines = ["| puzzle | size | β range | " + " | ".join(f"{s:,} sweeps" for s in sweeps) + " |",
             "|" + "---|" * (3 + len(sweeps))]
    for p in data["puzzles"]:
        if "absent" in p:
            continue
        for arm in data["meta"].get("arms", ARMS):
            cells = []
            for s in sweeps:
                r = next((r for r in data["records"] if r["puzzle"] == p["label"] and r["arm"] == arm
                          and r["sweeps"] == s), None)
                if r is None or r["status"] == "not measured":
                    cells.append("–")
                else:
                    cells.append(f"{fmt_seconds(r['tts99_s'])} ({r['num_solved']}/{r['num_reads']})")
            sampler, rule, presolve = parse_arm(arm, known=False)
            encoding = arm_encoding(arm, known=False)
            beta = ("dwave default" if sampler == "sa" else f"{sampler}'s own") if not rule else \
                "rule {:.3g}–{:.3g}".format(*p[range_key(presolve, encoding)])
            beta += ", presolve" if presolve else ""
            beta += f", {encoding.replace('_', '-')}" if "@" in arm else ""
            lines.append(f"| {p['label']} | {p['rows']}×{p['cols']} | {beta} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def optimum_table(results) -> str:
    """Per puzzle: the optimal sweeps and TTS99 (95 % interval) of each arm, and the study's setting
    (default β, the better of 1 000 and 10 000 sweeps) on the same cells."""
    data = load_results(results)
    arms = data["meta"].get("arms", ARMS)
    names = {"default": "default β", "rule": "rule β", "rule+presolve": "rule β + presolve"}
    study_column = "default" in arms  # the study's setting is the default arm at 1 000 or 10 000 sweeps
    lines = ["| puzzle | size | " + ("study setting (default β, 1 000 or 10 000 sweeps): TTS99 | " if study_column else "")
             + " | ".join(f"{names.get(a, a)}, optimal sweeps: TTS99 [95 %]" for a in arms) + " |",
             "|" + "---|" * (2 + study_column + len(arms))]
    for p in data["puzzles"]:
        if "absent" in p:
            continue
        mine = [r for r in data["records"] if r["puzzle"] == p["label"]]
        out = []
        if study_column:
            default = [r for r in mine if r["arm"] == "default"]
            study = _best(default, (1000, 10000))
            skipped = next((r for r in default if r["sweeps"] == 1000 and r["status"] == "not measured"), None)
            out.append(f"not measured ({skipped['reason']})" if skipped else
                       "not solved" if study is None else f"{fmt_seconds(study['tts99_s'])} at {study['sweeps']:,}")
        for arm in arms:
            b = _best([r for r in mine if r["arm"] == arm])
            out.append("not solved" if b is None else "line logic alone: " + fmt_seconds(b["tts99_s"])
                       if b.get("num_variables") == 0 else
                       f"{fmt_seconds(b['tts99_s'])} [{fmt_seconds(b['tts99_low_s'])}, {fmt_seconds(b['tts99_high_s'])}] at "
                       + ("its own schedule" if b.get("own_schedule") else f"{b['sweeps']:,}")
                       + f" ({b['num_solved']}/{b['num_reads']})")
        lines.append(f"| {p['label']} | {p['rows']}×{p['cols']} | " + " | ".join(out) + " |")
    return "\n".join(lines)


def summary_line(results, limit_s: float = 60.0, list_unsolved: bool = False) -> str:
    """How many puzzles each arm solved at some sweep count, and how many with a TTS99 within ``limit_s`` (and
    which it did not solve, with ``list_unsolved``); a run stopped early says after how many of its puzzles."""
    data = load_results(results)
    present = [p for p in data["puzzles"] if "absent" not in p]
    lines = []
    for arm in data["meta"].get("arms", ARMS):
        best = [_best([r for r in data["records"] if r["puzzle"] == p["label"] and r["arm"] == arm]) for p in present]
        solved = [b for b in best if b is not None]
        within = [b for b in solved if b["tts99_s"] <= limit_s]
        unsolved = [p["label"] for p, b in zip(present, best) if b is None]
        lines.append(f"- {arm}: {len(solved)} of {len(present)} puzzles solved at some sweep count; "
                     f"{len(within)} with a TTS99 of at most {limit_s:g} s"
                     + (f"; not solved: {', '.join(unsolved)}" if list_unsolved and unsolved else ""))
    planned = data["meta"].get("planned")
    if planned and len(data["puzzles"]) < len(planned):
        lines.append(f"- the run stopped after {len(data['puzzles'])} of the {len(planned)} puzzles it was given")
    return "\n".join(lines)


def size_table(results, limit_s: float = 60.0) -> str:
    """Per board size and arm: the puzzles solved at some sweep count and those with a TTS99 within ``limit_s``, each
    a count of that size's puzzles with the 95 % Wilson interval of the fraction
    (:func:`~qpicross.experiments.tts.wilson_interval`)."""
    from qpicross.experiments.tts import wilson_interval

    data = load_results(results)
    arms = data["meta"].get("arms", ARMS)
    present = [p for p in data["puzzles"] if "absent" not in p]
    sizes = sorted({(p["rows"], p["cols"]) for p in present}, key=lambda rc: (rc[0] * rc[1], rc))
    lines = ["| size | puzzles | " + " | ".join(f"{arm}: solved | {arm}: TTS99 ≤ {limit_s:g} s" for arm in arms) + " |",
             "|" + "---|" * (2 + 2 * len(arms))]

    def fraction(k: int, n: int) -> str:
        low, high = wilson_interval(k, n)
        return f"{k}/{n} [{low:.2f}, {high:.2f}]"

    for rows, cols in sizes:
        mine = [p for p in present if (p["rows"], p["cols"]) == (rows, cols)]
        cells = []
        for arm in arms:
            best = [_best([r for r in data["records"] if r["puzzle"] == p["label"] and r["arm"] == arm]) for p in mine]
            cells.append(fraction(sum(b is not None for b in best), len(mine)))
            cells.append(fraction(sum(b is not None and b["tts99_s"] <= limit_s for b in best), len(mine)))
        lines.append(f"| {rows}×{cols} | {len(mine)} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _ratio(x: float) -> str:
    return f"{x:,.0f}x" if x >= 100 else f"{x:.3g}x"


def comparison_list(results, pairs: Sequence[tuple[str, str]] = (("rule", "default"), ("rule+presolve", "rule"))) -> str:
    """Per puzzle and pair of arms (A, B), at each arm's optimal sweeps: A faster or slower than B where the
    95 % TTS99 intervals are apart, "no difference shown" where they overlap, or which arm alone solved it."""
    data = load_results(results)
    arms = data["meta"].get("arms", ARMS)
    lines = []
    for a, b in pairs:
        if a not in arms or b not in arms:
            continue
        for p in data["puzzles"]:
            if "absent" in p:
                continue
            best = {arm: _best([r for r in data["records"] if r["puzzle"] == p["label"] and r["arm"] == arm])
                    for arm in (a, b)}
            ra, rb = best[a], best[b]
            if ra is None and rb is None:
                verdict = "neither solved it"
            elif ra is None or rb is None:
                verdict = f"only {a if rb is None else b} solved it"
            elif ra.get("num_variables") == 0:
                verdict = f"{a}: line logic alone solved it"
            else:
                a_hi = ra["tts99_high_s"] if ra["tts99_high_s"] is not None else math.inf
                b_hi = rb["tts99_high_s"] if rb["tts99_high_s"] is not None else math.inf
                if a_hi < rb["tts99_low_s"]:
                    verdict = f"{a} faster (95 % intervals apart): {_ratio(rb['tts99_s'] / ra['tts99_s'])}"
                elif b_hi < ra["tts99_low_s"]:
                    verdict = f"{a} slower (95 % intervals apart): {_ratio(ra['tts99_s'] / rb['tts99_s'])}"
                else:
                    verdict = "no difference shown (95 % intervals overlap)"
            lines.append(f"- {p['label']} ({p['rows']}×{p['cols']}), {a} against {b}: {verdict}")
    return "\n".join(lines)


def plot_schedule(results, path: str | os.PathLike | None = None):
    """TTS99 at the optimal sweep count against puzzle size (cells, log scale), one line per arm, with the
    95 % interval; ✕ on the top line where no sweep count solved the puzzle."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    data = load_results(results)
    fig, ax = plt.subplots(figsize=(8, 4.8))
    puzzles = [p for p in data["puzzles"] if "absent" not in p]
    finite = [r["tts99_high_s"] or r["tts99_s"] for r in data["records"] if r.get("tts99_s") is not None]
    top = max(finite) * 5 if finite else 1.0
    for i, arm in enumerate(data["meta"].get("arms", ARMS)):
        xs, ys, lo, hi, miss = [], [], [], [], []
        for k, p in enumerate(puzzles):
            b = _best([r for r in data["records"] if r["puzzle"] == p["label"] and r["arm"] == arm])
            x = k + 0.08 * (i - 1)
            if b is None:
                miss.append(x)
                continue
            xs.append(x)
            ys.append(b["tts99_s"])
            lo.append(b["tts99_s"] - b["tts99_low_s"])
            hi.append((b["tts99_high_s"] if b["tts99_high_s"] is not None else top) - b["tts99_s"])
        bars = ax.errorbar(xs, ys, yerr=[lo, hi], marker="os^"[i % 3], capsize=3, label=arm)
        if miss:
            ax.scatter(miss, [top] * len(miss), marker="x", color=bars.lines[0].get_color(), s=40)
    ax.set_yscale("log")
    ax.set_xticks(range(len(puzzles)), [f"{p['label']}\n{p['rows']}×{p['cols']}" for p in puzzles], fontsize=8)
    ax.set_ylabel("TTS99 at the optimal sweep count (s, log)\n✕ on the top line: not solved")
    ax.set_title("Plain SA on the thermometer encoding, one core", fontsize=10)
    ax.grid(True, which="major", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    if path is not None:
        fig.savefig(path, dpi=120)
    return fig


def main(argv: Sequence[str] | None = None) -> int:
    """``run`` the sweep ladder, print a results file's ``table``, or print a puzzle's rule ``beta`` range."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.schedule", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run_p = sub.add_parser("run")
    run_p.add_argument("--json", default="results/schedule.json")
    run_p.add_argument("--budget", type=float, default=15.0, help="sampling seconds per cell (default 15)")
    run_p.add_argument("--max-reads", type=int, default=200)
    run_p.add_argument("--seed", type=int, default=0)
    run_p.add_argument("--plot", default=None, help="also draw TTS99 against size here")
    run_p.add_argument("--puzzle", action="append", required=True, metavar="SPEC",
                       help="a puzzle (FILE or FILE#N; repeatable); the repository's ladder: python -m benchmarks.frontier "
                            "schedule")
    run_p.add_argument("--sweeps", default=None, help="comma list of sweep counts (default %s)" % ",".join(
        map(str, SWEEPS)))
    run_p.add_argument("--arms", default=None, help="comma list of %s, or of samplers' names (%s, ...; "
                       "+presolve for line logic first; @ENCODING for another encoding)"
                       % (", ".join(ARMS), ", ".join(PEER_ARMS)))
    run_p.add_argument("--sample", type=int, default=None, metavar="N",
                       help="run N puzzles drawn at random (--sample-seed) from those the --puzzle specs name")
    run_p.add_argument("--sample-seed", type=int, default=0)
    table_p = sub.add_parser("table")
    table_p.add_argument("results")
    beta_p = sub.add_parser("beta", help="the rule's --beta-range for a puzzle's thermometer model")
    beta_p.add_argument("puzzle")
    beta_p.add_argument("--weights", default=None, help="NAME=W,... as qpicross anneal takes them")
    beta_p.add_argument("--presolve", action="store_true", help="the model line logic leaves (anneal --presolve)")
    beta_p.add_argument("--encoding", default="thermometer", choices=["thermometer", "one_hot", "domain_wall"])
    args = parser.parse_args(argv)
    if args.command == "table":
        print(optimum_table(args.results) + "\n\n" + schedule_table(args.results))
        return 0
    if args.command == "beta":
        from qpicross import load_puzzle

        weights = PenaltyWeights()
        if args.weights:
            weights = PenaltyWeights(**{k: float(v) for k, v in (kv.split("=") for kv in args.weights.split(","))})
        hot, cold = rule_beta_range(load_puzzle(args.puzzle), weights, args.encoding, presolve=args.presolve)
        print(f"--beta-range {hot:.6g},{cold:.6g}")
        return 0
    specs = args.puzzle if args.sample is None else sample_specs(args.puzzle, args.sample, args.sample_seed)
    rungs = tuple(spec_rung(spec) for spec in specs)
    sweeps = SWEEPS if not args.sweeps else tuple(int(x) for x in args.sweeps.split(","))
    arms = ARMS if not args.arms else tuple(args.arms.split(","))
    for arm in arms:
        try:
            parse_arm(arm)
        except ParameterError as exc:
            parser.error(str(exc))
    data = run_schedule(rungs, sweeps, arms, budget_s=args.budget, max_reads=args.max_reads, seed=args.seed,
                        path=args.json, log=lambda line: print(line, file=sys.stderr, flush=True))
    if args.plot:
        plot_schedule(data, args.plot)
    print(optimum_table(data))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
