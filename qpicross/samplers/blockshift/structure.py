"""The structure the block-shift annealer reads off a BQM: its one-hot groups, lines and how blocks fit.

* :func:`infer_lines` / :func:`infer_groups` -- the lines and blocks named by a
  formulation's variable labels (``("row", i, j, k)``: block ``k`` of row ``i`` starts at cell ``j``);
* :func:`default_beta_range` -- the inverse temperatures of the default schedule;
* :func:`read_structure` -- the kernels' arrays, in a :class:`~qpicross.samplers.blockshift.layouts.Structure`:
  groups and lines as CSR, the couplings that matter between one-hot states, and which start of the next
  block fits after each start; the CPU sampler and both batched chains read a BQM through it.

Examples:
    >>> infer_lines([("row", 0, 0, 0), ("row", 0, 1, 0), ("row", 0, 2, 1), ("col", 1, 0, 0)])
    [[[('row', 0, 0, 0), ('row', 0, 1, 0)], [('row', 0, 2, 1)]], [[('col', 1, 0, 0)]]]
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

import dimod
import numpy as np

from qpicross.exceptions import ModelStructureError
from qpicross.samplers.blockshift.layouts import Structure

__all__ = ["infer_lines", "infer_groups", "default_beta_range", "beta_range_of", "read_structure"]


def infer_lines(variables: Sequence[Hashable]) -> list[list[list[Hashable]]]:
    """Lines of one-hot groups from formulation labels ``(kind, line, start, block)``.

    Each line is its list of groups in block order; each group is its
    variables in start order. Variables with other labels belong to no line.

    >>> infer_lines([("row", 0, 3, 1), ("row", 0, 0, 0), ("row", 0, 4, 1), ("col", 2, 1, 0), "x"])
    [[[('row', 0, 0, 0)], [('row', 0, 3, 1), ('row', 0, 4, 1)]], [[('col', 2, 1, 0)]]]
    """
    lines: dict[tuple, dict[int, list[tuple]]] = {}
    for v in variables:
        if isinstance(v, tuple) and len(v) == 4 and isinstance(v[0], str) and all(
            isinstance(x, (int, np.integer)) for x in v[1:]
        ):
            lines.setdefault((v[0], v[1]), {}).setdefault(v[3], []).append(v)
    return [
        [sorted(blocks[k], key=lambda label: label[2]) for k in sorted(blocks)] for blocks in lines.values()
    ]


def infer_groups(variables: Sequence[Hashable]) -> list[list[Hashable]]:
    """One-hot groups from formulation labels ``(kind, line, start, block)``.

    Variables whose label is not such a 4-tuple belong to no group.

    >>> infer_groups([("row", 0, 2, 0), ("row", 0, 0, 0), ("col", 1, 0, 0), "x"])
    [[('row', 0, 0, 0), ('row', 0, 2, 0)], [('col', 1, 0, 0)]]
    """
    return [group for line in infer_lines(variables) for group in line]


def default_beta_range(bqm: dimod.BinaryQuadraticModel) -> tuple[float, float]:
    """``(hot, cold)`` inverse temperatures: ``(2 / q, 5 / q)``, ``q`` the smallest non-zero bias.

    In the Picross formulation every penalty is an integer multiple of its
    weight, so ``q`` is the energy quantum (one mismatched cell at weight 1).
    The range was tuned with ``qpicross bench`` on taai2011 and Bompol puzzles
    (see the docs' results pages): hotter starts waste sweeps, colder ones freeze.

    >>> bqm = dimod.BinaryQuadraticModel({"a": 1.0}, {("a", "b"): -4.0}, 0, "BINARY")
    >>> default_beta_range(bqm)
    (2.0, 5.0)
    """
    linear, (_, _, quadratic), _ = bqm.to_numpy_vectors()
    return beta_range_of(linear, quadratic)


def beta_range_of(linear: np.ndarray, quadratic: np.ndarray) -> tuple[float, float]:
    """:func:`default_beta_range` from a BQM's linear and quadratic biases (as the sampler has them already).

    >>> beta_range_of(np.array([1.0, -1.0]), np.array([-4.0]))
    (2.0, 5.0)
    """
    biases = np.abs(np.concatenate([linear, quadratic]))
    biases = biases[biases > 1e-12]
    quantum = float(biases.min()) if len(biases) else 1.0
    return (2.0 / quantum, 5.0 / quantum)


def _units(lines, index, n):
    """CSR of one-hot groups (chained by line) followed by one single-flip unit per ungrouped variable.

    Returns ``group_ptr, group_vars, free, chain_ptr``: groups ``chain_ptr[c]`` to
    ``chain_ptr[c + 1]`` are the consecutive blocks of line ``c``.
    """
    members, sizes, chain_sizes = [], [], []  # every group's variables in a row, each group's size, each line's groups
    try:
        for line in lines:
            count = 0
            for g in line:
                idx = [index[v] for v in g]
                if idx:
                    members.extend(idx)
                    sizes.append(len(idx))
                    count += 1
            if count:
                chain_sizes.append(count)
    except KeyError as exc:
        raise ModelStructureError(f"group names a variable the BQM lacks: {exc.args[0]!r}") from None
    members = np.asarray(members, np.int64)
    if len(members) and np.bincount(members, minlength=n).max() > 1:
        raise ModelStructureError("a variable belongs to more than one group")
    in_group = np.zeros(n, bool)
    in_group[members] = True
    loose = np.flatnonzero(~in_group).astype(np.int64)
    group_ptr = np.r_[0, np.cumsum(sizes + [1] * len(loose))].astype(np.int64)
    group_vars = np.concatenate([members, loose])
    free = np.r_[np.zeros(len(sizes), np.bool_), np.ones(len(loose), np.bool_)]
    chain_ptr = np.r_[0, np.cumsum(chain_sizes)].astype(np.int64)
    return group_ptr, group_vars.astype(np.int64), free, chain_ptr


def _symmetric_csr(n, irow, icol, qdata):
    rows = np.concatenate([irow, icol]).astype(np.int64)
    cols = np.concatenate([icol, irow]).astype(np.int64)
    vals = np.concatenate([qdata, qdata]).astype(np.float64)
    order = np.argsort(rows, kind="stable")
    ptr = np.r_[0, np.cumsum(np.bincount(rows, minlength=n))].astype(np.int64)
    return ptr, cols[order], vals[order]


def _structure(group_ptr, group_vars, free, chain_ptr, irow, icol, qdata, n):
    """Couplings that matter between one-hot states, and which starts of the next block fit after each start.

    Two variables of one group are never 1 together in a one-hot state, so
    their couplings never contribute: they are dropped (``keep`` is False).

    ``next_limit[i]`` (for the variable at ``group_vars[i]``) is the first
    position in the next group of its line after every position that a
    positive coupling forbids next to it or to an earlier position of its
    group (the formulation's order and overlap penalties): non-decreasing, so
    the compatible predecessors of a position form a prefix (as the line move's
    dynamic programme needs). A line is *consistent* when each block's position
    is at least the ``next_limit`` of the previous block's. ``has_prev`` /
    ``has_next``: a unit has a previous / next group in its line; ``inner[c]``:
    line ``c`` has a non-zero coupling between two of its blocks at starts that
    a consistent placement can hold together (its line moves need the
    Metropolis correction; never in the formulation).
    """
    sizes = np.diff(group_ptr)
    group_of = np.full(n, -1, np.int64)
    position = np.zeros(n, np.int64)
    gid = np.repeat(np.arange(len(sizes)), sizes)
    group_of[group_vars] = np.where(free[gid], -1, gid)
    position[group_vars] = np.arange(len(group_vars)) - group_ptr[gid]
    irow, icol = np.asarray(irow, np.int64), np.asarray(icol, np.int64)
    qdata = np.asarray(qdata, np.float64)
    keep = ~((group_of[irow] >= 0) & (group_of[irow] == group_of[icol]))

    # the last group of each line has no next group, the first no previous one
    has_next = np.zeros(len(sizes), np.bool_)
    for c in range(len(chain_ptr) - 1):
        has_next[chain_ptr[c] : chain_ptr[c + 1] - 1] = True
    has_prev = np.r_[False, has_next[:-1]] if len(sizes) else has_next.copy()
    limit = np.zeros(n, np.int64)  # indexed by variable
    for u, v in ((irow, icol), (icol, irow)):
        gu, gv = group_of[u], group_of[v]
        hit = (gu >= 0) & (gv == gu + 1) & has_next[np.maximum(gu, 0)] & (qdata > 0)
        np.maximum.at(limit, u[hit], position[v[hit]] + 1)
    next_limit = limit[group_vars]
    for grp in np.flatnonzero(has_next):
        lo, hi = group_ptr[grp], group_ptr[grp + 1]
        next_limit[lo:hi] = np.maximum.accumulate(next_limit[lo:hi])

    # lines with a non-zero coupling between two of their blocks on some consistent placement
    chain_of = np.full(len(sizes), -1, np.int64)
    chain_of[: chain_ptr[-1]] = np.repeat(np.arange(len(chain_ptr) - 1), np.diff(chain_ptr))
    gu, gv = group_of[irow], group_of[icol]
    pick = (gu >= 0) & (gv >= 0) & (gu != gv) & (chain_of[np.maximum(gu, 0)] == chain_of[np.maximum(gv, 0)])
    pick &= qdata != 0
    u, v = np.where(gu < gv, irow, icol)[pick], np.where(gu < gv, icol, irow)[pick]
    g, last, m = group_of[u], group_of[v], position[u]  # m: earliest start of block g after u
    alive = np.ones(len(u), bool)
    while (step := alive & (g < last)).any():
        m[step & (m >= sizes[g])] = -1
        alive &= m >= 0
        step &= alive
        m[step] = next_limit[group_ptr[g[step]] + m[step]]
        g = g + step
    inner = np.zeros(len(chain_ptr) - 1, np.bool_)
    inner[chain_of[group_of[v[alive & (position[v] >= m)]]]] = True
    return keep, next_limit, has_prev, has_next, inner


def read_structure(binary: dimod.BinaryQuadraticModel, variables: Sequence[Hashable], lines) -> tuple:
    """The kernels' :class:`~qpicross.samplers.blockshift.layouts.Structure` of a BINARY BQM with its ``lines``
    (variables in the order of ``variables``), and its coupling vectors ``(irow, icol, qdata)``.

    Raises:
        ValueError: For a group naming an unknown variable or a variable in two groups.
    """
    n = len(variables)
    group_ptr, group_vars, free, chain_ptr = _units(lines, {v: i for i, v in enumerate(variables)}, n)
    linear, (irow, icol, qdata), _ = binary.to_numpy_vectors(variable_order=variables)
    keep, *links = _structure(group_ptr, group_vars, free, chain_ptr, irow, icol, qdata, n)
    adj = _symmetric_csr(n, irow[keep], icol[keep], qdata[keep])
    return Structure(np.asarray(linear, np.float64), *adj, group_ptr, group_vars, free, chain_ptr, *links), \
        (irow, icol, qdata)
