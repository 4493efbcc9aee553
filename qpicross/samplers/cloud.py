"""Cloud annealers: D-Wave Leap (QPU, hybrid BQM, hybrid CQM) and Fixstars Amplify AE.

Registered in :data:`qpicross.samplers.SAMPLERS` when :mod:`qpicross.samplers`
is imported, without importing the cloud SDKs: each sampler imports its SDK,
finds its credentials and connects only when it samples.

* ``qpu`` -- :class:`QPUSampler`: ``DWaveSampler`` inside ``EmbeddingComposite``
  (needs the ``cloud`` extra). ``chain_strength`` defaults to dwave-system's
  uniform torque compensation. Reports chain breaks, physical qubits and QPU
  access time in ``sampleset.info["sampler_info"]``.
* ``hybrid`` -- :class:`HybridBQMSampler`: ``LeapHybridSampler`` on the BQM
  (``time_limit`` in seconds).
* ``hybrid-cqm`` -- :class:`HybridCQMSampler`: the formulation as a constrained
  model (:func:`qpicross.model.cqm.build_cqm`) sent to ``LeapHybridCQMSampler``.
* ``amplify`` -- :class:`~qpicross.samplers.amplify.AmplifyAESampler` (in :mod:`qpicross.samplers.amplify`): the
  BQM as an Amplify polynomial sent to Fixstars Amplify AE (needs the ``amplify`` extra).

Credentials: D-Wave through dwave-cloud-client's own mechanisms (``dwave config
create`` writes a profile, or set ``DWAVE_API_TOKEN``; ``profile=`` picks a
profile); Amplify through ``AMPLIFY_TOKEN`` or ``token=`` (e.g. read by
:func:`read_token_file`). A missing SDK, token or network raises
:class:`~qpicross.samplers.SamplerUnavailableError` with one line saying what
to configure; no token is ever printed.

Every cloud sampler takes its backend as a constructor argument too
(``QPUSampler(qpu=MockDWaveSampler())``, ``HybridCQMSampler(hybrid=dimod.ExactCQMSolver())``),
which is how the tests run offline.

Examples:
    >>> from qpicross.samplers import SAMPLERS
    >>> [name for name in ("qpu", "hybrid", "hybrid-cqm", "amplify") if name in SAMPLERS]
    ['qpu', 'hybrid', 'hybrid-cqm', 'amplify']
"""

from __future__ import annotations

import os

import dimod
import numpy as np

from qpicross.exceptions import ParameterError
from qpicross.samplers._secrets import read_token_file, redact_logs, scrub
from qpicross.samplers.amplify import AMPLIFY_HELP, AMPLIFY_TOKEN_ENV, AmplifyAESampler
from qpicross.samplers.registry import SamplerUnavailableError, import_extra, register_sampler

__all__ = [
    "QPUSampler",
    "HybridBQMSampler",
    "HybridCQMSampler",
    "qpu_sampler_info",
    "describe_sampler_info",
    "read_token_file",
    "check_credentials",
    "cloud_options",
    "leap_token_configured",
    "register_cloud_samplers",
]

_LEAP_HELP = ("run `dwave config create` (or `dwave auth login`), set DWAVE_API_TOKEN, "
              "or pass --profile / --token-file")


def cloud_options(sampler: str, *, chain_strength: float | None = None, profile: str | None = None,
                  token_file: str | os.PathLike | None = None) -> dict:
    """Keyword arguments for :func:`qpicross.pipeline.run` from the cloud options that were given.

    Options left at None are dropped; ``token_file`` is read into ``token``. A solver's time limit is
    the run's ``time_limit`` (:mod:`qpicross.samplers.control`), which the run hands to a solver that takes it.

    Raises:
        ValueError: If an option does not apply to the sampler, or is out of range.
        SamplerUnavailableError: If the token file cannot be read.

    Examples:
        >>> cloud_options("qpu", chain_strength=2.0)
        {'chain_strength': 2.0}
        >>> cloud_options("sa", chain_strength=2.0)
        Traceback (most recent call last):
        ...
        qpicross.exceptions.ParameterError: chain_strength does not apply to sampler 'sa'
    """
    from qpicross.samplers.registry import get_sampler

    given = {"chain_strength": chain_strength, "profile": profile, "token": token_file}
    given = {k: v for k, v in given.items() if v is not None}
    accepted = get_sampler(sampler).parameters
    for name, value in given.items():
        if name not in accepted:
            shown = "token_file" if name == "token" else name
            raise ParameterError(f"{shown} does not apply to sampler {sampler!r}")
        if name == "chain_strength" and not value > 0:
            raise ParameterError(f"{name} must be positive, got {value}")
    if "token" in given:
        given["token"] = read_token_file(given["token"])
    return given


def leap_token_configured(profile: str | None = None, token: str | None = None) -> bool:
    """Whether dwave-cloud-client finds a Leap API token (config file, profile or ``DWAVE_API_TOKEN``).

    Looks at local configuration only; no network.
    """
    if token:
        return True
    try:
        config = import_extra("dwave.cloud.config", "cloud", "Leap")
        return bool(config.load_config(profile=profile).get("token"))
    except Exception:  # a broken or missing config file, an unknown profile, no SDK
        return False


def _leap_solver(factory_name: str, profile: str | None, token: str | None, solver) -> dimod.Sampler:
    """Connect to a Leap solver, turning every configuration or network failure into one line."""
    system = import_extra("dwave.system", "cloud", "Leap")
    redact_logs(token)  # dwave-cloud-client logs its config, token included, at debug level
    check_credentials("qpu", {"profile": profile, "token": token})
    config = {"profile": profile, "token": token, "solver": solver}
    config = {k: v for k, v in config.items() if v is not None}
    try:
        return getattr(system, factory_name)(**config)
    except Exception as exc:  # network, authentication, unknown solver, bad config file
        raise SamplerUnavailableError(
            f"cannot use D-Wave Leap ({type(exc).__name__}: {scrub(exc, token)}); "
            f"check the network, or {_LEAP_HELP}"
        ) from None


def _timing_us(info: dict, key: str) -> float | None:
    timing = info.get("timing", info)
    value = timing.get(key) if isinstance(timing, dict) else None
    return float(value) if value is not None else None


def qpu_sampler_info(sampleset: dimod.SampleSet, solver: str | None = None) -> dict:
    """What a QPU run cost and how well its chains held, from an ``EmbeddingComposite`` sample set.

    The sample set must come from ``EmbeddingComposite.sample(..., return_embedding=True)``.

    Returns:
        JSON-ready dict: ``solver``, ``chain_strength`` (the value used),
        ``chain_break_fraction`` (mean over reads of the fraction of broken
        chains), ``reads_with_chain_breaks`` (fraction of reads with at least
        one), ``logical_variables``, ``physical_qubits``, ``max_chain_length``,
        ``qpu_access_time_us`` and ``qpu_access_time_per_read_us`` (as the
        solver reported them), ``problem_id``.
    """
    context = sampleset.info.get("embedding_context", {})
    chains = [len(chain) for chain in context.get("embedding", {}).values()]
    counts = np.asarray(sampleset.record.num_occurrences, dtype=float)
    num_reads = float(counts.sum())
    info: dict = {"solver": solver}
    if context.get("chain_strength") is not None:
        info["chain_strength"] = float(context["chain_strength"])
    if "chain_break_fraction" in sampleset.record.dtype.names:
        fraction = np.asarray(sampleset.record.chain_break_fraction, dtype=float)
        info["chain_break_fraction"] = float(fraction @ counts / num_reads)
        info["reads_with_chain_breaks"] = float(counts[fraction > 0].sum() / num_reads)
    info.update(logical_variables=len(chains), physical_qubits=int(sum(chains)),
                max_chain_length=max(chains, default=0))
    access = _timing_us(sampleset.info, "qpu_access_time")
    info["qpu_access_time_us"] = access
    info["qpu_access_time_per_read_us"] = access / num_reads if access is not None and num_reads else None
    info["problem_id"] = sampleset.info.get("problem_id")
    return info


def describe_sampler_info(info: dict) -> str:
    """One line about a cloud run, for people (the CLI prints it under the board).

    Examples:
        >>> describe_sampler_info({"solver": "Advantage_system4.1", "logical_variables": 44,
        ...     "physical_qubits": 70, "max_chain_length": 3, "chain_strength": 1.97,
        ...     "chain_break_fraction": 0.004, "reads_with_chain_breaks": 0.1,
        ...     "qpu_access_time_us": 31000.0, "qpu_access_time_per_read_us": 310.0})
        'Advantage_system4.1: 44 variables on 70 qubits (chains up to 3, strength 1.97);
        chain breaks 0.4% (10.0% of reads); QPU access 31.0 ms (310 us per read)'
    """
    parts = []
    if "physical_qubits" in info:
        parts.append(f"{info['logical_variables']} variables on {info['physical_qubits']} qubits "
                     f"(chains up to {info['max_chain_length']}, "
                     f"strength {info.get('chain_strength', 0):.3g})")
    if info.get("chain_break_fraction") is not None:
        parts.append(f"chain breaks {100 * info['chain_break_fraction']:.1f}% "
                     f"({100 * info['reads_with_chain_breaks']:.1f}% of reads)")
    if info.get("qpu_access_time_us") is not None:
        per_read = info.get("qpu_access_time_per_read_us")
        shown = per_read is not None and "physical_qubits" in info  # per read means little for hybrids
        parts.append(f"QPU access {info['qpu_access_time_us'] / 1000:.1f} ms"
                     + (f" ({per_read:.0f} us per read)" if shown else ""))
    for key, label in (("run_time_us", "run time"), ("charge_time_us", "charged")):
        if info.get(key) is not None:
            parts.append(f"{label} {info[key] / 1e6:.2f} s")
    if info.get("execution_time_s") is not None:
        parts.append(f"execution {info['execution_time_s']:.2f} s")
    return f"{info.get('solver') or 'cloud'}: " + "; ".join(parts)


#: The cloud samplers, each with the extra it needs and whose token it reads.
_SERVICES = {"qpu": ("cloud", "leap"), "hybrid": ("cloud", "leap"), "hybrid-cqm": ("cloud", "leap"),
             "amplify": ("amplify", "amplify")}


def check_credentials(sampler: str, options: dict | None = None) -> None:
    """Refuse a cloud sampler that cannot start here, from local configuration only (no network): its extra is
    not installed, or no token is found (``token`` in ``options``, a ``profile``, the configuration file or the
    environment). Any other sampler passes. A command line calls this before it builds anything.

    Raises:
        SamplerUnavailableError: One line saying what to install or configure.

    Examples:
        >>> check_credentials("sa")  # not a cloud sampler: nothing to check
    """
    if sampler not in _SERVICES:
        return
    options = options or {}
    extra, service = _SERVICES[sampler]
    if service == "leap":
        import_extra("dwave.system", extra, sampler)
        profile = options.get("profile")
        if not leap_token_configured(profile, options.get("token")):
            where = f" (profile {profile!r})" if profile else ""
            raise SamplerUnavailableError(f"no D-Wave Leap API token found{where}: {_LEAP_HELP}")
    else:
        import_extra("amplify", extra, sampler)
        if not (options.get("token") or os.environ.get(AMPLIFY_TOKEN_ENV, "").strip()):
            raise SamplerUnavailableError(f"no Fixstars Amplify token: {AMPLIFY_HELP}")


class QPUSampler(dimod.Sampler):
    """A D-Wave QPU through Leap: ``EmbeddingComposite(DWaveSampler())``.

    Args:
        qpu: A structured sampler to embed onto instead of connecting to Leap
            (e.g. ``dwave.system.testing.MockDWaveSampler()`` in tests).
        profile: dwave-cloud-client configuration profile.
        token: Leap API token (default: from the configuration or ``DWAVE_API_TOKEN``).
        solver: Solver selection, as ``DWaveSampler`` takes it.
    """

    def __init__(self, qpu: dimod.Sampler | None = None, *, profile: str | None = None,
                 token: str | None = None, solver=None):
        self.qpu, self.profile, self.token, self.solver = qpu, profile, token, solver

    @property
    def parameters(self) -> dict:
        return {"num_reads": [], "chain_strength": [], "profile": [], "token": [], "embedding_parameters": [],
                "annealing_time": [], "label": []}

    @property
    def properties(self) -> dict:
        return {"category": "qpu"}

    def sample(self, bqm: dimod.BinaryQuadraticModel, *, num_reads: int = 100,
               chain_strength: float | None = None, profile: str | None = None, token: str | None = None,
               embedding_parameters: dict | None = None, **qpu_parameters) -> dimod.SampleSet:
        """Embed the BQM (minorminer), sample it on the QPU and unembed (majority vote on broken chains).

        Args:
            bqm: The model.
            num_reads: Anneals (reads).
            chain_strength: Coupling inside each chain, in Ising units (dwave-system
                embeds the spin form of the BQM); None uses dwave-system's
                uniform torque compensation.
            profile: Overrides the constructor's profile.
            token: Overrides the constructor's token.
            embedding_parameters: Passed to ``minorminer.find_embedding`` (e.g. ``random_seed``).
            **qpu_parameters: Passed to the QPU (``annealing_time``, ``label``...).

        Raises:
            SamplerUnavailableError: Without dwave-system, a token, or the network.
            ValueError: If no embedding is found.
        """
        qpu = self.qpu
        if qpu is None:
            qpu = _leap_solver("DWaveSampler", profile or self.profile, token or self.token, self.solver)
        from dwave.system import EmbeddingComposite

        try:
            sampleset = EmbeddingComposite(qpu).sample(
                bqm, num_reads=num_reads, chain_strength=chain_strength, return_embedding=True,
                embedding_parameters=embedding_parameters or {}, **qpu_parameters,
            )
        except ValueError as exc:
            if "embedding" in str(exc).lower():
                raise ParameterError(
                    f"no embedding of {bqm.num_variables} variables found on the QPU ({exc})"
                ) from None
            raise
        sampleset.resolve()
        solver = getattr(getattr(qpu, "solver", None), "name", None) or qpu.properties.get("chip_id")
        sampleset.info["sampler_info"] = qpu_sampler_info(sampleset, solver)
        return sampleset


def _hybrid_info(info: dict, solver: str | None, **extra) -> dict:
    out = {"solver": solver, **extra}
    for key in ("run_time", "charge_time", "qpu_access_time"):
        out[f"{key}_us"] = _timing_us(info, key)
    out["problem_id"] = info.get("problem_id")
    return out


class HybridBQMSampler(dimod.Sampler):
    """Leap's hybrid BQM solver (``LeapHybridSampler``); one sample per run.

    Args:
        hybrid: A sampler to use instead of connecting to Leap (tests).
        profile, token, solver: As for :class:`QPUSampler`.
    """

    def __init__(self, hybrid: dimod.Sampler | None = None, *, profile: str | None = None,
                 token: str | None = None, solver=None):
        self.hybrid, self.profile, self.token, self.solver = hybrid, profile, token, solver

    @property
    def parameters(self) -> dict:
        return {"time_limit": [], "profile": [], "token": [], "label": []}

    @property
    def properties(self) -> dict:
        return {"category": "hybrid"}

    def sample(self, bqm: dimod.BinaryQuadraticModel, *, time_limit: float | None = None,
               profile: str | None = None, token: str | None = None, **kwargs) -> dimod.SampleSet:
        """Send the BQM (relabelled to integers) to the hybrid solver.

        Args:
            time_limit: Seconds; None lets the solver pick its minimum for the problem size.
        """
        hybrid = self.hybrid or _leap_solver("LeapHybridSampler", profile or self.profile,
                                             token or self.token, self.solver)
        if time_limit is not None:
            kwargs["time_limit"] = time_limit
        # Integer labels travel through any serialisation; map back afterwards.
        integer_bqm, mapping = bqm.relabel_variables_as_integers(inplace=False)
        result = hybrid.sample(integer_bqm, **kwargs)
        result.resolve()
        sampleset = result.relabel_variables(mapping, inplace=False)
        solver = getattr(getattr(hybrid, "solver", None), "name", None)
        sampleset.info["sampler_info"] = _hybrid_info(result.info, solver, time_limit_s=time_limit)
        return sampleset


class HybridCQMSampler(dimod.Sampler):
    """Leap's hybrid CQM solver on the formulation as a constrained model.

    It needs the formulation, not just the BQM: :func:`qpicross.pipeline.run` passes
    it (``formulation=``). The returned reads carry the BQM's energy, so they
    decode and rank exactly like any other sampler's.

    Args:
        hybrid: Anything with ``sample_cqm`` to use instead of Leap (e.g.
            ``dimod.ExactCQMSolver()`` in tests).
        matching: See :func:`qpicross.model.cqm.build_cqm`.
        profile, token, solver: As for :class:`QPUSampler`.
    """

    def __init__(self, hybrid=None, *, matching: str = "objective", profile: str | None = None,
                 token: str | None = None, solver=None):
        self.hybrid, self.matching = hybrid, matching
        self.profile, self.token, self.solver = profile, token, solver

    @property
    def parameters(self) -> dict:
        return {"formulation": [], "time_limit": [], "matching": [], "profile": [], "token": [], "label": []}

    @property
    def properties(self) -> dict:
        return {"category": "hybrid"}

    def sample(self, bqm: dimod.BinaryQuadraticModel, *, formulation=None, time_limit: float | None = None,
               matching: str | None = None, profile: str | None = None, token: str | None = None,
               **kwargs) -> dimod.SampleSet:
        """Build the CQM from ``formulation``, solve it, and return its reads with their BQM energies.

        Raises:
            ValueError: Without ``formulation``.
        """
        if formulation is None:
            raise ParameterError("hybrid-cqm builds a constrained model from the puzzle's formulation: "
                                 "call it through qpicross.pipeline.run() or pass formulation=")
        from qpicross.model.cqm import build_cqm

        cqm = build_cqm(formulation, matching or self.matching)
        hybrid = self.hybrid or _leap_solver("LeapHybridCQMSampler", profile or self.profile,
                                             token or self.token, self.solver)
        if time_limit is not None:
            kwargs["time_limit"] = time_limit
        result = hybrid.sample_cqm(cqm, **kwargs)
        result.resolve()
        index = {v: i for i, v in enumerate(result.variables)}
        samples = np.asarray(result.record.sample)[:, [index[v] for v in formulation.labels]]
        sampleset = dimod.SampleSet.from_samples_bqm(
            (samples, formulation.labels), bqm, num_occurrences=result.record.num_occurrences,
        )
        feasible = getattr(result.record, "is_feasible", None)
        solver = getattr(getattr(hybrid, "solver", None), "name", None)
        sampleset.info["sampler_info"] = _hybrid_info(
            result.info, solver, time_limit_s=time_limit, num_constraints=len(cqm.constraints),
            feasible_fraction=float(np.mean(feasible)) if feasible is not None and len(feasible) else None,
        )
        return sampleset


def register_cloud_samplers() -> None:
    """Register ``qpu``, ``hybrid``, ``hybrid-cqm`` and ``amplify`` (no SDK is imported)."""
    register_sampler("qpu", QPUSampler, "D-Wave QPU via Leap, minor-embedded (extra 'cloud'; Leap token)")
    register_sampler("hybrid", HybridBQMSampler, "D-Wave Leap hybrid BQM solver (extra 'cloud'; Leap token)")
    register_sampler("hybrid-cqm", HybridCQMSampler,
                     "D-Wave Leap hybrid CQM solver on the constrained model (extra 'cloud'; Leap token)")
    register_sampler("amplify", AmplifyAESampler, "Fixstars Amplify AE (extra 'amplify'; AMPLIFY_TOKEN)")
