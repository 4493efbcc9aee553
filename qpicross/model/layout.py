r"""A Picross model's layout: which variable is which block at which start, made once from the formulation.

:class:`PicrossLayout` is what a structure-aware sampler and the decoder need to know about the BQM
of :meth:`~qpicross.model.formulation.PicrossFormulation.bqm` beyond its biases:

* its **lines** -- each row's and column's blocks in order, each block's start variables in order (the
  one-hot groups, :attr:`PicrossLayout.lines`);
* its **placements** -- each variable's axis (0 row, 1 column), line, block, start and length (arrays in
  the BQM's variable order), and those of the blocks presolve fixed (not in the BQM);
* its **paints** -- the cells each variable paints (:meth:`PicrossLayout.paints`);
* its **board energy** -- where the BQM is, on clue-consistent states, a constant plus the match weight
  times the cells where the rows' and the columns' boards differ,
  :math:`E = c + w \cdot \#\text{mismatches}`: ``match_weight`` :math:`w` and ``constant`` :math:`c`
  (both ``None`` where the formulation cannot vouch for that form: presolve-fixed blocks, a zero
  ``match`` or ``order`` weight, blocks clipped by the published bounds, no cell a row and a column
  can both paint).

The block-shift sampler takes it as ``layout=`` and builds its board from it instead of re-deriving and
re-checking the geometry from the BQM; :meth:`PicrossLayout.check` is the cheap test that a BQM is the
one the layout was made for.

Examples:
    >>> from qpicross import Puzzle, build_formulation
    >>> f = build_formulation(Puzzle([[2]], [[1], [1], []]))
    >>> layout = f.layout()
    >>> layout.lines
    [[[('row', 0, 0, 0), ('row', 0, 1, 0)]], [[('col', 0, 0, 0)]], [[('col', 1, 0, 0)]]]
    >>> layout.paints()[("row", 0, 1, 0)], layout.match_weight, layout.constant
    ((0, 0, 1, 2), 1.0, -3.0)
    >>> layout.check(f.bqm())
"""

from __future__ import annotations

import dataclasses
import functools

import dimod
import numpy as np

from qpicross.exceptions import ModelStructureError

__all__ = ["PicrossLayout"]


@dataclasses.dataclass(frozen=True, eq=False)
class PicrossLayout:
    """The lines, placements and paints of a Picross BQM, and its board energy (see the module docstring).

    Make it with :meth:`~qpicross.model.formulation.PicrossFormulation.layout`. Per-variable arrays are in
    the order of :attr:`labels` (the BQM's variable order); ``fixed_*`` describe the blocks presolve
    fixed, which are constants, not variables.

    Attributes:
        labels: The BQM's variables, in order.
        axis, line, block, start, length: Each variable's placement: block ``block`` of row (axis 0) or
            column (axis 1) ``line`` starts at ``start`` and paints ``length`` cells.
        shape: The puzzle's ``(rows, columns)``.
        fixed_axis, fixed_line, fixed_block, fixed_start, fixed_length: The fixed blocks' placements.
        match_weight: ``w`` of ``E = c + w x mismatches`` on clue-consistent states, or ``None``.
        constant: ``c`` of that form (without the BQM's offset), or ``None``.
        offset: The BQM's offset.
        linear_check: The BQM's linear biases of its first and last variable (:meth:`check`).
    """

    labels: list[tuple]
    axis: np.ndarray
    line: np.ndarray
    block: np.ndarray
    start: np.ndarray
    length: np.ndarray
    shape: tuple[int, int]
    fixed_axis: np.ndarray
    fixed_line: np.ndarray
    fixed_block: np.ndarray
    fixed_start: np.ndarray
    fixed_length: np.ndarray
    match_weight: float | None
    constant: float | None
    offset: float
    linear_check: tuple[float, float]

    @property
    def num_variables(self) -> int:
        return len(self.labels)

    @functools.cached_property
    def lines(self) -> list[list[list[tuple]]]:
        """Each line's blocks in order, each block's start variables in order (rows, then columns).

        Samplers that take one-hot lines take it as ``lines=``.
        """
        n = self.num_variables
        if n == 0:
            return []
        same_line = (self.axis[1:] == self.axis[:-1]) & (self.line[1:] == self.line[:-1])
        new_group = np.r_[True, ~same_line | (self.block[1:] != self.block[:-1])]
        new_line = np.r_[True, ~same_line]
        group_start = np.flatnonzero(new_group)
        group_end = np.r_[group_start[1:], n]
        line_of_group = np.cumsum(new_line)[group_start] - 1
        lines: list[list[list[tuple]]] = [[] for _ in range(int(line_of_group[-1]) + 1)]
        for first, end, index in zip(group_start.tolist(), group_end.tolist(), line_of_group.tolist()):
            lines[index].append(self.labels[first:end])
        return lines

    def paints(self) -> dict[tuple, tuple[int, int, int, int]]:
        """What each variable paints: ``{label: (axis, line, start, length)}``, axis 0 for rows, 1 for columns."""
        columns = zip(self.labels, self.axis.tolist(), self.line.tolist(), self.start.tolist(), self.length.tolist())
        return {label: (axis, line, start, length) for label, axis, line, start, length in columns}

    def check(self, bqm: dimod.BinaryQuadraticModel) -> None:
        """Check that ``bqm`` (BINARY) is the one this layout was made for, cheaply (no coupling is read): the
        same variables in the same order, the same offset, and the same linear biases of its first and last
        variable.

        Raises:
            ModelStructureError: If it is not.
        """
        n = self.num_variables
        if bqm.num_variables != n or list(bqm.variables) != self.labels:
            raise ModelStructureError(f"layout= was made for another BQM: {n} variables from {self.labels[:1]} to "
                                      f"{self.labels[-1:]}, the BQM has {bqm.num_variables} (or another order)")
        seen = (float(bqm.offset), *((float(bqm.get_linear(self.labels[0])), float(bqm.get_linear(self.labels[-1])))
                                     if n else (0.0, 0.0)))
        if seen != (self.offset, *self.linear_check):
            raise ModelStructureError(f"layout= was made for another BQM (another weighting?): offset and linear "
                                      f"biases {seen}, the layout's {(self.offset, *self.linear_check)}")
