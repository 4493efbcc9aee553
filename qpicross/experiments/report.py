"""README tables generated from benchmark results files: no number in the README is typed by hand.

Each generated section of the README sits between two markers::

    <!-- begin generated: NAME -->
    ...
    <!-- end generated: NAME -->

and :data:`SECTIONS` says which function writes it from which results files
(``results/*.json``, written by ``make bench`` and friends). ``make readme``
(``python -m qpicross.experiments.report README.md``) rewrites every section
whose files exist; the test suite checks the committed README against the
committed results, so a hand-edited number fails CI.

Examples:
    >>> rows = [{"puzzle": "5x5", "rows": 5, "cols": 5, "config": "shift", "num_reads": 10, "num_solved": 10,
    ...          "p": 1.0, "p_low": 0.72, "p_high": 1.0, "tts99_s": 0.002, "tts99_low_s": 0.002,
    ...          "tts99_high_s": 0.003, "tts_method": "time-to-target", "best_energy": 0.0}]
    >>> print(summary_table(rows))
    | configuration | puzzles | solved | median TTS99 | worst TTS99 (puzzle) |
    |---|---|---|---|---|
    | shift | 1 | 1 | 2 ms | 2 ms (5x5) |
"""

from __future__ import annotations

import json
import math
import os
import re
import sys
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path

__all__ = ["fmt_time", "load_rows", "summary_table", "puzzle_table", "replace_section", "update_readme", "SECTIONS"]

ROOT = Path(__file__).resolve().parents[2]


def fmt_time(t: float | str | None) -> str:
    """Seconds in a readable unit; ``∞`` for never.

    >>> fmt_time(0.000512), fmt_time(0.0341), fmt_time(12.345), fmt_time("inf")
    ('0.512 ms', '34.1 ms', '12.3 s', '∞')
    """
    if t is None or t == "" or t == "inf" or (isinstance(t, float) and not math.isfinite(t)):
        return "∞"
    t = float(t)
    if t < 1:
        return f"{t * 1e3:.3g} ms"
    return f"{t:.3g} s"


def _number(value) -> float:
    if value in (None, "", "inf"):
        return math.inf
    if value == "nan":
        return math.nan
    return float(value)


def load_rows(paths: Iterable[str | os.PathLike]) -> list[dict]:
    """Every result row of some ``qpicross bench --json`` files, in file order."""
    rows = []
    for path in paths:
        rows.extend(json.loads(Path(path).read_text())["results"])
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


def summary_table(rows: Sequence[dict], by: Callable[[dict], str] | None = None) -> str:
    """One line per configuration (or per ``by(row)``): puzzles, solved, median and worst TTS99."""
    by = by or (lambda r: r["config"])
    lines = ["| configuration | puzzles | solved | median TTS99 | worst TTS99 (puzzle) |", "|---|---|---|---|---|"]
    for key in dict.fromkeys(by(r) for r in rows):
        mine = [r for r in rows if by(r) == key]
        tts = [_number(r["tts99_s"]) for r in mine]
        worst = max(range(len(mine)), key=lambda i: tts[i])
        solved = sum(int(r["num_solved"]) > 0 for r in mine)
        lines.append(f"| {key} | {len(mine)} | {solved} | {fmt_time(_median(tts))} | "
                     f"{fmt_time(tts[worst])} ({mine[worst]['puzzle']}) |")
    return "\n".join(lines)


def _p_cell(row: dict) -> str:
    return f"{float(row['p']):.2f} [{float(row['p_low']):.2f}, {float(row['p_high']):.2f}] ({row['num_reads']})"


def _tts_cell(row: dict) -> str:
    tts = _number(row["tts99_s"])
    if math.isinf(tts):
        return f"∞ (best E {float(row['best_energy']):g})"
    text = f"{fmt_time(tts)} [{fmt_time(row['tts99_low_s'])}, {fmt_time(row['tts99_high_s'])}]"
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
                    cells.append("baseline never solves")
                elif math.isinf(mine_tts):
                    cells.append("never solves")
                else:
                    cells.append(f"{base / mine_tts:.3g}×")
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


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


#: Generated README sections: name -> (results files, function of their rows -> markdown).
SECTIONS: dict[str, tuple[list[Path], Callable[[list[dict]], str]]] = {}


def update_readme(readme: str | os.PathLike, check: bool = False) -> list[str]:
    """Regenerate every section of :data:`SECTIONS` whose results files exist.

    Args:
        readme: The README file.
        check: Do not write; return the names of sections that differ.

    Returns:
        The names of the sections written (or, with ``check``, that differ).
    """
    path = Path(readme)
    text = path.read_text()
    changed = []
    for name, (files, make) in SECTIONS.items():
        if not all(f.is_file() for f in files):
            continue
        new = replace_section(text, name, make(load_rows(files)))
        if new != text:
            changed.append(name)
            text = new
    if changed and not check:
        path.write_text(text)
    return changed


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    check = "--check" in args
    paths = [a for a in args if a != "--check"] or [str(ROOT / "README.md")]
    for readme in paths:
        changed = update_readme(readme, check=check)
        print(f"{readme}: {'differs in' if check else 'rewrote'} {', '.join(changed) or 'nothing'}")
        if check and changed:
            return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
