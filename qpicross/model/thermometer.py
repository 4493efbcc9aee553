r"""Thermometer encoding: every constraint of a line becomes a 2-local implication between bits.

Each block's start :math:`s` (one of its possible starts :math:`p_0 < p_1 < \dots < p_{m-1}`)
is written in unary, as :math:`m - 1` bits

.. math:: u_t = [\,s \ge p_t\,], \qquad t = 1, \dots, m-1 \quad (u_0 = 1 \text{ implied}),

and :math:`u(p)` for any position :math:`p` is the bit of the first start :math:`\ge p`
(1 before the first start, 0 after the last). Then:

* the code is valid (no broken "wall") when :math:`u_{t+1} \le u_t`:
  :math:`P_{wall} = \sum_t u_{t+1}(1 - u_t)` (weight ``one_hot``);
* block :math:`k+1` starts at least :math:`h_k + 1` after block :math:`k`:
  :math:`P_{order} = \sum_{p} u^{k}(p)\,\big(1 - u^{k+1}(p + h_k + 1)\big)` over block
  :math:`k`'s starts :math:`p` -- one coupler per start, where the one-hot model's order term
  needs one per clashing *pair* of starts (weight ``order``);
* block :math:`k` covers cell :math:`j` exactly when :math:`u^k(j-h_k+1) - u^k(j+1) = 1`, so
  a line's painted cells are **linear** in its bits,
  :math:`C_j = \sum_k u^k(j-h_k+1) - u^k(j+1)`, and rows and columns must agree:
  :math:`P_{match} = \sum_{i,j}(C^{row}_{i,j} - C^{col}_{i,j})^2` (weight ``match``).

Every term is a non-negative integer for *every* assignment (products :math:`x(1-y)` and a
square), and all three are 0 exactly on the codes of valid boards: a valid code with the order
kept paints each line as its clue says, and the match term makes rows and columns paint the
same board. So the ground states are the solutions, one to one, and every other assignment
costs at least the smallest weight used -- unlike :mod:`qpicross.model.domain_wall`, which
substitutes into the one-hot order term and can go negative on broken walls. ``at_most_one`` is
not used: the order term already keeps block starts apart.

Why a generic annealer may like it: moving a block by one cell is a *single* bit flip that
changes two cells of the board (the one-hot model needs two flips through a state that pays
the one-hot penalty plus every cell of the block), and a line couples only to its own bits
and the bits of the lines crossing it.

The encoding is built from a :class:`~qpicross.model.formulation.PicrossFormulation`, so it
follows its pruning (``bounds``, ``known`` cells; presolve-fixed blocks become constants).

Examples:
    >>> from qpicross import Puzzle, build_formulation
    >>> p = Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]])
    >>> f = build_formulation(p)
    >>> model = thermometer_bqm(f)
    >>> f.num_variables, model.bqm.num_variables
    (44, 30)
    >>> board = ["..#..", ".#.#.", ".#.#.", "#####", "#...#"]
    >>> bits = model.from_one_hot(f.sample_from_board(board))
    >>> float(model.bqm.energy(bits))
    0.0
    >>> model.to_one_hot([[bits[v] for v in model.bqm.variables]])[0].tolist() == [
    ...     f.sample_from_board(board)[v] for v in f.labels]
    True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import dimod
import numpy as np

from qpicross.model.formulation import PicrossFormulation
from qpicross.model.terms import pairs_within_groups
from qpicross.model.weights import PenaltyWeights

__all__ = ["ThermometerModel", "thermometer_bqm", "thermometer_num_variables", "THERMOMETER_TERMS"]

#: The penalty terms of the thermometer model and the weight each one takes.
THERMOMETER_TERMS = {"wall": "one_hot", "order": "order", "match": "match"}


@dataclasses.dataclass
class ThermometerModel:
    """A formulation in thermometer form.

    Attributes:
        formulation: The one-hot formulation it encodes.
        bqm: The BQM over labels ``("thermo", kind, line, block, start)``: 1 when the block
            starts at ``start`` or later.
        group_of: For each one-hot variable of the formulation, its block (group) index.
        position: For each one-hot variable, its index among its block's starts.
        group_bits: For each group, the index (in ``bqm.variables`` order) of its first bit,
            and ``group_size`` its number of starts (it has ``group_size - 1`` bits).
        terms: The unweighted terms ``wall``, ``order``, ``match`` as BQMs (for reporting).
    """

    formulation: PicrossFormulation
    bqm: dimod.BinaryQuadraticModel
    group_of: np.ndarray
    position: np.ndarray
    group_bits: np.ndarray
    group_size: np.ndarray
    terms: dict[str, dimod.BinaryQuadraticModel]

    def to_one_hot(self, bits: np.ndarray) -> np.ndarray:
        """Start variables (formulation label order) of bit samples ``(num_samples, num_bits)``.

        :math:`q_t = u_t - u_{t+1}` with :math:`u_0 = 1`, :math:`u_m = 0`; a broken code
        (a 0 before a 1) gives -1 somewhere, read as 0, and always leaves two or more starts
        of that block at 1, so it is never judged a solution.
        """
        bits = np.atleast_2d(np.asarray(bits, dtype=np.int64))
        padded = np.concatenate([bits, np.zeros((len(bits), 1), np.int64)], axis=1)
        none = bits.shape[1]  # index of the padding column (value 0)
        t = self.position
        base = self.group_bits[self.group_of]
        m = self.group_size[self.group_of]
        left = np.where(t == 0, -1, base + t - 1)  # u_t
        right = np.where(t + 1 <= m - 1, base + t, none)  # u_{t+1}
        u_t = np.where(left < 0, 1, padded[:, np.where(left < 0, none, left)])
        q = u_t - padded[:, right]
        return np.clip(q, 0, 1).astype(np.int8)

    def bit_spans(self) -> dict:
        """Where each bit lies on the board: label -> ``(axis, line, first, last)``, its line (``"row"`` or
        ``"col"`` and the line's index) and the first and last cell along it whose paint the bit enters.

        Bit :math:`u_t` of a block of length :math:`h` enters the match term of cell :math:`j` when
        :math:`j + 1` or :math:`j - h + 1` falls in :math:`(p_{t-1}, p_t]`, so its cells run from
        :math:`p_{t-1}` to :math:`p_t + h - 1`: for starts one apart, the two cells at its block's ends as the
        block moves from :math:`p_{t-1}` to :math:`p_t`. A structured embedding lays each bit's chain
        along them (``benchmarks/crossbar.py``).

        >>> from qpicross import Puzzle, build_formulation
        >>> model = thermometer_bqm(build_formulation(Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]],
        ...                                                  [[2], [3], [1, 1], [3], [2]])))
        >>> model.bit_spans()[("thermo", "row", 0, 0, 1)]  # row 0's block of 1 starting at 1 or later
        ('row', 0, 0, 1)
        """
        first_start = np.full(len(self.group_size), -1, np.int64)
        at_first = self.position == 0
        first_start[self.group_of[at_first]] = self.formulation.start[at_first]
        clues = {"row": self.formulation.puzzle.rows, "col": self.formulation.puzzle.cols}
        labels = list(self.bqm.variables)
        spans = {}
        for g in np.flatnonzero(self.group_size > 1).tolist():
            previous = int(first_start[g])
            for label in labels[self.group_bits[g]: self.group_bits[g] + self.group_size[g] - 1]:
                _, axis, line, block, start = label
                spans[label] = (axis, line, previous, start + clues[axis][line][block] - 1)
                previous = start
        return spans

    def from_one_hot(self, sample: Mapping) -> dict:
        """The bits of a one-hot assignment (each block started exactly once)."""
        x = np.array([sample[label] for label in self.formulation.labels], dtype=np.int64)
        out = {}
        variables = list(self.bqm.variables)
        for g in range(len(self.group_size)):
            mine = np.flatnonzero(self.group_of == g)
            if len(mine) == 0:
                continue
            order = mine[np.argsort(self.position[mine])]
            # u_t = sum of q over starts t' >= t
            suffix = np.cumsum(x[order][::-1])[::-1]
            for t in range(1, self.group_size[g]):
                out[variables[self.group_bits[g] + t - 1]] = int(suffix[t])
        return out


def thermometer_bqm(formulation: PicrossFormulation, weights: PenaltyWeights | None = None) -> ThermometerModel:
    """Encode a formulation's block starts as thermometer codes (see the module docstring).

    Args:
        formulation: The one-hot formulation (its pruning and fixed blocks are kept).
        weights: ``one_hot`` weighs the code's validity, ``order`` and ``match`` their terms;
            ``at_most_one`` is not used.
    """
    weights = weights or PenaltyWeights()
    f = formulation
    n_rows, n_cols = f.puzzle.shape
    # Every start, free and fixed, ordered by (kind, line, block, start): one group per block.
    fixed = f.fixed_labels
    kinds = np.r_[f.kind.astype(np.int64), [0 if lab[0] == "row" else 1 for lab in fixed]].astype(np.int64)
    lines = np.r_[f.line, [lab[1] for lab in fixed]].astype(np.int64)
    starts = np.r_[f.start, [lab[2] for lab in fixed]].astype(np.int64)
    blocks = np.r_[f.block, [lab[3] for lab in fixed]].astype(np.int64)
    clues = (f.puzzle.rows, f.puzzle.cols)
    lengths = np.array([clues[k][i][b] for k, i, b in zip(kinds.tolist(), lines.tolist(), blocks.tolist())],
                       dtype=np.int64)
    is_free = np.r_[np.ones(f.num_variables, bool), np.zeros(len(fixed), bool)]
    width = max(n_rows, n_cols) + 2
    group_key = (kinds * width + lines) * width + blocks
    order = np.lexsort((starts, group_key))
    kinds, lines, starts, blocks, lengths, group_key, is_free = (
        a[order] for a in (kinds, lines, starts, blocks, lengths, group_key, is_free))
    new_group = np.r_[True, group_key[1:] != group_key[:-1]] if len(order) else np.zeros(0, bool)
    group = np.cumsum(new_group) - 1
    first = np.flatnonzero(new_group)
    num_groups = len(first)
    size = np.diff(np.r_[first, len(order)])
    pos = np.arange(len(order)) - first[group]
    bits_before = np.r_[0, np.cumsum(size - 1)]
    num_bits = int(bits_before[-1])
    g_kind, g_line, g_block, g_len = kinds[first], lines[first], blocks[first], lengths[first]

    # u(g, p): -1 for the constant 1, -2 for the constant 0, else a bit index.
    span = int(max(n_rows, n_cols)) * 2 + 4
    skey = group * span + (starts + 2)

    def u(g: np.ndarray, p: np.ndarray) -> np.ndarray:
        p = np.clip(p, -2, span - 3)
        t = np.searchsorted(skey, g * span + p + 2, side="left") - first[g]
        return np.where(t <= 0, -1, np.where(t >= size[g], -2, bits_before[g] + t - 1))

    parts = {name: _Quadratic(num_bits) for name in THERMOMETER_TERMS}

    # wall: u_{t+1} (1 - u_t) for consecutive bits of a group
    has_next = (pos >= 1) & (pos + 1 <= size[group] - 1)
    a = (bits_before[group] + pos - 1)[has_next]
    parts["wall"].product_one_minus(a + 1, a)

    # order: u^k(p) (1 - u^{k+1}(p + h_k + 1)) for each start p of block k
    nxt = group + 1
    same_line = (nxt < num_groups) & (np.r_[g_kind, -1][np.minimum(nxt, num_groups)] == kinds) & \
        (np.r_[g_line, -1][np.minimum(nxt, num_groups)] == lines)
    sel = np.flatnonzero(same_line)
    left = u(group[sel], starts[sel])
    right = u(nxt[sel], starts[sel] + lengths[sel] + 1)
    parts["order"].product_one_minus(left, right)

    # match: per cell, C_row - C_col, linear in the bits
    cells, coefs, lits = [], [], []
    for kind_id, sign in ((0, 1), (1, -1)):
        gs = np.flatnonzero(g_kind == kind_id)
        lo = starts[first[gs]]
        line_length = n_cols if kind_id == 0 else n_rows
        hi = np.minimum(starts[first[gs] + size[gs] - 1] + g_len[gs] - 1, line_length - 1)
        count = hi - lo + 1
        g_rep = np.repeat(gs, count)
        j = np.arange(int(count.sum())) - np.repeat(np.cumsum(count) - count, count) + np.repeat(lo, count)
        line_rep = g_line[g_rep]
        cell = line_rep * n_cols + j if kind_id == 0 else j * n_cols + line_rep
        for offset_p, coef in ((1 - g_len[g_rep], sign), (np.ones_like(j), -sign)):
            cells.append(cell)
            coefs.append(np.full(len(cell), coef, np.int64))
            lits.append(u(g_rep, j + offset_p))
    parts["match"].squares(np.concatenate(cells), np.concatenate(coefs), np.concatenate(lits), n_rows * n_cols)

    labels = [("thermo", ("row", "col")[g_kind[g]], int(g_line[g]), int(g_block[g]), int(starts[first[g] + t]))
              for g in range(num_groups) for t in range(1, size[g])]
    terms = {name: part.bqm(labels) for name, part in parts.items()}
    w = {name: getattr(weights, weight) for name, weight in THERMOMETER_TERMS.items()}
    bqm = dimod.BinaryQuadraticModel(dimod.BINARY)
    bqm.add_variables_from((v, 0.0) for v in labels)
    for name, part in parts.items():
        if w[name]:
            bqm.update(part.bqm(labels, w[name]))

    # where each free one-hot variable sits (formulation label order)
    free_index = np.full(len(order), -1)
    free_index[np.flatnonzero(is_free)] = order[is_free]  # original index of each free sorted start
    group_of = np.empty(f.num_variables, np.int64)
    position = np.empty(f.num_variables, np.int64)
    group_of[free_index[is_free]] = group[is_free]
    position[free_index[is_free]] = pos[is_free]
    return ThermometerModel(f, bqm, group_of, position, bits_before[:-1], size, terms)


def thermometer_num_variables(formulation: PicrossFormulation) -> int:
    """The variables :func:`thermometer_bqm` gives a formulation, without building it: ``m - 1`` bits for
    each block of ``m`` starts, free and fixed (a block with one start left is a constant).

    >>> from qpicross import Puzzle, build_formulation
    >>> f = build_formulation(Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]]))
    >>> thermometer_num_variables(f) == thermometer_bqm(f).bqm.num_variables == 30
    True
    """
    puzzle = formulation.puzzle
    blocks = sum(len(clue) for clue in (*puzzle.rows, *puzzle.cols))
    return formulation.num_variables + len(formulation.fixed_labels) - blocks


class _Quadratic:
    """A QUBO over ``n`` bits collected as arrays; literals -1 and -2 are the constants 1 and 0."""

    def __init__(self, n: int):
        self.n = n
        self.linear = np.zeros(n)
        self.rows: list[np.ndarray] = []
        self.cols: list[np.ndarray] = []
        self.data: list[np.ndarray] = []
        self.offset = 0.0

    def product_one_minus(self, a: np.ndarray, b: np.ndarray) -> None:
        """Add :math:`\\sum a (1 - b)` over literal pairs."""
        a_one, b_one = a == -1, b == -1
        a_var, b_var = a >= 0, b >= 0
        b_zero = b == -2
        self.offset += float(np.sum(a_one & (b_zero | b_var)))
        np.add.at(self.linear, b[a_one & b_var], -1.0)  # 1 - b
        np.add.at(self.linear, a[a_var & b_zero], 1.0)  # a
        both = a_var & b_var
        np.add.at(self.linear, a[both], 1.0)  # a - a b
        self.rows.append(a[both])
        self.cols.append(b[both])
        self.data.append(np.full(int(both.sum()), -1.0))

    def squares(self, cell: np.ndarray, coef: np.ndarray, lit: np.ndarray, n_cells: int) -> None:
        """Add :math:`\\sum_{cell} (\\sum coef \\cdot lit)^2`."""
        const = np.zeros(n_cells)
        np.add.at(const, cell[lit == -1], coef[lit == -1])
        var = lit >= 0
        key = cell[var] * (self.n + 1) + lit[var]
        uniq, inverse = np.unique(key, return_inverse=True)
        summed = np.zeros(len(uniq))
        np.add.at(summed, inverse.ravel(), coef[var])
        keep = summed != 0
        uniq, summed = uniq[keep], summed[keep]
        e_cell, e_var = uniq // (self.n + 1), uniq % (self.n + 1)
        # (sum a_v x_v + c)^2 = sum a_v^2 x_v + 2 c sum a_v x_v + 2 sum_{v<w} a_v a_w x_v x_w + c^2
        self.offset += float(np.sum(const ** 2))
        np.add.at(self.linear, e_var, summed ** 2 + 2 * const[e_cell] * summed)
        i, k = pairs_within_groups(np.arange(len(e_cell)), e_cell)
        self.rows.append(e_var[i])
        self.cols.append(e_var[k])
        self.data.append(2 * summed[i] * summed[k])

    def bqm(self, labels: list, weight: float = 1.0) -> dimod.BinaryQuadraticModel:
        cat = lambda xs, dt: np.concatenate(xs).astype(dt) if xs else np.zeros(0, dt)  # noqa: E731
        return dimod.BinaryQuadraticModel.from_numpy_vectors(
            weight * self.linear, (cat(self.rows, np.int64), cat(self.cols, np.int64), weight * cat(self.data, float)),
            weight * self.offset, dimod.BINARY, variable_order=labels,
        )
