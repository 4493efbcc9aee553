"""Which committed results files the current code would not reproduce (``make stale-results``).

Every results file's ``meta`` (:func:`~qpicross.experiments.result.machine_info`) records
:func:`~qpicross.experiments.result.provenance`: the package version and
:func:`~qpicross.experiments.result.code_hash`, a SHA-256 over the sampler modules
(``qpicross/samplers/**/*.py``, by path and content: what decides the samples and their times).
:func:`results_status` sorts the committed results files:

* ``current``: recorded hash = the tree's;
* ``stale``: recorded hash differs: the sampler changed since the file was written;
* ``acknowledged``: stale, but named in ``results/STALE.txt`` (one ``FILE.json reason`` a line) by
  whoever changed the sampler and judged the change not to move the file's figures (a refactor
  that gives the same samples), or has not re-run it yet;
* ``no hash``: written before provenance was recorded: which code wrote it is unknown (its
  ``meta.commit`` says at which commit).

``make stale-results`` (``python -m benchmarks.provenance results``, from the repository root) lists them and
exits 1 when a file is ``stale``; ``tests/benchmarks/test_provenance.py`` runs the same check on the committed files, so a
sampler change fails the suite until its results are re-run or acknowledged. ``no hash`` files are
listed, never failed: no re-run can give them a hash they did not record.

Examples:
    >>> import json, tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "now.json").write_text(json.dumps({"meta": {"code_hash": code_hash(), "commit": "abc"}}))
    >>> _ = (folder / "old.json").write_text(json.dumps({"meta": {"commit": "abc"}}))
    >>> [(name, status) for name, status, _ in results_status(folder)]
    [('now.json', 'current'), ('old.json', 'no hash')]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from qpicross.experiments.result import code_hash

__all__ = ["ACKNOWLEDGED", "results_status", "stale_files", "main"]

#: Results the check accepts although their hash is not the tree's (``FILE.json reason`` a line).
ACKNOWLEDGED = "STALE.txt"


def _acknowledged(folder: Path) -> dict[str, str]:
    path = folder / ACKNOWLEDGED
    if not path.is_file():
        return {}
    out = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, reason = line.partition(" ")
            out[name] = reason.strip()
    return out


def results_status(folder: str | Path, current: str | None = None) -> list[tuple[str, str, str]]:
    """``(file name, status, detail)`` for each ``*.json`` of ``folder`` (a results folder), by name.

    ``status`` is ``current``, ``stale``, ``acknowledged`` or ``no hash`` (see the module docstring);
    ``detail`` the recorded hash's first 12 digits and commit, or the acknowledgement's reason.
    """
    folder = Path(folder)
    current = code_hash() if current is None else current
    ack = _acknowledged(folder)
    out = []
    for path in sorted(folder.glob("*.json")):
        meta = json.loads(path.read_text()).get("meta") or {}
        recorded = meta.get("code_hash")
        commit = meta.get("commit") or "?"
        if recorded is None:
            out.append((path.name, "no hash", f"written at commit {commit}"))
        elif recorded == current:
            out.append((path.name, "current", f"{recorded[:12]} (commit {commit})"))
        elif path.name in ack:
            out.append((path.name, "acknowledged", ack[path.name] or "named in " + ACKNOWLEDGED))
        else:
            out.append((path.name, "stale", f"{recorded[:12]} (commit {commit}) is not the tree's {current[:12]}"))
    return out


def stale_files(folder: str | Path) -> list[str]:
    """The results files whose recorded code hash differs from the tree's and are not acknowledged."""
    return [name for name, status, _ in results_status(folder) if status == "stale"]


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m benchmarks.provenance FOLDER``: list every results file's status; 1 if any is stale."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.provenance",
                                     description="List the results files the current sampler code did not write.")
    parser.add_argument("folder", help="a folder of results files (the repository's: results)")
    args = parser.parse_args(argv)
    rows = results_status(args.folder)
    for name, status, detail in rows:
        print(f"{status:12} {name}  {detail}")
    counts = {s: sum(status == s for _, status, _ in rows) for s in ("current", "stale", "acknowledged", "no hash")}
    print(f"code hash {code_hash()[:12]}: " + ", ".join(f"{n} {s}" for s, n in counts.items()))
    return 1 if counts["stale"] else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
