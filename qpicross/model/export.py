"""A puzzle's model in files other annealers can read.

Formats, chosen by the file's extension (:data:`EXPORT_FORMATS`):

* ``.json`` -- dimod's :meth:`~dimod.BinaryQuadraticModel.to_serializable` as JSON
  (read back with ``dimod.BinaryQuadraticModel.from_serializable(json.load(f))``);
* ``.bqm`` -- dimod's binary file (:meth:`~dimod.BinaryQuadraticModel.to_file`;
  read back with ``dimod.BinaryQuadraticModel.from_file``);
* ``.coo`` -- plain QUBO text that needs no library: comment lines (``#``) with
  the offset and a map from each 0-based index to its variable label, then one
  ``i j Q_ij`` line per coefficient with ``i <= j`` (``i == j`` is a linear term):

  .. math:: E(x) = \\text{offset} + \\sum_{\\text{lines}} Q_{ij}\\, x_i x_j, \\qquad x \\in \\{0,1\\}^n;

* ``.cqm`` -- the constrained model of :mod:`qpicross.model.cqm` as dimod's CQM file.

Variable labels are the formulation's ``("row", i, j, k)`` / ``("col", j, i, k)``
tuples. With presolve, blocks settled by line logic are fixed and left out of
the model; the ``.coo`` header lists them (``# fixed ...``).

Examples:
    >>> import io
    >>> from qpicross import Puzzle, build_bqm
    >>> bqm = build_bqm(Puzzle([[1], [1]], [[1], [1]]))
    >>> text = io.StringIO()
    >>> write_coo(bqm, text)
    >>> read_coo(io.StringIO(text.getvalue())) == bqm
    True
    >>> [line for line in text.getvalue().splitlines() if line.startswith("# label 0 ")]
    ['# label 0 ["row", 0, 0, 0]']
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import TextIO

import dimod
import numpy as np

from qpicross.exceptions import ParameterError
from qpicross.model.formulation import build_formulation
from qpicross.model.placements import Bounds
from qpicross.model.weights import PenaltyWeights
from qpicross.names import EXPORT_FORMATS  # file extension -> format name
from qpicross.puzzle import Puzzle

__all__ = [
    "EXPORT_FORMATS",
    "export_format",
    "model_bytes",
    "build_export_model",
    "export_coupler_limit",
    "write_coo",
    "read_coo",
    "load_model",
]


def export_format(path: str | os.PathLike, format: str | None = None) -> str:
    """The format of ``path`` (from its extension unless ``format`` is given).

    Raises:
        ValueError: For an unknown extension or format.
    """
    if format is None:
        suffix = Path(path).suffix.lower()
        if suffix not in EXPORT_FORMATS:
            raise ParameterError(
                f"{path}: unknown model extension {suffix!r}; use one of {', '.join(EXPORT_FORMATS)}"
            )
        return EXPORT_FORMATS[suffix]
    if format not in EXPORT_FORMATS.values():
        raise ParameterError(f"unknown model format {format!r}; use one of {', '.join(EXPORT_FORMATS.values())}")
    return format


def export_coupler_limit() -> int:
    """The size guard's coupler limit for an export: half the usual, the serialised file being a second copy."""
    from qpicross.model.size import max_couplers_limit

    return max(1, max_couplers_limit() // 2)


def build_export_model(puzzle: Puzzle, format: str, *, weights: PenaltyWeights | None = None,
                       bounds: Bounds = "stacking", known: np.ndarray | None = None, matching: str = "objective"):
    """The model to export: the weighted BQM, or the CQM for ``format="cqm"``.

    Args:
        puzzle: The puzzle.
        format: One of :data:`EXPORT_FORMATS`' values.
        weights: Penalty weights of the BQM.
        bounds: Variable pruning (see :func:`~qpicross.model.formulation.build_formulation`).
        known: Cells settled beforehand, e.g. by line logic (:func:`qpicross.classical.logic.propagate`,
            as ``qpicross export --presolve`` does): the reduced model is exported.
        matching: For the CQM, see :func:`qpicross.model.cqm.build_cqm`.

    Returns:
        ``(model, formulation)``.

    Raises:
        ModelTooLargeError: (a ``ValueError``) Above the size guard (:func:`export_coupler_limit`), before
            anything is built.
    """
    from qpicross.model.size import check_size

    check_size(puzzle, bounds, max_couplers=export_coupler_limit())
    formulation = build_formulation(puzzle, bounds=bounds, known=known)
    if format == "cqm":
        from qpicross.model.cqm import build_cqm

        return build_cqm(formulation, matching), formulation
    return formulation.bqm(weights), formulation


def model_bytes(model, format: str, *, comments: Iterable[str] = ()) -> bytes:
    """A BQM (or, for ``"cqm"``, a CQM) serialised in ``format``.

    ``comments`` are extra header lines for the ``coo`` format.
    """
    if format == "json":
        return json.dumps(model.to_serializable(use_bytes=False)).encode()
    if format in ("bqm", "cqm"):
        if format == "cqm" and not isinstance(model, dimod.ConstrainedQuadraticModel):
            raise ParameterError("the cqm format holds a ConstrainedQuadraticModel")
        with model.to_file() as f:
            return f.read()
    if format == "coo":
        text = io.StringIO()
        write_coo(model, text, comments=comments)
        return text.getvalue().encode()
    raise ParameterError(f"unknown model format {format!r}")


def write_coo(bqm: dimod.BinaryQuadraticModel, stream: TextIO, *, comments: Iterable[str] = ()) -> None:
    """Write a BQM as QUBO coordinate text (see the module docstring); SPIN models are converted."""
    if bqm.vartype is not dimod.BINARY:
        bqm = bqm.change_vartype(dimod.BINARY, inplace=False)
    linear, (irow, icol, quadratic), offset, labels = bqm.to_numpy_vectors(
        variable_order=list(bqm.variables), return_labels=True, sort_indices=True,
    )
    lo, hi = np.minimum(irow, icol), np.maximum(irow, icol)
    stream.write("# qpicross QUBO in coordinate form: E(x) = offset + sum of Q * x_i * x_j over the lines"
                 " 'i j Q', x binary\n")
    stream.write("# i <= j, 0-based; i == j is a linear term. '# label i LABEL' maps indices to variables.\n")
    for line in comments:
        stream.write(f"# {line}\n")
    stream.write(f"# variables {len(labels)}\n# interactions {len(quadratic)}\n# offset {float(offset)!r}\n")
    for i, label in enumerate(labels):
        stream.write(f"# label {i} {json.dumps(label)}\n")
    nonzero = np.flatnonzero(linear)
    rows = np.concatenate([nonzero, lo]).astype(np.int64)
    cols = np.concatenate([nonzero, hi]).astype(np.int64)
    values = np.concatenate([np.asarray(linear)[nonzero], quadratic]).astype(float)
    order = np.lexsort((cols, rows))
    body = io.StringIO()
    np.savetxt(body, np.column_stack([rows[order], cols[order]]).astype(np.int64), fmt="%d")
    pairs = body.getvalue().splitlines()
    # repr() of a float round-trips exactly.
    stream.writelines(f"{pair} {value!r}\n" for pair, value in zip(pairs, values[order].tolist()))


def _label(text: str):
    value = json.loads(text)
    return tuple(value) if isinstance(value, list) else value


def read_coo(source: str | os.PathLike | TextIO) -> dimod.BinaryQuadraticModel:
    """Read :func:`write_coo` text back into a BQM (with its labels).

    Raises:
        ValueError: On a malformed line (its number is in the message).
    """
    if isinstance(source, (str, os.PathLike)):
        with open(source, encoding="utf-8") as f:
            return read_coo(f)
    offset, labels, rows, cols, values = 0.0, {}, [], [], []
    for number, line in enumerate(source, 1):
        line = line.strip()
        try:
            if line.startswith("# offset "):
                offset = float(line.split()[2])
            elif line.startswith("# label "):
                _, _, index, text = line.split(" ", 3)
                labels[int(index)] = _label(text)
            elif line and not line.startswith("#"):
                i, j, q = line.split()
                rows.append(int(i))
                cols.append(int(j))
                values.append(float(q))
        except ValueError:
            raise ParameterError(f"line {number}: cannot read {line[:60]!r} as 'i j Q'") from None
    n = max([len(labels), max(rows, default=-1) + 1, max(cols, default=-1) + 1])
    rows_a, cols_a, values_a = np.array(rows, np.int64), np.array(cols, np.int64), np.array(values)
    diagonal = rows_a == cols_a
    linear = np.bincount(rows_a[diagonal], weights=values_a[diagonal], minlength=n)
    off = ~diagonal
    bqm = dimod.BinaryQuadraticModel.from_numpy_vectors(
        linear, (rows_a[off], cols_a[off], values_a[off]), offset, dimod.BINARY,
    )
    if labels:
        bqm.relabel_variables({i: labels.get(i, i) for i in range(n)})
    return bqm


def load_model(path: str | os.PathLike, format: str | None = None):
    """Read a model written by ``qpicross export`` (any of :data:`EXPORT_FORMATS`)."""
    format = export_format(path, format)
    if format == "coo":
        return read_coo(path)
    data = Path(path).read_bytes()
    if format == "json":
        return dimod.BinaryQuadraticModel.from_serializable(json.loads(data))
    if format == "bqm":
        return dimod.BinaryQuadraticModel.from_file(data)
    return dimod.ConstrainedQuadraticModel.from_file(data)
