"""The penalty terms as arrays: each term a QUBO in coordinate form over the variables' indices.

:class:`TermArrays` holds one term (linear biases, coupled pairs, offset); the builders
here make the four terms of :data:`~qpicross.model.weights.TERMS` from the arrays of
:mod:`qpicross.model.placements`, and :func:`pairs_within_groups` / :func:`expand_ranges`
list the coupled pairs without a Python loop over them.

Examples:
    >>> import numpy as np
    >>> term = one_hot_term(np.array([0, 0, 1]), np.array([True, False, True]))
    >>> term.energies(np.array([[1, 0, 1], [1, 1, 0]])).tolist()
    [0.0, 2.0]
"""

from __future__ import annotations

import dataclasses

import numpy as np

__all__ = ["TermArrays", "one_hot_term", "at_most_one_term", "order_term", "order_clashes", "match_term",
           "pairs_within_groups", "expand_ranges"]


@dataclasses.dataclass(frozen=True)
class TermArrays:
    """One penalty term as a QUBO in coordinate form over the formulation's variable indices.

    Energy of a 0/1 vector ``x``: ``linear @ x + sum(data * x[irow] * x[icol]) + offset``.
    Pairs may repeat (their biases add up).
    """

    linear: np.ndarray
    irow: np.ndarray
    icol: np.ndarray
    data: np.ndarray
    offset: float

    def energies(self, samples: np.ndarray) -> np.ndarray:
        """This term's value for each row of a 0/1 ``samples`` matrix."""
        samples = np.atleast_2d(samples).astype(np.float64)
        quad = (samples[:, self.irow] * samples[:, self.icol]) @ self.data
        return samples @ self.linear + quad + self.offset


def pairs_within_groups(order: np.ndarray, group_ids_sorted: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """All unordered pairs of elements sharing a group.

    Args:
        order: Element indices, sorted so that groups are contiguous.
        group_ids_sorted: The group id of each entry of ``order``.
    """
    n = len(order)
    if n == 0:
        return order[:0], order[:0]
    boundaries = np.flatnonzero(np.diff(group_ids_sorted)) + 1
    group_end = np.repeat(np.append(boundaries, n), np.diff(np.concatenate(([0], boundaries, [n]))))
    position = np.arange(n)
    partners = group_end - position - 1
    return expand_ranges(position, position + 1, partners, order)


def expand_ranges(owner, first, counts, values=None):
    """For each ``i``, pair ``owner[i]`` with ``first[i], first[i]+1, ...`` (``counts[i]`` of them).

    Returns ``(a, b)``; if ``values`` is given both are mapped through it.
    """
    counts = np.asarray(counts, dtype=np.int64)
    total = int(counts.sum())
    a = np.repeat(owner, counts)
    step = np.arange(total, dtype=np.int64) - np.repeat(np.cumsum(counts) - counts, counts)
    b = np.repeat(first, counts) + step
    if values is not None:
        a, b = values[a], values[b]
    return a, b


def one_hot_term(group: np.ndarray, new_group: np.ndarray) -> TermArrays:
    # (sum_j q_j - 1)^2 = -sum_j q_j + 2 sum_{j<j'} q_j q_j' + 1   (q^2 = q)
    order = np.arange(len(group))
    a, b = pairs_within_groups(order, group)
    return TermArrays(-np.ones(len(group)), a, b, np.full(len(a), 2.0), float(new_group.sum()))


def at_most_one_term(gline: np.ndarray, start: np.ndarray, line_len: np.ndarray) -> TermArrays:
    key = gline * (int(line_len.max(initial=0)) + 1) + start
    order = np.argsort(key, kind="stable")
    a, b = pairs_within_groups(order, key[order])
    return TermArrays(np.zeros(len(gline)), a, b, np.ones(len(a)), 0.0)


def order_clashes(group, new_group, start, length) -> tuple[np.ndarray, np.ndarray]:
    """For each start j1 of block k: the first variable of block k+1 and how many of its starts clash.

    Block k+1's starts j2 <= j1 + h_k leave no gap after block k. Groups are
    contiguous and sorted by start, and the next block of the same line is the
    next group (its id is ``group + 1``), so ``(group, start)`` is a sorted key.
    Shared by the builder and the size estimate.
    """
    n = len(group)
    if n == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    group_first = np.flatnonzero(new_group)
    gidx = np.cumsum(new_group) - 1
    nxt = np.minimum(gidx + 1, len(group_first) - 1)
    next_first = group_first[nxt]
    same_line = (gidx + 1 < len(group_first)) & (group[next_first] == group + 1)
    span = int(start.max()) + int(length.max()) + 2
    key = group * span + start
    last_clash = np.searchsorted(key, (group + 1) * span + start + length, side="right")
    return next_first, np.where(same_line, last_clash - next_first, 0)


def order_term(group, new_group, start, length) -> TermArrays:
    next_first, count = order_clashes(group, new_group, start, length)
    a, b = expand_ranges(np.arange(len(group)), next_first, count)
    return TermArrays(np.zeros(len(group)), a, b, np.ones(len(a)), 0.0)


def match_term(kind, cover_indptr, cover_cells, n_cells) -> TermArrays:
    # (sum_row q - sum_col q)^2 per cell = sum of covering q (s^2 = 1)
    #   + 2 * sum over covering pairs of s_a s_b q_a q_b, s = +1 row, -1 col.
    counts = np.diff(cover_indptr)
    var = np.repeat(np.arange(len(counts)), counts)
    linear = counts.astype(np.float64)
    order = np.argsort(cover_cells, kind="stable")
    a_pos, b_pos = pairs_within_groups(order, cover_cells[order])
    a, b = var[a_pos], var[b_pos]
    sign = np.where(kind == 0, 1.0, -1.0)
    return TermArrays(linear, a, b, 2.0 * sign[a] * sign[b], 0.0)
