"""Every registered sampler's parameters with a declared type and range, checked before any work.

dimod's ``Sampler.parameters`` names the keyword arguments a sampler takes; this module says what
each may hold. :data:`PARAMETERS` maps a registry name to ``{parameter: Parameter}``, and
:func:`check_sampler_options` checks a run's options against it before anything is built, so a bad
value (``line_moves="garbage"``, ``trotter=0``, ``timeout=-1``) is one line naming the parameter
instead of a traceback from inside a library, a crash or a run that never ends. Counts and times
have upper bounds as well as lower ones: every run is bounded before it starts.

Some parameters are not the user's to set as options: the ones with their own setting
(``seed``, ``num_reads``, ``time_limit``...: :data:`OWN_SETTINGS`), the puzzle's structure the
pipeline passes (``lines``, ``groups``, ``paints``, ``layout``, ``known``, ``formulation``) and Python objects
(``interrupt_function``, ``initial_states``), which only the Python API can give.

Examples:
    >>> check_sampler_options("shift", {"line_moves": 0.5, "schedule": "fixed"})
    >>> check_sampler_options("shift", {"line_moves": "garbage"})
    Traceback (most recent call last):
    ...
    qpicross.exceptions.ParameterError: line_moves must be a number in [0, 1], got 'garbage'
    >>> check_sampler_options("openjij-sqa", {"trotter": 0})
    Traceback (most recent call last):
    ...
    qpicross.exceptions.ParameterError: trotter must be an integer in [2, 1,024], got 0
    >>> check_sampler_options("tabu", {"seed": 1})
    Traceback (most recent call last):
    ...
    qpicross.exceptions.ParameterError: seed is set by the configuration's seed, not as a sampler option
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from qpicross.exceptions import ParameterError
from qpicross.names import EARLY_STOP, MAX_READS

__all__ = ["Parameter", "PARAMETERS", "SHIFT_PARAMETERS", "SHIFT_BATCHED_PARAMETERS", "check_beta_range", "BYTES_PER_READ", "OWN_SETTINGS",
           "STRUCTURE", "check_sampler_options", "option_help", "check_parameter", "declared", "settle", "describe", "integer",
           "number", "finite", "flag", "choice", "choices", "text", "mapping", "python_object", "numbers_list",
           "function", "per_model", "seconds", "inverse_temperatures", "lines_of_groups", "segments", "picross_layout"]

#: Most of any count a sampler option holds (replicas, iterations, restarts): far beyond use.
MAX_COUNT = 1_000_000
#: Most sweeps (as :data:`qpicross.pipeline.config.MAX_SWEEPS`).
MAX_SWEEPS = 10_000_000_000
#: Most seconds a sampler's own time limit may be set to (a week).
MAX_SECONDS = 7 * 24 * 3600.0
#: Largest inverse temperature, transverse field or energy scale an option may hold.
MAX_SCALE = 1e6
#: The block-shift sampler's population bounds (``qpicross.samplers.blockshift.sampler``; a test keeps them equal).
MAX_POPULATION = 100_000
MAX_POPULATION_STEPS = 100_000
#: The block-shift sampler's population defaults: members, and inverse temperatures a run steps through.
POPULATION = 250
POPULATION_STEPS = 100
#: The block-shift sampler's Luby ladders: replicas of the shortest restarts' ladder (its default), and the most any
#: ladder's ``rungs`` may ask for (:func:`~qpicross.samplers.blockshift.plans.ladder`).
RUNGS = 8
MAX_LADDER_RUNGS = 64


@dataclasses.dataclass(frozen=True)
class Parameter:
    """What one sampler parameter may hold.

    Attributes:
        what: The accepted values in words (``"an integer in [1, 256]"``), for the error message.
        test: Whether a value is accepted.
        settable: ``None`` when an option may set it; else why not (one clause, e.g. "is set by --seed").
        none: ``None`` is accepted too (the sampler's default).
        python_only: A Python object (a function, an array) that text cannot give.
        default: The sampler's default, where a table (:data:`SHIFT_PARAMETERS`) declares the parameter.
        doc: What the parameter does, for the sampler's docstring and ``--option help``.
    """

    what: str
    test: Callable[[Any], bool]
    settable: str | None = None
    none: bool = False
    python_only: bool = False
    default: Any = None
    doc: str = ""

    def about(self, default: Any, doc: str) -> Parameter:
        """The same parameter with its default and its documentation (an entry of a sampler's table).

        >>> integer(1, 256).about(1, "Restart streams per read.").default
        1
        """
        return dataclasses.replace(self, default=default, doc=doc)

    def check(self, name: str, value: Any) -> None:
        """Raise ``ValueError`` (one line naming ``name``) unless ``value`` is accepted.

        >>> integer(1, 256).check("threads", 0)
        Traceback (most recent call last):
        ...
        qpicross.exceptions.ParameterError: threads must be an integer in [1, 256], got 0
        """
        if self.settable is not None:
            raise ParameterError(f"{name} {self.settable}")
        if value is None and self.none:
            return
        try:
            ok = bool(self.test(value))
        except ParameterError:  # a test that names what is wrong inside the value (one entry of a mapping)
            raise
        except (TypeError, ValueError, OverflowError):
            ok = False
        if not ok:
            raise ParameterError(f"{name} must be {self.what}, got {_shown(value)}")


def _shown(value: Any) -> str:
    """A value in an error message: its repr, cut to 60 characters."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _is_int(value: Any) -> bool:
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)


def _is_real(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(value)


def integer(low: int, high: int, *, none: bool = False) -> Parameter:
    """A whole number in ``[low, high]``.

    >>> integer(2, 1024).test(4), integer(2, 1024).test(4.0), integer(2, 1024).test(True)
    (True, False, False)
    """
    return Parameter(f"an integer in [{low:,}, {high:,}]", lambda v: _is_int(v) and low <= v <= high, none=none)


def number(low: float, high: float, *, above: bool = False, none: bool = False) -> Parameter:
    """A finite number in ``[low, high]`` (``above``: strictly above ``low``).

    >>> number(0, 1).test(0.5), number(0, 1, above=True).test(0), number(0, 1).test("0.5")
    (True, False, False)
    """
    bracket = "(" if above else "["
    return Parameter(f"a number in {bracket}{low:g}, {high:g}]",
                     lambda v: _is_real(v) and (v > low if above else v >= low) and v <= high, none=none)


def finite(*, none: bool = False) -> Parameter:
    """Any finite number (an energy)."""
    return Parameter("a finite number", _is_real, none=none)


def flag(*, none: bool = False) -> Parameter:
    """``True`` or ``False``."""
    return Parameter("True or False" + (" or None" if none else ""), lambda v: isinstance(v, bool), none=none)


def choice(*values: str, none: bool = False) -> Parameter:
    """One of ``values``."""
    return Parameter("one of " + ", ".join(map(repr, values)), lambda v: isinstance(v, str) and v in values,
                     none=none)


def choices(*values: str, none: bool = False) -> Parameter:
    """A non-empty list (or tuple) of ``values``, at most 256 long."""
    return Parameter("a list of " + ", ".join(map(repr, values)),
                     lambda v: isinstance(v, (list, tuple)) and 0 < len(v) <= 256
                     and all(isinstance(x, str) and x in values for x in v), none=none)


def numbers_list(low: float, high: float, *, longest: int = 1_000_000) -> Parameter:
    """A non-empty list of finite numbers in ``[low, high]`` (a schedule)."""
    return Parameter(f"a list of numbers in [{low:g}, {high:g}]",
                     lambda v: isinstance(v, (list, tuple)) and 0 < len(v) <= longest
                     and all(_is_real(x) and low <= x <= high for x in v))


def text(longest: int = 200, *, none: bool = False) -> Parameter:
    """A string of at most ``longest`` characters."""
    return Parameter(f"text of at most {longest:,} characters", lambda v: isinstance(v, str) and len(v) <= longest,
                     none=none)


def mapping() -> Parameter:
    """A dict (keyword arguments for a library call)."""
    return Parameter("a dict", lambda v: isinstance(v, Mapping))


def python_object(what: str) -> Parameter:
    """A Python object (a function, an array): accepted from the Python API, not from text.

    :func:`check_sampler_options` with ``from_text=True`` refuses it.
    """
    return Parameter(what, lambda v: not isinstance(v, (str, numbers.Number)) and v is not None, python_only=True)


def function() -> Parameter:
    """A function (a hook: ``progress``, ``interrupt_function``), or None; only the Python API can give one."""
    return Parameter("a function", callable, none=True, python_only=True)


def seconds() -> Parameter:
    """A positive number of seconds (a time limit), or None: none.

    >>> seconds().test(0.5), seconds().test(0), seconds().test(True)
    (True, False, False)
    """
    return Parameter("a positive number of seconds",
                     lambda v: isinstance(v, numbers.Real) and not isinstance(v, bool) and v > 0, none=True)


def inverse_temperatures() -> Parameter:
    """``(hot, cold)``: two finite positive numbers, or None (the sampler's own choice).

    >>> inverse_temperatures().test((0.1, 3)), inverse_temperatures().test((0, 3)), inverse_temperatures().test("ab")
    (True, False, False)
    """
    return Parameter("two finite positive numbers (hot, cold)",
                     lambda v: not isinstance(v, (str, bytes)) and len(v) == 2 and all(_is_real(b) and b > 0 for b in v),
                     none=True)


def lines_of_groups(what: str = "lines") -> Parameter:
    """A list of lines (each a list of one-hot groups of variables), or of groups (``what="groups"``); the
    puzzle's structure, given by the Python API."""
    return Parameter(f"a list of lists of variables ({what})",
                     lambda v: not isinstance(v, (str, bytes, Mapping)) and hasattr(v, "__iter__"), none=True,
                     python_only=True)


def _segments_ok(paints: Any) -> bool:
    """Whether ``paints`` maps each variable to ``(axis 0 or 1, line, start, length)``; the first bad entry named."""
    if not isinstance(paints, Mapping):
        return False
    for variable, segment in paints.items():
        if not (isinstance(segment, (tuple, list)) and len(segment) == 4
                and all(isinstance(x, (int, np.integer)) and not isinstance(x, bool) for x in segment)
                and segment[0] in (0, 1) and segment[1] >= 0 and segment[2] >= 0 and segment[3] >= 1):
            raise ParameterError(f"paints[{variable!r}] must be (axis 0 or 1, line >= 0, start >= 0, length >= 1), "
                                 f"got {segment!r}")
    return True


def segments() -> Parameter:
    """What each variable paints: ``{label: (axis, line, start, length)}`` (a formulation's ``paints()``), or None.

    >>> segments().check("paints", {"x": (0, 0, 0, 2)})
    >>> segments().check("paints", {"x": (2, 0, 0, 2)})
    Traceback (most recent call last):
    ...
    qpicross.exceptions.ParameterError: paints['x'] must be (axis 0 or 1, line >= 0, start >= 0, length >= 1), got (2, 0, 0, 2)
    """
    return Parameter("a mapping of each variable to (axis, line, start, length)", _segments_ok, none=True,
                     python_only=True)


def per_model(spec: Parameter) -> Parameter:
    """What ``spec`` accepts, for every model, or a list of it (or None) with one entry per model (the batched
    sampler's models; the count is checked against the models).

    >>> per_model(finite()).test(1.0), per_model(finite()).test([1.0, None]), per_model(finite()).test(["x"])
    (True, True, False)
    """
    return Parameter(f"{spec.what}, or a list of one per model",
                     lambda v: spec.test(v) or (isinstance(v, (list, tuple)) and len(v) > 0
                                                and all(x is None or spec.test(x) for x in v)), none=True)


def picross_layout() -> Parameter:
    """A :class:`~qpicross.model.layout.PicrossLayout` (a formulation's ``layout()``), or None."""
    def test(value):
        from qpicross.model.layout import PicrossLayout

        return isinstance(value, PicrossLayout)

    return Parameter("a PicrossLayout (formulation.layout())", test, none=True, python_only=True)


#: Parameters with a setting of their own: ``{parameter: (SolverConfig field or None, command-line flag)}``.
#: Those with a field are never options (:func:`qpicross.samplers.sample` passes them itself); those
#: without one are options in Python (``options={"beta_range": (1, 5)}``) that the command line sets
#: with their flag, not with ``--option``.
OWN_SETTINGS: dict[str, tuple[str | None, str]] = {
    "num_reads": ("num_reads", "--reads"),
    "num_sweeps": ("num_sweeps", "--sweeps"),
    "seed": ("seed", "--seed"),
    "time_limit": ("time_limit", "--time-limit"),
    "progress": ("progress", "the command (its progress bar)"),
    "early_stop": ("early_stop", "--early-stop"),
    "chunks": ("num_reads", "the command (from --reads)"),
    "beta_range": (None, "--beta-range"),
    "chain_strength": (None, "--chain-strength"),
    "profile": (None, "--profile"),
    "token": (None, "--token-file"),
}

#: The puzzle's structure, passed by the pipeline from the formulation (never an option's to set).
STRUCTURE = ("lines", "groups", "paints", "layout", "known", "formulation")

#: What the parameters with a flag of their own may hold, for every sampler that takes them.
_FLAGGED = {
    "chain_strength": number(0, MAX_SCALE, above=True, none=True),
    "profile": text(none=True),
    "token": text(10_000, none=True),
}

#: The block-shift sampler's parameters (:class:`~qpicross.samplers.blockshift.sampler.BlockShiftSampler`), each
#: declared here once: what it may hold, its default and its documentation, from which the sampler's signature
#: checks, ``parameters``, the docstring's arguments and ``--option help`` come.
SHIFT_PARAMETERS: dict[str, Parameter] = {
    "num_reads": integer(1, MAX_READS).about(10, (
        "Independent reads (restarts).")),
    "num_sweeps": integer(0, MAX_SWEEPS, none=True).about(None, (
        'Sweeps per read (with ``schedule="luby"`` or ``"population"``: in all its restarts together; default '
        '1000 for ``"fixed"``, :data:`MAX_RESTART_SWEEPS` for ``"luby"``, 25 units for ``"population"``); a '
        "sweep proposes one move per group and free variable, then line moves (per replica with tempering, "
        "per member of the population).")),
    "seed": integer(0, 2**32 - 1, none=True).about(None, (
        "Random seed (0 <= seed < 2**32); the same seed gives the same samples.")),
    "beta_range": inverse_temperatures().about(None, (
        "``(hot, cold)`` inverse temperatures (default: :func:`default_beta_range`).")),
    "num_replicas": integer(1, 4096, none=True).about(None, (
        "1: annealing, geometric from ``beta_range[0]`` to ``beta_range[1]`` over the sweeps; more (default 4 "
        "with a fixed schedule): parallel tempering, replicas at fixed inverse temperatures geometric over "
        "``beta_range``, neighbours swapped after every sweep.")),
    "shift_probability": number(0, 1).about(0.5, (
        "Chance that a block move shifts the block by one start.")),
    "line_moves": number(0, 1).about(1.0, (
        "Chance per sweep that each line is redrawn by a line move (0: never, and block moves may then break "
        "the clue's order).")),
    "block_moves": flag(none=True).about(None, (
        "Whether each sweep proposes a block move for every group (free variables are always flipped). "
        "Default: only when ``line_moves < 1`` (with every line redrawn every sweep they only add a cheaper, "
        "approximate round of line updates; the ablation in the docs' results measures them). ``False`` needs "
        "``line_moves > 0``.")),
    "lines": lines_of_groups().about(None, (
        "Lines, each a list of one-hot groups (its blocks in order), each a list of variables (its starts in "
        "order), as :meth:`~qpicross.model.formulation.PicrossFormulation.one_hot_lines` gives them. Takes "
        "precedence over ``groups``.")),
    "groups": lines_of_groups("groups").about(None, (
        "One-hot groups of variables, each its own line (default: inferred from the labels ``(kind, line, "
        "start, block)`` by :func:`infer_lines`; ``[]``: none, single flips).")),
    "target_energy": finite(none=True).about(None, (
        "Stop a read once it reaches this energy, and record when it did.")),
    "return_state": choice("best", "last").about("best", (
        '``"best"``: each read\'s lowest-energy state; ``"last"``: its final state (with tempering, the '
        "replica at ``beta_range[1]``).")),
    "schedule": choice("auto", "fixed", "luby", "population").about("auto", (
        '``"fixed"``: one tempering run per read with ``num_replicas`` and ``beta_range``; ``"luby"``: the '
        "self-tuning schedule (see :func:`restart_plan`): each read is a sequence of independent tempering "
        "restarts whose lengths follow the Luby sequence, the ladder widening with the length; "
        '``"population"``: Luby restarts of population annealing '
        "(:mod:`~qpicross.samplers.blockshift.population`; the profile chain only), each restart one run of "
        '``population`` members along ``population_steps`` temperatures; ``"auto"`` (default): ``"luby"`` '
        "unless ``num_replicas`` or ``beta_range`` is given.")),
    "restart_sweeps": integer(1, MAX_SWEEPS, none=True).about(None, (
        "The Luby unit: the length of the shortest restarts (default :data:`RESTART_SWEEPS`; with "
        '``schedule="population"``, :data:`POPULATION_SWEEPS` sweeps of the whole population).')),
    "rungs": integer(2, MAX_LADDER_RUNGS).about(RUNGS, (
        'With ``schedule="luby"``: the replicas of the shortest restarts\' tempering ladder from a read\'s second '
        "restart on (its first runs at most 4, as typical puzzles are solved within it); a restart ``2^j`` "
        "units long gets ``rungs * (1 + j / 2)`` of them, at most ``max(rungs, 12)`` (see :func:`restart_plan`), "
        "over the same inverse temperatures: more rungs, closer together, swap more often and cost more a sweep.")),
    "progress": function().about(None, (
        "Called about twice a second while a read runs, as ``progress(reads_done, num_reads, best_energy)`` "
        "(the reads finished so far and the best energy of the call so far).")),
    "time_limit": seconds().about(None, (
        "Seconds after which the call stops (the running read within a sweep, keeping its best state) and "
        'returns the reads so far with ``info["timed_out"] = True``.')),
    "paints": segments().about(None, (
        "What each variable paints, ``{label: (axis, line, start, length)}`` (as "
        ":meth:`~qpicross.model.formulation.PicrossFormulation.paints` gives it). When the BQM is, on "
        "clue-consistent states, a constant plus a weight times the cells where the rows' and the columns' "
        "boards differ (checked exactly, see :func:`~qpicross.samplers.blockshift.board.board_model`), reads "
        "run on the board layout: the same chain, the same samples for the same seed, faster on large puzzles "
        '(``make bench-kernels``). Otherwise it is ignored; ``info["kernel"]`` says which kernel ran.')),
    "layout": picross_layout().about(None, (
        "The Picross model's own layout (:meth:`~qpicross.model.formulation.PicrossFormulation.layout` of the "
        "weights the BQM was built with): its lines (the default of ``lines``) and, where it vouches for the "
        "board energy, the board, read from it instead of checked against the BQM as ``paints`` are (where it "
        "cannot vouch, its paints are checked as ``paints`` would be). The BQM is only checked to be the one "
        "the layout was made for (:meth:`~qpicross.model.layout.PicrossLayout.check`: its variables, offset "
        "and two linear biases; a ``ModelStructureError`` otherwise). The same seed gives the same samples as "
        "``lines=`` and ``paints=`` of the same formulation.")),
    "threads": integer(1, 256).about(1, (
        "Restart streams each read runs at once, one per thread (the compiled kernels release the GIL, so "
        "each gets a core of its own). Stream 0 is the read ``threads=1`` runs; the others run "
        "``stream_plans``' plans from seeds of their own. The first stream to reach ``target_energy`` stops "
        "the others, and the read returns its state (without a target: the lowest-energy stream's). A read's "
        "time is then wall-clock time on ``threads`` cores, and its ``sweeps`` are those of all its streams "
        "together. Which stream finishes first depends on timing: only ``threads=1`` gives the same samples "
        "for the same seed. Restarts short enough to run without a thread (small puzzles) always run one "
        "stream.")),
    "stream_plans": choice("mixed", "same", "long").about("mixed", (
        'With ``threads > 1`` and the Luby schedule: ``"mixed"`` (default), the odd-numbered streams run '
        ":func:`~qpicross.samplers.blockshift.plans.long_restarts` (for their first second the restarts of "
        ":func:`restart_plan`, then Luby restarts of 32 000 sweeps on the level-2 ladder) against the even "
        'ones\' :func:`restart_plan`, a portfolio of a short-restart and a long-run strategy; ``"same"``: '
        'every stream runs :func:`restart_plan`; ``"long"``: every stream (one thread included) runs only the '
        "long restarts of :func:`~qpicross.samplers.blockshift.plans.long_restarts`, with no lead.")),
    "chain": choice("auto", "profile", "joint").about("auto", (
        '``"auto"`` (default): the profile chain where it applies (``paints`` on a model the board layout '
        "takes, plain nonogram lines, block moves off), else the joint chain; with ``threads > 1`` and "
        '``stream_plans="mixed"``, the long restarts after the lead run the joint chain '
        '(``info["stream_chains"]``: ``"profile then joint"``); ``"profile"``: the profile chain (a '
        '``ValueError`` where it does not apply); ``"joint"``: rows and columns sampled together, as without '
        "``paints``. See the module docstring.")),
    "stream_chains": choices("auto", "profile", "joint", none=True).about(None, (
        "With ``threads > 1``, the chain of each stream, cycled (stream ``i`` runs ``stream_chains[i % "
        'len(stream_chains)]``): ``("profile", "joint")`` races the two chains in one read, lead and long '
        'restarts alike. Default: every stream runs ``chain``. ``info["stream_chains"]`` says which chain '
        'each stream ran; ``info["chain"]`` is stream 0\'s.')),
    "profile_lines": choice("rows", "columns", "alternate").about("alternate", (
        'The lines the profile chain samples (the others are minimised out): ``"rows"``, ``"columns"``, or '
        '``"alternate"`` (default): a read\'s restarts take rows and columns in turn, restart ``k`` of stream '
        "``i`` (from 0) rows when ``i + k`` is even. Which axis is the easier one depends on the puzzle (by "
        "factors of ten and more on some tournament puzzles); a puzzle and its transpose are the same "
        'problem, so the default favours neither. A single restart (``schedule="fixed"``) samples rows.')),
    "window_exchange": integer(0, 1 << 20).about(0, (
        "With tempering on the profile chain: after each sweep's replica exchange, each pair of neighbouring "
        "rungs swaps a window of 1 to this many consecutive free lines (its length and place drawn uniformly), "
        "kept by Metropolis on both replicas' energies (:func:`~qpicross.samplers.blockshift.profile."
        "window_exchange`; ``make bench-window`` measures how often); 0 (default): none. The joint chain and "
        "population annealing have none.")),
    "population": integer(1, MAX_POPULATION).about(POPULATION, (
        'With ``schedule="population"``: the members of each run (1 to '
        ":data:`~qpicross.samplers.parameters.MAX_POPULATION`; their states together at most "
        ":data:`MAX_POPULATION_CELLS` cells).")),
    "population_steps": integer(1, MAX_POPULATION_STEPS).about(POPULATION_STEPS, (
        'With ``schedule="population"``: the inverse temperatures of each run, linear from half of '
        "``beta_range[0]`` to ``beta_range[1]``; the population is resampled at each.")),
    "interrupt_function": function().about(None, (
        "The stop input, in dwave-samplers' idiom: a function of no arguments, asked between restarts and "
        "while a read runs (about every :data:`~qpicross.samplers.control.PROGRESS_INTERVAL_S`); once it "
        "returns True the running read stops within a sweep, keeping its best state, no further read starts, "
        'and the reads so far are returned with ``info["halted"] = True``.')),
}


#: The batched block-shift sampler's parameters (:func:`~qpicross.samplers.blockshift.batched.sample_many`,
#: ``shift-batched`` and ``shift-batched-cpu``), each declared here once, as :data:`SHIFT_PARAMETERS`.
SHIFT_BATCHED_PARAMETERS: dict[str, Parameter] = {
    "num_reads": integer(1, MAX_READS).about(32, (
        "Ladders per model, run at the same time; each gives one sample.")),
    "num_sweeps": integer(0, MAX_SWEEPS, none=True).about(None, (
        "Most sweeps per ladder (default: :data:`~qpicross.samplers.blockshift.plans.MAX_RESTART_SWEEPS` on "
        "the profile chain, all its restarts together; 1000 on the joint chain); a sweep is a line move per "
        "free line (profile chain), or one move per group and free variable and a line move per line (joint "
        "chain), for every replica.")),
    "seed": SHIFT_PARAMETERS["seed"],
    "beta_range": per_model(inverse_temperatures()).about(None, (
        "``(hot, cold)`` inverse temperatures, for all models or one per model (default: "
        ":func:`~qpicross.samplers.blockshift.sampler.default_beta_range` of each).")),
    "num_replicas": integer(1, 1024).about(4, (
        "Chains per ladder at temperatures geometric over ``beta_range``, swapped after every sweep; 1: "
        "annealing from hot to cold over ``num_sweeps``.")),
    "shift_probability": SHIFT_PARAMETERS["shift_probability"],
    "line_moves": number(0, 1).about(1.0, (
        "Chance per sweep that each line is redrawn by a heat-bath line move (0: never, and block moves are "
        "then not restricted to fitting lines).")),
    "lines": lines_of_groups().about(None, (
        "Per model, its lines of one-hot groups of variables (default: from the formulation's labels, "
        ":func:`~qpicross.samplers.blockshift.sampler.infer_lines`).")),
    "groups": lines_of_groups("groups").about(None, (
        "One-hot groups of variables, each its own line (:meth:`BatchedShiftSampler.sample`, one model; "
        "``lines`` takes precedence).")),
    "target_energy": per_model(finite(none=True)).about(None, (
        "Energy that counts as solved, for all models or one per model (None: none).")),
    "early_stop": choice(*EARLY_STOP, none=True).about("puzzle", (
        'What reaching the target stops besides the ladder: ``"puzzle"`` (default: its model\'s other '
        'ladders), ``"read"`` (only that ladder) or ``"none"`` (not even the ladder, which notes its first '
        "hit and runs its sweeps); see :data:`~qpicross.samplers.control.EARLY_STOP`.")),
    "backend": choice("cuda", "cpu", none=True).about(None, (
        '``"cuda"`` or ``"cpu"`` (default: the sampler\'s own; ``"cuda"`` for :func:`sample_many`).')),
    "sweeps_per_launch": integer(1, MAX_COUNT).about(64, (
        "Most sweeps per kernel launch (launches grow 1, 2, 4, ... up to it).")),
    "threads_per_block": integer(1, 1024).about(128, (
        "CUDA threads per block (rounded down to a multiple of ``num_replicas``).")),
    "time_limit": seconds().about(None, (
        "Wall seconds after which no further launch starts.")),
    "progress": function().about(None, (
        "Called as ``progress(ladders_done, ladders, best_energy)`` before the first launch, between launches "
        "about every :data:`~qpicross.samplers.control.PROGRESS_INTERVAL_S` and after the last: the ladders "
        "of every model (``num_reads`` each), those finished (or of a model that has stopped), and the lowest "
        "energy any ladder has reached. Raising from it ends the run. A Ctrl-C ends the run after the launch "
        'it arrives in, every ladder keeping its lowest state (``info["interrupted"]``).')),
    "return_state": choice("best", "last").about("best", (
        '``"best"``: each ladder\'s lowest-energy state; ``"last"``: its final state at the coldest rung '
        "(``beta_range[1]``), a draw from the chain's distribution (joint chain only).")),
    "paints": python_object("a list of paints, one per model").about(None, (
        "Per model, what each variable paints (a formulation's :meth:`paints`), checked exactly against its "
        "BQM.")),
    "layout": python_object("a list of layouts (or None), one per model").about(None, (
        "Per model, its :class:`~qpicross.model.layout.PicrossLayout` (or None): its lines are the default of "
        "``lines`` and its board is read, not checked, as in "
        ":class:`~qpicross.samplers.blockshift.sampler.BlockShiftSampler`; formulations given as models give "
        "their own.")),
    "chain": choice("auto", "profile", "joint").about("auto", (
        '``"auto"``, ``"profile"`` or ``"joint"``.')),
    "restart_sweeps": integer(1, MAX_SWEEPS, none=True).about(None, (
        "The Luby unit of the profile chain's restarts (default "
        ":data:`~qpicross.samplers.blockshift.plans.RESTART_SWEEPS`).")),
}


#: Sampler registry name -> its parameters (the keys of its ``parameters``), each with what it may hold.
PARAMETERS: dict[str, dict[str, Parameter]] = {
    "shift": {
        **SHIFT_PARAMETERS,
        # not the sampler's: the run wraps it in StreamsComposite (qpicross.samplers.registry.with_streams)
        "scheduler": text(none=True).about(None, (
            "Run each read's restart streams on a Dask cluster, one stream per worker: 'local:N' (N local "
            "processes) or a scheduler address (tcp://host:8786); the same as --scheduler.")),
    },
    "shift-batched": SHIFT_BATCHED_PARAMETERS,
    "sa": {
        "num_sweeps_per_beta": integer(1, MAX_COUNT),
        "beta_schedule_type": choice("linear", "geometric", "custom"),
        "beta_schedule": numbers_list(0, MAX_SCALE),
        "interrupt_function": python_object("a function of no arguments"),
        "initial_states": python_object("samples (an array or SampleSet)"),
        "initial_states_generator": choice("none", "tile", "random"),
        "randomize_order": flag(),
        "proposal_acceptance_criteria": choice("Metropolis", "Gibbs"),
    },
    "tabu": {
        "initial_states": python_object("samples (an array or SampleSet)"),
        "initial_states_generator": choice("none", "tile", "random"),
        "tenure": integer(0, MAX_COUNT, none=True),
        "timeout": integer(1, 600_000),  # milliseconds per read: at most the ten minutes of anneal's own cap
        "num_restarts": integer(0, MAX_COUNT),
        "energy_threshold": finite(none=True),
        "coefficient_z_first": integer(0, MAX_COUNT, none=True),
        "coefficient_z_restart": integer(0, MAX_COUNT, none=True),
        "lower_bound_z": integer(0, MAX_COUNT, none=True),
    },
    "openjij-sa": {
        "updater": choice("single spin flip", "swendsen wang"),
        "sparse": flag(),
        "beta_min": number(0, MAX_SCALE, above=True),
        "beta_max": number(0, MAX_SCALE, above=True),
    },
    "openjij-sqa": {
        "updater": choice("single spin flip"),
        "sparse": flag(),
        "beta": number(0, MAX_SCALE, above=True),
        "gamma": number(0, MAX_SCALE, above=True),
        "trotter": integer(2, 1024),  # 0 crashes OpenJij's kernel; 1 is no quantum annealing
    },
    "sb": {
        "mode": choice("ballistic", "discrete"),
        "heated": flag(),
        "early_stopping": flag(),
        "timeout": number(0, MAX_SECONDS, above=True, none=True),
        "dtype": choice("float32", "float64"),
    },
    "pt": {
        "num_replicas": integer(1, 1000),
        "max_iter": integer(1, MAX_COUNT, none=True),
        "max_time": number(0, MAX_SECONDS, above=True, none=True),
        "convergence": integer(1, MAX_COUNT),
    },
    "pa": {
        "population": integer(1, 10_000),  # a Python object per member: 100 000 ran for minutes on a 5x5
        "num_iter": integer(1, MAX_COUNT),
    },
    "exact": {},
    "qpu": {
        "embedding_parameters": mapping(),
        "annealing_time": number(0, 2000, above=True),  # microseconds; the QPU's own bound is lower
        "label": text(),
    },
    "hybrid": {"label": text()},
    "hybrid-cqm": {"matching": choice("objective", "constraints"), "label": text()},
    "amplify": {},
}
PARAMETERS["shift-batched-cpu"] = PARAMETERS["shift-batched"]
PARAMETERS["sa+descent"] = PARAMETERS["sa"]
PARAMETERS["sb+descent"] = PARAMETERS["sb"]


def check_beta_range(beta_range: Any, name: str = "beta_range") -> tuple[float, float]:
    """``(hot, cold)`` inverse temperatures as floats, or the typed error naming ``name`` (``--beta-range`` on the
    command line, which shows the value as it was typed).

    >>> check_beta_range((1, 5))
    (1.0, 5.0)
    >>> check_beta_range((5.0, 1.0), "--beta-range")
    Traceback (most recent call last):
    ...
    qpicross.exceptions.ParameterError: --beta-range wants finite hot <= cold (0 <= hot, 0 < cold), got 5,1
    """
    if isinstance(beta_range, (str, bytes)) or not isinstance(beta_range, Sequence) or len(beta_range) != 2 \
            or not all(_is_real(b) for b in beta_range):
        raise ParameterError(f"{name} wants two numbers (hot, cold), got {beta_range!r}")
    hot, cold = (float(b) for b in beta_range)
    shown = f"{hot:g},{cold:g}" if name.startswith("--") else repr(beta_range)
    if not (math.isfinite(hot) and math.isfinite(cold) and 0 <= hot <= cold and cold > 0):
        raise ParameterError(f"{name} wants finite hot <= cold (0 <= hot, 0 < cold), got {shown}")
    return hot, cold


def check_parameter(sampler: str, name: str, value: Any, *, from_text: bool = False) -> bool:
    """Check one option of a sampler (see :func:`check_sampler_options`).

    Returns:
        Whether ``name`` is declared (for ``sampler``, or for every sampler), so its value was checked.
    """
    if name in OWN_SETTINGS:
        field, flag_name = OWN_SETTINGS[name]
        if from_text:
            raise ParameterError(f"{name} is set by {flag_name}, not by --option")
        if field is not None:
            raise ParameterError(f"{name} is set by the configuration's {field}, not as a sampler option")
    if name in STRUCTURE:
        raise ParameterError(f"{name} is the puzzle's structure, which the pipeline passes from the formulation; "
                             f"it is not an option")
    spec = _FLAGGED.get(name) or PARAMETERS.get(sampler, {}).get(name)
    if spec is None:
        return False  # a parameter this module does not know: the sampler's own checks apply
    if from_text and spec.python_only:
        raise ParameterError(f"{name} takes {spec.what}: set it through the Python API, not on the command line")
    spec.check(name, value)
    return True


def check_sampler_options(sampler: str, options: Mapping[str, Any], *, from_text: bool = False) -> None:
    """Check a registered sampler's options against :data:`PARAMETERS`, before any work.

    Unknown samplers (registered by another package) and parameters not declared here pass:
    their sampler checks them.

    Args:
        sampler: The registry name.
        options: ``{parameter: value}``.
        from_text: The options came from text (``--option KEY=VALUE``): name the command-line flag of a
            parameter that has one, and refuse Python objects.

    Raises:
        ValueError: One line naming the first bad option.
    """
    for name, value in options.items():
        check_parameter(sampler, name, value, from_text=from_text)


def option_help(sampler: str) -> str:
    """What ``--option KEY=VALUE`` may set for a registered sampler, one parameter a paragraph: its name, what it
    may hold, its default and its doc, from the sampler's table (``--option help`` prints it).

    >>> print(option_help("shift").splitlines()[0])
    options of shift (--option KEY=VALUE; the others have flags of their own):
    >>> "threads (an integer in [1, 256]; default 1)" in option_help("shift")
    True
    """
    import textwrap

    table = PARAMETERS.get(sampler, {})
    lines = [f"options of {sampler} (--option KEY=VALUE; the others have flags of their own):"]
    for name, spec in table.items():
        if name in OWN_SETTINGS or name in STRUCTURE or spec.python_only or spec.settable is not None:
            continue
        default = "" if spec.default is None and not spec.doc else f"; default {spec.default!r}"
        lines.append(textwrap.fill(f"{name} ({spec.what}{default}){': ' + spec.doc if spec.doc else ''}", 110,
                                   subsequent_indent="    ", break_long_words=False, break_on_hyphens=False))
    if len(lines) == 1:
        lines.append("(none declared here: the sampler checks its own)")
    return "\n".join(lines)


def declared(sampler: str) -> Sequence[str]:
    """The parameters declared for a registered sampler (empty for one not in :data:`PARAMETERS`)."""
    return tuple(PARAMETERS.get(sampler, {}))


#: Bytes a read holds besides its sample of one byte a variable: its seed, sweeps, times to target and duration.
BYTES_PER_READ = 40


def settle(table: Mapping[str, Parameter], given: Mapping[str, Any]) -> dict[str, Any]:
    """Every parameter of ``table`` with its value: the given one, checked by its entry (one
    :class:`~qpicross.exceptions.ParameterError` naming the first bad one), or its default.

    >>> settings = settle(SHIFT_PARAMETERS, {"threads": 2})
    >>> settings["threads"], settings["num_reads"], settings["chain"]
    (2, 10, 'auto')
    >>> settle(SHIFT_PARAMETERS, {"chain": "row"})
    Traceback (most recent call last):
    ...
    qpicross.exceptions.ParameterError: chain must be one of 'auto', 'profile', 'joint', got 'row'
    """
    for name, value in given.items():
        if name in table:
            table[name].check(name, value)
    return {name: given.get(name, spec.default) for name, spec in table.items()}


def describe(table: Mapping[str, Parameter], indent: int = 12, width: int = 116) -> str:
    """The arguments of a table as the ``Args:`` entries of a Google-style docstring (each ``name: doc``,
    wrapped to ``width`` and indented by ``indent``).

    >>> print(describe({"threads": integer(1, 256).about(1, "Restart streams per read.")}, indent=4))
        threads: Restart streams per read.
    """
    import textwrap

    return "\n".join(textwrap.fill(f"{name}: {spec.doc}", width, initial_indent=" " * indent,
                                    subsequent_indent=" " * (indent + 4), break_long_words=False,
                                    break_on_hyphens=False) for name, spec in table.items())
