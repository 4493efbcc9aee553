r"""Peer samplers: other libraries' generic annealers on the same QUBO, each a :class:`dimod.Sampler`.

None of them knows the puzzle's structure: they see the BQM (one-hot, domain-wall or
thermometer) and nothing else, so they measure what a *generic* annealer makes of each
encoding. Each SDK is imported when its sampler is made; without its extra, making it raises
:class:`~qpicross.exceptions.SamplerUnavailableError` with one line naming the extra.

========================  =====================================================  ==========
name                      what samples                                           extra
========================  =====================================================  ==========
``openjij-sa``            OpenJij's simulated annealing                          ``openjij``
                          (:class:`OpenJijSampler`)
``openjij-sqa``           OpenJij's simulated *quantum* annealing                ``openjij``
                          (path-integral Monte Carlo, transverse field,
                          Trotter slices)
``sb``                    simulated bifurcation (``simulated-bifurcation``,      ``sb``
                          torch; one agent per read, on the GPU when there
                          is one)
``sa+descent``            dwave-samplers SA, then steepest descent on each read  (core)
``sb+descent``            simulated bifurcation, then steepest descent           ``sb``
``pt``                    dwave-hybrid's parallel-tempering workflow, one run    ``hybrid``
                          per read
``pa``                    dwave-hybrid's population-annealing workflow, one run  ``hybrid``
                          per read (its best member)
========================  =====================================================  ==========

All take ``num_reads``, ``num_sweeps`` (sweeps, steps or sweeps per temperature, as the
library counts them) and ``seed``: the same seed gives the same samples for every one of them
except ``pt`` and ``pa``, whose dwave-hybrid workflows draw from unseeded generators.

Examples:
    >>> import dimod
    >>> bqm = dimod.BinaryQuadraticModel({"a": -1, "b": 1}, {("a", "b"): 2}, 0, "BINARY")
    >>> ss = make_sampler("sa+descent").sample(bqm, num_reads=3, num_sweeps=10, seed=1)
    >>> float(ss.first.energy)
    -1.0
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable

import dimod
import numpy as np

from qpicross.exceptions import ParameterError
from qpicross.samplers.registry import SamplerUnavailableError, import_extra, register_sampler

__all__ = [
    "OpenJijSampler",
    "SimulatedBifurcationSampler",
    "HybridWorkflowSampler",
    "PEER_SAMPLERS",
    "make_sampler",
    "register_peer_samplers",
]


def _integer_labels(bqm: dimod.BinaryQuadraticModel) -> tuple[dimod.BinaryQuadraticModel, list]:
    """The BQM over labels 0..n-1 (libraries that want plain labels), and the original labels."""
    variables = list(bqm.variables)
    return bqm.relabel_variables({v: i for i, v in enumerate(variables)}, inplace=False), variables


def _sampleset(samples: np.ndarray, variables: list, bqm: dimod.BinaryQuadraticModel, info: dict) -> dimod.SampleSet:
    """Samples as a dimod SampleSet of ``bqm`` (energies recomputed by dimod), with ``info``."""
    samples = np.asarray(samples, dtype=np.int8).reshape(len(samples), len(variables))
    sampleset = dimod.SampleSet.from_samples_bqm((samples, variables), bqm)
    sampleset.info.update(info)
    return sampleset


def _check_reads(num_reads: int) -> int:
    if isinstance(num_reads, bool) or not isinstance(num_reads, (int, np.integer)) or num_reads < 1:
        raise ParameterError(f"num_reads must be a positive integer, got {num_reads!r}")
    return int(num_reads)


def _check_seed(seed) -> int | None:
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, np.integer))
                             or not 0 <= seed < 2**32):
        raise ParameterError(f"seed must be an integer in [0, 2**32), got {seed!r}")
    return None if seed is None else int(seed)


# -- OpenJij --------------------------------------------------------------------------------

class OpenJijSampler(dimod.Sampler):
    """OpenJij's SA or SQA as a :class:`dimod.Sampler` that takes any hashable labels.

    OpenJij's own samplers are dimod samplers but want labels of one type, and list only
    their schedule parameters in ``parameters``; this wrapper relabels to integers, lists
    ``num_reads``, ``num_sweeps`` and ``seed`` too, and maps ``beta_range`` onto SA's
    ``beta_min``/``beta_max``. OpenJij gives every read of a seeded call the same random
    stream (identical reads), so with a seed each read is one call with its own seed derived
    from it (about 1 ms more per read than one unseeded call).

    Args:
        method: ``"sa"`` (:class:`openjij.SASampler`) or ``"sqa"`` (:class:`openjij.SQASampler`).

    Raises:
        SamplerUnavailableError: Without the ``openjij`` extra.
    """

    def __init__(self, method: str = "sa"):
        if method not in ("sa", "sqa"):
            raise ParameterError(f"method must be 'sa' or 'sqa', got {method!r}")
        oj = import_extra("openjij", "openjij", f"openjij-{method}")
        self.method = method
        self._child = oj.SASampler() if method == "sa" else oj.SQASampler()

    @property
    def parameters(self) -> dict:
        common = {"num_reads": [], "num_sweeps": [], "seed": [], "updater": [], "sparse": []}
        if self.method == "sa":
            return {**common, "beta_range": [], "beta_min": [], "beta_max": []}
        return {**common, "beta": [], "gamma": [], "trotter": []}

    @property
    def properties(self) -> dict:
        return {"library": "openjij", "method": self.method, "independent_reads": True}

    def sample(self, bqm: dimod.BinaryQuadraticModel, *, num_reads: int = 1, num_sweeps: int | None = None,
               seed: int | None = None, beta_range: tuple[float, float] | None = None,
               **parameters) -> dimod.SampleSet:
        """Sample with OpenJij; ``parameters`` go to its sampler (``beta``, ``gamma``, ``trotter``...)."""
        num_reads = _check_reads(num_reads)
        seed = _check_seed(seed)
        if beta_range is not None:
            parameters["beta_min"], parameters["beta_max"] = (float(b) for b in beta_range)
        if bqm.num_variables == 0:
            return _sampleset(np.zeros((num_reads, 0)), [], bqm, {})
        binary = bqm.change_vartype(dimod.BINARY, inplace=False) if bqm.vartype is dimod.SPIN else bqm
        plain, variables = _integer_labels(binary)
        start = time.perf_counter()
        if seed is None:
            responses = [self._child.sample(plain, num_reads=num_reads, num_sweeps=num_sweeps, **parameters)]
        else:
            # OpenJij seeds every read of a call alike (identical reads): one call per read, own seeds,
            # on a model converted once.
            import openjij as oj

            model = oj.model.model.BinaryQuadraticModel(dict(plain.linear), dict(plain.quadratic), plain.offset,
                                                        plain.vartype, sparse=parameters.get("sparse", True))
            seeds = np.random.SeedSequence(seed).generate_state(num_reads) >> 1
            responses = [self._child.sample(model, num_reads=1, num_sweeps=num_sweeps, seed=int(s), **parameters)
                         for s in seeds]
        elapsed = time.perf_counter() - start
        parts = []
        for response in responses:
            order = [list(response.variables).index(i) for i in range(len(variables))]
            parts.append(np.repeat(np.asarray(response.record.sample)[:, order], response.record.num_occurrences,
                                   axis=0))
        samples = np.concatenate(parts)
        out = _sampleset(samples, variables, binary, {"timing": {"openjij_s": elapsed}})
        return out.change_vartype(bqm.vartype, inplace=False) if bqm.vartype is dimod.SPIN else out


# -- simulated bifurcation ------------------------------------------------------------------

class SimulatedBifurcationSampler(dimod.Sampler):
    r"""Simulated bifurcation (Goto et al.) through the ``simulated-bifurcation`` package (torch).

    Each read is one *agent* of one batched run: the agents evolve together as a matrix
    product per step, so all reads are drawn in one call (on a GPU when one is present).
    It minimises :math:`x^T Q x + v^T x + c` over :math:`x \in \{0,1\}^n` with the BQM's
    dense upper-triangular ``Q``.

    Args:
        device: ``"cpu"``, ``"cuda"``, or ``None`` for CUDA when torch sees a GPU.

    Raises:
        SamplerUnavailableError: Without the ``sb`` extra (``simulated-bifurcation`` and torch).
    """

    def __init__(self, device: str | None = None):
        self._sb = import_extra("simulated_bifurcation", "sb", "sb (simulated bifurcation)")
        import torch

        self._torch = torch
        self.device = device or ("cuda" if torch.cuda.is_available() else "cpu")

    @property
    def parameters(self) -> dict:
        return {"num_reads": [], "num_sweeps": [], "seed": [], "mode": [], "heated": [], "early_stopping": [],
                "timeout": [], "dtype": []}

    @property
    def properties(self) -> dict:
        return {"library": "simulated-bifurcation", "device": self.device, "independent_reads": True}

    def sample(self, bqm: dimod.BinaryQuadraticModel, *, num_reads: int = 128, num_sweeps: int = 10_000,
               seed: int | None = None, mode: str = "ballistic", heated: bool = False,
               early_stopping: bool = False, timeout: float | None = None,
               dtype: str = "float32") -> dimod.SampleSet:
        """Run ``num_reads`` agents for ``num_sweeps`` steps; every agent's final state is a read.

        Args:
            bqm: The model (any vartype; solved as BINARY).
            num_reads: Agents.
            num_sweeps: Steps of the simulation (the package's ``max_steps``).
            seed: Seeds torch's generator for this call only (the global state is restored).
            mode: ``"ballistic"`` (bSB) or ``"discrete"`` (dSB).
            heated: The heated variant (HbSB / HdSB).
            early_stopping: Stop agents whose sign pattern has settled (the package's default is on;
                off here, so every read runs the same number of steps and TTS is well defined).
            timeout: Seconds after which the package stops the run.
            dtype: ``"float32"`` or ``"float64"``.
        """
        torch = self._torch
        num_reads = _check_reads(num_reads)
        seed = _check_seed(seed)
        binary = bqm.change_vartype(dimod.BINARY, inplace=False) if bqm.vartype is dimod.SPIN else bqm
        variables = list(binary.variables)
        n = len(variables)
        if n == 0:
            return _sampleset(np.zeros((num_reads, 0)), [], bqm, {})
        linear, (irow, icol, quad), offset = binary.to_numpy_vectors(variable_order=variables)
        matrix = np.zeros((n, n))
        np.add.at(matrix, (np.minimum(irow, icol), np.maximum(irow, icol)), quad)
        torch_dtype = {"float32": torch.float32, "float64": torch.float64}[dtype]
        devices = [torch.device(self.device).index or 0] if self.device.startswith("cuda") else []
        start = time.perf_counter()
        with torch.random.fork_rng(devices=devices, enabled=seed is not None):
            if seed is not None:
                torch.manual_seed(seed)
            x, _ = self._sb.minimize(
                torch.tensor(matrix, dtype=torch_dtype), torch.tensor(linear, dtype=torch_dtype), float(offset),
                domain="binary", agents=num_reads, max_steps=int(num_sweeps), best_only=False, mode=mode,
                heated=heated, verbose=False, early_stopping=early_stopping, timeout=timeout, device=self.device,
                dtype=torch_dtype,
            )
        elapsed = time.perf_counter() - start
        samples = x.detach().to("cpu").numpy().reshape(num_reads, n).round().astype(np.int8)
        out = _sampleset(samples, variables, binary, {"timing": {"sb_s": elapsed}, "device": self.device})
        return out.change_vartype(bqm.vartype, inplace=False) if bqm.vartype is dimod.SPIN else out


# -- dwave-hybrid workflows -----------------------------------------------------------------

@contextlib.contextmanager
def _global_generators_seeded(seed: int | None):
    """NumPy's and Python's global generators seeded with ``seed`` inside, as they were outside (nothing is
    touched for ``None``)."""
    if seed is None:
        yield
        return
    numpy_state, python_state = np.random.get_state(), random.getstate()
    np.random.seed(seed)
    random.seed(seed)
    try:
        yield
    finally:
        np.random.set_state(numpy_state)
        random.setstate(python_state)


class HybridWorkflowSampler(dimod.Sampler):
    """A dwave-hybrid reference workflow, run once per read; each read is the run's best sample.

    Args:
        workflow: ``"pt"`` (:func:`hybrid.reference.pt.ParallelTempering`) or ``"pa"``
            (:func:`hybrid.reference.pa.PopulationAnnealing`).

    Raises:
        SamplerUnavailableError: Without the ``hybrid`` extra (``dwave-hybrid``).
    """

    def __init__(self, workflow: str = "pt"):
        if workflow not in ("pt", "pa"):
            raise ParameterError(f"workflow must be 'pt' or 'pa', got {workflow!r}")
        self._hybrid = import_extra("hybrid", "hybrid", f"{workflow} (dwave-hybrid)")
        self.workflow = workflow

    @property
    def parameters(self) -> dict:
        if self.workflow == "pt":
            return {"num_reads": [], "num_sweeps": [], "seed": [], "num_replicas": [], "max_iter": [],
                    "max_time": [], "convergence": []}
        return {"num_reads": [], "num_sweeps": [], "seed": [], "population": [], "num_iter": [], "beta_range": []}

    @property
    def properties(self) -> dict:
        return {"library": "dwave-hybrid", "workflow": self.workflow, "independent_reads": True}

    def _make(self, num_sweeps, options, seed=None):
        hybrid = self._hybrid
        if self.workflow == "pt":
            from hybrid.reference.pt import FixedTemperatureSampler, SpawnParallelTemperingReplicas, SwapReplicasDownsweep

            # hybrid.reference.pt.ParallelTempering, composed here so that a seed fixes it: the replicas are
            # updated one after another in this thread (the reference's Map runs them on threads, which draw
            # from the global generators in whichever order they run) and the swaps take the read's seed (the
            # reference's draw from a generator of their own, seeded from the operating system)
            replica = FixedTemperatureSampler(num_sweeps=num_sweeps or 1000)
            replica.runopts["executor"] = hybrid.immediate_executor  # a Runnable's deferred run options
            update = hybrid.Map(replica)
            loop = hybrid.Loop(update | SwapReplicasDownsweep(seed=seed), max_iter=options.get("max_iter"),
                               max_time=options.get("max_time"), convergence=options.get("convergence", 3),
                               key=lambda states: states[-1].samples.first.energy if states is not None else None)
            return (SpawnParallelTemperingReplicas(num_replicas=options.get("num_replicas", 10)) | loop
                    | hybrid.MergeSamples(aggregate=True))
        from hybrid.reference.pa import CalculateAnnealingBetaSchedule, EnergyWeightedResampler, ProgressBetaAlongSchedule

        # hybrid.reference.pa.PopulationAnnealing, composed here so that its resampler takes the read's seed (the
        # reference's draws from a generator of its own, seeded from the operating system)
        beta_range = options.get("beta_range")
        num_iter = options.get("num_iter", 20)
        schedule = CalculateAnnealingBetaSchedule(length=num_iter, interpolation="linear",
                                                  beta_range=tuple(beta_range) if beta_range is not None else None)
        return schedule | hybrid.Loop(
            ProgressBetaAlongSchedule()
            | hybrid.FixedTemperatureSampler(num_sweeps=num_sweeps or 100, num_reads=options.get("population", 20))
            | EnergyWeightedResampler(seed=seed), max_iter=num_iter)

    def sample(self, bqm: dimod.BinaryQuadraticModel, *, num_reads: int = 1, num_sweeps: int | None = None,
               seed: int | None = None, **options) -> dimod.SampleSet:
        """Run the workflow ``num_reads`` times (``options``: ``num_replicas``, ``population``, ...).

        dwave-hybrid's reference workflows take no seed: they draw from NumPy's and Python's global generators
        (their samplers' seeds among them). With ``seed``, each read runs with both seeded from its own child of
        ``seed`` (:class:`numpy.random.SeedSequence`), and both generators are put back as they were after it:
        the same seed gives the same samples (``max_time`` aside, a wall-clock stop).
        """
        num_reads, seed = _check_reads(num_reads), _check_seed(seed)
        read_seeds = ([int(s.generate_state(1)[0]) for s in np.random.SeedSequence(seed).spawn(num_reads)]
                      if seed is not None else [None] * num_reads)
        hybrid = self._hybrid
        variables = list(bqm.variables)
        if not variables:
            return _sampleset(np.zeros((num_reads, 0)), [], bqm, {})
        best = np.zeros((num_reads, len(variables)), np.int8)
        start = time.perf_counter()
        for r in range(num_reads):
            # a workflow keeps state between runs: a fresh one each
            workflow = self._make(num_sweeps, options, read_seeds[r])
            with _global_generators_seeded(read_seeds[r]):
                state = workflow.run(hybrid.State.from_problem(bqm)).result()
            first = state.samples.first.sample
            best[r] = [first[v] for v in variables]
        elapsed = time.perf_counter() - start
        return _sampleset(best, variables, bqm, {"timing": {"workflow_s": elapsed}})


# -- steepest descent after another sampler ---------------------------------------------------

def _with_descent(make_child: Callable[[], dimod.Sampler]) -> Callable[[], dimod.Sampler]:
    def factory() -> dimod.Sampler:
        from dwave.samplers import SteepestDescentComposite

        return SteepestDescentComposite(make_child())
    return factory


def _sa() -> dimod.Sampler:
    from dwave.samplers import SimulatedAnnealingSampler

    return SimulatedAnnealingSampler()


#: name -> (factory, description); what each can do is in its ``properties``
PEER_SAMPLERS: dict[str, tuple[Callable[[], dimod.Sampler], str]] = {
    "openjij-sa": (lambda: OpenJijSampler("sa"), "OpenJij simulated annealing (extra 'openjij')"),
    "openjij-sqa": (lambda: OpenJijSampler("sqa"), "OpenJij simulated quantum annealing (extra 'openjij')"),
    "sb": (SimulatedBifurcationSampler, "simulated bifurcation, torch, GPU if present (extra 'sb')"),
    "sa+descent": (_with_descent(_sa), "dwave-samplers SA, then steepest descent on each read"),
    "sb+descent": (_with_descent(SimulatedBifurcationSampler),
                   "simulated bifurcation, then steepest descent on each read (extra 'sb')"),
    "pt": (lambda: HybridWorkflowSampler("pt"), "dwave-hybrid parallel tempering, one run per read "
                                                  "(extra 'hybrid')"),
    "pa": (lambda: HybridWorkflowSampler("pa"), "dwave-hybrid population annealing, one run per read "
                                                  "(extra 'hybrid')"),
}


def make_sampler(name: str) -> dimod.Sampler:
    """A new peer sampler by name (see the module docstring).

    Raises:
        SamplerUnavailableError: When its extra is not installed.
    """
    return PEER_SAMPLERS[name][0]()


def register_peer_samplers() -> None:
    """Register every peer sampler by name (no SDK is imported until one is made)."""
    for name, (factory, description) in PEER_SAMPLERS.items():
        register_sampler(name, factory, description)
