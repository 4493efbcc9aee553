"""``qpicross bench PUZZLES...``: success probability and TTS99 per puzzle and configuration."""

from __future__ import annotations

import argparse
import itertools
import math
import sys
from pathlib import Path


from qpicross.exceptions import UsageError
from ._arguments import add_puzzles_argument, connect_scheduler_arg, output_file
from ._output_files import PLOT_SUFFIXES, check_output_path, save_plot, write_output
from ._progress import Progress
from ._puzzle_files import size_error
from ._terminal import note_written, printable, racing_note
from ._solver_options import add_solver_arguments, configs_from_args, time_limit_note


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "bench", help="measure success probability and TTS99 on puzzles",
        description="Run solver configurations on puzzles -- each run is exactly what `qpicross anneal` does "
                    "with the same options -- and report, per puzzle: variables, couplers, build time, time "
                    "per read, success probability (ground state and a valid board; Wilson 95 percent "
                    "interval), TTS99 (fixed-length reads: t_read*ln(0.01)/ln(1-p); early-stopping reads: "
                    "optimal cutoff over the per-read time to target; inf when no read succeeds), best and "
                    "residual energies.",
    )
    add_puzzles_argument(p, "puzzle files, directories, or multi-puzzle files with a range: FILE#1-100, or a "
                            "stepped one: FILE#1-1000/10 (every 10th)")
    add_solver_arguments(p, several=True, seed_default=0)
    p.add_argument("--baseline", action="store_true",
                   help="also run the published formulation with SA defaults and report TTS ratios to it")
    p.add_argument("--workers", type=int, default=1,
                   help="parallel processes (default 1); the structured annealer's reads share the CPUs among them "
                        "(its threads option), unless --option threads=N says otherwise")
    p.add_argument("--scheduler", default=None, metavar="ADDRESS",
                   help="run on a Dask cluster, e.g. tcp://HOST:8786 (needs the 'tune' extra)")
    p.add_argument("--csv", type=output_file, default=None, metavar="FILE", help="write one row per puzzle and configuration")
    p.add_argument("--json", nargs="?", type=output_file, const="-", default=None, metavar="FILE",
                   help="write JSON (to stdout without FILE)")
    p.add_argument("--plot", type=output_file, default=None, metavar="FILE", help="save a TTS99 bar chart")
    p.add_argument("--force", action="store_true", help="overwrite existing output files")
    p.add_argument("--tournament", action="store_true",
                   help="a tournament run (TAAI/TCGA rules): the puzzles once, in order, each until its first "
                        "solving read; --time-limit is the whole set's (default 7200 s), one core unless "
                        "--option threads=N; --json FILE writes every puzzle's time and the running total")
    return p


def _fmt_time(t: float) -> str:
    if not math.isfinite(t):
        return "inf (never solved)"
    return f"{t:.3g} s"


def run(args: argparse.Namespace) -> int:
    from qpicross.experiments.bench import BASELINE

    configs = configs_from_args(args)
    if args.tournament:
        return _tournament(args, configs)
    if args.baseline and all(c.label != BASELINE.label for c in configs):  # with the run's reads and budget
        configs = [BASELINE.replace(num_reads=configs[0].num_reads, time_limit=configs[0].time_limit)] + configs
    if args.workers < 1:
        raise UsageError(f"--workers must be at least 1, got {args.workers}")
    client = connect_scheduler_arg(args.scheduler) if args.scheduler is not None else None
    try:
        return _run(args, configs, client)
    finally:
        if client is not None:
            client.close()


def _run(args: argparse.Namespace, configs: list, client) -> int:
    from qpicross.experiments.bench import BASELINE, expand_specs, machine_info, run_bench
    from qpicross.experiments.result import load_average
    from qpicross.model.size import ModelTooLargeError

    try:
        puzzles = expand_specs(args.puzzles, format=args.format)
    except (ValueError, OSError) as exc:
        raise UsageError(str(exc)) from None
    if not puzzles:
        raise UsageError("no puzzles found in " + " ".join(args.puzzles))
    # Refuse an existing output file, a folder, a missing folder or one file named twice now, not after a run.
    outputs = [(flag, path, suffixes) for flag, path, suffixes in (
        ("--csv", args.csv, None), ("--json", None if args.json == "-" else args.json, None),
        ("--plot", args.plot, PLOT_SUFFIXES)) if path]
    for flag, path, suffixes in outputs:
        check_output_path(path, args.force, suffixes)
    for (flag, path, _), (other, other_path, _) in itertools.combinations(outputs, 2):
        if Path(path).resolve() == Path(other_path).resolve():
            raise UsageError(f"{flag} and {other} name the same file {path}")
    if args.plot:  # drawing libraries loaded now, not when Ctrl-C asks for the finished results' figure
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot  # noqa: F401
    meta = machine_info()
    finished: list = []
    planned = [0]
    notes = [note for note in [time_limit_note(args, configs)] if note]  # said with the first result: an error
    # before any (the size guard of every job) stays the only line

    def progress(done, total, result):
        planned[0] = total
        while notes:
            print(notes.pop(), file=sys.stderr, flush=True)
        if not isinstance(result, str):
            finished.append(result)
        status = f"p={result.p:.3f} TTS99={_fmt_time(result.tts99_s)}" if not result.error else result.error
        print(f"[{done}/{total}] {printable(result.puzzle)} {printable(result.config)}: {printable(status)}", file=sys.stderr, flush=True)

    try:
        results = run_bench(puzzles, configs, seed=args.seed, workers=args.workers, scheduler=client,
                            baseline=args.baseline, progress=progress)
    except ModelTooLargeError as exc:  # every job's size guard, before the first job runs
        raise size_error(None, exc, force=False) from None
    except KeyboardInterrupt:
        meta["interrupted"] = True
        written = _write_outputs(finished, args, meta, force=True)  # every output was checked before the run
        where = (f"written to {', '.join(printable(p) for p in written)}" if written
                 else "shown above" if finished else "nothing written")
        done = f"{len(finished)} of {planned[0]} results finished" if planned[0] else "no result finished"
        print(f"qpicross: interrupted; {done}, {where}", file=sys.stderr)
        return 130
    meta["load_average_after"] = load_average()
    _write_outputs(results, args, meta, force=args.force)
    for note in dict.fromkeys(racing_note(c, args.seed, args.workers or 1) for c in configs):
        if note:
            print(note, file=sys.stderr)
    if results and all(r.error for r in results):  # nothing ran: a bad option or setting, as anneal says with 2
        raise UsageError(f"every run failed; the first: {results[0].error}")
    # exit 1 when some configuration (the baseline aside) never solved some puzzle, or a job failed
    unsolved = any(not r.solved for r in results if r.config != BASELINE.label)
    return 1 if unsolved or any(r.error for r in results) else 0


def _tournament(args: argparse.Namespace, configs: list) -> int:
    """``bench --tournament``: :func:`~qpicross.experiments.tournament.run_tournament`, a line a puzzle on
    stderr (or a bar on a terminal) with the running total, the summary on stdout; exit 0 when every
    puzzle was solved within the limit."""
    from qpicross.experiments.bench import expand_specs
    from qpicross.experiments.tournament import TOURNAMENT_TIME_LIMIT_S, run_tournament

    refused = [flag for flag, given in (("--baseline", args.baseline), ("--workers", args.workers != 1),
                                        ("--scheduler", args.scheduler), ("--csv", args.csv), ("--plot", args.plot))
               if given]
    if refused or len(configs) != 1:
        raise UsageError(f"--tournament runs one configuration on one machine; drop "
                         f"{refused[0] if refused else 'all but one --sampler/--sweeps'}")
    if args.json == "-":
        raise UsageError("--tournament writes its results to a file: --json FILE")
    if args.json:
        check_output_path(args.json, args.force)
    try:
        puzzles = expand_specs(args.puzzles, format=args.format)
    except (ValueError, OSError) as exc:
        raise UsageError(str(exc)) from None
    config = configs[0]
    cores = int(config.sampler_options.get("threads", 1))
    limit = args.time_limit or TOURNAMENT_TIME_LIMIT_S  # the whole set's (each puzzle gets what is left of it)
    bar = Progress("tournament", unit="puzzle")

    done = [0]

    def progress(entry, total):
        done[0] += 1
        if bar.enabled:
            bar(done[0], total)
            if bar.bar is not None:
                bar.bar.set_postfix_str(f"total {entry.total_s:.1f} s")
        else:
            state = "solved" if entry.solved else "NOT solved"
            print(f"[{done[0]}/{total}] {printable(entry.puzzle)} {state} in {entry.seconds:.3g} s, "
                  f"total {entry.total_s:.1f} s", file=sys.stderr, flush=True)

    with bar:
        result = run_tournament(puzzles, config, time_limit=limit, cores=cores, progress=progress)
    result.meta["command"] = "qpicross bench " + " ".join(sys.argv[2:]) if len(sys.argv) > 1 else ""
    s = result.summary()
    print(f"tournament: {s['solved']} of {s['puzzles']} puzzles solved ({s['run']} run) in {s['total_s']:.1f} s "
          f"on {cores} core{'s' if cores > 1 else ''} (limit {limit:g} s); per puzzle median {s['median_s']:.3g} s, "
          f"99th percentile {s['p99_s']:.3g} s, slowest {s['slowest_s']:.3g} s ({printable(str(s['slowest_puzzle']))}); "
          f"compiling before the clock {result.setup_s:.3g} s")
    if "cells_settled" in s:  # --presolve: what line logic did before the annealer
        share = s["cells_settled"] / s["cells"] if s["cells"] else 0.0
        print(f"presolve: line logic settled {s['cells_settled']} of {s['cells']} cells ({100 * share:.1f}%) and "
              f"solved {s['solved_by_logic']} of {s['run']} puzzles alone; the annealer found the other "
              f"{s['cells'] - s['cells_settled']} cells")
    if s["unsolved"]:
        print("not solved: " + ", ".join(printable(u) for u in s["unsolved"]))
    if args.json:
        note_written(write_output(args.json, lambda tmp: result.write_json(tmp), True))
    if result.interrupted:
        print(f"qpicross: interrupted; {s['run']} of {s['puzzles']} puzzles finished", file=sys.stderr)
        return 130
    return 0 if s["within_limit"] else 1


def _write_outputs(results: list, args: argparse.Namespace, meta: dict, *, force: bool) -> list[Path]:
    """Every output the command line asked for (table or JSON on stdout, --csv, --json FILE, --plot).

    Each file written is named on stderr (``wrote FILE``). The plot is skipped when no result
    finished. Returns the files written.
    """
    from qpicross.experiments.bench import plot_results, write_csv, write_json

    meta["command"] = "qpicross bench " + " ".join(sys.argv[2:]) if len(sys.argv) > 1 else ""
    written = []
    if args.csv:
        written.append(write_output(args.csv, lambda tmp: write_csv(results, tmp), force))
    if args.json == "-":
        print(write_json(results, meta=meta))
    else:
        if args.json:
            written.append(write_output(args.json, write_json(results, meta=meta) + "\n", force))
        if results:
            print_table(results, meta)
    if args.plot and results:
        written.append(save_plot(plot_results(results), args.plot, force))
    for path in written:
        note_written(path)
    return written


def print_table(results, meta: dict) -> None:
    """A markdown table: one row per puzzle and configuration."""
    from qpicross.experiments.bench import BASELINE, summarize

    print(f"machine: {meta['cpus']} CPUs, load average {meta['load_average']} -> "
          f"{meta.get('load_average_after', '?')}")
    header = ["puzzle", "size", "config", "vars", "couplers", "reads", "p [95% CI]", "t_read", "TTS99",
              "vs baseline", "best E"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for r in results:
        if r.error:
            print(f"| {printable(r.puzzle)} | {r.rows}x{r.cols} | {printable(r.config)} | error: {printable(r.error)} |" + " |" * 7)
            continue
        ratio = "-" if r.speedup_vs_baseline is None else f"{r.speedup_vs_baseline:.3g}x"
        if r.baseline_tts99_s is not None and not math.isfinite(r.baseline_tts99_s) and r.config != BASELINE.label:
            ratio = "baseline never solves"
        cells = [
            printable(r.puzzle), f"{r.rows}x{r.cols}", printable(r.config), str(r.num_variables), str(r.num_couplers),
            str(r.num_reads) + ("*" if r.stopped_by_budget else ""),
            f"{r.p:.3f} [{r.p_low:.3f}, {r.p_high:.3f}]", f"{r.t_read_s * 1e3:.3g} ms",
            _fmt_time(r.tts99_s), ratio, f"{r.best_energy:g}",
        ]
        print("| " + " | ".join(cells) + " |")
    if any(r.stopped_by_budget for r in results):
        print("* fewer reads than asked: the time budget ran out")
    print()
    print("| config | puzzles | solved | median TTS99 | worst TTS99 (puzzle) | least speedup vs baseline |")
    print("|---|---|---|---|---|---|")
    rows = dict(summarize(results))
    if len({r.source for r in results}) > 1:
        rows.update(summarize(results, by_source=True))
    for name, s in rows.items():
        least = "-" if s["min_speedup_vs_baseline"] is None else (
            f"{s['min_speedup_vs_baseline']:.3g}x over {s['puzzles_with_baseline_solved']} puzzles")
        print(f"| {printable(name)} | {s['puzzles']} | {s['solved']} | {_fmt_time(s['median_tts99_s'])} | "
              f"{_fmt_time(s['worst_tts99_s'])} ({printable(s['worst_puzzle'])}) | {least} |")
    for name in dict.fromkeys(r.config for r in results if r.batch_wall_s is not None):  # batched samplers
        batch = [r for r in results if r.config == name]
        print(f"\n{name}: all {len(batch)} puzzles in one call, {batch[0].batch_wall_s:.3g} s wall "
              f"(TTS99 of reads run side by side: qpicross.experiments.batch)")
