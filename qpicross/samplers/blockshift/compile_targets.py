"""Kernels written once, compiled for each target and each chain: the :func:`kernel` mark and :func:`build`.

Every function of the block-shift engine is a plain Python function marked ``@kernel``. The mark
compiles it for the CPU (:func:`numba.njit`, cached) and records its source function, so that
:func:`build` can compile the same code again:

* **for another chain**: the engine's restart loop calls its chain through a few names it leaves
  open (``chain_start``, ``chain_sweep``, ...: the table :data:`OPEN_NAMES`, each name defined here as a
  placeholder that the kernels import, so that a reader's go-to-definition lands on it). ``build("cpu",
  bindings)`` copies every kernel that reaches an open name, with that name bound to the chain's function,
  and compiles the copies for the CPU; the kernels that reach none are shared, not copied;
* **for a GPU**: ``build(numba.cuda.jit(device=True), bindings)`` copies every kernel, each call
  between them resolved to the copy, as CUDA device functions.

A copy is a new function object over the same code, with its own globals (no module source is
executed twice), so the CPU and CUDA kernels are one text, and the samples they draw from one seed
are the same (``tests/samplers/blockshift/test_driver.py`` checks it for both chains under numba's CUDA
simulator).

Examples:
    >>> from qpicross.samplers.blockshift import engine
    >>> build("cpu", {}).luby is engine.luby  # nothing bound: no kernel reaches an open name, none is copied
    True
    >>> cpu = build("cpu", {"chain_start": engine.luby})  # a stand-in: the restart loop now reaches a chain
    >>> cpu.restart_begin is engine.restart_begin, cpu.luby is engine.luby
    (False, True)
    >>> chain_start
    <open name chain_start(r, moves, work, data) -> energy>
"""

from __future__ import annotations

import hashlib
import inspect
import os
import re
import types
from pathlib import Path

import numba

__all__ = ["kernel", "build", "cached", "clear_stale_cache", "CACHE_STAMP", "OpenName", "OPEN_NAMES", "chain_start", "chain_sweep", "chain_save",
           "chain_sample", "chain_exchange", "chain_views", "layout_random", "layout_flip", "layout_delta",
           "layout_factor", "layout_move", "layout_weights", "layout_place"]

#: Every kernel, by ``(module, name)``: ``(python function, njit options, CPU dispatcher)`` (marking a function of
#: the same module and name again replaces it).
_KERNELS: dict[tuple[str, str], tuple] = {}


def kernel(function=None, **options):
    """Mark ``function`` as a kernel: compiled for the CPU with ``numba.njit(cache=True, _nrt=False, **options)``
    and recorded for :func:`build`. Use as ``@kernel`` or ``@kernel(nogil=True)``.

    ``_nrt=False`` compiles the kernel without numba's reference counting: a kernel allocates nothing (a CUDA
    device function cannot), so the counts on its array views and arguments guard nothing, and they were about
    half of a profile sweep's time (``make bench-no-slowdown``). A kernel that allocates says ``_nrt=True``
    (it does not compile otherwise).

    numba keys a kernel's cached machine code on its own file alone: not on these options, nor on the kernels it
    calls from other modules (after an edit of ``profile.py``, ``engine.read``, which calls into it, would keep
    the old callee). So the first kernel marked in a folder checks that folder's cache against its sources
    (:func:`clear_stale_cache`): after any edit of any of them, every kernel there compiles afresh once.
    """
    options = {"_nrt": False, **options}

    def mark(f):
        dispatcher = numba.njit(cache=True, **options)(f)
        _check_cache(dispatcher, f)
        _KERNELS[(f.__module__, f.__name__)] = (f, options, dispatcher)
        return dispatcher
    return mark(function) if function is not None else mark


#: The file, in a cache folder, that holds the digest of the sources its cached kernels were compiled from.
CACHE_STAMP = "qpicross-kernels.sha256"
_CHECKED: set[str] = set()  # the cache folders checked in this process
_MARKS_OR_BUILDS = re.compile(r"@kernel|[^_a-z]build\(")


def clear_stale_cache(folder: Path, sources) -> int:
    """Delete numba's cached kernels (``*.nbi``, ``*.nbc``) in ``folder`` unless they were compiled from exactly
    ``sources`` (paths: every file the kernels there are made from), and record those: the digest of their names
    and bytes in ``folder / CACHE_STAMP``. Returns how many files it deleted. An unreadable or unwritable folder
    is left as it is (numba then compiles without it, or keeps its own).

    >>> import tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> source = folder / "k.py"
    >>> _ = source.write_text("x = 1"), (folder / "k.f-1.py311.nbi").write_text("")
    >>> clear_stale_cache(folder, [source]), clear_stale_cache(folder, [source])  # no stamp yet: cleared once
    (1, 0)
    """
    digest = hashlib.sha256()
    try:
        for path in sorted(Path(p) for p in sources):
            digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
        stamp = folder / CACHE_STAMP
        if stamp.is_file() and stamp.read_text().strip() == digest.hexdigest():
            return 0
        removed = 0
        for path in list(folder.glob("*.nbi")) + list(folder.glob("*.nbc")):
            path.unlink(missing_ok=True)
            removed += 1
        folder.mkdir(parents=True, exist_ok=True)  # a first run: stamped empty, its kernels then cached
        scratch = folder / f"{CACHE_STAMP}.{os.getpid()}"  # processes starting at once each write their own
        scratch.write_text(digest.hexdigest() + "\n")
        scratch.replace(stamp)
        return removed
    except OSError:
        return 0


def _check_cache(dispatcher, f) -> None:
    """:func:`clear_stale_cache` on the folder numba caches ``f``'s kernel in, the first time a kernel is marked
    there, against the kernels' modules beside ``f``'s: the Python files there that mark kernels (and so may call
    each other's) or :func:`build` them (whose bindings a copy is compiled with)."""
    try:
        folder = Path(dispatcher._cache._cache_path)  # numba's choice: __pycache__ beside the module, or its own
        if str(folder) in _CHECKED:
            return
        _CHECKED.add(str(folder))
        sources = [path for path in sorted(Path(inspect.getfile(f)).parent.glob("*.py"))
                   if _MARKS_OR_BUILDS.search(path.read_text(encoding="utf-8", errors="replace"))]
    except Exception:  # another numba's internals: leave the cache as numba keeps it
        return
    clear_stale_cache(folder, sources)


def _reaches(kernels: dict, open_names: set) -> set[int]:
    """The kernels (ids of their CPU dispatchers) whose code names an open name, or a kernel that does:
    a fixpoint over the call graph."""
    names_of = {key: (f, set(f.__code__.co_names)) for key, (f, _, _) in kernels.items()}
    found = {key for key, (f, names) in names_of.items() if names & open_names}
    while True:
        ids = {id(kernels[key][2]) for key in found}
        more = {key for key, (f, names) in names_of.items()
                if key not in found and any(id(f.__globals__.get(n)) in ids for n in names)}
        if not more:
            return {id(kernels[key][2]) for key in found}
        found |= more


class OpenName:
    """A name the kernels call but leave open: :func:`build` binds it, chain by chain, to the function in a
    chain's bindings. Called unbound, it says so (a kernel of no chain's build was run)."""

    def __init__(self, name: str, call: str, doc: str):
        self.__name__, self.call, self.__doc__ = name, call, f"{call}: {doc}"

    def __call__(self, *args):
        raise RuntimeError(f"{self.__name__} is an open name of the block-shift kernels: only a build binds it "
                           "(compile_targets.build, the bindings in compile_targets.OPEN_NAMES)")

    def __repr__(self) -> str:
        return f"<open name {self.call}>"


# The open names: each a placeholder here, which the kernels import (go-to-definition lands on it) and a chain's
# bindings replace in its build. ``work`` is the chain's layout of the replicas, ``data`` its model, ``moves`` a
# Moves (layouts.py). Who calls each, and which bindings (the dicts handed to build) bind it:
#
#   open name       called by                                      bound by
#   chain_start     engine.restart_begin                           profile.PROFILE, board.BOARD, fields.FIELDS
#   chain_sweep     engine.restart_sweeps                          the same
#   chain_save      engine.keep_best, restart_begin, read;         the same
#                   driver._keep_lowest
#   chain_sample    engine.read, driver._keep_lowest               the same
#   chain_exchange  engine.restart_sweeps (moves.window > 0)       the same (board.BOARD, fields.FIELDS: none)
#   chain_views     driver.ladder_run, driver.ladder_close         driver.PROFILE_LAUNCH, driver.FIELDS_LAUNCH
#   layout_*        joint.line_move, joint_start, joint_sweep      board.BOARD, fields.FIELDS
#
# (driver.*_LAUNCH are profile.PROFILE and fields.FIELDS with chain_views added; population.population_read calls
# the profile chain's kernels directly, and keep_best's chain_save.)
chain_start = OpenName("chain_start", "chain_start(r, moves, work, data) -> energy",
                       "replica r at a random state")
chain_sweep = OpenName("chain_sweep", "chain_sweep(r, beta, table, moves, work, data) -> change",
                       "one sweep of replica r at inverse temperature beta (Boltzmann factors in table)")
chain_save = OpenName("chain_save", "chain_save(r, work)", "keep replica r's state as the best")
chain_sample = OpenName("chain_sample", "chain_sample(out, work, data)", "the kept state as a 0/1 sample into out")
chain_exchange = OpenName("chain_exchange", "chain_exchange(w, moves, work, data) -> kept",
                          "swap a window of lines between neighbouring rungs (Metropolis), work.energy updated")
chain_views = OpenName("chain_views", "chain_views(l, p, axis, R, pz, ld) -> (work, data)",
                       "ladder l's work for R replicas and model p's data, free axis axis, as the chain reads them")
layout_random = OpenName("layout_random", "layout_random(r, work, data) -> energy",
                         "replica r at a random one-hot state")
layout_flip = OpenName("layout_flip", "layout_flip(r, g, beta, work, data) -> change",
                       "single-flip Metropolis of free variable g")
layout_delta = OpenName("layout_delta", "layout_delta(r, c, g, pa, pb, work, data) -> delta",
                        "energy change of block g of line c from start pa to pb")
layout_factor = OpenName("layout_factor", "layout_factor(delta, beta, table) -> factor",
                         "the Boltzmann factor of delta")
layout_move = OpenName("layout_move", "layout_move(r, c, g, pa, pb, work, data) -> change",
                       "block g of line c moved from pa to pb")
layout_weights = OpenName("layout_weights", "layout_weights(r, c, beta, table, work, data) -> (change, saved)",
                          "each start's factor of line c into work.weight")
layout_place = OpenName("layout_place", "layout_place(r, c, ok, beta, saved, work, data) -> change",
                        "the drawn placement work.chosen put in (if ok)")
#: Every open name, by name: what :func:`build`'s bindings may bind.
OPEN_NAMES = {name.__name__: name for name in (chain_start, chain_sweep, chain_save, chain_sample, chain_exchange,
                                               chain_views, layout_random, layout_flip, layout_delta, layout_factor,
                                               layout_move, layout_weights, layout_place)}


def build(target, bindings: dict) -> types.SimpleNamespace:
    """The kernels compiled for ``target`` with the open names of ``bindings`` bound.

    Args:
        target: ``"cpu"`` (copies only of the kernels that reach an open name, each compiled with its own
            ``njit`` options, cached) or a decorator such as ``numba.cuda.jit(device=True)`` (a copy of
            every kernel).
        bindings: Open name (of :data:`OPEN_NAMES`) -> the kernel (or any compiled function) it stands for in
            this build.

    Returns:
        A namespace with every kernel by its name: the copy where one was made, else the CPU kernel.

    Raises:
        ValueError: A binding names no open name.
    """
    unknown = set(bindings) - set(OPEN_NAMES)
    if unknown:
        raise ValueError(f"not open names of the kernels (compile_targets.OPEN_NAMES): {sorted(unknown)}")
    kernels = {id(dispatcher): (f, options, dispatcher) for f, options, dispatcher in _KERNELS.values()}
    copied = set(kernels) if target != "cpu" else _reaches(dict(_KERNELS), set(bindings))
    namespaces: dict[int, dict] = {}
    copies: dict[int, object] = {}
    for key in copied:
        f, options, _ = kernels[key]
        ns = namespaces.setdefault(id(f.__globals__), dict(f.__globals__))
        clone = types.FunctionType(f.__code__, ns, f.__name__, f.__defaults__, f.__closure__)
        clone.__qualname__, clone.__module__, clone.__doc__ = f.__qualname__, f.__module__, f.__doc__
        copies[key] = numba.njit(cache=True, **options)(clone) if target == "cpu" else target(clone)
    for ns in namespaces.values():  # every call between kernels goes to this build's copy
        ns.update(bindings)
        for name, value in ns.items():
            if id(value) in copies:
                ns[name] = copies[id(value)]
    result = {}
    for key, (f, _, dispatcher) in kernels.items():
        if f.__name__ in result and key in copied:
            raise RuntimeError(f"two kernels are named {f.__name__}: build() needs one name each")
        result.setdefault(f.__name__, copies.get(key, dispatcher))
    return types.SimpleNamespace(**result)


def cached(dispatcher) -> bool:
    """Whether numba's on-disk cache holds compiled code of a ``cache=True`` kernel for its current source, so that
    its first call in a process loads it instead of compiling (a miss: the first run after an install or an update).
    True where numba's cache cannot be read this way (nothing to announce then).

    >>> from qpicross.samplers.blockshift import engine
    >>> isinstance(cached(engine.luby), bool)
    True
    """
    try:
        return bool(dispatcher._cache._cache_file._load_index())
    except Exception:  # another numba's internals: say nothing rather than something wrong
        return True
