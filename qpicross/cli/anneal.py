"""``qpicross anneal PUZZLE``: build the QUBO, sample it, print the best board."""

from __future__ import annotations

import argparse

from ..anneal import anneal
from ..cloud import cloud_options, describe_sampler_info
from ..formulation import PenaltyWeights
from ..samplers import SAMPLERS
from ._common import (
    PLOT_SUFFIXES,
    Progress,
    UsageError,
    parse_beta_range,
    add_puzzle_argument,
    board_text,
    check_output_path,
    load_puzzle_arg,
    print_json,
    save_plot,
)


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser("anneal", help="solve a puzzle by annealing its QUBO",
                       description="Build the puzzle's QUBO, sample it and print the best board.")
    add_puzzle_argument(p)
    p.add_argument("--reads", type=int, default=100, help="number of reads (default 100)")
    p.add_argument("--sweeps", type=int, default=None, help="sweeps per read (SA; default: the sampler's)")
    p.add_argument("--sampler", default="sa", help=f"one of: {', '.join(SAMPLERS)} (default sa)")
    p.add_argument("--seed", type=int, default=None, help="random seed, for a reproducible run")
    p.add_argument("--beta-range", default=None, metavar="HOT,COLD", help="SA inverse temperatures")
    p.add_argument("--weights", default="", metavar="NAME=W,...",
                   help="penalty weights, e.g. one_hot=1,at_most_one=1,order=1,match=1")
    p.add_argument("--bounds", choices=["stacking", "published"], default="stacking",
                   help="prune starts outside the stacking bounds (default) or keep the published set")
    p.add_argument("--plot", default=None, metavar="FILE", help="save a figure (.png, .svg, .pdf)")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--presolve", action="store_true",
                   help="run line logic first and anneal only the cells it leaves open")
    p.add_argument("--logic-rounds", type=int, default=0, metavar="N",
                   help="with presolve: up to N anneals; between them, probe the cells the low-energy reads "
                        "agree on with line logic and keep what it proves (qpicross.hybrid)")
    p.add_argument("--force", action="store_true",
                   help="build even above the size guard (QPICROSS_MAX_COUPLERS), overwrite the --plot file")
    cloud = p.add_argument_group("cloud samplers (qpu, hybrid, hybrid-cqm, amplify)")
    cloud.add_argument("--chain-strength", type=float, default=None,
                       help="qpu: chain coupling, Ising units (default: dwave-system's uniform torque compensation)")
    cloud.add_argument("--time-limit", type=float, default=None, metavar="SECONDS",
                       help="hybrid, hybrid-cqm, amplify: solver time limit")
    cloud.add_argument("--profile", default=None, help="D-Wave: dwave-cloud-client configuration profile")
    cloud.add_argument("--token-file", default=None, metavar="FILE",
                       help="read the API token from FILE (default: dwave config / DWAVE_API_TOKEN, AMPLIFY_TOKEN)")
    return p


def parse_options(args: argparse.Namespace) -> dict:
    """Sampler options shared by every command that anneals."""
    if args.sampler not in SAMPLERS:
        raise UsageError(f"unknown sampler {args.sampler!r}; known: {', '.join(SAMPLERS)}")
    if args.reads < 1:
        raise UsageError(f"--reads must be at least 1, got {args.reads}")
    if args.sweeps is not None and args.sweeps < 1:
        raise UsageError(f"--sweeps must be at least 1, got {args.sweeps}")
    beta_range = parse_beta_range(args.beta_range)
    try:
        weights = PenaltyWeights.parse(args.weights)
    except ValueError as exc:
        raise UsageError(f"--weights: {exc}") from None
    try:
        cloud = cloud_options(args.sampler, **{name: getattr(args, name, None)
                                               for name in ("chain_strength", "time_limit", "profile", "token_file")})
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return dict(sampler=args.sampler, num_reads=args.reads, num_sweeps=args.sweeps, seed=args.seed,
                beta_range=beta_range, weights=weights, bounds=args.bounds, **cloud)


def run(args: argparse.Namespace) -> int:
    puzzle = load_puzzle_arg(args)
    options = parse_options(args)
    if args.plot:
        check_output_path(args.plot, args.force, PLOT_SUFFIXES)  # refuse before a long run, not after
    try:
        if args.logic_rounds < 0:
            raise UsageError(f"--logic-rounds must be at least 0, got {args.logic_rounds}")
        if args.logic_rounds:
            from ..hybrid import anneal_with_logic

            result = anneal_with_logic(puzzle, rounds=args.logic_rounds, force=args.force,
                                       progress=Progress(f"annealing {puzzle.name}"), **options)
        else:
            result = anneal(puzzle, progress=Progress(f"annealing {puzzle.name}"), force=args.force,
                            presolve=args.presolve, **options)
    except ValueError as exc:  # e.g. the exact sampler refusing a large model
        raise UsageError(str(exc)) from None
    if args.plot:
        from ..plot import plot_puzzle

        save_plot(plot_puzzle(puzzle, result.board, broken=result.best.broken_lines), args.plot, args.force)
    if args.json:
        print_json(result.to_dict())
    else:
        print_report(result)
    return 0 if result.solved else 1


def print_report(result) -> None:
    d = result.to_dict()
    t = d["timing"]
    print(f"{result.puzzle}: {d['num_variables']} variables, {d['num_interactions']} interactions")
    if result.presolve is not None:
        pre = result.presolve
        done = "line logic solved the puzzle, nothing left to anneal" if pre["solved_by_logic"] else (
            "line logic found a contradiction: no solution" if pre["contradiction"] else "annealing the rest")
        print(f"presolve: line logic settled {pre['cells_settled']} cells ({100 * pre['fraction_settled']:.1f}%); "
              f"variables {pre['variables_before']} -> {pre['variables_after']}; {done}")
        for number, step in enumerate(pre.get("rounds", [])):
            print(f"  round {number}: {step['variables']} variables, {step['unknown_cells']} unknown cells, "
                  f"success {step['success_probability']:.3f} over {step['num_reads']} reads, energy {step['energy']:g}")
        if "rounds" in pre:
            print(f"  probing: {pre['probes']} probes proved {pre['cells_proven']} cells; "
                  f"{pre['cells_settled_final']} cells settled in the end")
    print(board_text(result.puzzle, result.board))
    print()
    verdict = "SOLVED" if result.solved else f"NOT SOLVED ({len(result.best.broken_lines)} broken lines: "
    if not result.solved:
        verdict += ", ".join(d["broken_lines"][:10]) + (", ..." if len(d["broken_lines"]) > 10 else "") + ")"
    print(f"{verdict}; energy {d['energy']:g}")
    for term in d["violations"]:
        broken_here = [v for v in result.best.violations if v.term == term]
        if broken_here:
            places = "; ".join(str(v).partition(" at ")[2] for v in broken_here[:4])
            more = f"; ... {len(broken_here) - 4} more" if len(broken_here) > 4 else ""
            print(f"  {term} penalty {d['violations'][term]}: {places}{more}")
    print(f"success probability {d['success_probability']:.3f} over {d['num_reads']} reads ({d['sampler']})")
    if "sampler_info" in d:  # cloud runs: qubits, chain breaks, QPU time
        print(describe_sampler_info(d["sampler_info"]))
    print(f"time: build {t['build_s']:.3f} s, sample {t['sample_s']:.3f} s, decode {t['decode_s']:.3f} s")
