"""The solver options every command that anneals takes (``anneal``, ``bench``, ``tune``), in one place.

:func:`add_solver_arguments` adds them to a parser; :func:`configs_from_args`
turns them into :class:`~qpicross.pipeline.config.SolverConfig` objects, checked
before any work (one line, exit 2, on a mistake). ``--option KEY=VALUE`` passes
any other sampler parameter (``num_replicas=8``, ``target_energy=0``,
``schedule=fixed``); a key the sampler does not take, a key with a flag of its own
(``seed``: ``--seed``) and a value outside the parameter's declared type and range
(:mod:`qpicross.samplers.parameters`) are refused.
"""

from __future__ import annotations

import argparse
import ast
import itertools
import math

from typing import TYPE_CHECKING

from qpicross.names import EARLY_STOP, ENCODINGS, MAX_READS, SAMPLER_NAMES

from qpicross.exceptions import UsageError
from ._arguments import parse_beta_range

if TYPE_CHECKING:  # dimod, numpy, numba: imported when the configurations are made, not while parsing
    from qpicross.pipeline.config import SolverConfig

__all__ = ["add_solver_arguments", "configs_from_args", "config_from_args", "parse_option"]

#: The name ``bench --sampler`` accepts for the published baseline.
BASELINE_NAME = "baseline"


#: Reads ``anneal`` draws at most when no ``--reads`` is given (it stops at the first solution).
FIND_READS = 1000
#: Seconds of sampling after which a run without ``--time-limit`` stops (``anneal``, ``bench`` and ``tune``, for
#: samplers whose reads are independent restarts and the batched ones; a cloud solver's time limit is its paid run
#: time, and the exact solver is bounded by its size): no command runs unbounded by default, and each says this.
FIND_TIME_LIMIT = 600.0


def add_solver_arguments(parser: argparse.ArgumentParser, *, several: bool = False, seed_default: int | None = None,
                         reads_default: int | None = 100) -> None:
    """Add the solver options (``several``: comma lists of samplers and sweeps, one configuration each)."""
    group = parser.add_argument_group("solver (the same options for anneal, bench and tune)")
    names = ", ".join(SAMPLER_NAMES)
    group.add_argument("--sampler", default="shift", metavar="NAME[,NAME...]" if several else "NAME",
                       help=f"one of: {names}{', baseline' if several else ''} (default shift, the structured "
                            f"annealer; sa and the other generic samplers anneal the plain QUBO)")
    group.add_argument("--reads", type=_positive(int, MAX_READS), default=reads_default,
                       help=f"reads per run (default {reads_default})" if reads_default is not None else
                       f"draw exactly N reads and report the success probability (default: stop at the first "
                       f"solution, at most {FIND_READS} reads or {FIND_TIME_LIMIT:g} s unless --time-limit "
                       f"says otherwise)")
    group.add_argument("--sweeps", default=None, metavar="N[,N...]" if several else "N",
                       help="sweeps per read (default: the sampler's)")
    group.add_argument("--seed", type=_seed, default=seed_default,
                       help="random seed, 0 <= S < 2**32" + (f" (default {seed_default})" if seed_default is not None
                                                             else ", for a reproducible run (with the default "
                                                                  "sampler also --option threads=1: its reads "
                                                                  "otherwise race restart streams on every core)"))
    group.add_argument("--beta-range", default=None, metavar="HOT,COLD", help="inverse temperatures")
    group.add_argument("--weights", default="", metavar="NAME=W,...",
                       help="penalty weights, e.g. one_hot=1,at_most_one=1,order=1,match=1")
    group.add_argument("--bounds", choices=["stacking", "published"], default="stacking",
                       help="prune starts outside the stacking bounds (default) or keep the published set")
    group.add_argument("--encoding", choices=[e.replace("_", "-") for e in ENCODINGS], default="one-hot",
                       help="block-start encoding (default one-hot; the others with a generic sampler such as "
                            "--sampler sa: the shift samplers anneal the one-hot encoding)")
    group.add_argument("--presolve", action="store_true",
                       help="fix what line logic settles first and anneal only the rest")
    group.add_argument("--time-limit", type=_positive(float), default=None, metavar="S",
                       help=f"stop after S seconds of sampling (default {FIND_TIME_LIMIT:g} s for the shift "
                            "samplers, and for the others while anneal looks for a solution; the structured "
                            "annealer stops its running read; other samplers finish their chunk of reads; hybrid, "
                            "hybrid-cqm and amplify: the solver's time limit)")
    group.add_argument("--time-budget", type=_positive(float), dest="time_limit", help=argparse.SUPPRESS)
    group.add_argument("--early-stop", choices=EARLY_STOP, default=None,
                       help="what a read that solves the puzzle stops besides itself: puzzle (the run; the "
                            "default of anneal without --reads), read (the default of anneal --reads and tune), or "
                            "none (batched samplers)")
    group.add_argument("--option", action="append", default=[], metavar="KEY=VALUE",
                       help="any other sampler parameter, e.g. num_replicas=8 or target_energy=0 (repeatable); "
                            "--option help lists the sampler's options, with their defaults")
    cloud = parser.add_argument_group("cloud samplers (qpu, hybrid, hybrid-cqm, amplify)")
    cloud.add_argument("--chain-strength", type=_positive(float), default=None,
                       help="qpu: chain coupling, Ising units (default: dwave-system's uniform torque compensation)")
    cloud.add_argument("--profile", default=None, help="D-Wave: dwave-cloud-client configuration profile")
    cloud.add_argument("--token-file", default=None, metavar="FILE",
                       help="read the API token from FILE (default: dwave config / DWAVE_API_TOKEN, AMPLIFY_TOKEN)")
    if several:
        parser.add_argument("--label", default=None, metavar="NAME",
                            help="name of the configuration in tables and files (default: the sampler's name)")


def _positive(kind: type, most: float = math.inf):
    """An argparse ``type``: a positive finite ``kind`` (int or float) of at most ``most``."""
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"wants {'a whole number' if kind is int else 'a number'}, "
                                             f"got {text!r}") from None
        if not (math.isfinite(value) and value > 0):
            raise argparse.ArgumentTypeError(f"must be at least 1, got {value}" if kind is int else
                                             f"must be a positive finite number, got {text!r}")
        if value > most:
            raise argparse.ArgumentTypeError(f"must be at most {most:,}, got {value}")
        return value
    return parse


def _seed(text: str) -> int:
    if not text.isascii() or not text.strip().isdigit() or int(text) >= 2**32:
        raise argparse.ArgumentTypeError(f"must be a whole number in [0, 2**32), got {text!r}")
    return int(text)


def parse_option(item: str) -> tuple[str, object]:
    """``KEY=VALUE`` with VALUE a Python literal (``8``, ``0.5``, ``(1,5)``) or else a string.

    >>> parse_option("num_replicas=8"), parse_option("beta_range=(1,5)"), parse_option("mode=fast")
    (('num_replicas', 8), ('beta_range', (1, 5)), ('mode', 'fast'))
    """
    key, sep, value = item.partition("=")
    key = key.strip()
    if not sep or not key.isidentifier():
        raise UsageError(f"--option wants KEY=VALUE, got {item!r}")
    try:
        parsed = ast.literal_eval(value.strip())
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        parsed = value.strip()
    if isinstance(parsed, float) and not math.isfinite(parsed):
        raise UsageError(f"--option {key}: {value!r} is not a finite number")
    return key, parsed


def _sweeps(text: str | None, several: bool) -> list[int | None]:
    if not text:
        return [None]
    parts = text.split(",") if several else [text]
    try:
        values = [int(s) for s in parts]
    except ValueError:
        raise UsageError(f"--sweeps wants {'N[,N...]' if several else 'N'}, got {text!r}") from None
    if min(values) < 1:
        raise UsageError(f"--sweeps must be at least 1, got {text}")
    return values


def _time_limit(args: argparse.Namespace, sampler: str) -> float | None:
    """The run's time limit: ``--time-limit``, else :data:`FIND_TIME_LIMIT` for ``anneal`` without ``--reads`` and a
    sampler whose reads are independent restarts, and for every run of the block-shift annealers
    (:func:`bounded_by_default`)."""
    if args.time_limit is not None:
        return args.time_limit
    from qpicross.samplers.registry import get_sampler, independent_reads

    finding = args.reads is None and independent_reads(get_sampler(sampler))
    return FIND_TIME_LIMIT if finding or bounded_by_default(sampler) else None


def time_limit_note(args: argparse.Namespace, configs) -> str | None:
    """The line that says the default time limit bounds a run (None where ``--time-limit`` was given, or no
    configuration has one).

    >>> from qpicross.pipeline.config import SolverConfig
    >>> time_limit_note(argparse.Namespace(time_limit=None), [SolverConfig(time_limit=FIND_TIME_LIMIT)])
    'note: each run samples for at most 600 s (--time-limit S sets it)'
    """
    if args.time_limit is not None or not any(c.time_limit for c in configs):
        return None
    return f"note: each run samples for at most {FIND_TIME_LIMIT:g} s (--time-limit S sets it)"


def bounded_by_default(sampler: str) -> bool:
    """Whether every run of ``sampler`` without ``--time-limit`` stops after :data:`FIND_TIME_LIMIT` s of sampling:
    the block-shift annealers, whose time limit ends the running read and changes no other read. (A generic
    sampler's reads are drawn in chunks sized by the time left, so a limit would make a seeded run's samples
    depend on the clock: ``--reads N`` draws exactly N, each bounded by its sweeps.)

    >>> bounded_by_default("shift"), bounded_by_default("shift-batched-cpu"), bounded_by_default("sa")
    (True, True, False)
    """
    from qpicross.samplers.registry import get_sampler, is_batched, takes_threads

    return is_batched(sampler) or takes_threads(get_sampler(sampler))


def configs_from_args(args: argparse.Namespace, *, several: bool = True) -> list[SolverConfig]:
    """The configurations a command line asks for (one per sampler and sweep count), validated.

    Raises:
        UsageError: On any bad value, naming the option.
    """
    from qpicross.model.weights import PenaltyWeights
    from qpicross.pipeline.config import SolverConfig
    from qpicross.samplers import SAMPLERS, get_sampler
    from qpicross.samplers.cloud import check_credentials, cloud_options
    from qpicross.samplers.parameters import PARAMETERS, check_parameter

    samplers = [s.strip() for s in args.sampler.split(",")] if several else [args.sampler]
    if not any(samplers):
        raise UsageError("--sampler names no sampler")
    if "" in samplers:  # as --weights and --sweeps answer it: a name left out is a typo, not nothing
        raise UsageError(f"--sampler: empty item between commas in {args.sampler!r}")
    for name in samplers:
        if name not in SAMPLERS and not (several and name == BASELINE_NAME):
            raise UsageError(f"unknown sampler {name!r}; known: {', '.join(SAMPLERS)}"
                             + (f", {BASELINE_NAME}" if several else ""))
    sweeps = _sweeps(args.sweeps, several)
    try:
        weights = PenaltyWeights.parse(args.weights)
    except ValueError as exc:
        raise UsageError(f"--weights: {exc}") from None
    if "help" in args.option:  # --option help: what --option may set, from each sampler's table of parameters
        from qpicross.samplers.parameters import option_help

        print("\n\n".join(option_help(name) for name in samplers))
        raise SystemExit(0)
    options = dict(parse_option(item) for item in args.option)
    for name in samplers:  # a key with a flag of its own, the puzzle's structure, or a bad value: before any work
        for key, value in options.items():
            try:
                check_parameter(name, key, value, from_text=True)
            except ValueError as exc:
                raise UsageError(f"--option {exc}") from None
    beta_range = parse_beta_range(args.beta_range)
    if beta_range is not None:
        options["beta_range"] = beta_range
    find = args.reads is None  # anneal without --reads: stop at the first solution
    num_reads = FIND_READS if find else args.reads
    early_stop = "puzzle" if find and args.early_stop is None else args.early_stop
    configs = []
    for name, n in itertools.product(samplers, sweeps):
        if name == BASELINE_NAME:
            from qpicross.experiments.bench import BASELINE

            if BASELINE not in configs:
                configs.append(BASELINE.replace(num_reads=num_reads, time_limit=_time_limit(args, BASELINE.sampler),
                                                seed=args.seed, early_stop=early_stop))
            continue
        try:
            cloud = cloud_options(name, **{key: getattr(args, key, None)
                                           for key in ("chain_strength", "profile", "token_file")})
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        check_credentials(name, cloud)  # a missing token or extra: one line before anything is built
        sampler_options = {**options, **cloud}
        accepted = get_sampler(name).parameters
        if "lines" in accepted and args.encoding != "one-hot":  # the structured annealers: moves on one-hot blocks
            raise UsageError(f"--encoding {args.encoding}: the {name} sampler anneals the one-hot encoding (its moves "
                             f"shift one-hot block starts); use --sampler sa (or another generic sampler) for "
                             f"{args.encoding}")
        if args.presolve:
            accepted = {**accepted, "known": []}
        if "scheduler" in PARAMETERS.get(name, {}):  # not the sampler's: the run puts StreamsComposite around it
            accepted = {**accepted, "scheduler": []}
        for key in sampler_options:
            if key not in accepted:
                from qpicross.samplers.parameters import STRUCTURE  # the pipeline passes these

                takes = ", ".join(sorted(k for k in accepted if k not in STRUCTURE))
                raise UsageError(f"sampler {name!r} takes no option {key!r}; it takes: {takes or 'none'}")
        stop = early_stop
        if stop is None and not several and "early_stop" in accepted:
            # anneal --reads and tune measure the success probability of N whole reads: a batched sampler's default
            # (the puzzle stops at its first ladder to reach the ground state) would cut the other reads short
            stop = "read"
        label = getattr(args, "label", None)
        if label is not None and len(sweeps) > 1:
            label += f"-{n}"
        elif label is None and len(sweeps) > 1:
            label = f"{name}-{n}" + ("+presolve" if args.presolve else "")
        config = SolverConfig(
            sampler=name, encoding=args.encoding.replace("-", "_"), weights=weights, bounds=args.bounds,
            presolve=args.presolve, num_reads=num_reads, num_sweeps=n, seed=args.seed,
            time_limit=_time_limit(args, name), options=sampler_options, name=label, early_stop=stop,
        )
        try:
            configs.append(config.validate())
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    return configs


def config_from_args(args: argparse.Namespace) -> SolverConfig:
    """The one configuration of ``anneal`` or ``tune``."""
    return configs_from_args(args, several=False)[0]
