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
from collections.abc import Sequence
from types import SimpleNamespace

import dimod
import numba
import numpy as np

from qpicross.samplers.blockshift import driver as _driver, launch as _launch
from qpicross.samplers.blockshift.structure import default_beta_range, infer_lines
from qpicross.samplers.blockshift.plans import MAX_RESTART_SWEEPS, RESTART_SWEEPS
from qpicross.exceptions import ModelStructureError, ParameterError, SamplerUnavailableError
from qpicross.samplers.control import EARLY_STOP, RunControl
from qpicross.samplers.parameters import SHIFT_BATCHED_PARAMETERS, describe, settle

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
        return {name: [] for name in SHIFT_BATCHED_PARAMETERS}

    @property
    def properties(self) -> dict:
        return {"moves": "one-hot block shift + heat-bath line + single flip", "schedules": ["anneal", "tempering"],
                "backends": list(BACKENDS), "batched": True, "chains": list(CHAINS)}

    def sample(self, bqm: dimod.BinaryQuadraticModel, **parameters) -> dimod.SampleSet:
        """Sample one BQM: :func:`sample_many` with one model (every parameter is documented there).

        Raises:
            ValueError: For a bad parameter.
            SamplerUnavailableError: For the CUDA backend without a CUDA GPU.
        """
        known = self.remove_unknown_kwargs(**parameters)
        lines, groups = known.pop("lines", None), known.pop("groups", None)
        if groups is not None and lines is None:
            lines = [[list(g)] for g in groups]  # explicit groups: each is its own line
        for name in ("paints", "layout"):
            if known.get(name) is not None:
                known[name] = [known[name]]
        known["backend"] = known.get("backend") or self.backend
        return sample_many([bqm], lines=None if lines is None else [lines], **known)[0]

    def sample_many(self, models: Sequence, *, backend: str | None = None, **parameters) -> list[dimod.SampleSet]:
        """Many models in one launch on this sampler's backend: :func:`sample_many`."""
        return sample_many(models, backend=backend or self.backend, **parameters)


def sample_many(models: Sequence, **parameters) -> list[dimod.SampleSet]:
    s = _settings(parameters)
    t0 = time.perf_counter()
    models = list(models)
    P = len(models)
    per_model = {name: _per_model(getattr(s, name), P, name, nested=name in ("lines", "paints", "layout"),
                                  pair=name == "beta_range") for name in ("lines", "beta_range", "target_energy",
                                                                          "paints", "layout")}
    if s.backend == "cuda" and not cuda_available():
        raise SamplerUnavailableError(f"shift-batched: no CUDA GPU is available to numba here; {_INSTALL_HINT}")
    picross = None
    if s.chain != "joint" and s.line_moves > 0 and s.return_state == "best" and s.early_stop != "none":
        picross = []
        for i, m in enumerate(models):
            bqm, layout_i = _picross_parts(m, per_model["layout"][i])
            picross.append(_launch.prepare_profile(bqm, per_model["lines"][i], per_model["paints"][i],
                                                   per_model["beta_range"][i], per_model["target_energy"][i],
                                                   layout=layout_i))
        if any(m is None for m in picross):
            picross = None
    if s.chain == "profile" and picross is None:
        raise ModelStructureError("chain='profile' needs Picross models (formulations, or BQMs with layout= or "
                                  "paints=) with line_moves > 0, return_state='best' and an early stop (a ladder ends "
                                  "at its target)")
    flags = (s.early_stop == "puzzle", s.early_stop != "none", s.return_state == "last")
    launch = dict(backend=s.backend, sweeps_per_launch=s.sweeps_per_launch, threads_per_block=s.threads_per_block,
                  time_limit=s.time_limit, progress=s.progress, t0=t0)
    if picross is not None:  # the CPU sampler's restart plan
        budget = MAX_RESTART_SWEEPS if s.num_sweeps is None else s.num_sweeps
        return _sample(picross, s.num_reads, s.seed, budget, s.restart_sweeps, (s.shift_probability, s.line_moves,
                                                                                  False), flags, **launch)
    num_sweeps = 1000 if s.num_sweeps is None else s.num_sweeps  # one restart of a fixed schedule
    prepared = [_fields_model(m, per_model["lines"][i], per_model["layout"][i], per_model["beta_range"][i],
                              per_model["target_energy"][i], s.num_replicas, num_sweeps) for i, m in enumerate(models)]
    moves = (s.shift_probability, s.line_moves, s.line_moves < 1)
    return _sample(prepared, s.num_reads, s.seed, num_sweeps, max(num_sweeps, 1), moves, flags, **launch)


sample_many.__doc__ = """Sample many models in one launch: ``num_reads`` tempering ladders per model.

    Picross models (formulations, or BQMs with their ``layout`` or ``paints``) run the profile chain on the restart plan
    of the CPU sampler (:mod:`~qpicross.samplers.blockshift.driver`: ``chain="profile"``, the default
    where every model qualifies); any other one-hot BQM runs the joint chain on a fixed ladder of
    ``num_replicas`` chains (``chain="joint"``).

    Args:
        models: BQMs, or :class:`~qpicross.model.formulation.PicrossFormulation` objects (their
            default-weight BQM and their :meth:`layout` are used).
{args}

    Returns:
        One sample set per model, ``num_reads`` samples each (see the module docstring for ``info``).

    Raises:
        ValueError: For a bad parameter.
        SamplerUnavailableError: For the CUDA backend without a CUDA GPU.
    """.format(args=describe(SHIFT_BATCHED_PARAMETERS, indent=8))


def _settings(given: dict) -> SimpleNamespace:
    """:func:`sample_many`'s settings: every parameter of
    :data:`~qpicross.samplers.parameters.SHIFT_BATCHED_PARAMETERS` checked by its entry, then its defaults."""
    unknown = sorted(set(given) - set(SHIFT_BATCHED_PARAMETERS))
    if unknown:
        raise ParameterError(f"sample_many takes no parameter {unknown[0]!r}")
    if given.get("groups") is not None:
        raise ParameterError("groups= is BatchedShiftSampler.sample's (one model); sample_many takes lines=, one per model")
    s = SimpleNamespace(**settle(SHIFT_BATCHED_PARAMETERS, given))
    s.early_stop = "puzzle" if s.early_stop is None else s.early_stop
    s.backend = "cuda" if s.backend is None else s.backend
    s.restart_sweeps = RESTART_SWEEPS if s.restart_sweeps is None else s.restart_sweeps
    s.time_limit = None if s.time_limit is None else float(s.time_limit)
    return s


# -- parameters and sample sets ---------------------------------------------------------------------------------


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
