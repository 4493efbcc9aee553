r"""A batched block-shift annealer: many ladders of many puzzles in one launch, on a CUDA GPU or on the CPU.

:class:`BatchedShiftSampler` (``shift-batched``, ``shift-batched-cpu``) runs
``num_reads`` independent tempering *ladders* for each of the models of a
launch (:func:`sample_many`), on one of two chains:

* **the profile chain** (Picross models: formulations, or BQMs with their
  ``layout`` or ``paints``; the default where every model of the launch is one): each ladder
  is one restart stream of the CPU sampler's default algorithm -- Luby restarts
  of parallel tempering, the free axis taken in turn -- run by the very functions
  the CPU sampler calls;
* **the joint chain** (any other one-hot BQM): the CPU sampler's joint chain on local
  fields, one restart of a fixed schedule per ladder: parallel tempering of
  ``num_replicas`` replicas over ``beta_range`` (one: annealing from hot to cold).

Both run on one driver (:mod:`~qpicross.samplers.blockshift.driver`), one CUDA thread per ladder.

Backends, the same code compiled twice: ``"cuda"`` (default; numba's CUDA
target, ``pip install 'qpicross[gpu]'``; without a CUDA GPU, sampling raises
:class:`~qpicross.exceptions.SamplerUnavailableError`) and ``"cpu"`` (a
:func:`numba.prange` over ladders: what CI runs). Under numba's CUDA simulator
the kernels give the CPU backend's samples exactly (``tests/samplers/blockshift/test_driver.py``).

A ladder that reaches ``target_energy`` stops; with ``early_stop="puzzle"`` (the
default; :data:`~qpicross.samplers.control.EARLY_STOP`, the run control of
:mod:`qpicross.samplers.control`) a puzzle stops as soon as one of its ladders has, so a batch of a
thousand puzzles spends its time on the hard ones. Sweeps run in launches of 1,
2, 4, ... up to ``sweeps_per_launch``; stopping decisions are taken between
launches, so the samples depend only on the seed (and on no timing, unless
``time_limit`` cuts a run short), and a puzzle's samples do not depend on the
other puzzles of its batch.

Every read is the lowest-energy state its ladder visited; energies are the
BQM's. ``info`` holds, per read, ``sweeps`` run and -- with a target --
``time_to_target_s`` (wall seconds from the start of sampling to the end of the
launch in which the read first reached the target; ``inf`` if never) and
``sweeps_to_target`` (-1 if never); per model, ``parallel_reads`` (the reads
ran at the same time), ``timing`` (``preprocess_s``; ``sample_s``, until this
model stopped; ``launch_s``, the whole batch), ``backend``, ``chain``, ``batch``, and ``timed_out`` and
``interrupted`` (whether the time limit or a Ctrl-C stopped this model before its ladders finished).

Examples:
    >>> from qpicross import Puzzle, build_formulation
    >>> f = build_formulation(Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]]))
    >>> ss = BatchedShiftSampler(backend="cpu").sample(f.bqm(), num_reads=8, num_sweeps=100, seed=1, target_energy=0)
    >>> float(ss.first.energy), ss.info["parallel_reads"]
    (0.0, 8)
"""

from __future__ import annotations

import math
import time
import warnings
from collections.abc import Hashable, Sequence

import dimod
import numba
import numpy as np

from qpicross.samplers.blockshift import driver as _driver, launch as _launch
from qpicross.samplers.blockshift.structure import default_beta_range, infer_lines
from qpicross.samplers.blockshift.plans import MAX_RESTART_SWEEPS, RESTART_SWEEPS
from qpicross.exceptions import ModelStructureError, ParameterError, SamplerUnavailableError
from qpicross.samplers.control import EARLY_STOP, ProgressHook, RunControl, check_early_stop, check_time_limit
from qpicross.names import MAX_READS
from qpicross.samplers.parameters import MAX_COUNT, MAX_SWEEPS, integer, number

__all__ = ["BatchedShiftSampler", "sample_many", "cuda_available", "BACKENDS", "EARLY_STOP"]

#: Where the chains run.
BACKENDS = ("cuda", "cpu")
#: The chains a launch can run (``"auto"``: the profile chain where every model is a Picross model).
CHAINS = ("auto", "profile", "joint")

_INSTALL_HINT = ("install the 'gpu' extra (pip install 'qpicross[gpu]'), or pass backend='cpu' (on the command line: "
                 "--option backend=cpu, or the shift-batched-cpu sampler)")


def cuda_available() -> bool:
    """Whether numba's CUDA target can run kernels here (True under the CUDA simulator)."""
    try:
        from numba import cuda
    except ImportError:  # pragma: no cover - numba without its CUDA target
        return False
    try:
        return bool(cuda.is_available())
    except Exception:  # pragma: no cover - a broken driver or toolkit
        return False


class BatchedShiftSampler(dimod.Sampler):
    """Batched one-hot-preserving parallel tempering on a GPU, or on the CPU (see the module docstring).

    Args:
        backend: ``"cuda"`` or ``"cpu"``; a ``backend`` passed to :meth:`sample` overrides it.

    Examples:
        >>> import dimod
        >>> bqm = dimod.BinaryQuadraticModel({"a": 1, "b": -1}, {("a", "b"): 0.5}, 0, "BINARY")
        >>> ss = BatchedShiftSampler(backend="cpu").sample(bqm, groups=[], num_reads=3, num_sweeps=10, seed=0)
        >>> ss.record.sample.shape, float(ss.first.energy)
        ((3, 2), -1.0)
    """

    def __init__(self, backend: str = "cuda"):
        if backend not in BACKENDS:
            raise ParameterError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
        self.backend = backend

    @property
    def parameters(self) -> dict:
        return {
            "num_reads": [],
            "num_sweeps": [],
            "seed": [],
            "beta_range": [],
            "num_replicas": [],
            "shift_probability": [],
            "line_moves": [],
            "lines": [],
            "groups": [],
            "target_energy": [],
            "early_stop": [],
            "backend": [],
            "sweeps_per_launch": [],
            "threads_per_block": [],
            "time_limit": [],
            "progress": [],
            "return_state": [],
            "paints": [],
            "layout": [],
            "chain": [],
            "restart_sweeps": [],
        }

    @property
    def properties(self) -> dict:
        return {"moves": "one-hot block shift + heat-bath line + single flip", "schedules": ["anneal", "tempering"],
                "backends": list(BACKENDS), "batched": True, "chains": list(CHAINS)}

    def sample(self, bqm: dimod.BinaryQuadraticModel, *, lines: Sequence | None = None,
               groups: Sequence[Sequence[Hashable]] | None = None, backend: str | None = None,
               **parameters) -> dimod.SampleSet:
        """Sample one BQM: :func:`sample_many` with one model (every parameter is documented there).

        Raises:
            ValueError: For a bad parameter.
            SamplerUnavailableError: For the CUDA backend without a CUDA GPU.
        """
        known = {k: v for k, v in parameters.items() if k in self.parameters}
        self.remove_unknown_kwargs(**{k: v for k, v in parameters.items() if k not in known})
        if groups is not None and lines is None:
            lines = [[list(g)] for g in groups]  # explicit groups: each is its own line
        for name in ("paints", "layout"):
            if known.get(name) is not None:
                known[name] = [known[name]]
        return sample_many([bqm], lines=None if lines is None else [lines], backend=backend or self.backend,
                           **known)[0]

    def sample_many(self, models: Sequence, *, backend: str | None = None, **parameters) -> list[dimod.SampleSet]:
        """Many models in one launch on this sampler's backend: :func:`sample_many`."""
        return sample_many(models, backend=backend or self.backend, **parameters)


def sample_many(
    models: Sequence,
    *,
    num_reads: int = 32,
    num_sweeps: int | None = None,
    seed: int | None = None,
    beta_range: tuple[float, float] | Sequence[tuple[float, float] | None] | None = None,
    num_replicas: int = 4,
    shift_probability: float = 0.5,
    line_moves: float = 1.0,
    lines: Sequence | None = None,
    target_energy: float | Sequence[float | None] | None = None,
    early_stop: str | None = "puzzle",
    backend: str = "cuda",
    sweeps_per_launch: int = 64,
    threads_per_block: int = 128,
    time_limit: float | None = None,
    progress: ProgressHook | None = None,
    return_state: str = "best",
    paints: Sequence | None = None,
    layout: Sequence | None = None,
    chain: str = "auto",
    restart_sweeps: int = RESTART_SWEEPS,
) -> list[dimod.SampleSet]:
    """Sample many models in one launch: ``num_reads`` tempering ladders per model.

    Picross models (formulations, or BQMs with their ``layout`` or ``paints``) run the profile chain on the restart plan
    of the CPU sampler (:mod:`~qpicross.samplers.blockshift.driver`: ``chain="profile"``, the default
    where every model qualifies); any other one-hot BQM runs the joint chain on a fixed ladder of
    ``num_replicas`` chains (``chain="joint"``).

    Args:
        models: BQMs, or :class:`~qpicross.model.formulation.PicrossFormulation` objects (their
            default-weight BQM and their :meth:`layout` are used).
        num_reads: Ladders per model, run at the same time; each gives one sample.
        num_sweeps: Most sweeps per ladder (default: :data:`~qpicross.samplers.blockshift.plans.MAX_RESTART_SWEEPS`
            on the profile chain, all its restarts together; 1000 on the joint chain); a sweep is a line move
            per free line (profile chain), or one move per group and free variable and a line move per line
            (joint chain), for every replica.
        seed: Random seed (0 <= seed < 2**32): the same seed gives the same samples.
        beta_range: ``(hot, cold)`` inverse temperatures, for all models or one per model
            (default: :func:`~qpicross.samplers.blockshift.sampler.default_beta_range` of each).
        num_replicas: Chains per ladder at temperatures geometric over ``beta_range``, swapped
            after every sweep; 1: annealing from hot to cold over ``num_sweeps``.
        shift_probability: Chance that a block move shifts the block by one start.
        line_moves: Chance per sweep that each line is redrawn by a heat-bath line move
            (0: never, and block moves are then not restricted to fitting lines).
        lines: Per model, its lines of one-hot groups of variables (default: from the
            formulation's labels, :func:`~qpicross.samplers.blockshift.sampler.infer_lines`).
        target_energy: Energy that counts as solved, for all models or one per model (None: none).
        early_stop: What reaching the target stops besides the ladder: ``"puzzle"`` (default: its model's
            other ladders), ``"read"`` (only that ladder) or ``"none"`` (not even the ladder, which notes
            its first hit and runs its sweeps); see :data:`~qpicross.samplers.control.EARLY_STOP`.
        backend: ``"cuda"`` or ``"cpu"``.
        sweeps_per_launch: Most sweeps per kernel launch (launches grow 1, 2, 4, ... up to it).
        threads_per_block: CUDA threads per block (rounded down to a multiple of ``num_replicas``).
        time_limit: Wall seconds after which no further launch starts.
        progress: Called as ``progress(ladders_done, ladders, best_energy)`` before the first launch, between
            launches about every :data:`~qpicross.samplers.control.PROGRESS_INTERVAL_S` and after the last: the
            ladders of every model (``num_reads`` each), those finished (or of a model that has stopped), and the
            lowest energy any ladder has reached. Raising from it ends the run. A Ctrl-C ends the run after the
            launch it arrives in, every ladder keeping its lowest state (``info["interrupted"]``).
        return_state: ``"best"``: each ladder's lowest-energy state; ``"last"``: its final state at
            the coldest rung (``beta_range[1]``), a draw from the chain's distribution (joint chain only).
        paints: Per model, what each variable paints (a formulation's :meth:`paints`), checked exactly against
            its BQM.
        layout: Per model, its :class:`~qpicross.model.layout.PicrossLayout` (or None): its lines are the
            default of ``lines`` and its board is read, not checked, as in
            :class:`~qpicross.samplers.blockshift.sampler.BlockShiftSampler`; formulations given as models
            give their own.
        chain: ``"auto"``, ``"profile"`` or ``"joint"``.
        restart_sweeps: The Luby unit of the profile chain's restarts.

    Returns:
        One sample set per model, ``num_reads`` samples each (see the module docstring for ``info``).

    Raises:
        ValueError: For a bad parameter.
        SamplerUnavailableError: For the CUDA backend without a CUDA GPU.
    """
    t0 = time.perf_counter()
    early_stop = "puzzle" if early_stop is None else early_stop
    _check_parameters(num_reads=num_reads, num_sweeps=0 if num_sweeps is None else num_sweeps, seed=seed,
                      num_replicas=num_replicas, shift_probability=shift_probability, line_moves=line_moves,
                      early_stop=early_stop, backend=backend, sweeps_per_launch=sweeps_per_launch,
                      threads_per_block=threads_per_block, time_limit=time_limit, return_state=return_state)
    if chain not in CHAINS:
        raise ParameterError(f"chain must be one of {', '.join(CHAINS)}, got {chain!r}")
    if isinstance(restart_sweeps, bool) or not isinstance(restart_sweeps, (int, np.integer)) or restart_sweeps < 1:
        raise ParameterError(f"restart_sweeps must be an integer >= 1, got {restart_sweeps!r}")
    models = list(models)
    P = len(models)
    per_model_lines = _per_model(lines, P, "lines", nested=True)
    per_model_beta = _per_model(beta_range, P, "beta_range", pair=True)
    per_model_target = _per_model(target_energy, P, "target_energy")
    per_model_paints = _per_model(paints, P, "paints", nested=True)
    per_model_layout = _per_model(layout, P, "layout", nested=True)
    if backend == "cuda" and not cuda_available():
        raise SamplerUnavailableError(f"shift-batched: no CUDA GPU is available to numba here; {_INSTALL_HINT}")
    picross = None
    if chain != "joint" and line_moves > 0 and return_state == "best" and early_stop != "none":
        picross = []
        for i, m in enumerate(models):
            bqm, layout_i = _picross_parts(m, per_model_layout[i])
            picross.append(_launch.prepare_profile(bqm, per_model_lines[i], per_model_paints[i], per_model_beta[i],
                                                   per_model_target[i], layout=layout_i))
        if any(m is None for m in picross):
            picross = None
    if chain == "profile" and picross is None:
        raise ModelStructureError("chain='profile' needs Picross models (formulations, or BQMs with layout= or "
                                  "paints=) with line_moves > 0, return_state='best' and an early stop (a ladder ends at its "
                                  "target)")
    moves = (shift_probability, line_moves, False)
    flags = (early_stop == "puzzle", early_stop != "none", return_state == "last")
    if picross is not None:  # the CPU sampler's restart plan
        budget = MAX_RESTART_SWEEPS if num_sweeps is None else num_sweeps
        return _sample(picross, num_reads, seed, budget, restart_sweeps, moves, flags, backend=backend,
                       sweeps_per_launch=sweeps_per_launch, threads_per_block=threads_per_block,
                       time_limit=time_limit, progress=progress, t0=t0)
    num_sweeps = 1000 if num_sweeps is None else num_sweeps  # one restart of a fixed schedule
    prepared = [_fields_model(m, per_model_lines[i], per_model_layout[i], per_model_beta[i], per_model_target[i],
                              num_replicas, num_sweeps) for i, m in enumerate(models)]
    moves = (shift_probability, line_moves, line_moves < 1)
    return _sample(prepared, num_reads, seed, num_sweeps, max(num_sweeps, 1), moves, flags, backend=backend,
                   sweeps_per_launch=sweeps_per_launch, threads_per_block=threads_per_block, time_limit=time_limit,
                   progress=progress, t0=t0)


# -- parameters and sample sets ---------------------------------------------------------------------------------


def _check_parameters(*, num_reads, num_sweeps, seed, num_replicas, shift_probability, line_moves, early_stop, backend,
                      sweeps_per_launch, threads_per_block, time_limit, return_state) -> None:
    for name, value, low, high in (("num_reads", num_reads, 1, MAX_READS), ("num_sweeps", num_sweeps, 0, MAX_SWEEPS),
                                   ("num_replicas", num_replicas, 1, 1024),  # one CUDA block
                                   ("sweeps_per_launch", sweeps_per_launch, 1, MAX_COUNT),
                                   ("threads_per_block", threads_per_block, 1, 1024)):
        integer(low, high).check(name, value)
    for name, value in (("shift_probability", shift_probability), ("line_moves", line_moves)):
        number(0, 1).check(name, value)
    if seed is not None and not (isinstance(seed, (int, np.integer)) and not isinstance(seed, bool)
                                 and 0 <= seed < 2**32):
        raise ParameterError(f"seed must be an integer in [0, 2**32), got {seed!r}")
    check_early_stop(early_stop)
    if backend not in BACKENDS:
        raise ParameterError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    check_time_limit(time_limit)
    if return_state not in ("best", "last"):
        raise ParameterError(f"return_state must be 'best' or 'last', got {return_state!r}")


def _per_model(value, count: int, name: str, *, nested: bool = False, pair: bool = False) -> list:
    """One value for every model, or a list with one per model."""
    if value is None:
        return [None] * count
    if pair:  # a (hot, cold) pair, or a list of pairs / None
        if len(value) == 2 and all(isinstance(b, (int, float, np.number)) for b in value):
            return [tuple(value)] * count
    elif not nested and not isinstance(value, (list, tuple, np.ndarray)):
        return [value] * count
    if len(value) != count:
        raise ParameterError(f"{name} has {len(value)} entries for {count} models")
    return list(value)


def _picross_parts(model, layout):
    """``(bqm, layout)`` of a model given as a formulation (its default-weight BQM and, unless given, its own
    layout) or as a BQM."""
    if hasattr(model, "layout") and hasattr(model, "bqm"):  # a PicrossFormulation
        return model.bqm(), model.layout() if layout is None else layout
    return model, layout


def _fields_model(model, lines, layout, beta_range, target_energy, num_replicas, num_sweeps) -> _launch.LaunchModel:
    """The joint chain's model of a BQM or a formulation; ``lines`` None: from the layout, the formulation or the
    labels."""
    if isinstance(model, dimod.BinaryQuadraticModel):
        bqm = model
    elif hasattr(model, "layout") and hasattr(model, "bqm"):  # a PicrossFormulation
        bqm = model.bqm()
        layout = model.layout() if layout is None else layout
    else:
        raise ParameterError(f"models must be BQMs or formulations, got {type(model).__name__}")
    binary = bqm.change_vartype(dimod.BINARY, inplace=False) if bqm.vartype is dimod.SPIN else bqm
    if layout is not None:
        layout.check(binary)
        lines = layout.lines if lines is None else lines
    if beta_range is None:
        beta_range = default_beta_range(binary) if binary.num_variables else (1.0, 1.0)
    hot, cold = (float(b) for b in beta_range)
    if not (hot > 0 and cold > 0 and math.isfinite(hot) and math.isfinite(cold)):
        raise ParameterError(f"beta_range must be positive, got {beta_range}")
    if lines is None:
        lines = infer_lines(list(binary.variables))
        if not lines and binary.num_variables:
            warnings.warn("shift-batched found no one-hot groups in the BQM's labels and falls back to single flips; "
                          "pass lines= (e.g. formulation.one_hot_lines()) or groups= to supply the structure",
                          UserWarning, stacklevel=4)
    return _launch.prepare_fields(bqm, lines, (hot, cold), target_energy, num_replicas, num_sweeps)


def _sample(models, num_reads, seed, budget, unit, moves, flags, *, backend, sweeps_per_launch, threads_per_block,
            time_limit, progress, t0) -> list[dimod.SampleSet]:
    """:func:`sample_many` of prepared models, all of one chain: one launch of the driver
    (:mod:`~qpicross.samplers.blockshift.driver`), one sample set per model."""
    from qpicross.model.size import memory_limit

    live = [i for i, m in enumerate(models) if m.variables]
    launched = [models[i] for i in live]
    if launched:
        need, limit = _launch.memory_bytes(launched, num_reads), memory_limit()
        if need > limit:
            raise ParameterError(f"{len(launched)} models x {num_reads} ladders would take about "
                                 f"{need / 2**30:.1f} GiB, above the limit of {limit / 2**30:.1f} GiB "
                                 f"(QPICROSS_MAX_MEMORY): give fewer reads or fewer models a launch")
        launch = _launch.pack(launched, np.random.SeedSequence(seed), num_reads)
    t1 = time.perf_counter()
    control = RunControl(time_limit, progress, num_reads * len(launched), start=t1)
    out = _driver.run(launch, backend, budget, unit, moves, flags, sweeps_per_launch=sweeps_per_launch,
                      control=control, threads_per_block=threads_per_block,
                      offsets=[m.offset for m in launched]) if launched else {}
    t2 = time.perf_counter()
    chain = "joint" if models and models[0].profiles is None else "profile"
    results = []
    for i, model in enumerate(models):
        if not model.variables:
            empty = dimod.SampleSet.from_samples_bqm((np.zeros((num_reads, 0), np.int8), []), model.bqm)
            empty.info.update(timing={"preprocess_s": t1 - t0, "sample_s": 0.0, "launch_s": t2 - t1},
                              parallel_reads=num_reads, backend=backend, sweeps=[0] * num_reads, chain=chain,
                              timed_out=False, interrupted=False)
            results.append(empty)
            continue
        p = live.index(i)
        ladders = slice(p * num_reads, (p + 1) * num_reads)
        samples = out["sample"][ladders, :len(model.variables)].copy()
        if model.bqm.vartype is dimod.SPIN:
            samples = 2 * samples - 1
        sampleset = dimod.SampleSet.from_samples_bqm((samples, model.variables), model.bqm)
        info = sampleset.info
        info["timing"] = {"preprocess_s": t1 - t0, "sample_s": float(out["stopped_at"][p]), "launch_s": t2 - t1}
        info["sweeps"] = out["done"][ladders].tolist()
        info["restarts"] = out["restart"][ladders].tolist()
        if math.isfinite(model.target):
            info["time_to_target_s"] = out["hit_time"][ladders].tolist()
            info["sweeps_to_target"] = out["hit"][ladders].tolist()
        cut = bool(out["cut"][p])  # stopped by the time limit or Ctrl-C before its ladders finished
        info.update(parallel_reads=num_reads, backend=backend, chain=chain, timed_out=cut and control.timed_out,
                    interrupted=cut and control.interrupted)
        if backend == "cpu":  # the cores the ladders shared (numba's threads)
            info["threads"] = numba.get_num_threads()
        info["batch"] = {"models": len(launched), "ladders": len(launched) * num_reads, "launches": out["launches"],
                         "sweeps": out["sweeps"], "wall_s": out["wall_s"]}
        results.append(sampleset)
    return results
