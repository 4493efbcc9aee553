"""``qpicross export PUZZLE -o model.{json,coo,bqm,cqm}``: the model, for any other annealer."""

from __future__ import annotations

import argparse
import json

from qpicross.names import EXPORT_FORMATS
from qpicross.exceptions import UsageError
from ._arguments import add_force_and_json, add_puzzle_argument, output_file
from ._output_files import check_output_path, write_output
from ._puzzle_files import load_puzzle_arg, size_error
from ._terminal import count, print_json, printable


def add_parser(sub) -> argparse.ArgumentParser:
    p = sub.add_parser(
        "export", help="write the QUBO (or CQM) to a file other annealers read",
        description="Write the puzzle's model: .json (dimod serializable), .bqm (dimod file), "
                    ".coo (plain 'i j Q_ij' QUBO text with a label map), .cqm (the constrained model).",
    )
    add_puzzle_argument(p)
    p.add_argument("-o", "--output", type=output_file, required=True, metavar="FILE",
                   help=f"output file; its extension picks the format ({', '.join(EXPORT_FORMATS)})")
    p.add_argument("--weights", default="", metavar="NAME=W,...", help="penalty weights of the QUBO")
    p.add_argument("--bounds", choices=["stacking", "published"], default="stacking",
                   help="prune starts outside the stacking bounds (default) or keep the published set")
    p.add_argument("--presolve", action="store_true",
                   help="settle cells by line logic first and export the reduced model")
    p.add_argument("--matching", choices=["objective", "constraints"], default="objective",
                   help=".cqm: board matching as the objective (default) or as per-cell equalities")
    add_force_and_json(p, force="overwrite FILE", json="print a JSON summary")
    return p


def run(args: argparse.Namespace) -> int:
    from qpicross.model.export import build_export_model, export_coupler_limit, export_format, model_bytes
    from qpicross.model.weights import PenaltyWeights
    from qpicross.model.size import ModelTooLargeError

    try:
        format = export_format(args.output)
        weights = PenaltyWeights.parse(args.weights)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    check_output_path(args.output, args.force)
    puzzle = load_puzzle_arg(args)
    try:
        known = _settled_cells(puzzle, export_coupler_limit()) if args.presolve else None
        model, formulation = build_export_model(puzzle, format, weights=weights, bounds=args.bounds,
                                                known=known, matching=args.matching)
    except ModelTooLargeError as exc:
        raise size_error(args.puzzle, exc, force=False) from None
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    comments = [f"puzzle {printable(puzzle.name)}", f"shape {puzzle.shape[0]}x{puzzle.shape[1]}",
                f"bounds {args.bounds}", f"weights {json.dumps(weights.as_dict())}",
                f"presolve {args.presolve}"]
    comments += [f"fixed {json.dumps(label)} = 1" for label in formulation.fixed_labels]
    path = write_output(args.output, model_bytes(model, format, comments=comments), args.force)
    summary = {
        "puzzle": puzzle.name, "output": str(path), "format": format,
        "num_variables": len(model.variables),
        "num_interactions": model.num_interactions if format != "cqm" else None,
        "num_constraints": len(model.constraints) if format == "cqm" else None,
        "num_fixed_variables": len(formulation.fixed_labels),
    }
    if args.json:
        print_json(summary)
    else:
        size = (count(summary['num_constraints'], 'constraint') if format == "cqm"
                else count(summary['num_interactions'], 'interaction'))
        print(f"{printable(path)}: {format}, {count(summary['num_variables'], 'variable')}, {size}"
              + (f", {summary['num_fixed_variables']} fixed by presolve" if args.presolve else ""))
    return 0


def _settled_cells(puzzle, coupler_limit: int):
    """``--presolve``: the cells line logic settles (its size guard first), refused when it proves no solution."""
    from qpicross.classical.logic import propagate
    from qpicross.model.size import BYTES_PER_COUPLER, check_solver_size

    check_solver_size(puzzle, "logic", coupler_limit * BYTES_PER_COUPLER)
    logic = propagate(puzzle)
    if logic.contradiction:
        raise UsageError(f"{puzzle.name or 'puzzle'}: line logic proves it has no solution; nothing to export")
    return logic.known
