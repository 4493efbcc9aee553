"""Fixstars Amplify AE as a dimod sampler (``amplify``), and a BQM as an Amplify polynomial.

Registered with the other cloud samplers by :func:`qpicross.samplers.cloud.register_cloud_samplers`, without
importing the ``amplify`` SDK: :class:`AmplifyAESampler` imports it, reads its token (``AMPLIFY_TOKEN`` or
``token=``) and connects only when it samples; a missing SDK, token or network raises
:class:`~qpicross.samplers.SamplerUnavailableError` with one line saying what to configure, and no token is ever
printed. ``AmplifyAESampler(client=...)`` takes any Amplify client, which is how the tests run offline.

Examples:
    >>> AmplifyAESampler().parameters
    {'time_limit': [], 'token': []}
"""

from __future__ import annotations

import logging
import os

import dimod
import numpy as np

from qpicross.samplers._secrets import redact_logs, scrub
from qpicross.samplers.registry import SamplerUnavailableError, import_extra

__all__ = ["AmplifyAESampler", "bqm_to_amplify", "AMPLIFY_TOKEN_ENV", "AMPLIFY_HELP"]

#: Environment variable holding the Fixstars Amplify token.
AMPLIFY_TOKEN_ENV = "AMPLIFY_TOKEN"
#: What to do when no token is found.
AMPLIFY_HELP = f"set {AMPLIFY_TOKEN_ENV} or pass --token-file with a Fixstars Amplify token"


def bqm_to_amplify(bqm: dimod.BinaryQuadraticModel):
    """The BQM as an Amplify polynomial over one binary variable per BQM variable.

    Vectorised: the couplings go in through ``PolyArray.take`` and one sum, so
    a 55x55 puzzle (700 000 couplings) converts in about a second.

    Returns:
        ``(poly, variables, labels)``: the :class:`amplify.Poly`, the
        :class:`amplify.PolyArray` of its variables, and the BQM label of each.
        ``poly`` evaluated at ``x`` equals ``bqm.energy(dict(zip(labels, x)))``.

    Raises:
        SamplerUnavailableError: Without the ``amplify`` package.
    """
    amplify = import_extra("amplify", "amplify", "Fixstars Amplify AE")
    binary = bqm.change_vartype(dimod.BINARY, inplace=False) if bqm.vartype is not dimod.BINARY else bqm
    linear, (irow, icol, quadratic), offset, labels = binary.to_numpy_vectors(
        variable_order=list(binary.variables), return_labels=True,
    )
    variables = amplify.VariableGenerator().array("Binary", max(len(labels), 1))
    poly = amplify.Poly(float(offset))
    if len(labels):
        poly += (variables * np.asarray(linear, dtype=float)).sum()
    if len(quadratic):
        pairs = variables.take(irow.tolist()) * variables.take(icol.tolist())
        poly += (pairs * np.asarray(quadratic, dtype=float)).sum()
    return poly, variables, list(labels)


class AmplifyAESampler(dimod.Sampler):
    """Fixstars Amplify Annealing Engine through the ``amplify`` SDK's ``AmplifyAEClient``.

    Args:
        client: A configured Amplify client to use instead of a new ``AmplifyAEClient``.
        token: Amplify token (default: ``AMPLIFY_TOKEN``).
    """

    def __init__(self, client=None, *, token: str | None = None):
        self.client, self.token = client, token

    @property
    def parameters(self) -> dict:
        return {"time_limit": [], "token": []}

    @property
    def properties(self) -> dict:
        return {"category": "cloud"}

    def sample(self, bqm: dimod.BinaryQuadraticModel, *, time_limit: float = 1.0,
               token: str | None = None) -> dimod.SampleSet:
        """Solve the BQM on Amplify AE for ``time_limit`` seconds; every returned solution is a read."""
        amplify = import_extra("amplify", "amplify", "Fixstars Amplify AE")
        poly, variables, labels = bqm_to_amplify(bqm)
        client = self.client
        if client is None:
            token = token or self.token or os.environ.get(AMPLIFY_TOKEN_ENV, "").strip()
            if not token:
                raise SamplerUnavailableError(f"no Fixstars Amplify token: {AMPLIFY_HELP}")
            client = amplify.AmplifyAEClient()
            client.token = token
            client.parameters.time_limit_ms = int(round(time_limit * 1000))
        redact_logs(token)
        quiet = logging.getLogger("amplify")
        level = quiet.level
        quiet.setLevel(logging.ERROR)  # its retries log a warning each: the error below is the one line
        try:
            result = amplify.solve(poly, client)
        except Exception as exc:  # network, authentication, quota
            raise SamplerUnavailableError(
                f"cannot use Fixstars Amplify AE ({type(exc).__name__}: {scrub(exc, token)}); "
                f"check the network, or {AMPLIFY_HELP}"
            ) from None
        finally:
            quiet.setLevel(level)
        rows = np.array([variables.evaluate(s.values) for s in result.solutions], dtype=np.int8)
        rows = rows.reshape(len(result.solutions), -1)[:, : len(labels)]
        sampleset = dimod.SampleSet.from_samples_bqm((rows, labels), bqm)
        sampleset.info["sampler_info"] = {
            "solver": "Fixstars Amplify AE" if self.client is None else type(client).__name__,
            "time_limit_s": time_limit,
            "execution_time_s": result.execution_time.total_seconds(),
            "response_time_s": result.response_time.total_seconds(),
            "num_solutions": len(result.solutions),
        }
        return sampleset
