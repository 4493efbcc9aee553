"""``qpicross anneal PUZZLE``: build the QUBO, sample it, print the best board."""

from __future__ import annotations

import argparse
import json
import sys

from qpicross.exceptions import UsageError
from ._arguments import add_puzzle_argument, check_dask_installed, output_file
from ._output_files import PLOT_SUFFIXES, check_output_path, save_plot, write_output
from ._progress import Progress
from ._puzzle_files import load_puzzle_arg, size_error
from ._terminal import board_text, compile_note, count, note_written, print_json, printable, racing_note
from ._solver_options import add_solver_arguments, config_from_args


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("anneal", help="solve a puzzle by annealing its QUBO",
                       description="Build the puzzle's QUBO, sample it and print the best board.")
    add_puzzle_argument(p)
    add_solver_arguments(p, reads_default=None)
    p.add_argument("--plot", type=output_file, default=None, metavar="FILE", help="save a figure (.png, .svg, .pdf)")
    p.add_argument("--json", nargs="?", type=output_file, const="-", default=None, metavar="FILE",
                   help="one JSON object: on stdout, or written to FILE (as bench --json FILE)")
    p.add_argument("--logic-rounds", type=int, default=0, metavar="N",
                   help="with presolve: up to N anneals; between them, probe the cells the low-energy reads "
                        "agree on with line logic and keep what it proves (qpicross.pipeline.hybrid)")
    p.add_argument("--force", action="store_true",
                   help="build even above the size guard (--max-memory), up to the machine's memory; overwrite "
                        "the --plot and --json files")
    p.add_argument("--scheduler", default=None, metavar="local:N|ADDRESS",
                   help="run each read's restart streams on a Dask cluster, one per worker: local:N (N local "
                        "processes) or a scheduler address (tcp://host:8786); the shift sampler only, the 'tune' "
                        "extra (the same as --option scheduler=...)")
    return p


def run(args: argparse.Namespace) -> int:
    from qpicross.model.size import ModelTooLargeError
    from qpicross.pipeline.run import run as run_pipeline

    config = config_from_args(args)
    if args.scheduler is not None:
        config = with_scheduler(config, args.scheduler)
    if args.logic_rounds < 0:
        raise UsageError(f"--logic-rounds must be at least 0, got {args.logic_rounds}")
    if args.logic_rounds and not config.presolve:  # it runs line logic first: never without the user saying so
        raise UsageError("--logic-rounds runs line logic between anneals, after presolve: add --presolve")
    if args.plot:
        check_output_path(args.plot, args.force, PLOT_SUFFIXES)  # refuse before a long run, not after
    json_file = args.json if args.json not in (None, "-") else None
    if json_file:
        check_output_path(json_file, args.force)
    puzzle = load_puzzle_arg(args)
    if args.scheduler is not None:
        _connect(args.scheduler)
    quiet = args.json == "-"  # stdout is the JSON object
    # Looking for a solution (no --reads), check first that one exists: line logic proves most puzzles without one
    # in milliseconds, where annealing would only run out of time. With --reads the reads are the measurement.
    finding = config.early_stop == "puzzle"
    contradiction = _no_solution(puzzle) if finding and not config.presolve else None
    if contradiction is not None:
        answer = {"puzzle": puzzle.name, "solved": False, "no_solution": True, "reason": contradiction}
        if args.json == "-":
            print_json(answer)
        else:
            if json_file:
                note_written(write_output(json_file, json.dumps(answer, indent=2) + "\n", args.force))
            print(f"{printable(puzzle)}: no board satisfies these clues (line logic: {printable(contradiction)}); "
                  f"nothing to anneal")
        return 1

    # The model's size, printed once sampling starts: a refusal of the sampler's (the exact solver's size) comes
    # first, alone, as every error does. (A missing cloud token and an unreachable scheduler were refused above.)
    announcement: list[str] = []

    bound = f"; at most {config.time_limit:g} s (--time-limit)" if args.time_limit is None and config.time_limit else ""

    def announce(formulation, bqm) -> None:
        if not quiet:
            announcement.append(f"{printable(puzzle)}: {count(bqm.num_variables, 'variable')}, "
                                f"{count(bqm.num_interactions, 'interaction')}; sampler {config.sampler_name}"
                                + (", presolve first" if config.presolve else "") + bound)

    def print_announcement() -> None:
        while announcement:
            print(announcement.pop(0), flush=True)

    if compile_note(config.sampler_name):  # compiled before the clock: the run's sample time is sampling
        from qpicross.experiments.bench import warm_up

        warm_up(config)
    label = f"annealing {printable(puzzle.name)}" + (" until solved" if finding else "")
    with Progress(label, open_ended=finding) as bar:
        def progress(*report) -> None:
            print_announcement()
            bar(*report)

        try:
            if args.logic_rounds:
                from qpicross.pipeline.hybrid import anneal_with_logic

                result = anneal_with_logic(puzzle, rounds=args.logic_rounds, config=config, force=args.force,
                                           progress=progress)
            else:
                result = run_pipeline(puzzle, config, progress=progress, force=args.force, on_built=announce)
        except ModelTooLargeError as exc:  # the size guard, before anything was built
            raise size_error(args.puzzle, exc) from None
    print_announcement()  # (a run with nothing to sample reports no progress)
    if args.plot:
        from qpicross.plot import plot_puzzle

        note_written(save_plot(plot_puzzle(puzzle, result.board, broken=result.best.broken_lines), args.plot,
                               args.force))
    if args.json == "-":
        print_json(result.to_dict())
    else:
        print_report(result)
        if json_file:
            note_written(write_output(json_file, json.dumps(result.to_dict(), indent=2) + "\n", args.force))
    note = racing_note(config, config.seed)
    if note:
        print(note, file=sys.stderr)
    if result.interrupted:
        return 130
    return 0 if result.solved else 1


def _connect(scheduler: str) -> None:
    """Reach the ``--scheduler`` (or start its local cluster) before any work: a scheduler that does not answer
    is one line and nothing else. The run reuses the client (:func:`~qpicross.samplers.streams.client_for`).
    """
    from qpicross.samplers.streams import client_for

    client_for(scheduler)


def _no_solution(puzzle) -> str | None:
    """Why no board satisfies the clues, when line logic proves it (bounded: no search), else None.

    Puzzles above line logic's size guard are not checked (annealing them is guarded on its own).
    """
    from qpicross.classical.logic import propagate
    from qpicross.model.size import check_solver_size

    try:
        check_solver_size(puzzle, "logic")
    except ValueError:
        return None
    result = propagate(puzzle)
    return result.message or "a line has no placement" if result.contradiction else None


def print_report(result) -> None:
    from qpicross.samplers.cloud import describe_sampler_info

    d = result.to_dict()
    t = d["timing"]
    if result.presolve is not None:
        pre = result.presolve
        done = "line logic solved the puzzle, nothing left to anneal" if pre["solved_by_logic"] else (
            "line logic found a contradiction: no solution" if pre["contradiction"] else "annealing the rest")
        print(f"presolve: line logic settled {pre['cells_settled']} cells ({100 * pre['fraction_settled']:.1f}%); "
              f"variables {pre['variables_before']} -> {pre['variables_after']}; {done}")
        for number, step in enumerate(pre.get("rounds", [])):
            print(f"  round {number}: {count(step['variables'], 'variable')}, "
                  f"{count(step['unknown_cells'], 'unknown cell')}, success {step['success_probability']:.3f} over "
                  f"{count(step['num_reads'], 'read')}, energy {step['energy']:g}")
        if "rounds" in pre:
            print(f"  probing: {pre['probes']} probes proved {pre['cells_proven']} cells; "
                  f"{pre['cells_settled_final']} cells settled in the end")
    print(board_text(result.puzzle, result.board))
    print()
    print(verdict(result))
    for term in d["violations"]:
        broken_here = [v for v in result.best.violations if v.term == term]
        if broken_here:
            places = "; ".join(f"{v.place}: {v.detail} (+{v.amount})" for v in broken_here[:4])
            more = f"; ... {len(broken_here) - 4} more" if len(broken_here) > 4 else ""
            print(f"  {term} penalty {d['violations'][term]}: {places}{more}")
    if d["sampler"] != "none":  # (else presolve's line said line logic solved it: there is no read to count)
        print(_reads_line(result, d))
    if "sampler_info" in d:  # cloud runs: qubits, chain breaks, QPU time
        print(describe_sampler_info(d["sampler_info"]))
    print(f"time: {time_line(t)}")
    if result.interrupted:
        print("interrupted: the best read so far is shown above")
    elif not result.solved:
        print(next_step(result))


def verdict(result) -> str:
    """The report's verdict line: solved, the lines the board breaks, or a valid board that is not a ground state
    (the row board satisfies the clues, but some penalty term is not 0: the column variables paint another
    board, or a block starts twice)."""
    energy = f"energy {result.energy:g}"
    if result.solved:
        return f"SOLVED; {energy}"
    broken = result.best.broken_lines
    if broken:
        names = ", ".join(b.name for b in broken[:10]) + (", ..." if len(broken) > 10 else "")
        return f"NOT SOLVED ({count(len(broken), 'broken line')}: {names}); {energy}"
    terms = ", ".join(f"{name} {value:g}" for name, value in result.best.term_energies.items() if value)
    return (f"NOT SOLVED: the board satisfies the clues, but the read is not a ground state of the QUBO ({energy}; "
            f"penalty terms not 0: {terms})")


def _reads_line(result, d: dict) -> str:
    """What the reads came to: the read that found a solution (``early_stop="puzzle"``), else the success
    probability."""
    if result.config.early_stop == "puzzle":
        found = "found a solution on" if result.solved else "no solution in"
        limit = f" (or {result.config.time_limit:g} s)" if result.config.time_limit is not None else ""
        return f"{found} read {d['num_reads']} of at most {result.config.num_reads}{limit} ({d['sampler']})"
    more = d["num_valid_board_only"]
    states = "a ground state" if more == 1 else "ground states"
    return (f"success probability {d['success_probability']:.3f} over {count(d['num_reads'], 'read')} "
            f"({d['sampler']})" + (f"; {count(more, 'more read')} painted a valid board without being {states}"
                                   if more else ""))


def next_step(result) -> str:
    """One line on what to try after a run that found no solution."""
    config = result.config
    if result.presolve is not None and result.presolve["contradiction"]:
        return "no board satisfies these clues (line logic found a contradiction); `qpicross solve` checks it exactly"
    contradiction = _no_solution(result.puzzle)
    if contradiction is not None:
        return f"no board satisfies these clues (line logic: {printable(contradiction)}): no run can solve it"
    tips = []
    if config.sampler_name != "shift":
        tips.append("--sampler shift (the structured annealer)")
    if config.time_limit is not None and result.stopped_by_budget:
        tips.append(f"a larger --time-limit than {config.time_limit:g} s")
    elif config.num_sweeps is not None:
        tips.append(f"more --sweeps than {config.num_sweeps}")
    else:
        tips.append("more reads or --time-limit S")
    if not config.presolve:
        tips.append("--presolve (line logic first)")
    return "try: " + ", or ".join(tips)


def with_scheduler(config, scheduler: str):
    """``config`` whose reads run their restart streams on ``scheduler`` (``--scheduler``).

    Raises:
        UsageError: For a sampler other than ``shift``, a malformed scheduler, or without dask.distributed.
    """
    from qpicross.samplers.streams import parse_scheduler

    if config.sampler_name != "shift":
        raise UsageError(f"--scheduler runs the restart streams of the shift sampler, not {config.sampler_name!r}")
    check_dask_installed()
    try:
        parse_scheduler(scheduler)
    except ValueError as exc:
        raise UsageError(f"--scheduler: {exc}") from None
    return config.replace(options={**config.sampler_options, "scheduler": scheduler})


def time_line(timing: dict) -> str:
    """Where a run's time went, in the order it was spent: line logic apart from sampling (a run's ``sample_s``
    holds its presolve), and no sampling at all where line logic left nothing to anneal.

    >>> time_line({"build_s": 0.001, "sample_s": 0.5, "decode_s": 0.002, "presolve_s": 0.5})
    'build 0.001 s, presolve 0.500 s, sample 0.000 s, decode 0.002 s'
    >>> time_line({"build_s": 0.001, "sample_s": 0.2, "decode_s": 0.002})
    'build 0.001 s, sample 0.200 s, decode 0.002 s'
    """
    presolve = timing.get("presolve_s")
    sample = timing["sample_s"] - (presolve or 0.0)
    line_logic = f"presolve {presolve:.3f} s, " if presolve is not None else ""
    return (f"build {timing['build_s']:.3f} s, {line_logic}sample {max(sample, 0.0):.3f} s, "
            f"decode {timing['decode_s']:.3f} s")
