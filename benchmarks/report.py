"""Results tables generated from benchmark results files: no number in the README or the docs is typed by hand.

Each generated section of the README or of a docs page (:func:`pages`) sits between two markers::

    <!-- begin generated: NAME -->
    ...
    <!-- end generated: NAME -->

and :data:`SECTIONS` says which function writes it from which results files
(``results/*.json``, written by ``make bench`` and friends). ``make readme``
(``python -m benchmarks.report``) rewrites every section
whose files exist; the test suite checks the committed pages against the
committed results, so a hand-edited number fails CI. Under each table a line says which code measured it
(:func:`~benchmarks.tables.measured_by`: the commit its results files record); it is read
from the files alone, so the pages change only when the results do, and whether today's code still draws the
same samples is what ``make stale-results`` says.

Examples:
    >>> rows = [{"puzzle": "5x5", "rows": 5, "cols": 5, "config": "shift", "num_reads": 10, "num_solved": 10,
    ...          "p": 1.0, "p_low": 0.72, "p_high": 1.0, "tts99_s": 0.002, "tts99_low_s": 0.002,
    ...          "tts99_high_s": 0.003, "tts_method": "time-to-target", "best_energy": 0.0}]
    >>> print(summary_table(rows))
    | configuration | puzzles | solved | median TTS99 [95 % CI] | worst TTS99 [95 % CI] (puzzle) | cores | median / worst in core-seconds | cutoff on < 3 events | moved by censoring |
    |---|---|---|---|---|---|---|---|---|
    | shift | 1 | 1 | 2 ms [2 ms, 3 ms] | 2 ms [2 ms, 3 ms] (5x5) | 1 | 2 core-ms / 2 core-ms | 0 | none |
    <BLANKLINE>
    Core-seconds of rows without measured CPU time (files written before it was kept): threads × wall seconds.

Every TTS99 carries its 95 % interval (early-stopping reads: the bootstrap of
:func:`~qpicross.experiments.survival.survival_tts`; fixed-length reads: from the Wilson interval of
:math:`p`; where no read reached the target, ``> X``, X the low end: what the reads rule out,
:func:`~qpicross.experiments.survival.no_event_lower_bound`) and its core-seconds (wall seconds × the cores the reads
kept busy, measured CPU over wall seconds, :func:`cores_used`; threads × wall in files without CPU times).
Time-to-target figures are
the censored (Kaplan--Meier) estimates of results files restated by
:mod:`benchmarks.restate`; where one differs from the figure that counted reads cut by the
budget as misses, the tables say so ("was ..."), and a † marks a TTS99 whose optimal cutoff rests
on fewer than :data:`~qpicross.experiments.survival.MIN_EVENTS` reads that reached the target.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

from benchmarks.breakdown import breakdown_table
from benchmarks.campaign import counts_table
from benchmarks.gpu_throughput import throughput_table
from benchmarks.memory import memory_table
from benchmarks.tables import measured_by
from benchmarks.restate import _number, has_moved, threads_of
from benchmarks.feedback_ladder import feedback_table
from benchmarks.stall import stall_table
from benchmarks.line_windows import windows_table
from benchmarks.traps import traps_table
from benchmarks.window_exchange import window_table
from benchmarks.survey import SOLVERS, published_for, survey_median
from benchmarks.tournament import load_passes, passes_compared, tournament_table
from benchmarks.ratios import geometric_interval, median_time_of_reads, tts99_of_reads
from qpicross.experiments.survival import MIN_EVENTS, no_event_lower_bound
from qpicross.puzzle.formats.registry import split_spec

__all__ = ["fmt_time", "fmt_tts", "low_end", "cores_used", "core_note", "load_rows", "summary_table",
           "puzzle_table", "matrix_table", "targets_table", "distribution_line",
           "ratio_line", "geometric_text", "rows_by_config", "widest_per_file", "long_run_files", "trend_line", "unsolved_specs", "retry_line",
           "kernels_table", "fmt_published", "survey_table", "parallel_table", "parallel_summary", "collection", "replace_section", "pages",
           "has_section", "update_page", "SECTIONS", "ARCHIVE_PAGES", "quoted_files", "section_files", "section_text"]

ROOT = Path(__file__).resolve().parents[1]
#: Seconds ``qpicross anneal`` samples with no options before it gives up (the CLI's ``FIND_TIME_LIMIT``;
#: a test checks they agree): the budget ``make bench-tournament-retry`` gives each puzzle.
ANNEAL_BUDGET_S = 600.0


def fmt_time(t: float | str | None) -> str:
    """Seconds in a readable unit; ``∞`` for never.

    >>> fmt_time(0.000512), fmt_time(0.0341), fmt_time(12.345), fmt_time(1163.2), fmt_time("inf")
    ('0.512 ms', '34.1 ms', '12.3 s', '1163 s', '∞')
    """
    if t is None or t == "" or t == "inf" or (isinstance(t, float) and not math.isfinite(t)):
        return "∞"
    t = float(t)
    if t < 1:
        return f"{t * 1e3:.3g} ms"
    return f"{t:.3g} s" if t < 1000 else f"{t:.0f} s"


def load_rows(paths: Iterable[str | os.PathLike]) -> list[dict]:
    """Every result row of some ``qpicross bench --json`` files (the campaign's: every run), in file order."""
    rows = []
    for path in paths:
        data = json.loads(Path(path).read_text())
        rows.extend(data["runs"] if "runs" in data and "results" not in data else data["results"])
    return rows


def _median(values: Sequence[float]) -> float:
    ordered = sorted(values)
    n = len(ordered)
    if n == 0:
        return math.nan
    mid = n // 2
    if n % 2:
        return ordered[mid]
    low, high = ordered[mid - 1], ordered[mid]
    return math.inf if math.isinf(high) else (low + high) / 2


def _threads(row: dict) -> int | None:
    return row["threads"] if "threads" in row else threads_of(row)


def fmt_core(t: float | str | None, threads: int | None) -> str:
    """Wall seconds ``t`` as core-seconds on ``threads`` cores; ``GPU`` where ``threads`` is ``None``.

    >>> fmt_core(1.5, 2), fmt_core(0.004, 1), fmt_core("inf", 2), fmt_core(3.0, None)
    ('3 core-s', '4 core-ms', '∞', 'GPU')
    """
    if threads is None:
        return "GPU"
    value = _number(t)
    text = fmt_time(value * threads if math.isfinite(value) else value)
    if text.endswith(" ms"):
        return text[:-2] + "core-ms"
    return text[:-1] + "core-s" if text.endswith(" s") else text


def cores_used(row: dict) -> float | None:
    """The cores a row's reads kept busy: its measured CPU seconds over its wall seconds (``core_s`` over
    ``read_s``, or over ``sample_s`` where a fixed-length row keeps no ``read_s``) where the sampler measured
    them, else the cores it ran on (``threads``: core-seconds are then threads × wall); ``None`` on a GPU.

    >>> cores_used({"threads": 2, "core_s": [3.0, 0.6], "read_s": [2.0, 0.4]}), cores_used({"threads": 2})
    (1.5, 2)
    """
    threads = _threads(row)
    measured, wall = row.get("core_s"), row.get("read_s")
    if threads is None or not measured:
        return threads
    seconds = sum(_number(t) for t in wall) if wall else _number(row.get("sample_s"))
    return sum(measured) / seconds if seconds > 0 else threads


def core_note(rows: Sequence[dict]) -> str:
    """The note under a table that shows core-seconds of rows without measured CPU time: how they are counted."""
    if any(_threads(r) is not None and not r.get("core_s") for r in rows):
        return ("core-seconds of rows without measured CPU time (files written before it was kept): "
                "threads × wall seconds")
    return ""


def _cores_text(rows: Sequence[dict]) -> str:
    cores = list(dict.fromkeys(_threads(r) for r in rows))
    return " / ".join("GPU" if c is None else str(c) for c in cores)


def _naive(row: dict) -> float:
    """The TTS99 that counted reads cut by the budget as misses (the row's own where nothing moved)."""
    value = row.get("tts99_naive_s")
    return _number(row["tts99_s"] if value is None else value)


def moved(row: dict) -> bool:
    """Whether the censored estimator moved this row's TTS99."""
    return row.get("tts99_naive_s") is not None and has_moved(_naive(row), _number(row["tts99_s"]))


def _was(now: float, before: float) -> str:
    return f" (was {fmt_time(before)})" if has_moved(before, now) else ""


def _interval(rows: Sequence[dict]) -> tuple[float, float]:
    """An interval for the median TTS99 of some puzzles: the medians of their intervals' ends (if each
    puzzle's TTS99 lies in its interval, their median lies in this one)."""
    return (_median([low_end(r) for r in rows]),
            _median([_number(r.get("tts99_high_s", r["tts99_s"])) for r in rows]))


def _bracket(low: float, high: float) -> str:
    return f"[{fmt_time(low)}, {fmt_time(high)}]"


def fmt_tts(tts: float, low: float, high: float) -> str:
    """A TTS99 with its interval; where it is infinite (no read reached the target), ``> low end``: what the
    reads rule out, not a certain ∞ (``∞`` alone only where even that is unknown).

    >>> fmt_tts(2.0, 1.0, 4.0), fmt_tts(math.inf, 175.2, math.inf), fmt_tts(math.inf, math.inf, math.inf)
    ('2 s [1 s, 4 s]', '> 175 s', '∞')
    """
    if math.isfinite(tts):
        return f"{fmt_time(tts)} {_bracket(low, high)}"
    return f"> {fmt_time(low)}" if math.isfinite(low) else "∞"


def low_end(row: dict) -> float:
    """A row's TTS99 low end; for a time-to-target row no read of which reached the target, written before its
    low end was kept (``inf``), the low end its reads give (:func:`~qpicross.experiments.survival.no_event_lower_bound`).

    >>> low_end({"tts99_s": "inf", "tts99_low_s": "inf", "time_to_target_s": ["inf"], "read_s": [60.0]}) > 60
    True
    """
    low = _number(row.get("tts99_low_s", row["tts99_s"]))
    times, durations = row.get("time_to_target_s"), row.get("read_s")
    if math.isinf(low) and times and durations and all(math.isinf(_number(t)) for t in times):
        return _number(row.get("presolve_s") or 0.0) + no_event_lower_bound([_number(d) for d in durations])
    return low


def _row_tts(row: dict) -> str:
    """A row's TTS99 with its interval (:func:`fmt_tts`)."""
    tts = _number(row["tts99_s"])
    return fmt_tts(tts, low_end(row), _number(row.get("tts99_high_s", tts)))


def summary_table(rows: Sequence[dict], by: Callable[[dict], str] | None = None) -> str:
    """One line per configuration (or per ``by(row)``): puzzles, solved, median and worst TTS99 with their
    intervals, the cores a read ran on and the same in core-seconds, how many cutoffs rest on few events,
    and what the censored estimator moved (the median and worst before it, where they changed)."""
    by = by or (lambda r: r["config"])
    lines = ["| configuration | puzzles | solved | median TTS99 [95 % CI] | worst TTS99 [95 % CI] (puzzle) | cores | "
             f"median / worst in core-seconds | cutoff on < {MIN_EVENTS} events | moved by censoring |",
             "|---|---|---|---|---|---|---|---|---|"]
    for key in dict.fromkeys(by(r) for r in rows):
        mine = [r for r in rows if by(r) == key]
        tts = [_number(r["tts99_s"]) for r in mine]
        worst = max(range(len(mine)), key=lambda i: tts[i])
        solved = sum(int(r["num_solved"]) > 0 for r in mine)
        median = _median(tts)
        cores = {_threads(r) for r in mine}
        core_median = _median([t * (cores_used(r) or 1) for t, r in zip(tts, mine)])
        core = (f"{fmt_core(core_median, 1 if cores != {None} else None)} / "
                f"{fmt_core(tts[worst], cores_used(mine[worst]))}" if len(cores) == 1 else "mixed")
        few = sum(bool(r.get("few_events")) and math.isfinite(_number(r["tts99_s"])) for r in mine)
        shifted = [r for r in mine if moved(r)]
        naive = [_naive(r) for r in mine]
        change = (f"{len(shifted)} puzzles" + _was(median, _median(naive)).replace(" (was", "; median was").rstrip(")")
                  + _was(tts[worst], max(naive)).replace(" (was", "; worst was").rstrip(")")) if shifted else "none"
        w = mine[worst]
        lines.append(f"| {key} | {len(mine)} | {solved} | {fmt_tts(median, *_interval(mine))} | "
                     f"{_row_tts(w)} ({w['puzzle']}) | {_cores_text(mine)} | {core} | {few} | {change} |")
    note = core_note(rows)
    return "\n".join(lines) + (f"\n\n{note[:1].upper()}{note[1:]}." if note else "")


def _p_cell(row: dict) -> str:
    return f"{float(row['p']):.2f} [{float(row['p_low']):.2f}, {float(row['p_high']):.2f}] ({row['num_reads']})"


def _tts_cell(row: dict) -> str:
    tts = _number(row["tts99_s"])
    if math.isinf(tts):
        return f"{_row_tts(row)} (best E {float(row['best_energy']):g})" + _was(tts, _naive(row))
    text = (f"{_row_tts(row)}{' †' if row.get('few_events') else ''} ({fmt_core(tts, cores_used(row))})"
            f"{_was(tts, _naive(row))}")
    if row.get("tts_method") == "time-to-target" and row.get("ttt_p99_s") is not None:
        text += f"; ttt median {fmt_time(row['ttt_median_s'])}, p99 {fmt_time(row['ttt_p99_s'])}"
    return text


def puzzle_table(rows: Sequence[dict], configs: Sequence[str] | None = None, baseline: str = "baseline") -> str:
    """One line per puzzle: size, variables, then p and TTS99 per configuration, and the ratio to the baseline.

    ``p`` is given with its Wilson 95 % interval and the number of reads; TTS99
    with its interval and, for early-stopping samplers, the median and 99th
    percentile of the per-read time to target.
    """
    configs = list(configs or dict.fromkeys(r["config"] for r in rows))
    puzzles = list(dict.fromkeys((r["source"], r["puzzle"]) for r in rows))
    header = ["puzzle", "size", "variables"]
    for c in configs:
        header += [f"{c} p [95 % CI] (reads)", f"{c} TTS99"]
    others = [c for c in configs if c != baseline]
    if baseline in configs:
        header += [f"{c} vs {baseline}" for c in others]
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    for key in puzzles:
        mine = {r["config"]: r for r in rows if (r["source"], r["puzzle"]) == key}
        first = next(iter(mine.values()))
        variables = " / ".join(str(mine[c]["num_variables"]) for c in configs if c in mine)
        cells = [first["puzzle"], f"{first['rows']}×{first['cols']}", variables]
        for c in configs:
            r = mine.get(c)
            cells += ["-", "-"] if r is None else [_p_cell(r), _tts_cell(r)]
        if baseline in configs:
            base = _number(mine[baseline]["tts99_s"]) if baseline in mine else math.inf
            for c in others:
                mine_tts = _number(mine[c]["tts99_s"]) if c in mine else math.inf
                if math.isinf(base):
                    cells.append(f"{baseline} never solves")
                elif math.isinf(mine_tts):
                    cells.append("never solves")
                else:
                    ratio = base / mine_tts
                    interval = _either_interval(mine[baseline], mine[c])
                    b_cores, c_cores = _threads(mine[baseline]), _threads(mine[c])
                    cell = f"{ratio:.3g}×{_factor_interval(interval)}"
                    if b_cores != c_cores and None not in (b_cores, c_cores):  # the same ratio at equal cores
                        scale = b_cores / c_cores
                        scaled = interval and (interval[0] * scale, interval[1] * scale)
                        cell += f" ({ratio * scale:.3g}×{_factor_interval(scaled)} in core-s)"
                    cells.append(cell)
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + legend([r for r in rows if r["config"] in configs])


def _ratio_interval(first: dict, second: dict, statistic=tts99_of_reads) -> tuple[float, float] | None:
    """The 95 % bootstrap interval of ``first``'s TTS99 (or another ``statistic`` of the reads) over ``second``'s,
    resampling each row's reads (:func:`~benchmarks.ratios.reads_ratio`); None where a row keeps no
    per-read times (fixed-length reads, as the baseline's).

    >>> a = {"time_to_target_s": [1.0, 2.0, 3.0, 4.0], "read_s": [1.0, 2.0, 3.0, 4.0]}
    >>> b = {"time_to_target_s": [0.5, 1.0, 1.5, 2.0], "read_s": [0.5, 1.0, 1.5, 2.0]}
    >>> low, high = _ratio_interval(a, b)
    >>> low <= 2 <= high, _ratio_interval({}, b)
    (True, None)
    """
    from benchmarks.ratios import reads_ratio

    reads = _reads_of(first), _reads_of(second)
    if None in reads:
        return None
    interval = reads_ratio([reads[0]], [reads[1]], statistic=statistic)
    return interval.low, interval.high


def _either_interval(first: dict, second: dict) -> tuple[float, float] | None:
    """``first``'s TTS99 over ``second``'s with an interval: :func:`_ratio_interval`'s where both rows keep their
    reads, else (fixed-length reads, as the baseline's) from the ends of the two TTS99 intervals, low over high and
    high over low: at least 95 % (two independent 95 % intervals), wider than the bootstrap's.

    >>> a = {"tts99_s": 4.0, "tts99_low_s": 2.0, "tts99_high_s": 8.0}
    >>> b = {"tts99_s": 1.0, "tts99_low_s": 0.5, "tts99_high_s": 2.0}
    >>> _either_interval(a, b)
    (1.0, 16.0)
    """
    interval = _ratio_interval(first, second)
    if interval is not None:
        return interval
    low = low_end(first) / _number(second.get("tts99_high_s", "inf"))
    high = _number(first.get("tts99_high_s", "inf")) / low_end(second)
    return None if math.isnan(low) or math.isnan(high) else (low, high)


def _factor_interval(interval: tuple[float, float] | None) -> str:
    """" [low, high]" of a ratio's interval, empty for None; three significant digits, whole numbers from 1 000.

    >>> _factor_interval((0.5, 2.0)), _factor_interval((183.2, 1094.0)), _factor_interval(None)
    (' [0.5, 2]', ' [183, 1094]', '')
    """
    if interval is None:
        return ""
    low, high = (f"{v:.0f}" if 1000 <= v < math.inf else f"{v:.3g}" for v in interval)
    return f" [{low}, {high}]"


def legend(rows: Sequence[dict]) -> str:
    """The note under a table whose cells carry †, "was" or core-seconds not measured: what they mean (empty when
    none does)."""
    parts = []
    if any(r.get("few_events") and math.isfinite(_number(r["tts99_s"])) for r in rows):
        parts.append(f"† the optimal cutoff rests on fewer than {MIN_EVENTS} reads that reached the target")
    if any(moved(r) for r in rows):
        parts.append("(was ...): the TTS99 before reads cut by the time budget were treated as censored")
    if core_note(rows):
        parts.append(core_note(rows))
    text = "; ".join(parts)
    return f"\n\n{text[:1].upper()}{text[1:]}." if parts else ""


_MARKER = "<!-- {which} generated: {name} -->"


def replace_section(text: str, name: str, body: str) -> str:
    """``text`` with the generated section ``name`` replaced by ``body``.

    Raises:
        ValueError: If the section's markers are missing.
    """
    begin, end = _MARKER.format(which="begin", name=name), _MARKER.format(which="end", name=name)
    pattern = re.compile(re.escape(begin) + r".*?" + re.escape(end), re.S)
    if not pattern.search(text):
        raise ValueError(f"no generated section {name!r} (markers {begin} ... {end})")
    return pattern.sub(lambda _: f"{begin}\n{body.rstrip()}\n{end}", text)


def _results(*names: str) -> list[Path]:
    return [ROOT / "results" / name for name in names]


def collection(row: dict) -> str:
    """The puzzle collection a result row came from: the last part of its command-line spec.

    >>> collection({"source": "../shared/instances/bompol"}), collection({"source": "x/taai2011.txt#1-20"})
    ('bompol', 'taai2011.txt#1-20')
    >>> collection({"source": "x/taai2011.txt#1-1000/10"})
    'taai2011.txt#1-1000/10'
    """
    source = str(row.get("source") or "")
    file, sep, numbers = source.rpartition("#")
    if sep and re.fullmatch(r"[0-9]+(-[0-9]+(/[0-9]+)?)?", numbers):
        return f"{Path(file).name}#{numbers}"
    return Path(source).name or "-"


def _file_of(row: dict) -> str:
    """The puzzle file a result row came from, without its ``#`` selection."""
    return collection(row).split("#")[0]


def by_collection(row: dict) -> str:
    """Group key for :func:`summary_table`: configuration and collection."""
    return f"{row['config']}, {collection(row)}"


def matrix_table(rows: Sequence[dict]) -> str:
    """One line per configuration, one column per puzzle: ``p / TTS99 [95 % CI]``, how many puzzles it
    solved, and the cores a read ran on (core-seconds: that many times the seconds shown).

    >>> rows = [{"config": c, "puzzle": "x", "p": p, "tts99_s": t, "tts99_low_s": t, "tts99_high_s": t,
    ...          "num_solved": int(p > 0)} for c, p, t in [("a", 1.0, 0.01), ("b", 0.0, "inf")]]
    >>> print(matrix_table(rows))
    | configuration | x | solved | cores (core-s = s × cores) |
    |---|---|---|---|
    | `a` | 1.00 / 10 ms [10 ms, 10 ms] | 1/1 | 1 |
    | `b` | 0.00 / ∞ | 0/1 | 1 |
    <BLANKLINE>
    Core-seconds of rows without measured CPU time (files written before it was kept): threads × wall seconds.
    """
    def cell(r):
        tts = _number(r["tts99_s"])
        return (f"{float(r['p']):.2f} / {_row_tts(r)}{' †' if r.get('few_events') and math.isfinite(tts) else ''}"
                f"{_was(tts, _naive(r))}")

    puzzles = list(dict.fromkeys(r["puzzle"] for r in rows))
    lines = ["| configuration | " + " | ".join(puzzles) + " | solved | cores (core-s = s × cores) |",
             "|" + "---|" * (len(puzzles) + 3)]
    for config in dict.fromkeys(r["config"] for r in rows):
        mine = {r["puzzle"]: r for r in rows if r["config"] == config}
        cells = [cell(mine[p]) if p in mine else "-" for p in puzzles]
        solved = sum(int(r["num_solved"]) > 0 for r in mine.values())
        lines.append(f"| `{config}` | " + " | ".join(cells) + f" | {solved}/{len(mine)} | {_cores_text(list(mine.values()))} |")
    return "\n".join(lines) + legend(rows)


def _percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q / 100 * len(ordered)) - 1))] if ordered else math.nan


def _percentile_text(rows: Sequence[dict], q: float) -> str:
    """The ``q``-th percentile of the rows' TTS99; where it falls on unsolved puzzles, ``> X``: the same percentile
    of what each row's reads rule out (an unsolved row's low end, a solved row's TTS99), a lower bound.

    >>> rows = [{"tts99_s": 1.0}, {"tts99_s": "inf", "tts99_low_s": 175.2}]
    >>> _percentile_text(rows, 50), _percentile_text(rows, 90)
    ('1 s', '> 175 s')
    """
    tts = [_number(r["tts99_s"]) for r in rows]
    value = _percentile(tts, q)
    if math.isfinite(value):
        return fmt_time(value)
    bound = _percentile([t if math.isfinite(t) else low_end(r) for t, r in zip(tts, rows)], q)
    return f"> {fmt_time(bound)}" if math.isfinite(bound) else "∞"


def geometric_text(ratios: Sequence[float]) -> str:
    """The geometric mean of per-puzzle ratios with its 95 % puzzle-bootstrap interval
    (:func:`~benchmarks.ratios.geometric_interval`), as the pages print it.

    >>> geometric_text([0.5, 2.0]), geometric_text([3.0])
    ('1× [0.5, 2]', '3×')
    """
    geometric = math.exp(sum(math.log(v) for v in ratios) / len(ratios))
    interval = geometric_interval(list(ratios))
    return f"{geometric:.3g}×" + (f" [{interval[0]:.3g}, {interval[1]:.3g}]" if interval else "")


def ratio_line(rows: Sequence[dict], slower: str, faster: str, statistic=tts99_of_reads) -> str:
    """TTS99 of configuration ``slower`` over ``faster`` on the puzzles both solve: geometric mean with its 95 %
    puzzle-bootstrap interval (:func:`~benchmarks.ratios.geometric_interval`), and range, each end with
    its own 95 % interval from that puzzle's reads (:func:`_ratio_interval` of ``statistic``, the figure the
    rows' ``tts99_s`` holds; rows without per-read times: no interval on the ends).

    >>> rows = [{"source": "", "puzzle": p, "config": c, "tts99_s": t}
    ...         for p, c, t in [("a", "x", 2.0), ("a", "y", 1.0), ("b", "x", 1.0), ("b", "y", 2.0)]]
    >>> ratio_line(rows, "x", "y")
    'TTS99 x / y over 2 puzzles: geometric mean 1× [0.5, 2], from 0.5× (b) to 2× (a)'
    """
    def by_puzzle(config):
        return {(r["source"], r["puzzle"]): r for r in rows if r["config"] == config}

    a, b = by_puzzle(slower), by_puzzle(faster)
    ratios = {key: _number(a[key]["tts99_s"]) / _number(b[key]["tts99_s"]) for key in a
              if key in b and math.isfinite(_number(a[key]["tts99_s"])) and math.isfinite(_number(b[key]["tts99_s"]))}
    if not ratios:
        return f"TTS99 {slower} / {faster}: no puzzle solved by both"
    geometric = math.exp(sum(math.log(v) for v in ratios.values()) / len(ratios))
    low, high = min(ratios, key=ratios.get), max(ratios, key=ratios.get)

    def end(key) -> str:
        return f"{ratios[key]:.3g}×{_factor_interval(_ratio_interval(a[key], b[key], statistic))} ({key[1]})"

    text = (f"TTS99 {slower} / {faster} over {len(ratios)} puzzles: "
            f"geometric mean {geometric_text(ratios.values())}, from {end(low)} to {end(high)}")
    cores = [{_threads(r) for r in rows if r["config"] == c} for c in (slower, faster)]
    if all(len(c) == 1 and None not in c for c in cores) and cores[0] != cores[1]:
        a_cores, b_cores = cores[0].pop(), cores[1].pop()
        text += (f"; {slower} ran on {a_cores} core{'s' * (a_cores > 1)}, {faster} on {b_cores}: in core-seconds, "
                 f"geometric mean {geometric * a_cores / b_cores:.3g}×")
    return text


def distribution_line(rows: Sequence[dict]) -> str:
    """Median (with the interval of :func:`summary_table`), 90th and 99th percentile and maximum of TTS99
    over some rows, in core-seconds too, how many solved, and what the censored estimator moved."""
    tts = [_number(r["tts99_s"]) for r in rows]
    solved = sum(int(r["num_solved"]) > 0 for r in rows)
    median, worst = _median(tts), max(tts)
    worst_row = rows[tts.index(worst)]
    cores = {_threads(r) for r in rows}
    core_median = _median([t * (cores_used(r) or 1) for t, r in zip(tts, rows)])
    if math.isfinite(worst):
        worst_text, worst_core = fmt_time(worst), fmt_core(worst, cores_used(worst_row))
    else:  # an unsolved worst: what its reads rule out, as its row says it
        bound = low_end(worst_row)
        worst_text = _row_tts(worst_row)
        worst_core = f"> {fmt_core(bound, cores_used(worst_row))}" if math.isfinite(bound) else "∞"
    core = (f" ({fmt_core(core_median, 1)}, worst {worst_core} on "
            f"{_cores_text(rows)} core{'s' if cores != {1} else ''})" if len(cores) == 1 and None not in cores else "")
    shifted = [r for r in rows if moved(r)]
    naive = [_naive(r) for r in rows]
    change = ""
    if shifted:
        change = (f"; {len(shifted)} moved by censoring (before: median {fmt_time(_median(naive))}, "
                  f"{sum(30 < t < math.inf for t in naive)} above 30 s, worst {fmt_time(max(naive))})")
    return (f"{solved} of {len(rows)} solved; TTS99 median {fmt_tts(median, *_interval(rows))}, 90th "
            f"percentile {_percentile_text(rows, 90)}, 99th {_percentile_text(rows, 99)}, worst "
            f"{worst_text}{core}{change}")


def trend_line(rows: Sequence[dict], size: int = 250) -> str:
    """Median TTS99 and puzzles solved by number range (``size`` puzzles each) of every file, and the
    puzzles never solved: how difficulty changes through a collection.

    >>> rows = [{"source": "q/t.txt#1-500/100", "puzzle": f"t#{n}", "tts99_s": t, "num_solved": s}
    ...         for n, t, s in [(1, 0.1, 5), (101, 0.3, 5), (201, 0.2, 5), (301, 2.0, 5), (401, "inf", 0)]]
    >>> print(trend_line(rows))
    t.txt: #1-250 median 200 ms (3 of 3 solved), #251-500 median ∞ (1 of 2 solved); never solved: t#401
    """
    def number(row):
        return int(str(row["puzzle"]).rsplit("#", 1)[1])

    parts = []
    for name in dict.fromkeys(_file_of(r) for r in rows):
        mine = sorted((r for r in rows if _file_of(r) == name), key=number)
        ranges = []
        for start in range(0, number(mine[-1]), size):
            block = [r for r in mine if start < number(r) <= start + size]
            if block:
                median = fmt_time(_median([_number(r["tts99_s"]) for r in block]))
                solved = sum(int(r["num_solved"]) > 0 for r in block)
                ranges.append(f"#{start + 1}-{start + size} median {median} ({solved} of {len(block)} solved)")
        parts.append(f"{name}: " + ", ".join(ranges))
    never = [r["puzzle"] for r in rows if int(r["num_solved"]) == 0]
    return "; ".join(parts) + (f"; never solved: {', '.join(never)}" if never else "")


def unsolved_specs(rows: Sequence[dict], above_s: float | None = None) -> list[str]:
    """``FILE#N`` for each puzzle of a numbered selection that no read of ``rows`` solved, in row order:
    what ``make bench-tournament-retry`` gives another try; with ``above_s``, also each one whose TTS99
    is above that many seconds (the tail that ``make bench-tail`` measures).

    >>> rows = [{"source": "q/t.txt#1-1000", "puzzle": f"t#{n}", "num_solved": s, "tts99_s": t}
    ...         for n, s, t in [(3, 0, "inf"), (4, 2, 45.0), (9, 0, "inf"), (12, 5, 0.4)]]
    >>> unsolved_specs(rows + [{"source": "q/bompol", "puzzle": "kabuki", "num_solved": 0}])
    ['q/t.txt#3', 'q/t.txt#9']
    >>> unsolved_specs(rows, above_s=30)
    ['q/t.txt#3', 'q/t.txt#4', 'q/t.txt#9']
    """
    specs = []
    for row in rows:
        path, selection = split_spec(str(row.get("source") or ""))
        if selection is None:
            continue
        slow = above_s is not None and _number(row.get("tts99_s", "inf")) > above_s
        if int(row["num_solved"]) == 0 or slow:
            specs.append(f"{path}#{str(row['puzzle']).rsplit('#', 1)[1]}")
    return list(dict.fromkeys(specs))


def retry_line(rows: Sequence[dict]) -> str:
    """How many of each puzzle's reads solved it in how long, with its TTS99, or its best energy.

    >>> rows = [{"puzzle": "t#3", "num_solved": 2, "num_reads": 9, "tts99_s": 310.0, "tts99_low_s": 310.0,
    ...          "tts99_high_s": 310.0, "best_energy": 0.0, "sample_s": 600.2},
    ...         {"puzzle": "t#9", "num_solved": 0, "num_reads": 4, "tts99_s": "inf", "best_energy": 2.0, "sample_s": 600.1}]
    >>> retry_line(rows)
    't#3 by 2 of 9 reads in 600 s (TTS99 310 s [310 s, 310 s] (310 core-s)); t#9 by none of 4 reads in 600 s (best energy 2)'
    """
    parts = []
    for row in rows:
        reads = f"of {row['num_reads']} reads in {fmt_time(float(row['sample_s']))}"
        if int(row["num_solved"]) > 0:
            parts.append(f"{row['puzzle']} by {row['num_solved']} {reads} (TTS99 {_tts_cell(row).split('; ttt')[0]})")
        else:
            parts.append(f"{row['puzzle']} by none {reads} (best energy {float(row['best_energy']):g})")
    return "; ".join(parts)


def _verdict(ok: bool) -> str:
    return "**met**" if ok else "**missed**"


def _ablation_end(ratio: Mapping[str, float], before: Mapping[str, dict], now: Mapping[str, dict], puzzle: str) -> str:
    """One end of the ablation's range: the puzzle's ratio with its interval from both rows' reads."""
    return f"{ratio[puzzle]:.2f}×{_factor_interval(_ratio_interval(before[puzzle], now[puzzle]))} ({puzzle})"


def targets_table(rows: Sequence[dict], tournament: Sequence[dict] = (), hard: Sequence[dict] = (),
                  hybrid: Sequence[dict] = (), ablation: Sequence[dict] = (), retry: Sequence[dict] = (),
                  passes: Mapping[str, dict] | None = None) -> str:
    """The targets against the measurements of the default configuration (``shift``).

    ``rows`` from ``make bench-pure``; ``tournament`` and ``hard`` (``make bench-tournament-long`` or a sample,
    ``make bench-hard``: kabuki and phantom with a longer budget, used for those two where given) and
    ``hybrid`` (``make bench-hybrid``), ``ablation`` (``make bench-ablation``: the default against the
    fixed ladder it replaced), ``retry`` (``make bench-tournament-retry``: ``qpicross anneal``'s budget of
    reads for each puzzle the full runs left unsolved), ``passes`` (``make bench-tournament-pass``: the
    tournament files run under the tournament's rules, by file, as :func:`benchmarks.tournament.load_passes`
    reads them). The last rows are the targets of the earlier results section.
    Every number is computed here from the results files: nothing is typed by hand.
    """
    shift = [r for r in rows if r["config"] == "shift"]
    bompol = [r for r in shift if collection(r) == "bompol"]
    lines = ["| target | measured (default settings, pure annealing) | |", "|---|---|---|"]
    longer = {r["puzzle"] for r in hard if r["config"] == "shift" and int(r["num_solved"]) > 0}
    solved = [r for r in bompol if int(r["num_solved"]) > 0 or r["puzzle"] in longer]
    missing = ", ".join(r["puzzle"] for r in bompol if r not in solved) or "none"
    helped = sorted(longer & {r["puzzle"] for r in bompol if int(r["num_solved"]) == 0})
    note = f"; {', '.join(helped)} only with the longer budget of make bench-hard" if helped else ""
    lines.append(f"| all 17 Bompol puzzles solved | {len(solved)} of {len(bompol)} (unsolved: {missing}{note}) | "
                 f"{_verdict(len(bompol) == 17 and len(solved) == 17)} |")
    cited = []  # rows whose TTS99 cells the table shows: its legend's
    for name, limit in (("phantom", 20.0), ("kabuki", 10.0)):
        longer = [r for r in hard if r["config"] == "shift" and r["puzzle"] == name]
        row = next(iter(longer), None) or next((r for r in bompol if r["puzzle"] == name), None)
        if row is not None:
            cited.append(row)
            tts = _number(row["tts99_s"])
            where = "make bench-hard" if longer else "make bench-pure"
            lines.append(f"| {name} TTS99 ≤ {limit:g} s | {_tts_cell(row)}; p = {_p_cell(row)} ({where}) | "
                         f"{_verdict(tts <= limit)} |")
    beaten = {r["puzzle"]: r for r in shift if r.get("baseline_tts99_s") not in (None, "inf")
              and math.isfinite(_number(r["baseline_tts99_s"])) and math.isfinite(_number(r["tts99_s"]))}
    if beaten:
        ratios = {p: _number(r["baseline_tts99_s"]) / _number(r["tts99_s"]) for p, r in beaten.items()}
        base = {r["puzzle"]: r for r in rows if r["config"] == "baseline"}

        def against_baseline(p: str) -> str:
            interval = _either_interval(base[p], beaten[p]) if p in base else None
            return f"{ratios[p]:.3g}×{_factor_interval(interval)} ({p})"

        lowest, highest = min(ratios, key=ratios.get), max(ratios, key=ratios.get)
        lines.append(f"| ≥ 100× lower TTS99 than the published baseline wherever it solves | on the "
                     f"{len(ratios)} puzzles it solves, {against_baseline(lowest)} to {against_baseline(highest)} "
                     f"(each from the ends of both TTS99 intervals: the baseline's reads are of fixed length) | "
                     f"{_verdict(min(ratios.values()) >= 100)} |")
    before = {r["puzzle"]: r for r in ablation if r["config"] == "shift-fixed-ladder" and int(r["num_solved"]) > 0
              and int(r["rows"]) * int(r["cols"]) >= 625}
    now = {r["puzzle"]: r for r in ablation if r["config"] == "shift" and r["puzzle"] in before}
    if now:
        ratio = {p: _number(before[p]["tts99_s"]) / _number(now[p]["tts99_s"]) for p in now}
        slowest, fastest = min(ratio, key=ratio.get), max(ratio, key=ratio.get)
        lines.append(f"| no slowdown against the default the issue replaced (fixed 4-replica ladder, block moves) on "
                     f"the 25×25 puzzles it solves | "
                     f"TTS99 ratio previous / default: geometric mean {geometric_text(ratio.values())} "
                     f"(puzzles resampled), "
                     f"{_ablation_end(ratio, before, now, slowest)} to {_ablation_end(ratio, before, now, fastest)} "
                     f"over {len(ratio)} "
                     f"puzzles (make bench-ablation) | {_verdict(min(ratio.values()) >= 1)} |")
    small = [r for r in shift if collection(r) in ("instances", "bompol") and max(int(r["rows"]), int(r["cols"])) <= 20
             or collection(r).startswith("taai2011")]
    if small:
        tts = [_number(r["tts99_s"]) for r in small]
        w = small[max(range(len(small)), key=lambda i: tts[i])]
        cited.append(w)
        lines.append(f"| earlier: every shipped and Bompol puzzle up to 20×20 and taai2011 #1–20, TTS99 ≤ 10 s each | "
                     f"{sum(t <= 10 for t in tts)} of {len(small)}; worst {_tts_cell(w).split('; ttt')[0]} ({w['puzzle']}) | "
                     f"{_verdict(max(tts) <= 10)} |")
    if hybrid:
        tts = [_number(r["tts99_s"]) for r in hybrid]
        solved = sum(int(r["num_solved"]) > 0 for r in hybrid)
        w = hybrid[max(range(len(hybrid)), key=lambda i: tts[i])]
        cited.append(w)
        lines.append(f"| earlier, hybrid (presolve): all {len(hybrid)} solved | {solved} of {len(hybrid)} | "
                     f"{_verdict(solved == len(hybrid))} |")
        lines.append(f"| earlier, hybrid: median TTS99 ≤ 1 s, worst ≤ 60 s | median "
                     f"{fmt_tts(_median(tts), *_interval(hybrid))}, worst {_tts_cell(w).split('; ttt')[0]} "
                     f"({w['puzzle']}) | "
                     f"{_verdict(_median(tts) <= 1 and max(tts) <= 60)} |")
    for name in ("taai2011", "tcga2012"):
        mine = [r for r in tournament if r["config"] == "shift" and collection(r).startswith(name)]
        if not mine:
            continue
        tts = [_number(r["tts99_s"]) for r in mine]
        unsolved = sum(int(r["num_solved"]) == 0 for r in mine)
        median, worst = _median(tts), max(tts)
        met = unsolved == 0 and median <= 0.5 and worst <= 30
        verdict = _verdict(met)
        parts = (f"median {'within' if median <= 0.5 else 'above'} 0.5 s, {unsolved} unsolved, "
                 f"{sum(30 < t < math.inf for t in tts)} solved above 30 s")
        if len(mine) < 1000 and unsolved == 0 and worst <= 30:  # a subset cannot show that the whole file meets it
            verdict = f"not measured on all 1 000 (on these {len(mine)}, {collection(mine[0])}: {verdict.strip('*')})"
        elif len(mine) < 1000:  # ... but a puzzle of it can show that the file misses it
            verdict += (f" (measured on {len(mine)}, {collection(mine[0])}: a puzzle of the file unsolved or above "
                        f"30 s; of these, {parts})")
        elif not met:
            verdict += f" ({parts})"
        lines.append(f"| all 1 000 {name} puzzles solved, median TTS99 ≤ 0.5 s, worst ≤ 30 s | "
                     f"{distribution_line(mine)} | {verdict} |")
    lines.extend(_anneal_line(tournament, retry))
    lines.extend(_pass_line(name, data) for name, data in (passes or {}).items())
    return "\n".join(lines) + legend(cited)


#: The targets of a tournament pass (issue 41), from the champion's time on a current CPU: (total s, median s,
#: slowest s) for taai2011; tcga2012 has a total target only (the champion's tournament time).
PASS_TARGETS = {"taai2011": (463.4, 0.05, 60.0), "tcga2012": (1433.0, None, None)}


def _pass_line(name: str, data: dict) -> str:
    """The targets row of one tournament pass (``make bench-tournament-pass``): all solved in one pass on one core
    within the total of :data:`PASS_TARGETS` (and the per-puzzle median and slowest, where it sets them).

    >>> data = {"meta": {"cores": 1}, "summary": {"puzzles": 1000, "run": 1000, "solved": 1000, "total_s": 900.0,
    ...         "median_s": 0.3, "slowest_s": 70.0, "slowest_puzzle": "taai2011#448"}}
    >>> print(_pass_line("taai2011", data))  # doctest: +NORMALIZE_WHITESPACE
    | taai2011 under the tournament rules (every puzzle once, in order, on one core): all 1 000 solved, total ≤ 463 s
    (the 2011 champion on a current CPU), median ≤ 50 ms, slowest ≤ 60 s | 1000 of 1000 in one pass on 1 core; total
    900 s, median 300 ms, slowest 70 s (taai2011#448) (make bench-tournament-pass) | **missed** (total above 463 s,
    median above 50 ms, slowest above 60 s) |
    """
    total, median, slowest = PASS_TARGETS.get(name, (None, None, None))
    s, cores = data["summary"], data["meta"]["cores"]
    goals = [f"all {s['puzzles']:,} solved".replace(",", " ")]
    checks = [("unsolved", s["solved"] == s["puzzles"] and s["run"] == s["puzzles"])]
    for what, limit, value, champion in (("total", total, s["total_s"], " (the 2011 champion on a current CPU)"
                                          if name == "taai2011" else " (the champion's tournament time)"),
                                         ("median", median, s.get("median_s"), ""),
                                         ("slowest", slowest, s.get("slowest_s"), "")):
        if limit is not None:
            goals.append(f"{what} ≤ {fmt_time(limit)}{champion}")
            checks.append((f"{what} above {fmt_time(limit)}", value is not None and value <= limit))
    slow = f", slowest {fmt_time(s['slowest_s'])} ({s['slowest_puzzle']})" if s.get("slowest_puzzle") else ""
    measured = (f"{s['solved']} of {s['puzzles']} in one pass on {cores} core{'s' if cores > 1 else ''}"
                + ("" if s["run"] == s["puzzles"] else f" ({s['run']} run)")
                + f"; total {fmt_time(s['total_s'])}, median {fmt_time(s.get('median_s'))}{slow}")
    missed = [what for what, ok in checks if not ok]
    verdict = _verdict(not missed) + (f" ({', '.join(missed)})" if missed else "")
    return (f"| {name} under the tournament rules (every puzzle once, in order, on one core): {', '.join(goals)} | "
            f"{measured} (make bench-tournament-pass) | {verdict} |")


def _anneal_line(tournament: Sequence[dict], retry: Sequence[dict]) -> list[str]:
    """The targets row "``qpicross anneal`` with no options solves every tournament puzzle": the full runs'
    solved puzzles and, for the others, the runs of ``make bench-tournament-retry`` (none: no row). Met when
    every puzzle was solved and each retried one has a TTS99 within :data:`ANNEAL_BUDGET_S` (``anneal``
    solves it 99 times in 100)."""
    whole = [r for r in tournament if r["config"] == "shift" and _selection_size(r) == 1000]
    if not whole or not retry:
        return []
    again = {r["puzzle"]: r for r in retry if r["config"] == "shift"}
    unsolved = [r["puzzle"] for r in whole if int(r["num_solved"]) == 0]
    still = [p for p in unsolved if p not in again or int(again[p]["num_solved"]) == 0]
    files = " and ".join(dict.fromkeys(_file_of(r).split(".")[0] for r in whole))
    tts = {p: _number(again[p]["tts99_s"]) for p in unsolved if p in again and p not in still}
    slowest = max(tts, key=tts.get, default=None)
    retried = (f"the other {len(unsolved)} with that budget: {len(unsolved) - len(still)} of {len(unsolved)}"
               + (f" (TTS99 up to {fmt_time(tts[slowest])}, {slowest})" if slowest else "")
               + (f"; not solved: {', '.join(still)}" if still else "")) if unsolved else "none left to retry"
    above = [p for p in tts if tts[p] > ANNEAL_BUDGET_S]
    verdict = _verdict(not still and not above)
    if above and not still:
        verdict += (f" (every one solved; TTS99 above {fmt_time(ANNEAL_BUDGET_S)}, so more than 1 run in 100 "
                    f"fails: {', '.join(above)})")
    return [f"| every puzzle of {files} solved by `qpicross anneal FILE#N` with no options (within its "
            f"{fmt_time(ANNEAL_BUDGET_S)}, 99 runs in 100) | {len(whole) - len(unsolved)} of {len(whole)} in the "
            f"full runs; {retried} (make bench-tournament-retry) | {verdict} |"]


def kernels_table(rows: Sequence[dict]) -> str:
    """The structured annealer's two kernels per puzzle (``make bench-kernels``).

    >>> print(kernels_table([{"puzzle": "p", "rows": 5, "cols": 5, "num_variables": 44, "speedup": 2.0,
    ...                       "bqm_replica_sweeps_per_s": 1e5, "board_replica_sweeps_per_s": 2e5,
    ...                       "same_samples": True}]))
    | puzzle | size | variables | BQM kernel | board kernel | board / BQM | same samples |
    |---|---|---|---|---|---|---|
    | p | 5×5 | 44 | 100000 | 200000 | 2.00× | yes |
    """
    lines = ["| puzzle | size | variables | BQM kernel | board kernel | board / BQM | same samples |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['puzzle']} | {r['rows']}×{r['cols']} | {r['num_variables']} | "
                     f"{r['bqm_replica_sweeps_per_s']:.0f} | {r['board_replica_sweeps_per_s']:.0f} | "
                     f"{r['speedup']:.2f}× | {'yes' if r['same_samples'] else '**no**'} |")
    return "\n".join(lines)


#: Streams :func:`parallel_table` projects from the one-stream reads.
PROJECTED_STREAMS = (2, 16, 64)


def _reads_of(row: dict) -> tuple[list[float], list[float]] | None:
    """A time-to-target row's reads: times to target and durations (``None`` where it keeps none)."""
    if not row.get("time_to_target_s"):
        return None
    return ([_number(t) for t in row["time_to_target_s"]],
            [_number(t) for t in row.get("read_s") or row["time_to_target_s"]])


def _scaled(ratio, factor: float):
    """A :class:`~benchmarks.ratios.RatioInterval` times a constant (cores per stream, core-seconds)."""
    import dataclasses

    return dataclasses.replace(ratio, ratio=ratio.ratio * factor, low=ratio.low * factor, high=ratio.high * factor)


def parallel_table(rows: Sequence[dict], one: str = "shift-1-stream", two: str = "shift-2-streams") -> str:
    """Each puzzle's TTS99 with its reads' restart streams on one and on two processes (``make bench-parallel``):
    wall seconds with their interval and core-seconds; the ratio one / two in wall seconds and in core-seconds
    with its interval from the reads (:func:`~benchmarks.ratios.reads_ratio`, both configurations'
    reads resampled; the core-seconds ratio is the wall one times the cores each kept busy, :func:`cores_used`);
    and the wall TTS99 that :func:`~qpicross.experiments.survival.streams_tts` projects for :data:`PROJECTED_STREAMS`
    streams from the one-stream reads, with its interval over those reads
    (:func:`~benchmarks.ratios.reads_interval`). Under it, :func:`parallel_summary`.

    >>> rows = [{"puzzle": "p", "config": "shift-1-stream", "tts99_s": 12.0, "tts99_low_s": 4.0, "tts99_high_s": 20.0,
    ...          "threads": 1, "time_to_target_s": [4.0, 8.0, 12.0], "read_s": [4.0, 8.0, 12.0], "core_s": [4, 8, 12]},
    ...         {"puzzle": "p", "config": "shift-2-streams", "tts99_s": 4.5, "tts99_low_s": 2.0, "tts99_high_s": 9.0,
    ...          "threads": 2, "time_to_target_s": [2.0, 4.5], "read_s": [2.0, 4.5], "core_s": [4, 9]}]
    >>> print(parallel_table(rows).splitlines()[2])
    | p | 12 s [4 s, 20 s] (12 core-s) | 4.5 s [2 s, 9 s] (9 core-s) | 2.67× [1.78, 6] | 1.33× [0.889, 3] | 12 s [4 s, 12 s] | 4 s [4 s, 12 s] | 4 s [4 s, 12 s] |
    """
    from benchmarks.ratios import reads_interval, reads_ratio
    from qpicross.experiments.survival import streams_tts

    head = [f"{n} streams" for n in PROJECTED_STREAMS]
    lines = ["| puzzle | 1 stream: TTS99 [95 % CI] (core-s) | 2 streams: TTS99 [95 % CI] (core-s) | "
             "1 / 2 (wall) [95 % CI] | 1 / 2 (core-s) [95 % CI] | projected from 1 stream: " + " | ".join(head) + " |",
             "|---" * (5 + len(head)) + "|"]
    by: dict[str, dict[str, dict]] = {}
    for r in rows:
        by.setdefault(r["puzzle"], {})[r["config"]] = r

    def cell(r):
        if r is None:
            return "-"
        t = _number(r["tts99_s"])
        return _row_tts(r) + (f" ({fmt_core(t, cores_used(r))})" if math.isfinite(t) else "")

    for puzzle, configs in by.items():
        a, b = configs.get(one), configs.get(two)
        ratios = ["-", "-"]
        if a is not None and b is not None and _reads_of(a) and _reads_of(b):
            wall = reads_ratio([_reads_of(a)], [_reads_of(b)])
            if math.isfinite(wall.ratio):
                ratios = [wall.text(), _scaled(wall, (cores_used(a) or 1) / (cores_used(b) or 1)).text()]
        projected = ["-"] * len(PROJECTED_STREAMS)
        if a is not None and _reads_of(a):
            projected = [fmt_tts(*reads_interval(*_reads_of(a), lambda t, d, n=n: streams_tts(t, d, n)))
                         for n in PROJECTED_STREAMS]
        lines.append(f"| {puzzle} | {cell(a)} | {cell(b)} | " + " | ".join(ratios + projected) + " |")
    note = core_note([r for configs in by.values() for r in configs.values()])
    return ("\n".join(lines) + "\n\n" + parallel_summary(rows, one, two)
            + (f"\n\n{note[:1].upper()}{note[1:]}." if note else ""))


def parallel_summary(rows: Sequence[dict], one: str = "shift-1-stream", two: str = "shift-2-streams") -> str:
    """What :func:`parallel_table`'s rows say in a sentence: on the puzzles both configurations solved, the wall
    TTS99 of two streams as a multiple of one stream's, the ratio one / two over them with its interval
    (:func:`~benchmarks.ratios.reads_ratio`, puzzles and reads resampled), and how wide the TTS99
    intervals are (high end / low end).

    >>> rows = [{"puzzle": p, "config": c, "tts99_s": t, "tts99_low_s": t / 2, "tts99_high_s": t * 3,
    ...          "time_to_target_s": [t, t / 2], "read_s": [t, t / 2]}
    ...         for p, c, t in [("a", "shift-1-stream", 8.0), ("a", "shift-2-streams", 4.0)]]
    >>> parallel_summary(rows)
    'On the 1 puzzle both solved, the wall TTS99 of 2 streams is 0.5× [0.25, 1] that of 1 stream: 1 / 2 is 2× [1, 4] (puzzles and reads resampled); each TTS99 interval spans a factor of 6 (high end / low end).'
    """
    from benchmarks.ratios import reads_ratio

    by: dict[str, dict[str, dict]] = {}
    for r in rows:
        by.setdefault(r["puzzle"], {})[r["config"]] = r
    both = [(c[one], c[two]) for c in by.values() if one in c and two in c
            and all(math.isfinite(_number(r["tts99_s"])) and _reads_of(r) for r in (c[one], c[two]))]
    if not both:
        return "No puzzle was solved by both."
    share = [_number(b["tts99_s"]) / _number(a["tts99_s"]) for a, b in both]

    def shown(i: int) -> str:  # one puzzle's share with its interval from both configurations' reads
        return f"{share[i]:.3g}×{_factor_interval(_ratio_interval(both[i][1], both[i][0]))}"

    low, high = min(range(len(share)), key=share.__getitem__), max(range(len(share)), key=share.__getitem__)
    spread = f"{shown(low)} to {shown(high)}" if len(both) > 1 else shown(0)
    ratio = reads_ratio([_reads_of(a) for a, _ in both], [_reads_of(b) for _, b in both])
    widths = [_number(r["tts99_high_s"]) / low_end(r) for pair in both for r in pair]
    finite = [w for w in widths if math.isfinite(w)]
    span = (f"{min(finite):.2g} to {max(finite):.2g}" if len(set(f"{w:.2g}" for w in finite)) > 1
            else f"{finite[0]:.2g}") if finite else ""
    unbounded = len(widths) - len(finite)
    span = (span + (f", or ∞ ({unbounded} of {len(widths)})" if unbounded else "")) if span else "∞"
    return (f"On the {len(both)} puzzle{'s' * (len(both) > 1)} both solved, the wall TTS99 of 2 streams is {spread} "
            f"that of 1 stream: 1 / 2 is {ratio.text()} (puzzles and reads resampled); each TTS99 interval spans a "
            f"factor of {span} (high end / low end).")


def _optional_rows(name: str) -> list[dict]:
    path = ROOT / "results" / name
    return load_rows([path]) if path.is_file() else []


def long_run_files(results: str | os.PathLike | None = None) -> list[Path]:
    """The full-file tournament runs in ``results`` (default: the project's ``results/``), newest naming first.

    ``make bench-tournament-long`` writes one file per tournament file, ``bench_tournament_long_FILE.json``;
    ``bench_tournament_long.json`` is the name the first full run (taai2011, at c1fa7c8) was written under.
    Where two of them measured the same file, :func:`widest_per_file` picks one, so no puzzle counts twice.

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     for name in ("bench_tournament_long.json", "bench_tournament_long_tcga2012.json", "bench_tournament.json"):
    ...         _ = (Path(d) / name).write_text("{}")
    ...     [f.name for f in long_run_files(d)]
    ['bench_tournament_long_tcga2012.json', 'bench_tournament_long.json']
    """
    folder = ROOT / "results" if results is None else Path(results)
    legacy = folder / "bench_tournament_long.json"
    return sorted(folder.glob("bench_tournament_long_*.json")) + ([legacy] if legacy.is_file() else [])


def _long_runs() -> list[list[dict]]:
    """The rows of each full-file tournament run (``_LONG_RUNS``), one list per results file."""
    return [load_rows([path]) for path in _LONG_RUNS if path.is_file()]


def _selection_size(row: dict) -> int | None:
    """How many puzzles the ``#`` selection of a row's source names (``None``: no numbered selection).

    >>> [_selection_size({"source": s}) for s in ("q/a.txt#1-1000", "q/a.txt#1-1000/10", "q/a.txt#7", "q/bompol")]
    [1000, 100, 1, None]
    """
    selection = split_spec(str(row.get("source") or ""))[1]
    return None if selection is None else len(selection)


def widest_per_file(*runs: Sequence[dict]) -> list[dict]:
    """For each puzzle file (``taai2011.txt``, ...), the rows of whichever run measured most of its puzzles
    (on a tie, the run given first), a run stopped before the end of its selection counting only
    against another stopped one.

    A long run stopped before its end measured the first puzzles of the file (its easiest part, in the
    tournament files), so a complete run of a selection (a sample spread over the file, a shorter
    range) is preferred to it whatever their sizes; between complete runs, and between stopped ones,
    each file's targets are judged on the larger.

    >>> long = [{"source": "q/a.txt#1-3", "puzzle": p} for p in "xyw"]
    >>> short = [{"source": "q/a.txt#1-2", "puzzle": p} for p in "xy"] + [{"source": "q/b.txt#1-2", "puzzle": "z"}]
    >>> [(collection(r), r["puzzle"]) for r in widest_per_file(long, short)]
    [('a.txt#1-3', 'x'), ('a.txt#1-3', 'y'), ('a.txt#1-3', 'w'), ('b.txt#1-2', 'z')]
    >>> sample = [{"source": "q/b.txt#1-9/8", "puzzle": p} for p in "zv"]
    >>> [collection(r) for r in widest_per_file(sample, [{"source": "q/b.txt#1-2", "puzzle": p} for p in "zy"])]
    ['b.txt#1-9/8', 'b.txt#1-9/8']
    >>> stopped = [{"source": "q/b.txt#1-1000", "puzzle": p} for p in "abc"]  # Ctrl-C after three of 1000
    >>> [collection(r) for r in widest_per_file(stopped, sample)]
    ['b.txt#1-9/8', 'b.txt#1-9/8']
    """
    files = list(dict.fromkeys(_file_of(r) for run in runs for r in run))
    out = []
    for name in files:
        def rank(run):
            mine = [r for r in run if _file_of(r) == name]
            expected = {_selection_size(r) for r in mine}
            complete = all(size is None or size <= len(mine) for size in expected)
            return bool(mine) and complete, len(mine)

        best = max(runs, key=rank)
        out.extend(r for r in best if _file_of(r) == name)
    return out


def _against_default(other: str) -> Callable[[list[dict]], str]:
    """A section comparing configuration ``other`` with the default (``shift``): the summary table of
    each configuration and collection, then the TTS99 ratio ``other`` / default."""
    return lambda rows: summary_table(rows, by=by_collection) + "\n\n" + ratio_line(rows, other, "shift") + "."


def _cores_together(rows: Sequence[dict]) -> str:
    """``make bench-cores``: the same reads alone on one core and on both cores at once, and the ratio of each
    core's TTS99 together to alone (the reads are the same, so the ratio is the clock's)."""
    return (summary_table(rows, by=by_collection) + "\n\n- "
            + ratio_line(rows, "shift-together-0", "shift-alone") + ";\n- "
            + ratio_line(rows, "shift-together-1", "shift-alone") + ".")


def without_first_read(row: dict) -> dict:
    """``row`` with its TTS99 recomputed (censored, :func:`~qpicross.experiments.survival.survival_tts99`) from its reads
    but the first: the read whose time this tree's ``shift`` charges the calibration sweeps to, and the
    code before it did not, so that two such rows compare on the same clock.

    >>> row = {"time_to_target_s": [9.0, 1.0, 2.0, float("inf")], "read_s": [9.0, 1.0, 2.0, 5.0], "tts99_s": 9.0}
    >>> round(without_first_read(row)["tts99_s"], 3) < 9.0
    True
    """
    from qpicross.experiments.survival import survival_tts99

    times = [_number(t) for t in row["time_to_target_s"]][1:]
    durations = [_number(t) for t in row["read_s"]][1:]
    return {**row, "tts99_s": survival_tts99(times, durations), "time_to_target_s": times, "read_s": durations}


def core_table(rows: Sequence[dict]) -> str:
    """Per puzzle, smallest first: size, model, success probability with its interval, the reads whose row board is valid without
    being a ground state, build and sampling seconds.

    >>> print(core_table([{"puzzle": "a", "rows": 5, "cols": 5, "num_variables": 44, "num_couplers": 108,
    ...                    "num_reads": 1000, "num_solved": 491, "p": 0.491, "p_low": 0.46, "p_high": 0.52,
    ...                    "num_valid_board_only": 19, "build_s": 0.001, "sample_s": 1.3}]))
    | puzzle | size | variables | couplers | solved | success probability [95 % CI] (reads) | valid row board, not a ground state | build | sampling |
    |---|---|---|---|---|---|---|---|---|
    | a | 5×5 | 44 | 108 | yes | 0.491 [0.46, 0.52] (1000) | 19 | 1 ms | 1.3 s |
    """
    lines = ["| puzzle | size | variables | couplers | solved | success probability [95 % CI] (reads) "
             "| valid row board, not a ground state | build | sampling |", "|---|---|---|---|---|---|---|---|---|"]
    for r in sorted(rows, key=lambda r: (int(r["rows"]) * int(r["cols"]), r["puzzle"])):
        lines.append(f"| {r['puzzle']} | {int(r['rows'])}×{int(r['cols'])} | {int(r['num_variables'])} "
                     f"| {int(r['num_couplers'])} | {'yes' if int(r['num_solved']) else 'no'} "
                     f"| {float(r['p']):.3f} [{float(r['p_low']):.2f}, {float(r['p_high']):.2f}] ({int(r['num_reads'])}) "
                     f"| {int(r['num_valid_board_only'])} | {fmt_time(r['build_s'])} | {fmt_time(r['sample_s'])} |")
    return "\n".join(lines)


def _engine_ratios(rows: Sequence[dict]) -> str:
    """This tree (``shift``) against each earlier tree of ``make bench-no-slowdown`` (configurations
    ``shift-REV``): the summary, then the geometric-mean ratios earlier / this tree with their puzzle-bootstrap
    intervals, of TTS99 (also on the same clock: each puzzle's first read, which this tree charges its
    calibration sweeps to, left out, :func:`without_first_read`) and of the median time to target, on every
    puzzle and on the Bompol puzzles alone."""
    lines = []
    for other in (c for c in dict.fromkeys(r["config"] for r in rows) if c != "shift"):
        pair = [r for r in rows if r["config"] in ("shift", other)]
        for name, subset in (("all puzzles", pair), ("Bompol alone", [r for r in pair if "bompol" in r["source"]])):
            medians = [{**r, "tts99_s": r.get("ttt_median_s", "inf")} for r in subset]
            same_clock = [without_first_read(r) for r in subset
                          if isinstance(r.get("read_s"), list) and len(r["read_s"]) > 1]
            lines.append(f"- {name}: " + ratio_line(subset, other, "shift")
                         + "; on the same clock: " + ratio_line(same_clock, other, "shift").replace("TTS99 ", "", 1)
                         + "; median time to target: "
                         + ratio_line(medians, other, "shift", median_time_of_reads).replace("TTS99 ", "", 1))
    return summary_table(rows, by=by_collection) + "\n\n" + ";\n".join(lines) + "."


def _interleaved(rows: Sequence[dict]) -> str:
    """An interleaved run (``make bench-rungs``, ``bench-tail-target``, ``bench-long-ladder``, ``bench-size-unit``,
    ``bench-size-rungs``):
    this tree (``shift``) against an earlier one (``shift-REV``) on the same puzzles, puzzle by puzzle, then the
    geometric-mean ratios earlier / this tree of TTS99 and of the median time to target (above 1: this tree is
    faster), with their puzzle-bootstrap intervals."""
    other = next(c for c in dict.fromkeys(r["config"] for r in rows) if c != "shift")
    medians = [{**r, "tts99_s": r.get("ttt_median_s", "inf")} for r in rows]
    return (puzzle_table(rows, [other, "shift"], baseline=other) + "\n\n- " + ratio_line(rows, other, "shift")
            + ";\n- median time to target: "
            + ratio_line(medians, other, "shift", median_time_of_reads).replace("TTS99 ", "", 1) + ".")


def _passes_before_ladder() -> str:
    """Each tournament pass before the denser ladder against today's (:func:`benchmarks.tournament.passes_compared`),
    one line a file, where both files are committed."""
    lines = []
    for name, before in _PASSES_BEFORE_LADDER.items():
        paths = _results(before, f"tournament_{name}.json")
        if all(p.is_file() for p in paths):
            lines.append(f"- {name}: " + passes_compared(*(json.loads(p.read_text()) for p in paths)))
    return ";\n".join(lines) + "."


def machine_clock(before: Sequence[dict], after: Sequence[dict], config: str = "baseline") -> str:
    """How fast the machine ran on two days, by a sampler whose code did not change: ``config``'s time per read
    (plain SA of dwave-samplers, a fixed number of sweeps: ``make bench-pure``'s baseline) in an earlier run over
    a later one, the geometric mean over the puzzles both ran, with its puzzle-bootstrap interval. Below 1: the
    machine was slower in the later run, and totals measured on the two days do not compare code.

    >>> row = lambda p, t: {"puzzle": p, "config": "baseline", "t_read_s": t}
    >>> machine_clock([row("a", 1.0), row("b", 2.0)], [row("a", 2.0), row("b", 4.0)])
    'plain SA (baseline) per read, earlier run / later run over 2 puzzles: geometric mean 0.5× [0.5, 0.5]'
    """
    old = {r["puzzle"]: _number(r["t_read_s"]) for r in before if r["config"] == config and r.get("t_read_s")}
    pairs = [(old[r["puzzle"]], _number(r["t_read_s"])) for r in after
             if r["config"] == config and r.get("t_read_s") and r["puzzle"] in old]
    ratios = [a / b for a, b in pairs if a > 0 and b > 0]
    if not ratios:
        return ""
    return (f"plain SA ({config}) per read, earlier run / later run over {len(ratios)} puzzles: geometric mean "
            f"{geometric_text(ratios)}")


def _by_commit(table: Callable[[dict], str], *names: str) -> str:
    """``table`` of whole results files (``make bench-breakdown``'s, ``make campaign``'s), each named by its commit."""
    runs = [json.loads(path.read_text()) for path in _results(*names)]
    return table({f"commit {str(run['meta']['commit'])[:7]}": run for run in runs})


def _streams_summary(rows: Sequence[dict]) -> str:
    return summary_table(rows) + "\n\n" + ratio_line(rows, "shift", "shift-same-streams") + "."


def _with_presolve(rows: Sequence[dict]) -> str:
    """The default (``shift``) and ``shift+presolve`` on the same puzzles: the summary, then puzzle by puzzle."""
    return summary_table(rows) + "\n\n" + puzzle_table(rows, ["shift", "shift+presolve"], baseline="shift")


def _collections_summary(rows: Sequence[dict]) -> str:
    table = summary_table(rows, by=by_collection)
    return table + "\n\nOver all of them: " + distribution_line(rows) + "."


def _solved_cell(rows: Sequence[dict]) -> str:
    """How many of some puzzles a configuration solved, and the median and worst of their TTS99 (a worst that
    only where every puzzle is solved); ``—`` where nothing was measured.

    >>> _solved_cell([{"num_solved": 3, "tts99_s": 0.2, "threads": 1}, {"num_solved": 1, "tts99_s": 4.0, "threads": 1}])
    '2 of 2, median 2.1 s, worst 4 s, 1 core'
    """
    if not rows:
        return "—"
    tts = [_number(r["tts99_s"]) if r["num_solved"] else math.inf for r in rows]
    solved = sum(r["num_solved"] > 0 for r in rows)
    cores = sorted({_threads(r) or 0 for r in rows})
    on = f", {'/'.join(str(c) if c else 'GPU' for c in cores)} core{'s' * (cores != [1])}" if cores != [0] else ""
    if not solved:
        return f"0 of {len(rows)}"
    worst = f", worst {fmt_time(max(tts))}" if solved == len(rows) else ""
    return f"{solved} of {len(rows)}, median {fmt_time(_median(tts))}{worst}{on}"


def _pass_cell(data: dict | None) -> str:
    """A tournament pass (``make bench-tournament-pass``) in a cell: solved, total, cores."""
    if data is None:
        return "—"
    s, cores = data["summary"], data["meta"]["cores"]
    return f"{s['solved']} of {s['puzzles']} in one pass, {fmt_time(s['total_s'])} on {cores} core{'s' * (cores > 1)}"


def _sizes(rows: Sequence[dict]) -> str:
    sides = sorted({(int(r["rows"]), int(r["cols"])) for r in rows}, key=lambda rc: rc[0] * rc[1])
    if not sides:
        return ""
    low, high = (f"{r}×{c}" for r, c in (sides[0], sides[-1]))
    return low if low == high else f"{low} to {high}"


def fmt_published(seconds: float | None) -> str:
    """A published time: ``< 10 ms`` for the survey's 0 (it gives hundredths), ``+`` not finished, ``–`` not run."""
    if seconds is None:
        return "–"
    if math.isinf(seconds):
        return "+"
    return "< 10 ms" if seconds == 0 else fmt_time(seconds)


def _ours(row: dict | None) -> tuple[float, str]:
    """A results row's TTS99 and how the table prints it (``> X`` where no read reached the target)."""
    if row is None:
        return math.inf, "—"
    tts = _number(row["tts99_s"]) if row["num_solved"] else math.inf
    return tts, fmt_time(tts) if math.isfinite(tts) else f"> {fmt_time(low_end(row))}"


def _against(median: float, ours: float) -> str:
    """The survey's median time over ours (above 1: ours is faster); the survey's 0 is below its 10 ms.

    >>> _against(2.0, 0.5), _against(0.0, 0.005), _against(math.inf, 3.0), _against(1.0, math.inf)
    ('4×', '< 2×', 'faster (the median solver did not finish)', 'not solved')
    """
    if not math.isfinite(ours):
        return "not solved"
    if not math.isfinite(median):
        return "faster (the median solver did not finish)"
    return f"< {0.01 / ours:.3g}×" if median == 0 else f"{median / ours:.3g}×"


def rows_by_config(rows: Sequence[dict]) -> dict[str, dict[str, dict]]:
    """Results rows by configuration, then puzzle (a later row of the same pair replaces an earlier one).

    >>> rows_by_config([{"config": "a", "puzzle": "p"}, {"config": "b", "puzzle": "p"}])["b"]
    {'p': {'config': 'b', 'puzzle': 'p'}}
    """
    by_config: dict[str, dict[str, dict]] = {}
    for row in rows:
        by_config.setdefault(row["config"], {})[row["puzzle"]] = row
    return by_config


def survey_table(rows: Sequence[dict], default: str = "shift", presolve: str = "shift+presolve") -> str:
    """Our TTS99 (the ``default`` and ``presolve`` configurations of ``make bench-survey``'s files) beside each
    published solver time, puzzle by puzzle, the survey's median solver over ours, and the issue-58 target: on
    every puzzle where the fastest survey solver needs more than 1 s, faster than the survey's median solver."""
    by_config = rows_by_config(rows)
    ours = by_config.get(default, {})
    lines = ["| puzzle | webpbn | size | ours: default | ours: `--presolve` | " + " | ".join(SOLVERS)
             + " | survey median | survey median / ours (default) |",
             "|---|---:|---|---:|---:|" + "---:|" * len(SOLVERS) + "---:|---|"]
    hard, won, unknown = [], [], []
    for puzzle, row in ours.items():
        entry = published_for(puzzle)
        if entry is None:
            unknown.append(puzzle)
            continue
        tts, shown = _ours(row)
        median = survey_median(entry.times)
        lines.append(f"| {entry.name} ({puzzle}) | {entry.webpbn} | {entry.size.replace('x', '×')} | {shown} | "
                     f"{_ours(by_config.get(presolve, {}).get(puzzle))[1]} | "
                     + " | ".join(fmt_published(t) for t in entry.times)
                     + f" | {fmt_published(median)} | {_against(median, tts)} |")
        if min(t for t in entry.times if t is not None) > 1:
            hard.append(entry.name)
            if tts < median:
                won.append(entry.name)
    cores = sorted({_threads(r) or 0 for r in ours.values()})
    on = "/".join(str(c) for c in cores)
    notes = [f"Ours: TTS99 in wall seconds, each read on {on} core{'s' * (cores != [1])} (intervals in the table "
             "above); the survey's: its published wall seconds on its own machine (webpbn.com/survey; `+` not "
             "finished within its limit, `–` not run, `< 10 ms` its 0). Size: width × height. The last column above 1: "
             "ours is faster than the survey's median solver."]
    if hard:
        notes.append(f"Where the fastest survey solver needs more than 1 s ({len(hard)} puzzles: {', '.join(hard)}), "
                     f"the default is faster than the survey's median solver on {len(won)}"
                     + (f" ({', '.join(won)})" if won else "") + ".")
    if unknown:
        notes.append(f"Not in the survey's table: {', '.join(unknown)}.")
    return "\n".join(lines) + "\n\n" + " ".join(notes)


#: The tournament passes (``make bench-tournament-pass``), one results file per tournament file.
_PASSES = ("tournament_taai2011.json", "tournament_tcga2012.json")
#: The same passes with ``--presolve`` (``make bench-tournament-presolve``), where they have been run.
_PRESOLVE_PASSES = ("tournament_taai2011_presolve.json", "tournament_tcga2012_presolve.json")
#: The same passes with restart streams on both cores (``make bench-tournament-cores``), where they have been run.
_CORES_PASSES = ("tournament_taai2011_cores2.json", "tournament_tcga2012_cores2.json")


def overview_table(rows: Sequence[dict]) -> str:
    """What qpicross solves and how fast, one row per collection: the default (pure annealing, ``qpicross anneal``),
    ``--presolve`` (line logic first), plain simulated annealing of the published QUBO (dwave-samplers, the
    ``--baseline`` of ``make bench-pure``), and the tournament champions' published totals. ``rows``: those of
    ``make bench-pure`` and ``make bench-hybrid``; the survey's files and the tournament passes are read here."""
    def pick(config: str, *collections: str) -> list[dict]:
        return [r for r in rows if r["config"] == config and collection(r) in collections]

    passes = load_passes([p for p in _results(*_PASSES, *_PRESOLVE_PASSES) if p.is_file()])
    tournaments = [(f"{name} ({event})", passes.get(name),
                    passes.get(f"{name}_presolve") or pick("shift+presolve", f"{name}.txt#1-100"),
                    pick("baseline", f"{name}.txt#1-20"), f"champion {fmt_time(PASS_TARGETS[name][0])} in all")
                   for name, event in (("taai2011", "TAAI 2011"), ("tcga2012", "TCGA 2012"))]
    lines = ["| puzzles | default (pure annealing) | `--presolve` | plain SA on the QUBO | published |",
             "|---|---|---|---|---|"]
    for label, default, presolve, plain, published in (
            ("shipped", pick("shift", "instances"), [], pick("baseline", "instances"), "—"),
            ("Bompol (CP report)", pick("shift", "bompol"), pick("shift+presolve", "bompol"),
             pick("baseline", "bompol"), "—"),
            *tournaments,
            ("Wolter's survey (those qpicross reads)", _optional_rows("survey.json"),
             _optional_rows("survey_presolve.json"), [], "—")):
        if isinstance(default, list):  # bench rows, one a puzzle
            whole, puzzles, first = len(default), default, _solved_cell(default)
        else:  # a tournament pass (make bench-tournament-pass), or none
            whole = default["summary"]["puzzles"] if default else 0
            puzzles, first = (default or {}).get("results", []), _pass_cell(default)

        def part(cells: Sequence[dict] | dict) -> str:  # a cell of runs on part of the collection says so
            if isinstance(cells, dict):  # a pass with --presolve
                return _pass_cell(cells)
            return _solved_cell(cells) + ("" if not cells or len(cells) == whole else f" (first {len(cells)})")

        size = f"{whole:,}".replace(",", " ")
        lines.append(f"| {label}: {size}, {_sizes(puzzles)} | {first} | {part(presolve)} | {part(plain)} | "
                     f"{published} |")
    return "\n".join(lines)


#: The full-file runs the "tournament-long" section reads (the section is left as it is when there is none).
_LONG_RUNS = long_run_files() or _results("bench_tournament_long.json")
#: make bench-breakdown's files: this tree, the tree before the kernels ran without reference counting, and the tree
#: before the set-up was cut.
_BREAKDOWNS = ("breakdown_head.json", "breakdown_eaedf94.json", "breakdown_53ebd6e.json")
#: The taai2011 pass on the code before the kernels ran without reference counting, and 004b518's (same seed).
_PASSES_COMPARED = ("tournament_taai2011_a4104df.json", "tournament_taai2011_004b518.json")
#: The passes before the denser ladder of 6da2fd9 (004b518's taai2011, 23ef9f2's tcga2012) and today's, by file.
_PASSES_BEFORE_LADDER = {"taai2011": "tournament_taai2011_004b518.json", "tcga2012": "tournament_tcga2012_23ef9f2.json"}
#: make bench-pure's run before this day's and today's: the machine's clock (:func:`machine_clock`).
_CLOCK_RUNS = ("bench_pure_23ef9f2.json", "bench_pure.json")

#: Generated sections of the README and the docs: name -> (results files, function of their rows -> markdown).
SECTIONS: dict[str, tuple[list[Path], Callable[[list[dict]], str]]] = {
    "pure-summary": (_results("bench_pure.json"), lambda rows: summary_table(rows, by=by_collection)),
    "pure-table": (_results("bench_pure.json"), lambda rows: puzzle_table(rows, ["shift", "baseline"])),
    "hard": (_results("bench_hard.json", "bench_hard_joint.json", "bench_hard_1thread.json"),
             lambda rows: puzzle_table(rows, ["shift", "shift-joint", "shift-1-thread"], baseline="shift-1-thread")
             + "\n\n" + ratio_line(rows, "shift-joint", "shift") + "."),
    "chains": (_results("chains_profile.json", "chains_joint.json"), _against_default("shift-joint")),
    "axes": (_results("axes_alternate.json", "axes_rows.json"), _against_default("shift-rows")),
    "unit": (_results("unit_default.json", "unit_1000.json", "unit_hard_default.json", "unit_hard_1000.json"),
             _against_default("shift-unit-1000")),
    "population": (_results("population_default.json", "population.json"), _against_default("shift-population")),
    "random": (_results("bench_random.json"), lambda rows: summary_table(rows, by=by_collection)),
    "streams": (_results("streams_mixed.json", "streams_same.json"), _streams_summary),
    "streams-hard": (_results("streams_hard_mixed.json", "streams_hard_same.json"), _streams_summary),
    "tournament": (_results("bench_tournament.json"), _collections_summary),
    "hybrid": (_results("bench_hybrid.json"), _collections_summary),
    "kernels": (_results("kernels.json"), kernels_table),
    "gpu": (_results("bench_gpu_taai2011.json", "bench_gpu.json"), lambda rows: summary_table(rows, by=by_collection)),
    "gpu-hard": (_results("bench_gpu_hard.json", "bench_gpu_cpu_hard.json"),
                 lambda rows: puzzle_table(rows, ["shift-batched", "shift"])),
    "gpu-throughput": (_results("bench_gpu_throughput.json"), throughput_table),
    "parallel": (_results("parallel_1.json", "parallel_2.json"), parallel_table),
    "parallel-tail": (_results("parallel_403_1.json", "parallel_403_2.json", "parallel_307_1.json",
                               "parallel_307_2.json"), parallel_table),
    "batched-cpu": (_results("batched_cpu.json"), lambda rows: summary_table(rows, by=by_collection)),
    "core": (_results("core_sa.json"), core_table),
    "cores": (_results("cores_alone.json", "cores_together_0.json", "cores_together_1.json"), _cores_together),
    "memory": (_results("memory.json"), memory_table),
    "no-slowdown-engine": (_results("noslow_head_engine.json", "noslow_cc7ae6e_engine.json",
                                    "noslow_d913297_engine.json", "noslow_eaedf94_engine.json"), _engine_ratios),
    "ablation": (_results(*(f"ablation_{n}.json" for n in ("shift", "shift_block_moves", "shift_luby250",
                                                           "shift_fixed", "shift_anneal", "shift_no_line_moves",
                                                           "shift_presolve", "sa", "sa_match2", "sa_domain_wall"))),
                 matrix_table),
    "tournament-long": (_LONG_RUNS, lambda rows: _collections_summary(widest_per_file(*_long_runs()))),
    "time-breakdown": (_results(*_BREAKDOWNS), lambda rows: _by_commit(breakdown_table, *_BREAKDOWNS)),
    "no-slowdown-setup": (_results("noslow_head_session5.json", "noslow_53ebd6e_session5.json"), _engine_ratios),
    "no-slowdown-d7e996d": (_results("noslow_head_session18.json", "noslow_d7e996d_session18.json"), _engine_ratios),
    "no-slowdown-window": (_results("noslow_head_window.json", "noslow_60ddd6f_window.json"), _engine_ratios),
    "no-slowdown-cache": (_results("noslow_head_cache.json", "noslow_dee47f8_cache.json"), _engine_ratios),
    "no-slowdown-runcontrol": (_results("noslow_head_runcontrol.json", "noslow_abf5b8b_runcontrol.json"),
                               _engine_ratios),
    "campaign": (_results("campaign_53ebd6e.json", "campaign.json"),
                 lambda rows: _by_commit(counts_table, "campaign_53ebd6e.json", "campaign.json")),
    "tournament-pass": (_results(*_PASSES),
                        lambda rows: tournament_table([p for p in _results(*_PASSES, *_PRESOLVE_PASSES,
                                                                           *_CORES_PASSES) if p.is_file()])),
    "tournament-pass-compared": (_results(*_PASSES_COMPARED),
                                 lambda rows: "The taai2011 pass, " + passes_compared(
                                     *(json.loads(p.read_text()) for p in _results(*_PASSES_COMPARED))) + "."),
    "tournament-pass-ladder": (_results(*_PASSES_BEFORE_LADDER.values(), *_PASSES),
                               lambda rows: _passes_before_ladder()),
    "machine-clock": (_results(*_CLOCK_RUNS),
                      lambda rows: "`make bench-pure` at 23ef9f2 against today's: " + machine_clock(
                          *(load_rows([path]) for path in _results(*_CLOCK_RUNS))) + "."),
    "tournament-retry": (_results("bench_tournament_retry.json"),
                         lambda rows: summary_table(rows) + "\n\nSolved: " + retry_line(rows) + "."),
    "tail": (_results("tail_default.json", "tail_presolve.json"), _with_presolve),
    "survey": (_results("survey.json", "survey_presolve.json"), _with_presolve),
    "survey-published": (_results("survey.json", "survey_presolve.json"), survey_table),
    "stall": (_results("stall.json"), stall_table),
    "feedback-ladder": (_results("feedback_ladder.json", "feedback_ladder_1.json", "feedback_ladder_lion_2.json",
                                 "feedback_ladder_lion_3.json"), feedback_table),
    "rungs": (_results("rungs_head.json", "rungs_293ae61.json"), _interleaved),
    "rungs-survey": (_results("rungs_head_survey.json", "rungs_293ae61_survey.json"), _interleaved),
    "tail-target": (_results("tail_target_head.json", "tail_target_d7e996d.json"), _interleaved),
    "tail-target-75s": (_results("tail_target_head_75s.json", "tail_target_d7e996d_75s.json"), _interleaved),
    "long-ladder": (_results("long_ladder_head.json", "long_ladder_06de9bf.json"), _interleaved),
    "size-unit": (_results("size_unit_head.json", "size_unit_fbedce9.json"), _interleaved),
    "size-rungs": (_results("size_rungs_head.json", "size_rungs_fbedce9.json"), _interleaved),
    "traps": (_results("traps.json"), traps_table),
    "line-windows": (_results("line_windows.json"), windows_table),
    "window-exchange": (_results("window_exchange.json"), window_table),
    "window-ablation": (_results("window_head.json", "window_25ad9b1.json"), _interleaved),
    "tournament-sample": (_results("bench_tournament_sample.json"),
                          lambda rows: _collections_summary(rows) + "\n\nThrough each file: " + trend_line(rows) + "."),
    "overview": (_results("bench_pure.json", "bench_hybrid.json"), overview_table),
    "targets": (_results("bench_pure.json"), lambda rows: targets_table(
        rows, widest_per_file(_optional_rows("bench_tournament_sample.json"), _optional_rows("bench_tournament.json")),
        _optional_rows("bench_hard.json"), _optional_rows("bench_hybrid.json"),
        _optional_rows("ablation_shift.json") + _optional_rows("ablation_shift_fixed.json"),
        passes=load_passes([p for p in _results(*_PASSES) if p.is_file()]))),
}


#: Results files a section reads besides its own: the targets table gathers every headline run.
_ALSO_READ: dict[str, list[Path]] = {
    "overview": _results("survey.json", "survey_presolve.json", *_PASSES, *_PRESOLVE_PASSES),
    "tournament-pass": _results(*_PRESOLVE_PASSES, *_CORES_PASSES),
    "targets": _results("bench_tournament_sample.json", "bench_tournament.json", "bench_hard.json", "bench_hybrid.json",
                        "ablation_shift.json", "ablation_shift_fixed.json", *_PASSES),
}


def section_files(name: str) -> list[Path]:
    """The results files the section ``name`` of :data:`SECTIONS` is computed from (those it reads if present
    included, when they are)."""
    files, _ = SECTIONS[name]
    return list(dict.fromkeys([*files, *(f for f in _ALSO_READ.get(name, ()) if f.is_file())]))


_SECTION_TEXT: dict[tuple, str] = {}


def section_text(name: str) -> str:
    """The section ``name`` as a page holds it: its table from its results files, and under it the line of
    :func:`~benchmarks.tables.measured_by` saying at which commit they were measured. Kept for as long as the files
    it reads are unchanged (a section that bootstraps its reads takes a minute, and several pages hold some)."""
    files, make = SECTIONS[name]
    read = section_files(name)
    key = (name, id(make), tuple((str(f), *((f.stat().st_mtime_ns, f.stat().st_size) if f.is_file() else ()))
                                 for f in read))
    if key not in _SECTION_TEXT:
        _SECTION_TEXT[key] = make(load_rows(files)) + "\n\n" + measured_by(read)
    return _SECTION_TEXT[key]


def pages(root: str | os.PathLike = ROOT) -> list[Path]:
    """The pages that hold generated sections: the README and every Markdown page of the docs."""
    root = Path(root)
    docs = sorted(p for p in (root / "docs").rglob("*.md")
                  if not {"_build", "api", "jupyter_execute"} & set(p.relative_to(root).parts))
    return [root / "README.md", *docs]


#: Pages of results measured on earlier code and kept as history (each table's *Measured at* line says at which commit):
#: every other page, and the README, presents today's figures.
ARCHIVE_PAGES = ("archive.md", "archive-gpu.md", "design.md")


def quoted_files(root: str | os.PathLike = ROOT, *, archive: bool = False) -> dict[str, list[str]]:
    """The results files the generated sections of the current pages (``archive=True``: of the archive pages,
    :data:`ARCHIVE_PAGES`) are computed from, the frontier page's (:data:`benchmarks.frontier.GENERATED`) included:
    file name -> the pages that quote it.

    >>> "bench_pure.json" in quoted_files() and "README.md" in quoted_files()["bench_pure.json"]
    True
    """
    from benchmarks.frontier import GENERATED  # the frontier page's own sections

    quoted: dict[str, list[str]] = {}
    for page in pages(root):
        if (page.name in ARCHIVE_PAGES and page.parent.name == "results") != archive:
            continue
        text = page.read_text()
        files = [f.name for name in SECTIONS if has_section(text, name) for f in section_files(name)]
        files += [f for name, (names, _) in GENERATED.items() if has_section(text, name) for f in names]
        for f in files:
            quoted.setdefault(f, []).append(page.name)
    return {name: sorted(set(where)) for name, where in quoted.items()}


def has_section(text: str, name: str) -> bool:
    """Whether ``text`` holds the markers of the generated section ``name``."""
    return _MARKER.format(which="begin", name=name) in text


def update_page(page: str | os.PathLike, check: bool = False) -> list[str]:
    """Regenerate every section of :data:`SECTIONS` that ``page`` holds and whose results files exist.

    Args:
        page: A README or docs page (Markdown).
        check: Do not write; return the names of sections that differ.

    Returns:
        The names of the sections written (or, with ``check``, that differ).
    """
    path = Path(page)
    text = path.read_text()
    changed = []
    for name, (files, _) in SECTIONS.items():
        if not has_section(text, name) or not all(f.is_file() for f in files):
            continue
        new = replace_section(text, name, section_text(name))
        if new != text:
            changed.append(name)
            text = new
    if changed and not check:
        path.write_text(text)
    return changed


def main(argv: Sequence[str] | None = None) -> int:
    """Command line: ``python -m benchmarks.report [PAGE ...] [--check]`` (or ``--unsolved JSON ...
    [--above SECONDS]``)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.report",
                                     description="Rewrite the generated results sections of the README and the docs "
                                                 "from results/*.json.")
    parser.add_argument("readmes", nargs="*", default=[str(p) for p in pages()], metavar="PAGE",
                        help="default: README.md and every page under docs/")
    parser.add_argument("--check", action="store_true", help="exit 1 if a section differs, rewriting nothing")
    parser.add_argument("--unsolved", nargs="+", metavar="JSON",
                        help="print FILE#N of each puzzle no read solved in these results files (one run per "
                             "puzzle file, as the README's full-run table picks it), and nothing else")
    parser.add_argument("--above", type=float, metavar="SECONDS",
                        help="with --unsolved: also each puzzle whose TTS99 is above SECONDS")
    args = parser.parse_args(argv)
    if args.above is not None and not args.unsolved:
        parser.error("--above goes with --unsolved")
    if args.unsolved:
        missing = [f for f in args.unsolved if not Path(f).is_file()]
        if missing:
            print(f"error: {missing[0]}: no such file", file=sys.stderr)
            return 2
        print("\n".join(unsolved_specs(widest_per_file(*(load_rows([f]) for f in args.unsolved)), args.above)))
        return 0
    check = args.check
    missing = [page for page in args.readmes if not Path(page).is_file()]
    if missing:
        print(f"error: {missing[0]}: no such file", file=sys.stderr)
        return 2
    differ = 0
    for page in args.readmes:
        changed = update_page(page, check=check)
        if changed:
            print(f"{page}: {'differs in' if check else 'rewrote'} {', '.join(changed)}")
        differ += len(changed)
    if not differ:
        print(f"{len(args.readmes)} pages: {'every generated section agrees' if check else 'nothing to rewrite'}")
    return 1 if check and differ else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
