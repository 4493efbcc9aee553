"""Names and limits the command line needs before it imports anything heavy.

Parsing arguments and ``--help`` import this module and the standard library only: no
numpy, dimod, numba or matplotlib (``qpicross --help`` in well under a second). Each name
below is the one definition the rest of the package imports, except :data:`SAMPLER_NAMES`,
the registry's names (:data:`qpicross.samplers.SAMPLERS` holds their factories, which import
the samplers): a test checks that the two agree.

Examples:
    >>> import qpicross.samplers
    >>> tuple(qpicross.samplers.SAMPLERS)[:len(SAMPLER_NAMES)] == SAMPLER_NAMES
    True
"""

from __future__ import annotations

__all__ = ["SAMPLER_NAMES", "ENCODINGS", "MAX_READS", "EXACT_METHODS", "EXACT_MODELS", "EXPORT_FORMATS", "FIGURE_SUFFIXES"]

#: Every sampler :data:`qpicross.samplers.SAMPLERS` registers, in its order: built in, cloud, peers.
SAMPLER_NAMES: tuple[str, ...] = (
    "sa", "tabu", "shift", "shift-batched", "shift-batched-cpu", "exact",
    "qpu", "hybrid", "hybrid-cqm", "amplify",
    "openjij-sa", "openjij-sqa", "sb", "sa+descent", "sb+descent", "pt", "pa",
)
#: Encodings of the block starts that a configuration may anneal.
ENCODINGS: tuple[str, ...] = ("one_hot", "domain_wall", "thermometer")
#: Upper bounds on reads and sweeps per read: far beyond any useful run, they stop a typo from
#: allocating terabytes (a run is bounded in time by ``time_limit``).
MAX_READS = 10_000_000
#: What a read reaching ``target_energy`` stops besides itself: the model's whole run, that read only, or
#: nothing (:mod:`qpicross.samplers.control`).
EARLY_STOP = ("puzzle", "read", "none")
#: Exact methods, in the order the CLI lists them.
EXACT_METHODS: tuple[str, ...] = ("cpsat", "sat")
#: The CP report's constraint sets (CP-SAT only), weakest first.
EXACT_MODELS: tuple[str, ...] = ("M1", "M2", "M3")
#: File extension -> format name of an exported model.
EXPORT_FORMATS: dict[str, str] = {".json": "json", ".bqm": "bqm", ".coo": "coo", ".cqm": "cqm"}
#: The figure files :func:`qpicross.plot.save_figure` (and every ``--plot`` option) writes, by extension.
FIGURE_SUFFIXES = (".png", ".svg", ".pdf")
