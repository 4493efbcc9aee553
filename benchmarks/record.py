"""A ``qpicross`` command run and its results file stamped, in one process: ``python -m benchmarks.record ARGS``.

``python -m benchmarks.record bench PUZZLES --json results/x.json ...`` is ``qpicross bench ...``, and then
:func:`benchmarks.provenance.stamp` of the file it wrote: the commit and whether the tree had uncommitted changes,
both as the run started, and the samples fingerprints, drawn by the modules this process imported to run the
benchmark (an edit or a commit meanwhile changes none of them). The benchmarks of ``benchmarks/Makefile`` run
``qpicross`` this way; the exit status is the command's.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from pathlib import Path

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    from benchmarks.provenance import repository_state, stamp
    from qpicross.cli import main as qpicross

    argv = list(sys.argv[1:] if argv is None else argv)
    outputs = [Path(argv[i + 1]) for i, arg in enumerate(argv[:-1]) if arg == "--json"]
    before = {path: path.stat().st_mtime_ns if path.exists() else None for path in outputs}
    state = repository_state()  # the commit whose code this process imports, as the run starts
    try:
        code = qpicross(argv)
    except SystemExit as stop:  # argparse's exit 2
        code = stop.code if isinstance(stop.code, int) else 1
    for path in outputs:
        if path.exists() and path.stat().st_mtime_ns != before[path]:  # written by this run
            stamp(path, state=state)
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
