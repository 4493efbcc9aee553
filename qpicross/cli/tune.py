"""``qpicross tune PUZZLE... --grid ...``: sweep penalty weights, report the best point."""

from __future__ import annotations

import argparse
import csv
import io
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from qpicross.exceptions import UsageError
from ._arguments import add_force_and_json, add_puzzles_argument, connect_scheduler_arg, output_file
from ._output_files import PLOT_SUFFIXES, check_output_path, save_plot, write_output
from ._progress import Progress
from ._puzzle_files import size_error
from ._terminal import count, note_written, print_json, printable
from ._solver_options import add_solver_arguments, config_from_args, time_limit_note

if TYPE_CHECKING:
    from qpicross.experiments.tune import TuneResult


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "tune", help="sweep penalty weights: success probability and TTS99 per point",
        description="Sweep penalty weights over a grid (or random points), building the formulation once, "
                    "and report success probability (Wilson 95 % interval) and TTS99 per point.",
    )
    add_puzzles_argument(p, "puzzle file, FILE#N, FILE#a-b or FILE#a-b/STEP, or a directory; with several "
                            "puzzles every point is also summarised over all of them")
    p.add_argument("--grid", required=True, metavar="NAME=LOW:HIGH:N,...",
                   help="weights to sweep, e.g. one_hot=0.5:4:8,match=0.5:4:8 (NAME=VALUE fixes one; "
                        "unnamed weights stay 1)")
    p.add_argument("--random", type=int, default=None, metavar="N",
                   help="draw N random points in the grid's box instead of the full grid")
    p.add_argument("--log", action="store_true", help="space (or draw) weights on a log scale")
    p.add_argument("--seeds", type=int, default=1, metavar="K", help="independent runs per point (default 1)")
    add_solver_arguments(p, seed_default=0)
    p.add_argument("--workers", type=int, default=None, metavar="W",
                   help="local processes (default: every CPU; 1 runs in this process)")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="run on a Dask cluster, e.g. tcp://HOST:8786 (needs the 'tune' extra)")
    p.add_argument("--csv", type=output_file, default=None, metavar="FILE", help="write one row per point")
    p.add_argument("--plot", type=output_file, default=None, metavar="FILE", help="save a heat map (.png, .svg, .pdf)")
    add_force_and_json(p, force="overwrite existing --csv / --plot files")
    return p


def points_from_args(args: argparse.Namespace) -> list:
    """The sweep's points from ``--grid``, ``--random``, ``--log`` and ``--seed``."""
    from qpicross.experiments.tune import grid_points, parse_grid, random_points

    try:
        ranges = parse_grid(args.grid)
        if args.random is not None:
            return random_points(ranges, args.random, log=args.log, seed=args.seed)
        return grid_points(ranges, log=args.log)
    except ValueError as exc:
        raise UsageError(f"--{'random' if 'random point' in str(exc) else 'grid'}: {exc}") from None


#: Most ``--seeds``, and most runs (points x seeds x puzzles) one sweep may plan.
MAX_SEEDS = 10_000
MAX_RUNS = 1_000_000


def run(args: argparse.Namespace) -> int:
    from qpicross.experiments.bench import expand_specs
    from qpicross.samplers.workers import default_workers
    from qpicross.experiments.tune import TuneInterrupted, plot_tuning, tune
    from qpicross.pipeline.run import check_run_size

    config = config_from_args(args)
    for flag, value, top in (("--seeds", args.seeds, MAX_SEEDS), ("--workers", args.workers, 4096)):
        if value is not None and not 1 <= value <= top:
            raise UsageError(f"{flag} must be from 1 to {top:,}, got {value}")
    # Refuse unwritable outputs before a long run, not after.
    if args.csv:
        check_output_path(args.csv, args.force, (".csv",))
    if args.plot:
        check_output_path(args.plot, args.force, PLOT_SUFFIXES)
    try:
        sourced = expand_specs(args.puzzles, format=args.format)
    except (ValueError, OSError) as exc:
        raise UsageError(str(exc)) from None
    puzzles = [puzzle for _, puzzle in sourced]
    workers = 1 if args.scheduler is not None else (args.workers or default_workers())
    for source, puzzle in sourced:  # the size guard, naming the file, before anything is built
        try:
            check_run_size(puzzle, config, share=workers)
        except ValueError as exc:
            raise size_error(source, exc, force=False) from None
    label = puzzles[0].name if len(puzzles) == 1 else f"{len(puzzles)} puzzles"
    points = points_from_args(args)
    runs = len(points) * args.seeds * len(puzzles)
    if runs > MAX_RUNS:
        raise UsageError(f"{len(points):,} points x {args.seeds:,} seeds x {len(puzzles):,} puzzles = {runs:,} runs; "
                         f"at most {MAX_RUNS:,}: use fewer points, seeds or puzzles")
    client = connect_scheduler_arg(args.scheduler) if args.scheduler is not None else None
    note = time_limit_note(args, [config])  # once every check has passed: an error stays the only line
    if note:
        print(note, file=sys.stderr, flush=True)
    try:
        result = tune(
            puzzles if len(puzzles) > 1 else puzzles[0], points, config=config, seeds=args.seeds, seed=args.seed,
            workers=args.workers, scheduler=client,
            progress=Progress(f"tuning {label}"),
        )
    except TuneInterrupted as stop:
        partial = stop.result
        if not partial.summary:  # a CSV of its header alone would only look like a result
            print(f"qpicross: interrupted before any of the {len(partial.points)} points finished; nothing written",
                  file=sys.stderr)
            return 130
        stem = f"tune-{_slug(puzzles[0].name)}-partial" if len(puzzles) == 1 else "tune-partial"
        path = Path(args.csv) if args.csv else _fresh_path(stem, ".csv")
        write_output(path, csv_text(partial), force=True)  # --csv was checked before the run
        print(f"qpicross: interrupted: {len(partial.summary)} of {len(partial.points)} points finished; "
              f"kept in {path}", file=sys.stderr)
        return 130
    except OSError as exc:  # a scheduler lost on the way (bad options are qpicross errors: one line already)
        raise UsageError(str(exc)) from None
    finally:
        if client is not None:
            client.close()
    if args.csv:
        note_written(write_output(args.csv, csv_text(result), args.force))
    if args.plot:
        note_written(save_plot(plot_tuning(result), args.plot, args.force))
    if args.json:
        print_json(result.to_dict())
    else:
        print_report(result)
    best = result.best
    solved = best is not None and best.get("puzzles_solved", best.get("successes", 0)) > 0
    return 0 if solved else 1


def _slug(name: str) -> str:
    return "".join(ch if ch.isalnum() or ch in "-_" else "_" for ch in name) or "puzzle"


def _fresh_path(stem: str, suffix: str) -> Path:
    """``stem.suffix``, or ``stem-2.suffix``, ... : never overwrite an earlier partial result."""
    path, n = Path(stem + suffix), 1
    while path.exists():
        n += 1
        path = Path(f"{stem}-{n}{suffix}")
    return path


def csv_text(result: TuneResult) -> str:
    """One CSV row per finished point (infinite TTS99 written as ``inf``; text cells safe in a spreadsheet)."""
    from qpicross.experiments.result import csv_cell

    buffer = io.StringIO()
    columns = list(result.records[0]) if result.records else ["point"]
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows({key: csv_cell(value) for key, value in record.items()} for record in result.records)
    return buffer.getvalue()


def _fmt_tts(value: float) -> str:
    return "inf" if math.isinf(value) else f"{value:.3g} s"


def print_report(result: TuneResult) -> None:
    from qpicross.model.weights import TERMS

    if len(result.puzzles) > 1:
        print_summary(result)
        return
    varied = result.varied or ["one_hot"]
    header = " ".join(f"{n:>11}" for n in varied) + f" {'p':>6} {'95% interval':>15} {'TTS99':>10}"
    reads = result.records[0]["num_reads"] if result.records else 0
    print(f"{printable(result.puzzle)}: {count(result.num_variables, 'variable')}, "
          f"{count(len(result.records), 'point')} x {count(result.seeds, 'seed')}, {count(reads, 'read')} per point, "
          f"{result.elapsed_s:.1f} s")
    print(header)
    ranked = sorted(result.records, key=lambda r: (-r["success_probability"], r["tts99_s"], r["point"]))
    _print_top(ranked, lambda r: " ".join(f"{r[n]:>11.3g}" for n in varied)
               + f" {r['success_probability']:>6.3f} [{r['p_low']:.3f}, {r['p_high']:.3f}]"
               + f" {_fmt_tts(r['tts99_s']):>10}", "--csv writes them all")
    best = result.best
    weights = ", ".join(f"{n}={best[n]:.3g}" for n in TERMS)
    if best["successes"] == 0:
        print(f"no point solved the puzzle in any read (p < {best['p_high']:.3f} at every point, 95 %)")
    else:
        print(f"best: {weights}: p = {best['success_probability']:.3f} "
              f"[{best['p_low']:.3f}, {best['p_high']:.3f}] (Wilson 95 %), "
              f"TTS99 = {_fmt_tts(best['tts99_s'])} "
              f"[{_fmt_tts(best['tts99_low_s'])}, {_fmt_tts(best['tts99_high_s'])}]")


def _print_top(ranked: list[dict], row, rest: str, shown: int = 10) -> None:
    """The first ``shown`` of the ranked points, one ``row(point)`` line each, and how many more there are."""
    for r in ranked[:shown]:
        print(row(r))
    if len(ranked) > shown:
        print(f"... {len(ranked) - shown} more points ({rest})")


def print_summary(result: TuneResult) -> None:
    """The report of a sweep over several puzzles: each point over all of them."""
    from qpicross.model.weights import TERMS

    varied = result.varied or ["one_hot"]
    summary = result.summary
    reads = summary[0]["num_reads"] if summary else 0
    n = len(result.puzzles)
    print(f"{count(n, 'puzzle')} ({count(result.num_variables, 'variable')} in all), {count(len(summary), 'point')} x "
          f"{count(result.seeds, 'seed')}, {count(reads, 'read')} per puzzle and point, {result.elapsed_s:.1f} s")
    print(" ".join(f"{v:>11}" for v in varied)
          + f" {'solved':>7} {'mean p':>7} {'min p':>6} {'TTS99 (geo)':>12}")
    ranked = sorted(summary, key=lambda r: (-r["puzzles_solved"], -r["success_probability"], r["tts99_s"]))
    _print_top(ranked, lambda r: " ".join(f"{r[v]:>11.3g}" for v in varied)
               + f" {r['puzzles_solved']:>3}/{n:<3} {r['success_probability']:>7.3f}"
               + f" {r['min_success_probability']:>6.3f} {_fmt_tts(r['tts99_s']):>12}",
               "--csv writes every puzzle and point")
    best = result.best
    weights = ", ".join(f"{v}={best[v]:.3g}" for v in TERMS)
    print(f"best: {weights}: solves {best['puzzles_solved']} of {n} puzzles, mean p = "
          f"{best['success_probability']:.3f} (min {best['min_success_probability']:.3f}), "
          f"geometric-mean TTS99 = {_fmt_tts(best['tts99_s'])}")
    for r in (r for r in result.records if r["point"] == best["point"]):
        print(f"  {printable(r['puzzle'])}: p = {r['success_probability']:.3f} [{r['p_low']:.3f}, {r['p_high']:.3f}], "
              f"TTS99 = {_fmt_tts(r['tts99_s'])}")
