"""The size guard: a model's variables and couplers counted from the clues, before any allocation.

:func:`estimate_size` runs the same enumeration of start variables as
:func:`~qpicross.model.formulation.build_formulation`
(:func:`~qpicross.model.placements.enumerate_starts`) and counts the coupler
entries each penalty term would allocate without allocating them;
:func:`check_size` raises :class:`ModelTooLargeError` above the ceiling, which
every command checks before it builds; :func:`run_estimate` adds what one run's path costs on top
(presolve, another encoding, a sampler's own copies, parallel workers). :func:`estimate_solver_size` does the same
for the exact solvers, line logic, the text view and the generator. The ceiling
is a share (:data:`MEMORY_FRACTION`) of the machine's memory (:func:`machine_memory`), or
``QPICROSS_MAX_MEMORY`` / ``--max-memory``; ``force=True`` (``--force``) lifts it up to the machine's
memory and no further (:func:`force_ceiling`).

Examples:
    >>> from qpicross import Puzzle
    >>> p = Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]])
    >>> estimate_size(p)["num_variables"]
    44
"""

from __future__ import annotations

import itertools
import os

import numpy as np

from qpicross.model.placements import Bounds, enumerate_starts, group_ids, painted_cells
from qpicross.model.pruning import prune_by_known
from qpicross.model.terms import order_clashes
from qpicross.exceptions import ModelTooLargeError, ParameterError
from qpicross.puzzle import Puzzle, require_puzzle

__all__ = [
    "estimate_size",
    "check_size",
    "estimate_solver_size",
    "check_solver_size",
    "check_allocation",
    "max_couplers_limit",
    "memory_limit",
    "machine_memory",
    "force_ceiling",
    "parse_memory",
    "ModelTooLargeError",
    "too_large",
    "BYTES_PER_COUPLER",
    "BASE_BYTES",
    "FORMULATION_BYTES_PER_COUPLER",
    "run_estimate",
    "MEMORY_FRACTION",
    "SOLVER_METHODS",
    "DEFAULT_MAX_CELLS",
]

#: Peak memory per coupler entry of a run with the default samplers, in bytes: the formulation,
#: the weighted BQM, the sampler's own arrays (the structured annealer's CSR, dwave-samplers' copy)
#: and the decoding of the reads. Measured with ``/usr/bin/time -v`` on random boards of density
#: 0.55: 148 (shift) and 157 (sa) at 100x100, 149 (shift) at 150x150, above :data:`BASE_BYTES`.
BYTES_PER_COUPLER = 180
#: What the process holds besides the model: the interpreter, numpy, dimod, numba and the compiled
#: kernels (189 MiB measured for ``qpicross anneal`` on a 5x5; 327 MiB on a first run, while numba
#: compiles the kernels into its cache). Every estimate of a run counts it.
BASE_BYTES = 384 * 2**20
#: The part of :data:`BYTES_PER_COUPLER` a built formulation keeps (its term arrays): 43 measured at
#: 100x100. A weight sweep holds every puzzle's formulation in the parent and in each worker.
FORMULATION_BYTES_PER_COUPLER = 64
#: Extra bytes per coupler entry of line-logic presolve (:class:`~qpicross.classical.presolve.PresolveComposite`
#: copies the model's vectors and builds the pruned BQM beside the full one): 49 measured at 100x100 and 150x150.
PRESOLVE_BYTES_PER_COUPLER = 64
#: Extra bytes per coupler entry of an encoding other than one-hot (a second BQM beside the one-hot
#: one every read is judged on): 117 (domain wall) and 43 (thermometer) measured at 100x100.
ENCODING_BYTES_PER_COUPLER = {"domain_wall": 140, "thermometer": 140}
#: What a sampler allocates beyond :data:`BYTES_PER_COUPLER`, by registry name:
#: ``(bytes per coupler entry, bytes per pair of variables (a dense n x n matrix), fixed bytes (its imports))``.
#: Measured: tabu 36-39 B per pair (30x30, 40x40: a dense matrix and its copies); sb 28-46 B per pair
#: and torch's import; dwave-hybrid pt 1.7-1.9 kB and pa 0.3 kB per coupler (a BQM per replica);
#: OpenJij 0.4 kB per coupler (60x60). Samplers not named here cost what the default ones do.
SAMPLER_MEMORY: dict[str, tuple[int, int, int]] = {
    "tabu": (0, 48, 0),
    "sb": (0, 48, 320 * 2**20),
    "sb+descent": (0, 48, 320 * 2**20),
    "pt": (2400, 0, 0),
    "pa": (600, 0, 0),
    "openjij-sa": (600, 0, 0),
    "openjij-sqa": (600, 0, 0),
}
#: Bytes per cell of a run that are not couplers (grids, coverage, decoding), measured on blank
#: boards (61 MiB for 1000x1000), and per read and cell (the int32 coverage of both sides in decoding).
BYTES_PER_CELL = 64
BYTES_PER_READ_CELL = 8
#: Share of the machine's memory one command may plan to use by default (the estimates bound the
#: measured peak; the rest is for other processes and for boards unlike the measured ones).
MEMORY_FRACTION = 0.25
#: What :func:`machine_memory` assumes where the system does not say.
FALLBACK_MEMORY = 4 * 2**30
#: Largest board (cells) the exact solvers, line logic and the text view take unless a memory limit is
#: given explicitly (``--max-memory``): 1000 x 1000, ten times the largest published puzzles per side;
#: a blank 2000 x 2000 board is 8 million one-literal clauses and 4 million lines of output.
DEFAULT_MAX_CELLS = 1_000_000
#: Solvers other than the QUBO pipeline that :func:`estimate_solver_size` knows.
SOLVER_METHODS = ("sat", "cpsat", "logic", "show", "generate")

_UNITS = {"": 1, "b": 1, "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40}


def _read_int(path: str, field: str | None = None) -> int | None:
    """An integer from a /proc or /sys file (``field`` names a ``Key: value kB`` line); None if absent."""
    try:
        with open(path, "rb") as handle:
            text = handle.read(1 << 16).decode("ascii", "replace")
    except OSError:
        return None
    if field is None:
        text = text.strip()
        return int(text) if text.isdigit() else None
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key == field and value.split() and value.split()[0].isdigit():
            return int(value.split()[0]) * (1024 if value.strip().endswith("kB") else 1)
    return None


def machine_memory() -> int:
    """Bytes of memory this machine gives a process: ``MemTotal`` from ``/proc/meminfo`` (else ``sysconf``'s
    physical pages), lowered to a cgroup v2 limit (``memory.max``, in containers).

    The total, not what is free now: the default limit (:func:`memory_limit`) stays the same from one run to the
    next and between commands, and it is the ceiling ``--force`` never builds above.
    """
    total = _read_int("/proc/meminfo", "MemTotal")
    if total is None:
        try:
            total = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
        except (ValueError, OSError, AttributeError):
            total = FALLBACK_MEMORY
    cgroup_max = _read_int("/sys/fs/cgroup/memory.max")
    if cgroup_max is not None:
        total = min(total, cgroup_max)
    return max(int(total), 1)


def force_ceiling() -> int:
    """Bytes a run with ``force=True`` (``--force``) may still plan to use: all of :func:`machine_memory`.

    ``force`` lifts the size guard's limit, not the machine's memory: a run estimated above it would be killed
    by the system (or swap for hours), so it is refused whatever ``force`` says.
    """
    return machine_memory()


def parse_memory(text: str) -> int:
    """``"4G"``, ``"512M"``, ``"100000"`` (bytes) -> bytes (binary units, K/M/G/T).

    >>> parse_memory("4G"), parse_memory("512m"), parse_memory("1000")
    (4294967296, 536870912, 1000)

    Raises:
        ValueError: If the text is not a positive size.
    """
    clean = str(text).strip().lower().removesuffix("ib").removesuffix("b") or "?"
    number, unit = (clean[:-1], clean[-1]) if clean[-1:] in _UNITS else (clean, "")
    try:
        value = float(number) if number.isascii() and number.replace(".", "", 1).isdigit() else None
    except ValueError:
        value = None
    if value is None or value <= 0 or value * _UNITS[unit] > 2**62:
        raise ParameterError(f"a memory size is a positive number with an optional K, M, G or T, got {text!r}")
    return max(1, int(value * _UNITS[unit]))


def memory_limit() -> int:
    """Bytes a command may plan to use: ``QPICROSS_MAX_MEMORY`` if set, else
    :data:`MEMORY_FRACTION` of :func:`machine_memory` (the same in every run on a machine).

    Raises:
        ValueError: If the variable is set but not a size.
    """
    text = os.environ.get("QPICROSS_MAX_MEMORY", "").strip()
    if text:
        try:
            return parse_memory(text)
        except ValueError as exc:
            raise ParameterError(f"QPICROSS_MAX_MEMORY: {exc}") from None
    return max(1, int(machine_memory() * MEMORY_FRACTION))


def check_allocation(what: str, nbytes: int, hint: str) -> None:
    """Refuse, before it is made, an allocation above :func:`memory_limit` (a sampler's arrays of reads).

    Args:
        what: What would be allocated, as the message names it (``"10,000,000 reads of 44 variables"``).
        nbytes: Its size in bytes.
        hint: What to do instead (``"draw fewer reads"``).

    Raises:
        ModelTooLargeError: With the size and the limit.

    >>> check_allocation("2**60 bytes", 2**60, "ask for less")
    Traceback (most recent call last):
    ...
    qpicross.exceptions.ModelTooLargeError: 2**60 bytes would need about 1048576.0 TiB of memory, above the limit of ...
    """
    limit = memory_limit()
    if nbytes > limit:
        raise ModelTooLargeError(f"{what} would need about {_human(nbytes)} of memory, above the limit of "
                                 f"{_human(limit)} (QPICROSS_MAX_MEMORY; default {MEMORY_FRACTION:.0%} of the "
                                 f"machine's memory); {hint}", {"estimated_bytes": int(nbytes)}, limit)


def _human(size: float) -> str:
    if size >= 2**40:
        return f"{size / 2**40:.1f} TiB"
    return (f"{size / 2**30:.1f} GiB" if size >= 2**30 else f"{size / 2**20:.0f} MiB" if size >= 2**20
            else f"{size / 2**10:.0f} KiB")


def _blocks(puzzle: Puzzle, bounds: Bounds = "stacking") -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per block of every line, vectorised: ``(length h, start window width w, line length L)``.

    The cheap pass of the guard: linear in the number of blocks, no per-start array.
    """
    n_rows, n_cols = puzzle.shape
    clues = list(puzzle.rows) + list(puzzle.cols)
    counts = np.fromiter((len(c) for c in clues), np.int64, len(clues))
    h = np.fromiter(itertools.chain.from_iterable(clues), np.int64, int(counts.sum()))
    line_len = np.repeat(np.r_[np.full(n_rows, n_cols), np.full(n_cols, n_rows)].astype(np.int64), counts)
    if bounds == "published":
        return h, line_len - h + 1, line_len
    totals = np.repeat(np.add.reduceat(h, np.r_[0, np.cumsum(counts)[:-1]][counts > 0]) if len(h) else h,
                       counts[counts > 0])
    slack = line_len - totals - (np.repeat(counts, counts) - 1)
    return h, np.maximum(slack + 1, 0), line_len


def estimate_size(puzzle: Puzzle, bounds: Bounds = "stacking", known: np.ndarray | None = None) -> dict:
    """Variables and couplers of a puzzle's QUBO, counted from the clues without building it.

    Counts are exact for the variables and for the coupler *entries* each
    penalty term generates (the arrays a build allocates); the BQM's distinct
    interactions are at most their sum, since terms may share a pair. Cost is
    linear in the number of variables, far below a build's.

    Args:
        puzzle: The puzzle.
        bounds: As for :func:`build_formulation`.
        known: Settled cells (presolve); pruned and fixed starts are left out.

    Returns:
        A dict with ``num_variables``, ``num_couplers``, ``couplers_per_term`` (``{term: n}``) and
        ``estimated_bytes``: the peak resident memory of a process that builds this model and anneals it
        with a default sampler (``shift``, ``sa``): :data:`BASE_BYTES` (the interpreter and its libraries)
        + coupler entries x :data:`BYTES_PER_COUPLER` (formulation, BQM, the sampler's arrays, decoding)
        + cells x :data:`BYTES_PER_CELL`. :func:`run_estimate` adds what other paths cost (presolve,
        encodings, samplers with dense matrices, reads, workers).

    Examples:
        >>> p = Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]])
        >>> est = estimate_size(p)
        >>> from qpicross.model.formulation import build_formulation
        >>> f = build_formulation(p)
        >>> est["num_variables"] == f.num_variables
        True
        >>> est["couplers_per_term"]["match"] == len(f.terms["match"].data)
        True
    """
    require_puzzle(puzzle)
    n_rows, n_cols = puzzle.shape
    kind, line, block, start, length = enumerate_starts(puzzle, bounds)
    if known is not None:
        keep, fixed = prune_by_known(puzzle, np.asarray(known), kind, line, block, start, length)
        keep &= ~fixed  # fixed starts leave the BQM (their couplers become linear biases)
        kind, line, block, start, length = (a[keep] for a in (kind, line, block, start, length))

    def pairs(counts: np.ndarray) -> int:
        counts = counts.astype(np.int64)
        return int((counts * (counts - 1) // 2).sum())

    line_len = np.where(kind == 0, n_cols, n_rows).astype(np.int64)
    gline, group, new_group = group_ids(kind, line, block, puzzle.shape)
    _, group_sizes = np.unique(group, return_counts=True)
    _, cell_starts = np.unique(gline * (max(n_rows, n_cols) + 1) + start, return_counts=True)
    _, clashes = order_clashes(group, new_group, start, length)
    order = int(clashes.sum())
    _, covered = painted_cells(kind, line, start, length, line_len, n_cols)
    couplers = {
        "one_hot": pairs(group_sizes),
        "at_most_one": pairs(cell_starts),
        "order": order,
        "match": pairs(np.unique(covered, return_counts=True)[1]),  # never an array per cell
    }
    total = sum(couplers.values())
    return {
        "num_variables": int(len(start)),
        "num_couplers": total,
        "couplers_per_term": couplers,
        "estimated_bytes": BASE_BYTES + total * BYTES_PER_COUPLER + n_rows * n_cols * BYTES_PER_CELL,
    }


def max_couplers_limit() -> int:
    """The coupler ceiling in force: ``QPICROSS_MAX_COUPLERS`` if set, else :func:`memory_limit`
    divided by :data:`BYTES_PER_COUPLER`.

    Raises:
        ValueError: If a variable is set but not a positive integer (a size).
    """
    text = os.environ.get("QPICROSS_MAX_COUPLERS", "").strip()
    if not text:
        return max(1, memory_limit() // BYTES_PER_COUPLER)
    if not text.isascii() or not text.isdigit() or int(text) < 1:
        raise ParameterError(f"QPICROSS_MAX_COUPLERS must be a positive integer, got {text!r}")
    return int(text)


#: What sets the QUBO size guard's limit, and how to pass it, as the guard's message says them in Python; the command
#: line says them with its options (``qpicross.cli._puzzle_files.size_error``).
LIMIT_SETTINGS = "max_couplers=, QPICROSS_MAX_COUPLERS or QPICROSS_MAX_MEMORY"
FORCE_HINT = "; use force=True to build it anyway"
#: How a refusal above the machine's memory (:func:`force_ceiling`) ends, in Python; the command line says ``--force``.
FORCED_HINT = ": it cannot be built here, even with force=True"


def too_large(puzzle: Puzzle, estimate: dict, limit: int, presolved: bool = False,
              forced: bool = False) -> ModelTooLargeError:
    """The :class:`~qpicross.exceptions.ModelTooLargeError` for a model or solver run above its limit.

    Args:
        puzzle: The puzzle.
        estimate: From :func:`estimate_size` (a QUBO; ``limit`` in couplers) or
            :func:`estimate_solver_size` (``limit`` in bytes).
        limit: The ceiling that was exceeded.
        presolved: The QUBO was estimated after presolve (the message says so).
        forced: ``limit`` is :func:`force_ceiling`'s (in couplers): the message says that the machine's memory,
            not a setting, refused it.
    """
    size = _human(estimate["estimated_bytes"])
    bound = "at least " if estimate.get("lower_bound") else ""
    if "cells" in estimate:
        return ModelTooLargeError(
            f"{puzzle}: {estimate['what']} takes boards of at most {limit:,} cells by default, this one has "
            f"{estimate['cells']:,} (about {size} of memory); give --max-memory (QPICROSS_MAX_MEMORY) to "
            f"run it anyway", estimate, limit)
    if "method" in estimate:
        return ModelTooLargeError(
            f"{puzzle}: {estimate['what']} would need {bound}about {size} of memory, above the limit of "
            f"{_human(limit)} (--max-memory, QPICROSS_MAX_MEMORY; default {MEMORY_FRACTION:.0%} of the "
            f"machine's memory); raise the limit to run it anyway", estimate, limit)
    reads = f" and up to {estimate['num_reads']:,} reads" if estimate.get("num_reads") else ""
    above = (f"more than this machine's {_human(force_ceiling())} of memory{FORCED_HINT}" if forced else
             f"above the limit of {limit:,} couplers ({_human(limit * BYTES_PER_COUPLER)}; {LIMIT_SETTINGS}){FORCE_HINT}")
    return ModelTooLargeError(
        f"{puzzle} would build a QUBO of {bound}{estimate['num_variables']:,} variables and "
        f"{estimate['num_couplers']:,} couplers{reads} (about {size}){' after presolve' if presolved else ''}, "
        f"{above}", estimate, limit)


def _cheap_bound(puzzle: Puzzle, bounds: Bounds) -> dict:
    """A lower bound on :func:`estimate_size` from the block windows alone (no per-start array):
    the one-hot pairs, plus what enumerating the starts would itself allocate (also ``counting_bytes``: what
    :func:`estimate_size` itself would hold, to count exactly)."""
    h, w, _ = _blocks(puzzle, bounds)
    variables = int(w.sum())
    one_hot = int((w * (w - 1) // 2).sum())
    cover = int((w * h).sum())
    # enumeration: five int64 arrays per start, then one per painted cell (three of them)
    enumeration = (variables * 40 + cover * 24) // BYTES_PER_COUPLER
    couplers = one_hot + enumeration
    return {"num_variables": variables, "num_couplers": couplers, "lower_bound": True,
            # what estimate_size holds: the enumeration twice over (2.2 GiB measured on a random 500x500, 1.5 GiB
            # counted once)
            "counting_bytes": BASE_BYTES + 2 * (variables * 40 + cover * 24)
                              + puzzle.num_rows * puzzle.num_cols * BYTES_PER_CELL,
            "estimated_bytes": BASE_BYTES + couplers * BYTES_PER_COUPLER
                               + puzzle.num_rows * puzzle.num_cols * BYTES_PER_CELL}


def check_size(
    puzzle: Puzzle,
    bounds: Bounds = "stacking",
    known: np.ndarray | None = None,
    max_couplers: int | None = None,
    presolved: bool = False,
    num_reads: int = 0,
    forced: bool = False,
) -> dict:
    """:func:`estimate_size`, raising :class:`ModelTooLargeError` above the limit.

    A lower bound from the block windows is checked first, so a huge puzzle is
    refused in time linear in its clues, before any per-start array exists.

    Args:
        max_couplers: The ceiling (bytes / :data:`BYTES_PER_COUPLER`); :func:`max_couplers_limit` when None.
        presolved: ``known`` comes from presolve (the message says so).
        num_reads: Reads the run keeps: each holds its sample and decoded board
            (:data:`BYTES_PER_READ_CELL` per cell).
        forced: ``max_couplers`` is :func:`force_ceiling`'s (the message says so).

    Returns:
        The estimate.

    Examples:
        >>> p = Puzzle([[]] * 10_000, [[]] * 10_000, name="blank")  # 10 000 x 10 000, no clues
        >>> check_size(p, max_couplers=10**6)
        Traceback (most recent call last):
        ...
        qpicross.exceptions.ModelTooLargeError: blank (10000x10000) would build a QUBO of at least 0 variables and 0 couplers (about 6.3 GiB), above the limit of 1,000,000 couplers ...
    """
    limit = max_couplers_limit() if max_couplers is None else max_couplers
    per_read = (require_puzzle(puzzle).num_rows * puzzle.num_cols * BYTES_PER_READ_CELL) * num_reads
    estimate = _cheap_bound(puzzle, bounds)
    if known is None and estimate["estimated_bytes"] + per_read > limit * BYTES_PER_COUPLER:
        raise too_large(puzzle, {**estimate, "estimated_bytes": estimate["estimated_bytes"] + per_read,
                                          "num_reads": num_reads}, limit, presolved, forced)
    estimate = estimate_size(puzzle, bounds, known)
    if num_reads:
        estimate["num_reads"] = num_reads
        estimate["estimated_bytes"] += per_read + num_reads * estimate["num_variables"]
    if estimate["estimated_bytes"] > limit * BYTES_PER_COUPLER:
        raise too_large(puzzle, estimate, limit, presolved, forced)
    return estimate


def run_estimate(
    estimate: dict,
    sampler: str = "shift",
    encoding: str = "one_hot",
    presolve: bool = False,
    resident: int = 0,
) -> dict:
    """One run's peak memory: :func:`estimate_size`'s model plus what the run's path adds.

    Counts, on top of the model's ``estimated_bytes`` (which already holds :data:`BASE_BYTES`
    and the default samplers' copies): presolve's copies (:data:`PRESOLVE_BYTES_PER_COUPLER`),
    a second BQM for another encoding (:data:`ENCODING_BYTES_PER_COUPLER`), the sampler's own
    memory (:data:`SAMPLER_MEMORY`: per coupler, per pair of variables for dense matrices, and
    its imports) and ``resident`` bytes the process holds besides this run (a weight sweep's
    other formulations). Every term is a measured peak with a margin, so the sum bounds the
    peak resident memory of the process that runs it.

    Examples:
        >>> from qpicross import Puzzle
        >>> p = Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]])
        >>> est = estimate_size(p)
        >>> run_estimate(est, "tabu")["estimated_bytes"] - est["estimated_bytes"] == 48 * 44 * 44
        True
    """
    couplers, n = estimate["num_couplers"], estimate["num_variables"]
    per_coupler, per_pair, fixed = SAMPLER_MEMORY.get(sampler, (0, 0, 0))
    per_coupler += ENCODING_BYTES_PER_COUPLER.get(encoding, 0) + (PRESOLVE_BYTES_PER_COUPLER if presolve else 0)
    extra = couplers * per_coupler + n * n * per_pair + fixed + resident
    return {**estimate, "estimated_bytes": estimate["estimated_bytes"] + extra}


def estimate_solver_size(puzzle: Puzzle, method: str) -> dict:
    """Peak memory of a classical solver, the text view or the generator, estimated from the clues.

    Linear in the number of blocks. The per-item constants were measured on blank,
    permutation and random boards (SAT: ~350 bytes per clause with python-sat's copy;
    CP-SAT: ~800 bytes per model object; line logic: numba's 64 MiB and a few arrays
    per cell).

    Args:
        puzzle: The puzzle.
        method: One of :data:`SOLVER_METHODS`: ``"sat"``, ``"cpsat"`` (the exact
            solvers of :mod:`qpicross.classical.exact`), ``"logic"`` (line logic,
            also presolve), ``"show"`` (the clues as text) or ``"generate"``.

    Returns:
        ``{"method", "what", "items", "estimated_bytes"}``.

    Examples:
        >>> p = Puzzle([[]] * 2000, [[]] * 2000)
        >>> estimate_solver_size(p, "sat")["estimated_bytes"] > 2**30
        True
    """
    if method not in SOLVER_METHODS:
        raise ParameterError(f"unknown method {method!r}; known: {', '.join(SOLVER_METHODS)}")
    cells = require_puzzle(puzzle).num_rows * puzzle.num_cols
    h, w, _ = _blocks(puzzle)
    if method == "sat":  # one clause per cell and side, ~6 per start and 4 per cell a block may cover
        items, per_item, what = 2 * cells + int((6 * w + 4 * h).sum()), 400, "the SAT encoding"
    elif method == "cpsat":  # a grid variable and two sums per cell; per start a boolean, implications, cover
        items, per_item, what = 3 * cells + int((w * (4 + h)).sum()), 1000, "the CP-SAT model"
    elif method == "logic":
        items, per_item, what = cells + int(w.sum()), 64, "line logic"
    elif method == "show":
        items, per_item, what = cells + len(h), 48, "the board as text"  # lines, their join, the encoding
    else:
        items, per_item, what = cells, 32, "a random board and its clues"
    fixed = 64 * 2**20 if method == "logic" else 0  # numba's compiled line solver
    return {"method": method, "what": what, "items": items, "estimated_bytes": fixed + items * per_item}


def check_solver_size(puzzle: Puzzle, method: str, max_bytes: int | None = None) -> dict:
    """:func:`estimate_solver_size`, raising :class:`ModelTooLargeError` above ``max_bytes``
    (default :func:`memory_limit`).

    Examples:
        >>> check_solver_size(Puzzle([[]] * 2000, [[]] * 2000, name="blank"), "sat", max_bytes=2**30)
        Traceback (most recent call last):
        ...
        qpicross.exceptions.ModelTooLargeError: blank (2000x2000): the SAT encoding would need about 3.0 GiB of memory, above the limit of 1.0 GiB ...
    """
    limit = memory_limit() if max_bytes is None else max_bytes
    estimate = estimate_solver_size(puzzle, method)
    cells = puzzle.num_rows * puzzle.num_cols
    if method != "generate" and cells > DEFAULT_MAX_CELLS and max_bytes is None \
            and not os.environ.get("QPICROSS_MAX_MEMORY", "").strip():
        raise too_large(puzzle, {**estimate, "cells": cells}, DEFAULT_MAX_CELLS)
    if estimate["estimated_bytes"] > limit:
        raise too_large(puzzle, estimate, limit)
    return estimate
