r"""Domain-wall encoding of the block starts: one bit fewer per block, no one-hot penalty.

A block with ``s`` possible starts gets ``s - 1`` *wall* bits
:math:`d_1 \ge d_2 \ge \dots \ge d_{s-1}` (with :math:`d_0 = 1`,
:math:`d_s = 0` implied); the block starts at position ``j`` when the wall sits
between :math:`d_j` and :math:`d_{j+1}`:

.. math:: q_j = d_j - d_{j+1}.

Substituting this into the order and match terms keeps the model quadratic
(each :math:`q` is a sum of at most two bits). The wall must not break:

.. math:: P_{wall} = \sum_j d_{j+1}\,(1 - d_j),

which replaces the one-hot term (and takes its weight). On a wall-consistent
assignment the domain-wall BQM has exactly the energy of the one-hot BQM, so a
valid board still has energy 0. The encoding is reported to help quantum
annealers (fewer qubits, a single-flip move of the wall shifts the block by
one); :func:`to_one_hot_sampleset` maps samples back so they are judged with
the ordinary decoder.

Examples:
    >>> from qpicross import Puzzle, build_formulation
    >>> p = Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]])
    >>> f = build_formulation(p)
    >>> model = domain_wall_bqm(f)
    >>> f.bqm().num_variables, model.bqm.num_variables
    (44, 30)
    >>> board = ["..#..", ".#.#.", ".#.#.", "#####", "#...#"]
    >>> float(model.bqm.energy(model.from_one_hot(f.sample_from_board(board))))
    0.0
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

import dimod
import numpy as np

from qpicross.model.formulation import PicrossFormulation
from qpicross.model.weights import PenaltyWeights

__all__ = ["DomainWallModel", "domain_wall_bqm", "to_one_hot_sampleset"]


@dataclasses.dataclass
class DomainWallModel:
    """A formulation in domain-wall form.

    Attributes:
        formulation: The one-hot formulation it encodes.
        bqm: The domain-wall BQM over labels ``("wall", kind, line, block, j)``.
        const: Per one-hot variable, the constant part of its expression.
        terms: ``(2, n_onehot)`` wall-bit index of each of the (at most two)
            bits in that expression (-1 for none), and ``coefs`` their signs.
    """

    formulation: PicrossFormulation
    bqm: dimod.BinaryQuadraticModel
    const: np.ndarray
    terms: np.ndarray
    coefs: np.ndarray

    def to_one_hot(self, walls: np.ndarray) -> np.ndarray:
        """Start variables of wall samples ``(num_samples, num_walls)`` in formulation label order.

        A broken wall (a 0 followed by a 1) gives -1 in the substitution; such
        starts are read as 0.
        """
        walls = np.atleast_2d(np.asarray(walls, dtype=np.int64))
        padded = np.concatenate([walls, np.zeros((len(walls), 1), np.int64)], axis=1)  # index -1 -> 0
        q = self.const[None, :] + self.coefs[0] * padded[:, self.terms[0]] + self.coefs[1] * padded[:, self.terms[1]]
        return np.clip(q, 0, 1).astype(np.int8)

    def from_one_hot(self, sample: Mapping) -> dict:
        """The wall assignment of a one-hot assignment (each block started exactly once)."""
        out = {}
        for label in self.bqm.variables:
            _, kind, line, block, j = label
            # d_j = 1 when the block starts at position >= j of its window
            starts = [lab for lab in self.formulation.labels if lab[0] == kind and lab[1] == line and lab[3] == block]
            starts.sort(key=lambda lab: lab[2])
            out[label] = int(sum(sample[lab] for lab in starts[j:]))
        return out


def domain_wall_bqm(formulation: PicrossFormulation, weights: PenaltyWeights | None = None) -> DomainWallModel:
    """Encode a formulation's block starts with domain walls (see the module docstring).

    Args:
        formulation: The one-hot formulation (labels grouped by block, sorted by start).
        weights: Penalty weights; ``one_hot`` weighs the wall penalty.
    """
    weights = weights or PenaltyWeights()
    n = formulation.num_variables
    key = np.stack([formulation.kind.astype(np.int64), formulation.line, formulation.block])
    new_group = np.r_[True, np.any(key[:, 1:] != key[:, :-1], axis=0)] if n else np.zeros(0, bool)
    group = np.cumsum(new_group) - 1
    first = np.flatnonzero(new_group)
    pos = np.arange(n) - first[group]
    size = np.diff(np.r_[first, n])[group]
    # wall bits of a group of size s: s - 1 of them, numbered in variable order
    walls_before = np.r_[0, np.cumsum(np.diff(np.r_[first, n]) - 1)][group]
    num_walls = int(walls_before[-1] + size[-1] - 1) if n else 0

    # q_pos = d_pos - d_{pos+1} with d_0 = 1 and d_size = 0 (wall index of d_j is walls_before + j - 1)
    const = np.where(pos == 0, 1, 0).astype(np.int64)
    terms = np.full((2, n), -1, np.int64)
    coefs = np.zeros((2, n), np.int64)
    has_left = pos >= 1  # +d_pos
    terms[0, has_left] = (walls_before + pos - 1)[has_left]
    coefs[0, has_left] = 1
    has_right = pos + 1 <= size - 1  # -d_{pos+1}
    terms[1, has_right] = (walls_before + pos)[has_right]
    coefs[1, has_right] = -1

    base = formulation.bqm(dataclasses.replace(weights, one_hot=0.0))
    h, (irow, icol, qdata), offset = base.to_numpy_vectors(variable_order=formulation.labels)
    lin = np.zeros(num_walls)
    offset = float(offset + h @ const)
    for t in range(2):
        m = terms[t] >= 0
        np.add.at(lin, terms[t][m], h[m] * coefs[t][m])
    qa, qb, qv = [], [], []
    offset += float(np.sum(qdata * const[irow] * const[icol]))
    for t in range(2):  # constant of one side times a bit of the other
        for a, b in ((irow, icol), (icol, irow)):
            m = terms[t][b] >= 0
            np.add.at(lin, terms[t][b][m], (qdata * const[a] * coefs[t][b])[m])
    for ta in range(2):
        for tb in range(2):
            ia, ib = terms[ta][irow], terms[tb][icol]
            m = (ia >= 0) & (ib >= 0)
            value = (qdata * coefs[ta][irow] * coefs[tb][icol])[m]
            same = ia[m] == ib[m]  # d * d = d
            np.add.at(lin, ia[m][same], value[same])
            qa.append(ia[m][~same])
            qb.append(ib[m][~same])
            qv.append(value[~same])
    # the wall penalty: w * d_{j+1} (1 - d_j) for consecutive bits of a group
    wall_group = np.repeat(np.arange(len(first)), np.diff(np.r_[first, n]) - 1)
    nxt = np.flatnonzero(wall_group[1:] == wall_group[:-1]) if num_walls else np.zeros(0, np.int64)
    lin[nxt + 1] += weights.one_hot
    qa.append(nxt)
    qb.append(nxt + 1)
    qv.append(np.full(len(nxt), -weights.one_hot))

    labels = [("wall",) + (("row", "col")[formulation.kind[i]], int(formulation.line[i]), int(formulation.block[i]),
                           int(pos[i] + 1)) for i in range(n) if pos[i] + 1 <= size[i] - 1]
    bqm = dimod.BinaryQuadraticModel.from_numpy_vectors(
        lin, (np.concatenate(qa), np.concatenate(qb), np.concatenate(qv)), offset, dimod.BINARY,
        variable_order=labels,
    )
    return DomainWallModel(formulation, bqm, const, terms, coefs)


def to_one_hot_sampleset(model: DomainWallModel, sampleset: dimod.SampleSet,
                         bqm: dimod.BinaryQuadraticModel) -> dimod.SampleSet:
    """A domain-wall sampleset as one-hot samples, with energies of the one-hot ``bqm``."""
    index = {v: i for i, v in enumerate(sampleset.variables)}
    order = [index[v] for v in model.bqm.variables]
    walls = np.asarray(sampleset.record.sample)[:, order] if len(order) else np.zeros((len(sampleset), 0))
    samples = np.repeat(model.to_one_hot(walls), sampleset.record.num_occurrences, axis=0)
    out = dimod.SampleSet.from_samples_bqm((samples, model.formulation.labels), bqm)
    out.info.update(sampleset.info)
    return out
