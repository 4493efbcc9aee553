r"""A constraint-preserving annealer for the Picross QUBO: its moves never break a block.

In the Picross QUBO (:mod:`qpicross.model.formulation`) each block of a line has one binary variable per start, and
the ``one_hot`` penalty asks exactly one of them to be 1. Single-flip annealing must cross that barrier whenever a
block moves (on 15x15 puzzles dwave-samplers SA never finds the ground state). :class:`BlockShiftSampler` keeps
every block one-hot. Its moves:

* **block moves** (each sweep, each block, when ``block_moves``) -- Metropolis on the BQM restricted to one-hot
  states: a block's start jumps to another (a neighbour with probability ``shift_probability``, else any,
  uniformly), accepted with probability :math:`\min(1, e^{-\beta\,\Delta E})`, :math:`\Delta E = f_b - f_a` the
  exact BQM change, :math:`f_v = h_v + \sum_u J_{vu} x_u` (couplings inside a group never count);
* **line moves** (each sweep, each line with probability ``line_moves``) -- heat-bath redraws of a line among the
  placements consistent with its clue, from the Boltzmann distribution given the rest of the board (exactly, by
  dynamic programming over the starts; a Metropolis test corrects for couplings between blocks of the line, which
  the formulation does not have there);
* free (ungrouped) variables: single-flip Metropolis.

By default (``block_moves=None``) block moves run only when not every line is redrawn every sweep (``line_moves <
1``). A line move draws its line afresh from its conditional, whatever the line held before, so with every line
redrawn the block moves act only through the crossing lines they shift before those are redrawn: a cheaper,
approximate extra round of the alternation below. Without them, on the Picross formulation (rows interact only
through columns, and columns through rows), a sweep is the two-block Gibbs sampler: every row drawn exactly given
the columns, then every column given the rows. Which is faster per second is an empirical question, measured by
``make bench-ablation`` (``shift`` against ``shift-block-moves``) and reported in the docs (results, what paid);
both leave the same distribution invariant.

At a fixed inverse temperature :math:`\beta` the chain samples :math:`e^{-\beta E(x)}`
(:math:`E` the BQM's energy) restricted to

* ``line_moves=0``: the *one-hot* states (every group exactly one variable on,
  free variables any value); ``order``, ``at_most_one`` and ``match`` are annealed as in the BQM;
* ``line_moves>0``: the *clue-consistent* states: one-hot, and in every line
  block ``k+1`` starts after each start that a positive coupling forbids next
  to a start of block ``k`` up to its own (in the formulation: the clue's order,
  an empty cell at least between blocks). With line moves on, ``order`` and
  ``at_most_one`` are hard constraints (always 0) and the chain samples the BQM
  restricted to clue-consistent lines: only ``match`` is annealed. Block moves
  that would leave that set are rejected; reads start from uniformly random
  consistent placements.

Each move satisfies detailed balance with respect to its mode's target, and sweeps and replica exchanges compose
moves that each leave it invariant (one approximation: a line move never draws a placement weighing below
:math:`e^{-50}` of the best); ``tests/samplers/blockshift/test_distribution.py`` checks both against exact
enumeration. The structure comes from ``lines=``, else ``groups=``, else the formulation's labels
(:func:`infer_lines`); with none, a warning, and single flips. Given ``paints=`` (what each variable paints) on a
BQM that is, on clue-consistent states, a constant plus a weight times the mismatched cells (the Picross
formulation, checked exactly), reads run on the board layout of :mod:`qpicross.samplers.blockshift.board`: the same
chain and the same samples, faster. ``num_replicas > 1`` (default 4) runs parallel tempering over ``beta_range``,
``num_replicas=1`` annealing (``beta_range=(b, b)``: a Markov chain at :math:`\beta = b`). Each read is an
independent restart, one compiled (numba) call, returning its best or (``return_state="last"``) final state.

Examples:
    >>> from qpicross import Puzzle, build_formulation
    >>> f = build_formulation(Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]]))
    >>> ss = BlockShiftSampler().sample(f.bqm(), lines=f.one_hot_lines(), num_reads=5, num_sweeps=200, seed=1)
    >>> float(ss.first.energy)
    0.0

**Two chains.** All of the above is the *joint* chain (``chain="joint"``): rows and columns
are both sampled. Where the board layout applies, the lines are plain nonogram lines and block
moves are off, the default ``chain="auto"`` runs the *profile* chain of
:mod:`qpicross.samplers.blockshift.profile` instead: only the rows are sampled, each column is minimised
out (the energy of a row board is that of its best columns), and every row move is an exact
heat-bath draw given the other rows. At fixed :math:`\beta` it samples
:math:`e^{-\beta E_{\text{profile}}}` over clue-consistent rows, a different distribution from
the joint chain's marginal over the rows, with the same ground states; each read returns its
rows with a best placement of every column. Which lines are free is ``profile_lines``: by default a
read's restarts take rows and columns in turn (a puzzle and its transpose are the same problem, and on
some puzzles one axis is solved ten times sooner than the other). With several restart streams
(``threads > 1``, ``stream_plans="mixed"``) the default runs the long restarts of the odd-numbered
streams on the joint chain, whose sweeps cost about half as much, and every short restart on the
profile chain. ``info["chain"]`` says which chain stream 0 ran, ``info["stream_chains"]`` each stream's.

The package: this module builds the model and runs it; every move is written once, in the engine
(:mod:`~qpicross.samplers.blockshift.engine`) and its two chains (:mod:`~qpicross.samplers.blockshift.profile`,
:mod:`~qpicross.samplers.blockshift.joint`, the latter on local fields or on the board of
:mod:`~qpicross.samplers.blockshift.board`), compiled for the CPU and as CUDA device functions by
:mod:`~qpicross.samplers.blockshift.compile_targets`; :mod:`~qpicross.samplers.blockshift.restarts` runs the reads (restarts
along the plans of :mod:`~qpicross.samplers.blockshift.plans`, restart streams on threads, under the run control
of :mod:`qpicross.samplers.control`: progress, the time limit and Ctrl-C),
:mod:`~qpicross.samplers.streams` on worker processes or a Dask cluster, and
:mod:`~qpicross.samplers.blockshift.batched` many ladders of many puzzles in one launch.
"""

from __future__ import annotations

import math
import time
import warnings
from types import SimpleNamespace

import dimod
import numpy as np

from qpicross.exceptions import ModelStructureError, ParameterError
from qpicross.model.size import check_allocation
from qpicross.samplers.blockshift import board as _board, profile as _profile
from qpicross.samplers.blockshift.layouts import make_params
from qpicross.samplers.blockshift.structure import (beta_range_of, default_beta_range, infer_groups, infer_lines,
                                                  read_structure)
from qpicross.samplers.blockshift.plans import (MAX_RESTART_SWEEPS, POPULATION_SWEEPS, RESTART_SWEEPS, LubyRestarts,
                                                long_restarts, luby, population_restarts, restart_plan)
from qpicross.samplers.blockshift.restarts import ReadRunner, default_threads
from qpicross.samplers.control import RunControl
from qpicross.samplers.parameters import BYTES_PER_READ, SHIFT_PARAMETERS, describe, settle

__all__ = ["BlockShiftSampler", "default_beta_range", "default_threads", "infer_groups", "infer_lines", "luby",
           "restart_plan", "RESTART_SWEEPS", "MAX_RESTART_SWEEPS"]

#: ``profile_lines`` -> the free axes (0: rows, 1: columns) of the profile chain's restarts, in turn.
_PROFILE_AXES = {"rows": (0,), "columns": (1,), "alternate": (0, 1)}
#: Bound of ``schedule="population"`` beside its members and steps (``MAX_POPULATION``, ``MAX_POPULATION_STEPS``
#: of :mod:`qpicross.samplers.parameters`), checked before anything is allocated: members times cells (each
#: member's state and its copy for resampling take about 40 bytes a cell).
MAX_POPULATION_CELLS = 10_000_000


#: :meth:`BlockShiftSampler.sample`'s docstring: its arguments come from the table that declares them,
#: :data:`~qpicross.samplers.parameters.SHIFT_PARAMETERS`.
_SAMPLE_DOC = """Sample a BQM.

        Args:
            bqm: The model (any vartype; spins are handled through the binary form).
{args}

        Returns:
            One sample per read, with energies from the BQM. ``info`` holds ``timing`` (seconds:
            ``preprocess_s``, the model's structure and the kernels' compilation or cache; ``sample_s``, the
            reads with the calibration's sweeps; ``calibration_s``; ``restart_s``, the restarts' wall seconds
            summed over streams, so that on one stream ``sum(read_s) - calibration_s - restart_s`` is what ran in
            Python between restarts), ``restarts`` and ``sweeps`` (per read: restarts run, every stream's, and
            sweeps done) and, with ``target_energy``, per read in read order
            ``sweeps_to_target`` and ``time_to_target_s`` (seconds from the read's start, the first read's
            with the calibration's few milliseconds of sweeps before it, its compilation apart;
            ``math.inf`` where the read never reached the target); ``read_s``, each read's wall seconds on
            the same clock, whether it reached the target or not; ``core_s``, each read's CPU seconds (every
            stream's thread together: the process's CPU time over the read; the first read's with the
            calibration's, counted as one thread's wall seconds), the core-seconds it cost.

        Raises:
            ParameterError: For a bad parameter (``paints`` that do not give every variable its segment included).
            ModelStructureError: For a group naming an unknown variable.
            ModelTooLargeError: When the reads' arrays (``num_reads`` times the variables) or an annealing
                schedule would not fit in :func:`~qpicross.model.size.memory_limit`, before they are allocated.

        Warns:
            UserWarning: When neither ``lines`` nor ``groups`` is given and the labels name no group.

        On Ctrl-C the running read stops within a sweep and the reads so far (the
        interrupted one included, with its best state) are returned with
        ``info["interrupted"] = True``; when ``interrupt_function`` says stop, the same with ``info["halted"] = True``.
        """


class BlockShiftSampler(dimod.Sampler):
    """Constraint-preserving simulated annealing / parallel tempering (see the module docstring).

    Block moves are Metropolis on the BQM restricted to one-hot states; line
    moves are heat-bath redraws of a line among the placements consistent with
    its clue. With line moves on, ``order`` and ``at_most_one`` are hard
    constraints and the chain samples the BQM restricted to clue-consistent
    lines; with ``line_moves=0`` it samples the BQM restricted to one-hot states.
    Block moves run by default only when ``line_moves < 1`` (``block_moves``;
    see the module docstring for why and what it measures).

    Examples:
        >>> import dimod
        >>> bqm = dimod.BinaryQuadraticModel({"a": 1, "b": -1}, {("a", "b"): 0.5}, 0, "BINARY")
        >>> ss = BlockShiftSampler().sample(bqm, groups=[], num_reads=3, seed=0)  # no groups: single flips
        >>> ss.record.sample.shape, float(ss.first.energy)
        ((3, 2), -1.0)
        >>> ss = BlockShiftSampler().sample(bqm, groups=[["a", "b"]], num_reads=3, num_sweeps=100,
        ...                                 target_energy=-1, seed=0)
        >>> float(ss.first.energy), len(ss.info["sweeps_to_target"])
        (-1.0, 3)
    """

    @property
    def parameters(self) -> dict:
        return {name: [] for name in SHIFT_PARAMETERS}

    @property
    def properties(self) -> dict:
        moves = {"block": "Metropolis on the BQM restricted to one-hot states (and to clue-consistent lines "
                 "when line moves are on); by default only when line_moves < 1",
                 "free": "single-flip Metropolis",
                 "line": "heat-bath redraw of a line among the placements consistent with its clue"}
        targets = {"line_moves=0": "exp(-beta E) over the one-hot states",
                   "line_moves>0": "exp(-beta E) over the clue-consistent states (order, at_most_one hard)",
                   "chain=profile": "exp(-beta min_columns E) over clue-consistent rows, each column minimised out "
                                    "(profile_lines='columns': the other way round)"}
        return {"moves": moves, "targets": targets, "threaded": True, "independent_reads": True,
                "schedules": ["anneal", "tempering", "luby restarts of tempering",
                              "luby restarts of population annealing (profile chain)"]}

    def sample(self, bqm: dimod.BinaryQuadraticModel, **parameters) -> dimod.SampleSet:
        settings = _settings(bqm, self.remove_unknown_kwargs(**parameters))
        t0 = time.perf_counter()
        model = _Model(bqm, settings)
        control = RunControl(settings.time_limit, settings.progress, settings.num_reads, start=t0,
                             interrupt_function=settings.interrupt_function)
        runner = model.runner(control)
        reads = _Reads(settings, model.n)
        runner.warm_up(reads.samples[0], reads.seeds[0], *next(iter(model.plan)))  # compiles, times a sweep
        t1 = time.perf_counter()
        for read in control.going(range(settings.num_reads)):  # Python between reads: honest per-read times
            control.reads_done = read
            reads.draw(read, runner, model)
        return reads.sampleset(bqm, model, runner, control, t1 - t0, time.perf_counter() - t1)

    sample.__doc__ = _SAMPLE_DOC.format(args=describe(SHIFT_PARAMETERS))


def _settings(bqm, given: dict) -> SimpleNamespace:
    """The call's settings: every parameter of :data:`~qpicross.samplers.parameters.SHIFT_PARAMETERS` checked by its
    entry, then the defaults that depend on others filled in (the schedule, its sweeps and unit, the replicas,
    the block moves) and the one rule between two of them checked."""
    if not isinstance(bqm, dimod.BinaryQuadraticModel):
        raise ParameterError(f"bqm must be a dimod.BinaryQuadraticModel, got {type(bqm).__name__}")
    s = SimpleNamespace(**settle(SHIFT_PARAMETERS, given))
    if s.schedule == "auto":
        s.schedule = "fixed" if s.num_replicas is not None or s.beta_range is not None else "luby"
    if s.restart_sweeps is None:
        s.restart_sweeps = POPULATION_SWEEPS if s.schedule == "population" else RESTART_SWEEPS
    if s.num_sweeps is None:
        s.num_sweeps = {"luby": MAX_RESTART_SWEEPS, "population": 25 * s.restart_sweeps}.get(s.schedule, 1000)
    s.num_replicas = 4 if s.num_replicas is None else s.num_replicas
    s.block_moves = s.line_moves < 1 if s.block_moves is None else s.block_moves
    if not s.block_moves and s.line_moves == 0:
        raise ParameterError("block_moves=False needs line_moves > 0: nothing else moves a block")
    s.chains = [s.chain] if s.stream_chains is None else list(s.stream_chains)
    s.time_limit = None if s.time_limit is None else float(s.time_limit)
    return s


class _Model:
    """What a call's reads run on, prepared once before them: the binary model and its structure, the board and
    the profile chains where they apply, the restart plans, and the kernels' parameters."""

    def __init__(self, bqm: dimod.BinaryQuadraticModel, s: SimpleNamespace):
        self.settings = s
        self.binary = binary = bqm.change_vartype(dimod.BINARY, inplace=False) if bqm.vartype is dimod.SPIN else bqm
        self.variables = variables = list(binary.variables)
        self.n = n = len(variables)
        check_allocation(f"{s.num_reads:,} reads of {n:,} variables", s.num_reads * (n + BYTES_PER_READ),
                         "draw fewer reads (num_reads), or them in several calls")
        if s.schedule == "fixed" and s.num_replicas == 1:  # annealing: one inverse temperature per sweep
            check_allocation(f"an annealing schedule of {s.num_sweeps:,} sweeps", 8 * s.num_sweeps,
                             "run fewer sweeps (num_sweeps)")
        missing = next((v for v in variables if v not in s.paints), None) if s.paints is not None else None
        if missing is not None:
            raise ParameterError(f"paints gives no (axis, line, start, length) for the variable {missing!r}")
        self.model, self.couplings = read_structure(binary, variables, self._lines(binary, s))
        self.beta_range = beta_range_of(self.model.linear, self.couplings[2]) if s.beta_range is None else \
            tuple(float(b) for b in s.beta_range)
        target = -np.inf if s.target_energy is None else float(s.target_energy) - binary.offset
        moves = (s.shift_probability, s.line_moves, s.block_moves, s.window_exchange)
        self.params = make_params(moves, s.return_state == "last", target)
        self.board = None if s.line_moves == 0 else _board.picross_board(variables, self.model, self.couplings,
                                                                         paints=s.paints, layout=s.layout)
        self.profile = self._profile(s)
        self.plan, self.stream_plans = _plans(s, self.beta_range)

    @staticmethod
    def _lines(binary, s):
        """The lines of one-hot groups: ``lines``, else the layout's, else ``groups``, else the labels'."""
        if s.layout is not None:
            s.layout.check(binary)
        lines = s.layout.lines if s.lines is None and s.layout is not None else s.lines
        if lines is None:
            lines = infer_lines(list(binary.variables)) if s.groups is None else [[list(g)] for g in s.groups]
            if s.groups is None and not lines and binary.num_variables:
                warnings.warn("BlockShiftSampler found no one-hot groups in the BQM's labels and falls back "
                              "to single flips; pass lines= (e.g. formulation.one_hot_lines()) or groups= "
                              "to supply the structure", UserWarning, stacklevel=4)
        return lines

    def _profile(self, s):
        """The profile chains of the restarts' free axes in turn, or None where the profile chain does not apply
        (and is not asked for)."""
        board, profile = self.board, None
        if board is not None and set(s.chains) != {"joint"} and not s.block_moves:
            profile = tuple(_profile.profile_model(board[0], self.model, axis) for axis in _PROFILE_AXES[s.profile_lines])
            profile = None if any(m is None for m in profile) else profile
        if "profile" in s.chains and profile is None:
            raise ModelStructureError("chain='profile' needs layout= or paints= of a Picross BQM (constant + w x "
                                      "mismatches) with plain nonogram lines, line_moves > 0 and no block moves")
        if s.schedule == "population" and (profile is None or "joint" in s.chains):
            raise ModelStructureError("schedule='population' runs the profile chain: it needs layout= or paints= of a "
                                      "Picross BQM (constant + w x mismatches) with plain nonogram lines, line_moves > "
                                      "0, no block moves and no joint chain")
        if s.schedule == "population" and s.population * int(board[0].n_cells) > MAX_POPULATION_CELLS:
            raise ParameterError(f"population={s.population} members of {int(board[0].n_cells)} cells each is more "
                                 f"than {MAX_POPULATION_CELLS:,} cells in all (the population's memory)")
        return profile

    def runner(self, control: RunControl) -> ReadRunner:
        """The read runner of this model under ``control``."""
        s = self.settings
        profiles = [None if c == "joint" else self.profile for c in s.chains]  # stream i: profiles[i % len]
        mixed = s.schedule == "luby" and s.stream_plans == "mixed"  # a long-restart stream beside the Luby one
        # the default's long restarts (stream_plans="mixed") run the joint chain: more sweeps a second, wide ladder
        long_joint = self.profile is not None and s.chains == ["auto"] and mixed and s.threads > 1
        runner = ReadRunner(self.model, self.n, len(self.model.group_ptr) - 1, self.params, control,
                            self.binary.offset, board=self.board, threads=int(s.threads), profiles=profiles,
                            long_joint=long_joint)
        runner.anneal = s.schedule == "fixed" and s.num_replicas == 1  # one chain along ``betas``
        runner.population = int(s.population) if s.schedule == "population" else 0
        return runner


def _plans(s: SimpleNamespace, beta_range) -> tuple:
    """The restart plan of a read's first stream, and the plans of its streams (cycled)."""
    if s.schedule == "luby":
        plan = LubyRestarts(s.num_sweeps, s.restart_sweeps, beta_range, rungs=s.rungs)  # lazily: a budget may be huge
        if s.stream_plans == "long":  # no lead: the same restarts for the same seed on one thread
            plan = long_restarts(s.num_sweeps, s.restart_sweeps, beta_range, lead_s=0, rungs=s.rungs)
        elif s.stream_plans == "mixed":
            return plan, [plan, long_restarts(s.num_sweeps, s.restart_sweeps, beta_range, rungs=s.rungs)]
    elif s.schedule == "population":
        plan = population_restarts(s.num_sweeps, s.restart_sweeps, beta_range, int(s.population_steps))
    else:
        betas = np.geomspace(*beta_range, max(s.num_sweeps, 1) if s.num_replicas == 1 else s.num_replicas)
        plan = [(betas, s.num_sweeps)]
    return plan, [plan]  # "same", "long", or any under a fixed schedule: one plan


class _Reads:
    """A call's reads as they are drawn: their states and, per read, sweeps, restarts, times and seeds."""

    def __init__(self, s: SimpleNamespace, n: int):
        num_reads = s.num_reads
        self.seeds = np.random.SeedSequence(s.seed).generate_state(num_reads).astype(np.int64)
        self.samples = np.empty((num_reads, n), np.int8)
        self.sweeps = np.zeros(num_reads, np.int64)
        self.to_target, self.to_target_s = np.full(num_reads, math.inf), np.full(num_reads, math.inf)
        self.read_s = np.zeros(num_reads)  # each read's wall seconds, hit or not (exact censoring times)
        self.restarts = np.zeros(num_reads, np.int64)  # each read's restarts, every stream's
        self.core_s = np.zeros(num_reads)  # each read's CPU seconds, every stream's thread together (the process's)
        self.drawn = 0

    def draw(self, read: int, runner: ReadRunner, model: _Model) -> None:
        """Draw read ``read``; the first also pays for the calibration (the clock of a sampler without one)."""
        start, cpu_start = time.perf_counter(), time.process_time()
        before = runner.restarts
        self.sweeps[read], reached = runner.read(self.samples[read], self.seeds[read], model.plan, model.stream_plans)
        self.restarts[read] = runner.restarts - before
        calibration = runner.calibration_s if read == 0 else 0.0
        self.read_s[read] = time.perf_counter() - start + calibration
        self.core_s[read] = time.process_time() - cpu_start + calibration  # the calibration on one thread
        if reached >= 0:
            self.to_target_s[read], self.to_target[read] = self.read_s[read], reached
        self.drawn = read + 1

    def sampleset(self, bqm, model: _Model, runner: ReadRunner, control: RunControl, preprocess_s: float,
                  sample_s: float) -> dimod.SampleSet:
        """The reads drawn as a sample set of ``bqm``, with the ``info`` the sampler's docstring lists."""
        s, drawn = model.settings, self.drawn
        samples = self.samples[:drawn]
        samples = 2 * samples - 1 if bqm.vartype is dimod.SPIN else samples
        sampleset = dimod.SampleSet.from_samples_bqm((samples, model.variables), bqm)
        calibration = runner.calibration_s  # sampling, on the reads' clock; compiling is preprocessing
        chains = runner.chain_names(model.stream_plans)
        sampleset.info.update(
            timing={"preprocess_s": preprocess_s - calibration, "sample_s": sample_s + calibration,
                    "calibration_s": calibration, "restart_s": runner.restart_s},
            restarts=self.restarts[:drawn].tolist(), read_s=self.read_s[:drawn].tolist(),
            core_s=self.core_s[:drawn].tolist(), sweeps=self.sweeps[:drawn].tolist(), schedule=s.schedule,
            kernel="bqm" if model.board is None else "board", stream_chains=chains, chain=chains[0],
            profile_lines=s.profile_lines if model.profile is not None else None, threads=int(s.threads),
            interrupted=control.interrupted, timed_out=control.timed_out, halted=control.halted)
        if s.target_energy is not None:
            sampleset.info["sweeps_to_target"] = [int(k) if math.isfinite(k) else math.inf
                                                  for k in self.to_target[:drawn]]
            sampleset.info["time_to_target_s"] = self.to_target_s[:drawn].tolist()
        return sampleset
