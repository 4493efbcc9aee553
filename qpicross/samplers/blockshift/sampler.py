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
:mod:`~qpicross.samplers.blockshift.cluster` on worker processes or a Dask cluster, and
:mod:`~qpicross.samplers.blockshift.batched` many ladders of many puzzles in one launch.
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Hashable, Mapping, Sequence
from typing import TYPE_CHECKING

import dimod
import numpy as np

from qpicross.exceptions import ModelStructureError, ParameterError
from qpicross.model.size import check_allocation
from qpicross.samplers.blockshift import board as _board, profile as _profile
from qpicross.samplers.blockshift.layouts import make_params
from qpicross.samplers.blockshift.structure import (beta_range_of, default_beta_range, infer_groups, infer_lines,
                                                  read_structure)
from qpicross.samplers.blockshift.plans import (MAX_RESTART_SWEEPS, POPULATION, POPULATION_STEPS, POPULATION_SWEEPS,
                                                RESTART_SWEEPS, LubyRestarts, long_restarts, luby, population_restarts,
                                                restart_plan)
from qpicross.samplers.blockshift.restarts import ReadRunner, default_threads
from qpicross.samplers.control import ProgressHook, RunControl, check_time_limit
from qpicross.samplers.parameters import BYTES_PER_READ, check_shift_arguments, check_shift_values

if TYPE_CHECKING:
    from qpicross.model.layout import PicrossLayout

__all__ = ["BlockShiftSampler", "default_beta_range", "default_threads", "infer_groups", "infer_lines", "luby",
           "restart_plan", "RESTART_SWEEPS", "MAX_RESTART_SWEEPS"]

#: ``profile_lines`` -> the free axes (0: rows, 1: columns) of the profile chain's restarts, in turn.
_PROFILE_AXES = {"rows": (0,), "columns": (1,), "alternate": (0, 1)}
#: Bound of ``schedule="population"`` beside its members and steps (``MAX_POPULATION``, ``MAX_POPULATION_STEPS``
#: of :mod:`qpicross.samplers.parameters`), checked before anything is allocated: members times cells (each
#: member's state and its copy for resampling take about 40 bytes a cell).
MAX_POPULATION_CELLS = 10_000_000


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
        names = ("num_reads", "num_sweeps", "seed", "beta_range", "num_replicas", "shift_probability",
                 "line_moves", "block_moves", "lines", "groups", "target_energy", "return_state", "schedule",
                 "restart_sweeps", "progress", "time_limit", "paints", "layout", "threads", "stream_plans", "chain",
                 "stream_chains", "profile_lines", "population", "population_steps", "scheduler")
        return {name: [] for name in names}

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

    def sample(
        self,
        bqm: dimod.BinaryQuadraticModel,
        *,
        num_reads: int = 10,
        num_sweeps: int | None = None,
        seed: int | None = None,
        beta_range: tuple[float, float] | None = None,
        num_replicas: int | None = None,
        shift_probability: float = 0.5,
        line_moves: float = 1.0,
        block_moves: bool | None = None,
        lines: Sequence[Sequence[Sequence[Hashable]]] | None = None,
        groups: Sequence[Sequence[Hashable]] | None = None,
        target_energy: float | None = None,
        return_state: str = "best",
        schedule: str = "auto",
        restart_sweeps: int | None = None,
        progress: ProgressHook | None = None,
        time_limit: float | None = None,
        paints: Mapping[Hashable, tuple[int, int, int, int]] | None = None,
        layout: PicrossLayout | None = None,
        threads: int = 1,
        stream_plans: str = "mixed",
        chain: str = "auto",
        stream_chains: Sequence[str] | None = None,
        profile_lines: str = "alternate",
        population: int = POPULATION,
        population_steps: int = POPULATION_STEPS,
        scheduler=None,
        **kwargs,
    ) -> dimod.SampleSet:
        """Sample a BQM.

        Args:
            bqm: The model (any vartype; spins are handled through the binary form).
            num_reads: Independent reads (restarts).
            num_sweeps: Sweeps per read (with ``schedule="luby"`` or ``"population"``: in all its restarts
                together; default 1000 for ``"fixed"``, :data:`MAX_RESTART_SWEEPS` for ``"luby"``, 25 units
                for ``"population"``); a sweep proposes one move per group and free variable, then line
                moves (per replica with tempering, per member of the population).
            seed: Random seed (0 <= seed < 2**32); the same seed gives the same samples.
            beta_range: ``(hot, cold)`` inverse temperatures (default: :func:`default_beta_range`).
            num_replicas: 1: annealing, geometric from ``beta_range[0]`` to ``beta_range[1]`` over the
                sweeps; more (default 4 with a fixed schedule): parallel tempering, replicas at fixed
                inverse temperatures geometric over ``beta_range``, neighbours swapped after every sweep.
            shift_probability: Chance that a block move shifts the block by one start.
            line_moves: Chance per sweep that each line is redrawn by a line move (0: never, and block
                moves may then break the clue's order).
            block_moves: Whether each sweep proposes a block move for every group (free variables are
                always flipped). Default: only when ``line_moves < 1`` (with every line redrawn every
                sweep they only add a cheaper, approximate round of line updates; the ablation in the docs' results
                measures them). ``False`` needs ``line_moves > 0``.
            lines: Lines, each a list of one-hot groups (its blocks in order), each a list of variables
                (its starts in order), as :meth:`~qpicross.model.formulation.PicrossFormulation.one_hot_lines`
                gives them. Takes precedence over ``groups``.
            groups: One-hot groups of variables, each its own line (default: inferred from the labels
                ``(kind, line, start, block)`` by :func:`infer_lines`; ``[]``: none, single flips).
            target_energy: Stop a read once it reaches this energy, and record when it did.
            return_state: ``"best"``: each read's lowest-energy state; ``"last"``: its final state
                (with tempering, the replica at ``beta_range[1]``).
            schedule: ``"fixed"``: one tempering run per read with ``num_replicas`` and ``beta_range``;
                ``"luby"``: the self-tuning schedule (see :func:`restart_plan`): each read is a sequence
                of independent tempering restarts whose lengths follow the Luby sequence, the ladder
                widening with the length; ``"population"``: Luby restarts of population annealing
                (:mod:`~qpicross.samplers.blockshift.population`; the profile chain only), each restart one run of
                ``population`` members along ``population_steps`` temperatures; ``"auto"`` (default):
                ``"luby"`` unless ``num_replicas`` or ``beta_range`` is given.
            restart_sweeps: The Luby unit: the length of the shortest restarts (default
                :data:`RESTART_SWEEPS`; with ``schedule="population"``, :data:`POPULATION_SWEEPS` sweeps of
                the whole population).
            progress: Called about twice a second while a read runs, as ``progress(reads_done, num_reads,
                best_energy)`` (the reads finished so far and the best energy of the call so far).
            time_limit: Seconds after which the call stops (the running read within a sweep, keeping
                its best state) and returns the reads so far with ``info["timed_out"] = True``.
            paints: What each variable paints, ``{label: (axis, line, start, length)}`` (as
                :meth:`~qpicross.model.formulation.PicrossFormulation.paints` gives it). When the BQM is,
                on clue-consistent states, a constant plus a weight times the cells where the rows' and
                the columns' boards differ (checked exactly, see :func:`~qpicross.samplers.blockshift.board.board_model`),
                reads run on the board layout: the same chain, the same samples for the same seed,
                faster on large puzzles (``make bench-kernels``). Otherwise it is ignored;
                ``info["kernel"]`` says which kernel ran.
            layout: The Picross model's own layout (:meth:`~qpicross.model.formulation.PicrossFormulation.layout`
                of the weights the BQM was built with): its lines (the default of ``lines``) and, where it vouches
                for the board energy, the board, read from it instead of checked against the BQM as ``paints``
                are (where it cannot vouch, its paints are checked as ``paints`` would be). The BQM is only
                checked to be the one the layout was made for (:meth:`~qpicross.model.layout.PicrossLayout.check`:
                its variables, offset and two linear biases; a ``ModelStructureError`` otherwise). The same seed
                gives the same samples as ``lines=`` and ``paints=`` of the same formulation.
            threads: Restart streams each read runs at once, one per thread (the compiled kernels
                release the GIL, so each gets a core of its own). Stream 0 is the read ``threads=1``
                runs; the others run ``stream_plans``' plans from seeds of their own. The first stream to
                reach ``target_energy`` stops the others, and the read returns its state (without a
                target: the lowest-energy stream's). A read's time is then wall-clock time on
                ``threads`` cores, and its ``sweeps`` are those of all its streams together. Which
                stream finishes first depends on timing: only ``threads=1`` gives the same samples
                for the same seed. Restarts short enough to run without a thread (small puzzles)
                always run one stream.
            stream_plans: With ``threads > 1`` and the Luby schedule: ``"mixed"`` (default), the
                odd-numbered streams run :func:`~qpicross.samplers.blockshift.plans.long_restarts` (for their first
                second the restarts of :func:`restart_plan`, then Luby restarts of 32 000 sweeps on the
                8-replica ladder) against the even ones' :func:`restart_plan`, a portfolio of a
                short-restart and a long-run strategy; ``"same"``: every stream runs
                :func:`restart_plan`; ``"long"``: every stream (one thread included) runs only the long
                restarts of :func:`~qpicross.samplers.blockshift.plans.long_restarts`, with no lead.
            chain: ``"auto"`` (default): the profile chain where it applies (``paints`` on a model the
                board layout takes, plain nonogram lines, block moves off), else the joint chain; with
                ``threads > 1`` and ``stream_plans="mixed"``, the long restarts after the lead run the
                joint chain (``info["stream_chains"]``: ``"profile then joint"``);
                ``"profile"``: the profile chain (a ``ValueError`` where it does not apply); ``"joint"``:
                rows and columns sampled together, as without ``paints``. See the module docstring.
            stream_chains: With ``threads > 1``, the chain of each stream, cycled (stream ``i`` runs
                ``stream_chains[i % len(stream_chains)]``): ``("profile", "joint")`` races the two
                chains in one read, lead and long restarts alike. Default: every stream runs ``chain``.
                ``info["stream_chains"]`` says which chain each stream ran; ``info["chain"]`` is stream 0's.
            profile_lines: The lines the profile chain samples (the others are minimised out):
                ``"rows"``, ``"columns"``, or ``"alternate"`` (default): a read's restarts take rows and
                columns in turn, restart ``k`` of stream ``i`` (from 0) rows when ``i + k`` is even. Which
                axis is the easier one depends on the puzzle (by factors of ten and more on some
                tournament puzzles); a puzzle and its transpose are the same problem, so the default
                favours neither. A single restart (``schedule="fixed"``) samples rows.
            population: With ``schedule="population"``: the members of each run (1 to
                :data:`~qpicross.samplers.parameters.MAX_POPULATION`; their states together at most :data:`MAX_POPULATION_CELLS` cells).
            population_steps: With ``schedule="population"``: the inverse temperatures of each run, linear
                from half of ``beta_range[0]`` to ``beta_range[1]``; the population is resampled at each.
            scheduler: Run each read's restart streams on a Dask cluster instead of threads, one stream per
                worker: ``"local:N"`` (``N`` local processes), a scheduler address or a
                :class:`distributed.Client` (:mod:`~qpicross.samplers.blockshift.cluster`; ``threads`` is then
                not used).

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
        ``info["interrupted"] = True``.
        """
        self.remove_unknown_kwargs(**kwargs)
        check_shift_arguments(bqm, num_reads=num_reads, num_sweeps=num_sweeps, num_replicas=num_replicas,
                              shift_probability=shift_probability, line_moves=line_moves, beta_range=beta_range,
                              lines=lines, groups=groups, paints=paints)
        if schedule not in ("auto", "fixed", "luby", "population"):
            raise ParameterError(f"schedule must be 'auto', 'fixed', 'luby' or 'population', got {schedule!r}")
        if schedule == "auto":
            schedule = "fixed" if num_replicas is not None or beta_range is not None else "luby"
        if restart_sweeps is None:
            restart_sweeps = POPULATION_SWEEPS if schedule == "population" else RESTART_SWEEPS
        if num_sweeps is None:
            num_sweeps = {"luby": MAX_RESTART_SWEEPS, "population": 25 * restart_sweeps}.get(schedule, 1000)
        num_replicas = 4 if num_replicas is None else num_replicas
        block_moves = line_moves < 1 if block_moves is None else block_moves
        check_shift_values(num_reads=num_reads, num_sweeps=num_sweeps, num_replicas=num_replicas,
                           restart_sweeps=restart_sweeps, shift_probability=shift_probability, line_moves=line_moves,
                           block_moves=block_moves, seed=seed, return_state=return_state, threads=threads,
                           chain=chain, stream_chains=stream_chains, profile_lines=profile_lines,
                           stream_plans=stream_plans, population=population, population_steps=population_steps)
        chains = [chain] if stream_chains is None else list(stream_chains)
        time_limit = check_time_limit(time_limit)
        if scheduler is not None:  # one restart stream per worker of a Dask cluster
            from qpicross.samplers.blockshift import cluster

            params = dict(num_sweeps=num_sweeps, beta_range=beta_range, shift_probability=shift_probability,
                          line_moves=line_moves, block_moves=block_moves, lines=lines, groups=groups,
                          return_state=return_state, schedule=schedule, restart_sweeps=restart_sweeps, paints=paints,
                          chain=chain, profile_lines=profile_lines, population=population,
                          population_steps=population_steps, layout=layout)
            if schedule == "fixed":
                params["num_replicas"] = num_replicas
            return cluster.StreamsComposite(self, scheduler).sample(
                bqm, num_reads=num_reads, seed=seed, target_energy=target_energy, time_limit=time_limit,
                progress=progress, **params)
        t0 = time.perf_counter()
        binary = bqm.change_vartype(dimod.BINARY, inplace=False) if bqm.vartype is dimod.SPIN else bqm
        variables = list(binary.variables)
        n = len(variables)
        check_allocation(f"{num_reads:,} reads of {n:,} variables", num_reads * (n + BYTES_PER_READ),
                         "draw fewer reads (num_reads), or them in several calls")
        if schedule == "fixed" and num_replicas == 1:  # annealing: one inverse temperature per sweep
            check_allocation(f"an annealing schedule of {num_sweeps:,} sweeps", 8 * num_sweeps,
                             "run fewer sweeps (num_sweeps)")
        if paints is not None:
            missing = next((v for v in variables if v not in paints), None)
            if missing is not None:
                raise ParameterError(f"paints gives no (axis, line, start, length) for the variable {missing!r}")
        if beta_range is not None:
            hot, cold = (float(b) for b in beta_range)
            if not (0 < hot and 0 < cold):
                raise ParameterError(f"beta_range must be positive, got {beta_range}")

        if layout is not None:
            from qpicross.model.layout import PicrossLayout

            if not isinstance(layout, PicrossLayout):
                raise ParameterError(f"layout must be a PicrossLayout (formulation.layout()), got {type(layout).__name__}")
            layout.check(binary)
            lines = layout.lines if lines is None else lines
        if lines is None:
            lines = infer_lines(variables) if groups is None else [[list(g)] for g in groups]
            if groups is None and not lines and n:
                warnings.warn("BlockShiftSampler found no one-hot groups in the BQM's labels and falls back "
                              "to single flips; pass lines= (e.g. formulation.one_hot_lines()) or groups= "
                              "to supply the structure", UserWarning, stacklevel=2)
        model, couplings = read_structure(binary, variables, lines)
        if beta_range is None:
            hot, cold = beta_range_of(model.linear, couplings[2])

        seeds = np.random.SeedSequence(seed).generate_state(num_reads).astype(np.int64)
        target = -np.inf if target_energy is None else float(target_energy) - binary.offset
        mixed = schedule == "luby" and stream_plans == "mixed"  # a long-restart stream beside the Luby one
        if schedule == "luby":
            plan = LubyRestarts(num_sweeps, restart_sweeps, (hot, cold))  # lazily: a budget may be huge
            if stream_plans == "long":  # no lead: the same restarts for the same seed on one thread
                plan = long_restarts(num_sweeps, restart_sweeps, (hot, cold), lead_s=0)
            elif stream_plans == "mixed":
                stream_plans = [plan, long_restarts(num_sweeps, restart_sweeps, (hot, cold))]
        elif schedule == "population":
            plan = population_restarts(num_sweeps, restart_sweeps, (hot, cold), int(population_steps))
        else:
            betas = np.geomspace(hot, cold, max(num_sweeps, 1) if num_replicas == 1 else num_replicas)
            plan = [(betas, num_sweeps)]
        if isinstance(stream_plans, str):  # "same", "long", or any under a fixed schedule: one plan
            stream_plans = [plan]
        units = len(model.group_ptr) - 1
        samples = np.empty((num_reads, n), np.int8)
        sweeps_done = np.zeros(num_reads, np.int64)
        to_target, seconds = np.full(num_reads, math.inf), np.full(num_reads, math.inf)
        durations = np.zeros(num_reads)  # each read's wall seconds, hit or not (exact censoring times)
        restarts = np.zeros(num_reads, np.int64)  # each read's restarts, every stream's
        cpu = np.zeros(num_reads)  # each read's CPU seconds, every stream's thread together (the process's)
        params = make_params((shift_probability, line_moves, block_moves), return_state == "last", target)
        board = None if line_moves == 0 else _board.picross_board(variables, model, couplings, paints=paints,
                                                                  layout=layout)
        profile = None
        if board is not None and set(chains) != {"joint"} and not block_moves:
            profile = tuple(_profile.profile_model(board[0], model, axis) for axis in _PROFILE_AXES[profile_lines])
            profile = None if any(m is None for m in profile) else profile  # the restarts' free axes in turn
        if "profile" in chains and profile is None:
            raise ModelStructureError("chain='profile' needs layout= or paints= of a Picross BQM (constant + w x "
                                      "mismatches) with plain nonogram lines, line_moves > 0 and no block moves")
        if schedule == "population" and (profile is None or "joint" in chains):
            raise ModelStructureError("schedule='population' runs the profile chain: it needs layout= or paints= of a "
                                      "Picross BQM (constant + w x mismatches) with plain nonogram lines, line_moves > "
                                      "0, no block moves and no joint chain")
        if schedule == "population" and population * int(board[0].n_cells) > MAX_POPULATION_CELLS:
            raise ParameterError(f"population={population} members of {int(board[0].n_cells)} cells each is more than "
                                 f"{MAX_POPULATION_CELLS:,} cells in all (the population's memory)")
        profiles = [None if c == "joint" else profile for c in chains]  # stream i: profiles[i % len(profiles)]
        # the default's long restarts (stream_plans="mixed") run the joint chain: more sweeps a second on a wide ladder
        long_joint = profile is not None and chains == ["auto"] and mixed and threads > 1
        control = RunControl(time_limit, progress, num_reads, start=t0)
        runner = ReadRunner(model, n, units, params, control, binary.offset, board=board, threads=int(threads),
                            profiles=profiles, long_joint=long_joint)
        runner.anneal = schedule == "fixed" and num_replicas == 1  # one chain along ``betas``
        runner.population = int(population) if schedule == "population" else 0
        runner.warm_up(samples[0], seeds[0], *next(iter(plan)))  # compiles and times a sweep, outside the reads
        t1 = time.perf_counter()
        drawn = num_reads
        for read in range(num_reads):  # Python between reads and restarts: honest per-read times
            start, cpu_start = time.perf_counter(), time.process_time()
            control.reads_done = read
            if read and start >= control.deadline.at:
                control.timed_out, drawn = True, read
                break
            before = runner.restarts
            sweeps_done[read], reached = runner.read(samples[read], seeds[read], plan, stream_plans)
            restarts[read] = runner.restarts - before
            # the first read also pays for the calibration: the same clock as a sampler without one
            durations[read] = time.perf_counter() - start + (runner.calibration_s if read == 0 else 0.0)
            cpu[read] = time.process_time() - cpu_start + (runner.calibration_s if read == 0 else 0.0)  # one thread
            if reached >= 0:
                seconds[read], to_target[read] = durations[read], reached
            if control.stopped:
                drawn = read + 1
                break
        samples, sweeps_done, to_target, seconds, durations, cpu = (a[:drawn] for a in (samples, sweeps_done, to_target,
                                                                                        seconds, durations, cpu))
        t2 = time.perf_counter()
        if bqm.vartype is dimod.SPIN:
            samples = 2 * samples - 1
        sampleset = dimod.SampleSet.from_samples_bqm((samples, variables), bqm)
        calibration = runner.calibration_s  # sampling, on the reads' clock; compiling is preprocessing
        sampleset.info["timing"] = {"preprocess_s": t1 - t0 - calibration, "sample_s": t2 - t1 + calibration,
                                    "calibration_s": calibration, "restart_s": runner.restart_s}
        sampleset.info["restarts"] = restarts[:drawn].tolist()
        sampleset.info["read_s"] = durations.tolist()
        sampleset.info["core_s"] = cpu.tolist()
        sampleset.info["sweeps"] = sweeps_done.tolist()
        sampleset.info["schedule"] = schedule
        sampleset.info["kernel"] = "bqm" if board is None else "board"
        sampleset.info["stream_chains"] = runner.chain_names(stream_plans)
        sampleset.info["chain"] = sampleset.info["stream_chains"][0]
        sampleset.info["profile_lines"] = profile_lines if profile is not None else None
        sampleset.info["threads"] = int(threads)
        sampleset.info["interrupted"] = control.interrupted
        sampleset.info["timed_out"] = control.timed_out
        if target_energy is not None:
            sampleset.info["sweeps_to_target"] = [int(k) if math.isfinite(k) else math.inf for k in to_target]
            sampleset.info["time_to_target_s"] = seconds.tolist()
        return sampleset
