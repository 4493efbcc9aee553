"""Presolve: line logic settles what it can, and only the rest is annealed.

:func:`presolve` runs line logic (:func:`~qpicross.classical.logic.propagate`)
on a puzzle and turns what it settles into fixed start variables: a start is
fixed to 0 when no placement of its line that agrees with the settled cells
puts its block there, and to 1 when it is the only start left for its block.
:class:`PresolveComposite` is a :class:`dimod.ComposedSampler` in the style of
dwave-preprocessing's ``FixVariablesComposite``: it removes the starts fixed to 0 from
the BQM (a start fixed to 1 stays, the one start left in its block's group, so that the smaller
model keeps whole lines: the block-shift annealer's board), samples the smaller model with its child sampler and returns
full-size samples with energies of the original BQM. When logic settles every
cell the child is not called at all; when it finds a contradiction (the clues
admit no board) the child runs one short read of the whole model, for a best
board to show, instead of searching for a ground state that is not there.

Examples:
    >>> import dimod
    >>> from qpicross import Puzzle, build_formulation
    >>> f = build_formulation(Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]]))
    >>> ss = PresolveComposite(dimod.RandomSampler()).sample(f.bqm(), formulation=f, num_reads=3)
    >>> len(ss), float(ss.first.energy), ss.info["presolve"]["variables_after"], ss.info["presolve"]["solved_by_logic"]
    (1, 0.0, 0, True)
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Hashable, Mapping

import dimod
import numpy as np

from qpicross.exceptions import ParameterError
from qpicross.classical.logic import LogicResult, propagate
from qpicross.model.formulation import PicrossFormulation, build_formulation
from qpicross.model.pruning import prune_by_known

__all__ = ["Presolve", "presolve", "presolve_formulation", "presolve_model", "PresolvedModel", "fix_variables",
           "PresolveComposite", "CONTRADICTION_SWEEPS"]

#: Sweeps of the one read a child runs when line logic proves there is no solution (where it takes sweeps).
CONTRADICTION_SWEEPS = 1000


@dataclasses.dataclass
class Presolve:
    """What line logic settled, as fixed start variables.

    Attributes:
        logic: The line-logic result (settled cells, contradiction, solved).
        fixed: Fixed variables of the formulation, label -> 0 or 1.
        seconds: Time spent.
    """

    logic: LogicResult
    fixed: dict[Hashable, int]
    seconds: float

    def report(self, variables_before: int) -> dict:
        """JSON-ready summary: cells settled, variables before and after, solved by logic."""
        return {
            "variables_before": int(variables_before),
            "variables_after": int(variables_before - len(self.fixed)),
            "cells_settled": self.logic.num_settled,
            "fraction_settled": self.logic.fraction_settled,
            "solved_by_logic": self.logic.solved,
            "contradiction": self.logic.contradiction,
            "presolve_s": self.seconds,
        }


def presolve(formulation: PicrossFormulation, known: np.ndarray | None = None) -> Presolve:
    """Run line logic on the formulation's puzzle and fix the start variables it settles.

    Args:
        formulation: The model whose variables are fixed.
        known: Cells already settled (1 filled, 0 empty, -1 unknown), if any.

    Returns:
        The fixings; none when logic finds a contradiction (the puzzle has no
        solution, and the model is then sampled unchanged).
    """
    t0 = time.perf_counter()
    logic = propagate(formulation.puzzle, known)
    fixed: dict[Hashable, int] = {}
    if not logic.contradiction:
        f = formulation
        keep, forced = prune_by_known(f.puzzle, np.asarray(logic.known), f.kind, f.line, f.block, f.start, f.length)
        labels = f.labels
        fixed = {labels[i]: 0 for i in np.flatnonzero(~keep)}
        fixed.update((labels[i], 1) for i in np.flatnonzero(forced))
    return Presolve(logic, fixed, time.perf_counter() - t0)


def presolve_formulation(formulation: PicrossFormulation,
                         known: np.ndarray | None = None) -> tuple[PicrossFormulation, dict]:
    """Line logic first, for the encodings built from a formulation (thermometer): the formulation rebuilt
    with the settled cells as ``known``, so that starts logic rules out are not created and blocks it
    places are constants (:attr:`~qpicross.model.formulation.PicrossFormulation.fixed_labels`).

    Line logic is sound (every solution agrees with the cells it settles), so the pruned model keeps
    every solution. On a contradiction (no board exists) the formulation is returned unchanged.

    Returns:
        The pruned formulation and :meth:`Presolve.report` (``variables_after`` the pruned model's
        start variables).

    Examples:
        >>> from qpicross import Puzzle, build_formulation
        >>> f = build_formulation(Puzzle.from_board(["...#", "#..#", "#..#", ".#.#"]))
        >>> pruned, report = presolve_formulation(f)
        >>> f.num_variables > pruned.num_variables == report["variables_after"] > 0, report["solved_by_logic"]
        (True, False)
    """
    found = presolve(formulation, known)
    report = found.report(formulation.num_variables)
    t0 = time.perf_counter()
    if not found.logic.contradiction:
        formulation = build_formulation(formulation.puzzle, bounds=formulation.bounds,
                                        known=np.asarray(found.logic.known))
    report["variables_after"] = formulation.num_variables
    report["presolve_s"] += time.perf_counter() - t0
    return formulation, report


def fix_variables(bqm: dimod.BinaryQuadraticModel, fixed: Mapping[Hashable, int]) -> dimod.BinaryQuadraticModel:
    """A new binary BQM with ``fixed`` variables substituted (vectorised; dimod's loop is O(n * degree)).

    Examples:
        >>> bqm = dimod.BinaryQuadraticModel({"a": 1, "b": 2, "c": 3}, {("a", "b"): 4, ("b", "c"): -1}, 0.5, "BINARY")
        >>> small = fix_variables(bqm, {"b": 1})
        >>> {v: float(b) for v, b in small.linear.items()}, float(small.offset)
        ({'a': 5.0, 'c': 2.0}, 2.5)
    """
    if bqm.vartype is not dimod.BINARY:
        raise ParameterError("fix_variables expects a BINARY model")
    variables = list(bqm.variables)
    index = {v: i for i, v in enumerate(variables)}
    n = len(variables)
    value = np.zeros(n)
    is_fixed = np.zeros(n, bool)
    for v, x in fixed.items():
        is_fixed[index[v]] = True
        value[index[v]] = x
    linear, (irow, icol, quad), offset = bqm.to_numpy_vectors(variable_order=variables)
    linear = np.asarray(linear, float).copy()
    offset = float(offset) + float(linear[is_fixed] @ value[is_fixed])
    fa, fb = is_fixed[irow], is_fixed[icol]
    both = fa & fb
    offset += float((quad[both] * value[irow[both]] * value[icol[both]]).sum())
    only_a, only_b = fa & ~fb, fb & ~fa
    np.add.at(linear, icol[only_a], quad[only_a] * value[irow[only_a]])
    np.add.at(linear, irow[only_b], quad[only_b] * value[icol[only_b]])
    free = ~fa & ~fb
    keep = ~is_fixed
    new_index = np.cumsum(keep) - 1
    return dimod.BinaryQuadraticModel.from_numpy_vectors(
        linear[keep], (new_index[irow[free]], new_index[icol[free]], quad[free]), offset, dimod.BINARY,
        variable_order=[v for v, k in zip(variables, keep) if k],
    )


class PresolveComposite(dimod.ComposedSampler):
    """Line logic first, the child sampler on what is left, full-size samples back.

    ``sample(bqm, formulation=..., **parameters)``: ``formulation`` is the
    :class:`~qpicross.model.formulation.PicrossFormulation` the BQM was built
    from (its puzzle is what line logic reads); the other parameters go to
    the child (a ``layout`` of the whole model becomes the child's ``lines`` and ``paints`` once variables
    are fixed). ``sampleset.info["presolve"]`` holds :meth:`Presolve.report`.

    Args:
        child: Any :class:`dimod.Sampler`.
    """

    def __init__(self, child: dimod.Sampler):
        self._children = [child]

    @property
    def children(self) -> list[dimod.Sampler]:
        return self._children

    @property
    def parameters(self) -> dict:
        return {**self.child.parameters, "formulation": [], "known": []}

    @property
    def properties(self) -> dict:
        from qpicross.samplers.reads import independent_reads

        # the same variables are fixed on every call: the child's reads stay as independent as they were
        return {"child_properties": self.child.properties,
                "independent_reads": independent_reads(self.child)}

    def sample(self, bqm: dimod.BinaryQuadraticModel, *, formulation: PicrossFormulation,
               known: np.ndarray | None = None, **parameters) -> dimod.SampleSet:
        """Fix what line logic settles, sample the rest with the child, return full-size samples."""
        found = presolve_model(bqm, formulation, known)
        if found.settled is not None:
            return found.settled
        child_parameters = {k: v for k, v in parameters.items() if k in self.child.parameters}
        if found.contradiction:  # no board exists: one short read, no target it could reach
            child_parameters.pop("target_energy", None)
            child_parameters.update({k: v for k, v in (("num_reads", 1), ("num_sweeps", CONTRADICTION_SWEEPS))
                                     if k in self.child.parameters})
        return found.full_size(self.child.sample(found.reduced, **found.structure(child_parameters)))


@dataclasses.dataclass
class PresolvedModel:
    """A Picross BQM after line logic (:func:`presolve_model`): the smaller model left to sample, or the answer.

    Attributes:
        bqm: The whole model.
        fixed: The variables line logic fixed, label -> 0 or 1.
        report: :meth:`Presolve.report`, with ``variables_annealed`` and ``interactions_annealed``.
        contradiction: Line logic proved the puzzle has no solution (nothing is then fixed).
        reduced: The BINARY model left to sample, or None where logic settled every variable: the whole model
            without the variables fixed to 0 (those fixed to 1 stay, each the one start left in its group).
        settled: Where logic settled every variable: the one read, a full-size sample set (``info["presolve"]``
            the report); else None.
    """

    bqm: dimod.BinaryQuadraticModel
    fixed: dict[Hashable, int]
    report: dict
    contradiction: bool
    reduced: dimod.BinaryQuadraticModel | None
    settled: dimod.SampleSet | None

    def structure(self, parameters: Mapping) -> dict:
        """A sampler's structure parameters for the smaller model: ``lines`` and ``groups`` without the fixed
        variables, and a ``layout`` of the whole model, once variables are fixed, as its ``lines`` and ``paints``
        (the smaller model is not the layout's; its board, where it has one, is then checked from the paints).
        Other parameters pass unchanged."""
        params = dict(parameters)
        layout = params.pop("layout", None)
        if layout is not None and self.fixed:
            params.setdefault("lines", layout.lines)
            params.setdefault("paints", layout.paints())
        elif layout is not None:
            params["layout"] = layout
        keep = set(self.reduced.variables)
        for key in ("groups", "lines"):
            if params.get(key) is not None:
                params[key] = _restrict(params[key], keep)
        return params

    def full_size(self, inner: dimod.SampleSet) -> dimod.SampleSet:
        """The smaller model's samples as samples of the whole model (fixed values filled in, energies of
        :attr:`bqm`), with ``inner``'s info and the report as ``info["presolve"]``."""
        sampleset = _expand(inner, self.fixed, self.bqm)
        sampleset.info.update(inner.info)
        sampleset.info["presolve"] = self.report
        return sampleset


def presolve_model(bqm: dimod.BinaryQuadraticModel, formulation: PicrossFormulation,
                   known: np.ndarray | None = None) -> PresolvedModel:
    """Run line logic on the formulation's puzzle and fix what it settles in ``bqm`` (built from the formulation).

    Where logic settles every cell (or fixes every variable), its board is the answer: one read, nothing to
    sample (:attr:`PresolvedModel.settled`). Otherwise :attr:`PresolvedModel.reduced` is the model left to
    sample. :class:`PresolveComposite` samples it with its child; the batched pipeline
    (:func:`~qpicross.pipeline.run.run_many`) samples many at once.
    """
    found = presolve(formulation, known)
    report = found.report(bqm.num_variables)
    if found.logic.solved or len(found.fixed) == bqm.num_variables:
        sample = formulation.sample_from_board(found.logic.known) if found.logic.solved else found.fixed
        full = np.array([[sample[v] for v in bqm.variables]], dtype=np.int8)
        settled = dimod.SampleSet.from_samples_bqm((full, list(bqm.variables)), bqm)
        report["variables_annealed"] = report["interactions_annealed"] = 0
        settled.info["presolve"] = report
        return PresolvedModel(bqm, found.fixed, report, found.logic.contradiction, None, settled)
    binary = bqm.change_vartype(dimod.BINARY, inplace=False) if bqm.vartype is dimod.SPIN else bqm
    # the starts logic rules out go; a forced start stays, the one start left in its block's group: fixed too, its
    # line's paints would no longer cover the board, and the block-shift annealer would lose its board and profile
    # chains for the generic BQM kernel (two to three times slower on tournament puzzles)
    reduced = fix_variables(binary, {v: x for v, x in found.fixed.items() if x == 0})
    report["variables_annealed"] = reduced.num_variables
    report["interactions_annealed"] = reduced.num_interactions
    return PresolvedModel(bqm, found.fixed, report, found.logic.contradiction, reduced, None)


def _restrict(structure, keep: set):
    """Drop fixed variables from nested lists of labels (groups, or lines of groups); empty parts go."""
    if structure and isinstance(structure[0], (list, tuple)) and structure[0] and isinstance(structure[0][0], list):
        lines = [[[v for v in g if v in keep] for g in line] for line in structure]
        return [[g for g in line if g] for line in lines if any(line)]
    return [[v for v in g if v in keep] for g in structure if any(v in keep for v in g)]


def _expand(inner: dimod.SampleSet, fixed: Mapping[Hashable, int], bqm: dimod.BinaryQuadraticModel) -> dimod.SampleSet:
    """Full-size samples: the child's values where it sampled, the fixed values elsewhere."""
    variables = list(bqm.variables)
    full = np.zeros((len(inner), len(variables)), dtype=np.int8)
    position = {v: i for i, v in enumerate(variables)}
    for v, x in fixed.items():
        full[:, position[v]] = x
    record = inner.record.sample
    if inner.vartype is dimod.SPIN:
        record = (record + 1) // 2
    columns = [position[v] for v in inner.variables]
    full[:, columns] = record
    if bqm.vartype is dimod.SPIN:
        full = 2 * full - 1
    return dimod.SampleSet.from_samples_bqm((full, variables), bqm,
                                            num_occurrences=inner.record.num_occurrences)
