"""Which committed results files the current code would not reproduce (``make stale-results``).

Every results file's ``meta`` (:func:`~qpicross.experiments.result.machine_info`) records the commit, the load
average and :func:`~qpicross.experiments.result.provenance`: the package version,
:func:`~qpicross.experiments.result.code_hash` (a SHA-256 over everything that can change a figure: every module
of ``qpicross``, the tooling of ``benchmarks/`` that computes or restates statistics, and the versions of dimod,
dwave-samplers, numba, numpy and scipy) and ``code_hashed``, what that hash covered.
:func:`results_status` sorts the committed results files:

* ``current``: recorded hash = the tree's;
* ``stale``: recorded hash differs: the code changed since the file was written. A file written before the hash
  covered the whole code (``code_hashed`` names the sampler modules only) is "hashed the old way": stale, since
  its hash can never be the tree's;
* ``acknowledged``: stale, but named in ``results/STALE.txt`` by whoever changed the code and judged the change
  not to move the file's figures (a refactor that gives the same samples). A line reads
  ``FILE.json RECORDED CODE reason``: RECORDED the first digits of the hash the file records (``none`` for a file
  that records none), CODE those of the tree's hash the judgement was made for. The acknowledgement holds while
  both match; after a later change of the code it is listed as stale again, its reason shown, until someone
  judges again (a new CODE) or re-runs the file;
* ``no hash``: written before provenance was recorded: which code wrote it is unknown (its ``meta.commit`` says
  at which commit).

``make stale-results`` (``python -m benchmarks.provenance results``, from the repository root) lists them, then
counts them among the files the README and the current docs pages quote and among those only the archive pages
quote (:data:`benchmarks.report.ARCHIVE_PAGES`: results of earlier code, kept as history), and exits 1 when a file
is ``stale``. Since the hash covers the whole code, nearly every commit makes every file stale:
the listing is what to re-run (or judge) before a figure is quoted as today's, not a gate of the test suite (which
checks only that every acknowledgement names a file as it is: :func:`acknowledgement_errors`). ``no hash`` files
are listed, never failed: no re-run can give them a hash they did not record. :func:`measured_by` is the line
under every generated table saying which code measured it, and :func:`mark_stale` what the docs build adds to
it when that code is no longer the tree's.

Examples:
    >>> import json, tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "now.json").write_text(json.dumps({"meta": {"code_hash": code_hash(), "commit": "abc"}}))
    >>> _ = (folder / "old.json").write_text(json.dumps({"meta": {"commit": "abc"}}))
    >>> [(name, status) for name, status, _ in results_status(folder)]
    [('now.json', 'current'), ('old.json', 'no hash')]
    >>> print(measured_by([folder / "old.json"]))
    *Measured by:* commit abc, no code hash (old.json). Stale: with no hash of the whole code recorded, not known
    to be today's code (`make stale-results`).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import re
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from qpicross.experiments.result import OLD_HASHED, code_hash

__all__ = ["ACKNOWLEDGED", "PREFIX", "Acknowledgement", "acknowledgements", "acknowledgement_errors",
           "results_status", "stale_files", "measured_by", "mark_stale", "main"]

#: The repository (the folder above benchmarks/).
ROOT = Path(__file__).resolve().parents[1]
#: Results the check accepts although their hash is not the tree's (``FILE.json RECORDED CODE reason`` a line).
ACKNOWLEDGED = "STALE.txt"
#: Hex digits of a hash that listings, acknowledgements and the tables' provenance lines show.
PREFIX = 12
_HEX = re.compile(r"[0-9a-f]{7,64}")


@dataclasses.dataclass(frozen=True)
class Acknowledgement:
    """A line of ``results/STALE.txt``: ``recorded`` (the file's hash, ``"none"``, or None on a line without
    hashes) and ``code`` (the tree's hash it was made for), as prefixes, and the reason."""

    recorded: str | None
    code: str | None
    reason: str

    def holds(self, recorded: str | None, current: str) -> bool:
        """Whether it covers a file that records ``recorded`` compared with the tree's hash ``current``."""
        if self.recorded is None or self.code is None:
            return False
        return (recorded or "none").startswith(self.recorded) and current.startswith(self.code)


def acknowledgements(folder: str | Path) -> dict[str, Acknowledgement]:
    """File name -> its acknowledgement in ``folder``'s :data:`ACKNOWLEDGED` (comments and blank lines skipped)."""
    path = Path(folder) / ACKNOWLEDGED
    if not path.is_file():
        return {}
    out = {}
    for line in path.read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, recorded, code, reason = (line.split(None, 3) + ["", "", ""])[:4]
        if (recorded == "none" or _HEX.fullmatch(recorded)) and _HEX.fullmatch(code):
            out[name] = Acknowledgement(recorded, code, reason)
        else:  # a line without the hashes it was made for: honoured by nothing
            out[name] = Acknowledgement(None, None, line.partition(" ")[2].strip())
    return out


def acknowledgement_errors(folder: str | Path) -> list[str]:
    """What is wrong with ``folder``'s acknowledgements, whatever the tree's code: a line that names no results
    file, lacks its hashes, or names a hash that is not the file's (the file was re-run since)."""
    folder = Path(folder)
    errors = []
    for name, ack in acknowledgements(folder).items():
        path = folder / name
        if not path.is_file():
            errors.append(f"{name}: no such results file")
        elif ack.recorded is None:
            errors.append(f"{name}: no RECORDED and CODE hashes")
        elif not (_meta(path).get("code_hash") or "none").startswith(ack.recorded):
            errors.append(f"{name}: acknowledged for a file that recorded {ack.recorded}, not this one")
    return errors


def _meta(path: Path) -> dict:
    return json.loads(path.read_text()).get("meta") or {}


def _old_way(meta: dict) -> bool:
    return list(meta.get("code_hashed") or OLD_HASHED) == list(OLD_HASHED)


def results_status(folder: str | Path, current: str | None = None) -> list[tuple[str, str, str]]:
    """``(file name, status, detail)`` for each ``*.json`` of ``folder`` (a results folder), by name.

    ``status`` is ``current``, ``stale``, ``acknowledged`` or ``no hash`` (see the module docstring);
    ``detail`` the recorded hash's first digits and commit, the acknowledgement's reason, or, for a stale file
    whose acknowledgement no longer holds, the hashes it was made for and its reason.
    """
    folder = Path(folder)
    current = code_hash() if current is None else current
    acks = acknowledgements(folder)
    out = []
    for path in sorted(folder.glob("*.json")):
        meta = _meta(path)
        recorded = meta.get("code_hash")
        commit = meta.get("commit") or "?"
        ack = acks.get(path.name)
        if recorded is None:
            out.append((path.name, "no hash", f"written at commit {commit}"))
        elif recorded == current:
            out.append((path.name, "current", f"{recorded[:PREFIX]} (commit {commit})"))
        elif ack is not None and ack.holds(recorded, current):
            out.append((path.name, "acknowledged", ack.reason or "named in " + ACKNOWLEDGED))
        else:
            how = "hashed the old way (sampler modules only): " if _old_way(meta) else ""
            detail = f"{how}{recorded[:PREFIX]} (commit {commit}) is not the tree's {current[:PREFIX]}"
            if ack is not None:
                made_for = f"{ack.recorded} {ack.code}" if ack.recorded else "no hashes"
                detail += f"; acknowledged for {made_for}, no longer: {brief(ack.reason)}"
            out.append((path.name, "stale", detail))
    return out


def stale_files(folder: str | Path) -> list[str]:
    """The results files whose recorded code hash differs from the tree's and are not acknowledged."""
    return [name for name, status, _ in results_status(folder) if status == "stale"]


def measured_by(paths: Iterable[str | Path]) -> str:
    """The line under a generated table saying which code measured it: the commit and code hash each of its results
    files records (files that agree are grouped), and, when one records no hash or hashed the sampler modules only,
    that it is stale. It reads the files only, not the tree, so a page does not change when the code does: whether
    the code changed since a file was written is for ``make stale-results`` and the docs build to say.

    >>> import json, tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "a.json").write_text(json.dumps({"meta": {"code_hash": "ab" * 32, "commit": "abc1234",
    ...                                                "code_hashed": ["qpicross/**/*.py"]}}))
    >>> print(measured_by([folder / "a.json"]))
    *Measured by:* code abababababab at commit abc1234 (a.json). Whether today's code still gives it:
    `make stale-results`.
    """
    groups: dict[str, list[str]] = {}
    unknown = False
    for path in paths:
        path = Path(path)
        meta = _meta(path)
        commit, recorded = meta.get("commit") or "?", meta.get("code_hash")
        if recorded is None:
            key = f"commit {commit}, no code hash"
        elif _old_way(meta):
            key = f"commit {commit}, sampler hash {recorded[:PREFIX]} only"
        else:
            key = f"code {recorded[:PREFIX]} at commit {commit}"
        unknown |= recorded is None or _old_way(meta)
        groups.setdefault(key, []).append(path.name)
    measured = "; ".join(f"{key} ({', '.join(names)})" for key, names in groups.items())
    if unknown:
        return (f"*Measured by:* {measured}. Stale: with no hash of the whole code recorded, not known to be today's "
                "code (`make stale-results`).")
    return f"*Measured by:* {measured}. Whether today's code still gives it: `make stale-results`."


_MEASURED_BY = re.compile(r"^\*Measured by:\* .*$", re.M)


def _commits_since(commit: str) -> int | None:
    """How many commits since ``commit`` touched the hashed folders (None where git cannot say)."""
    root = Path(__file__).resolve().parents[1]
    try:
        out = subprocess.run(["git", "rev-list", "--count", f"{commit}..HEAD", "--", "qpicross", "benchmarks"],
                             cwd=root, capture_output=True, text=True, timeout=10, check=True).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    return int(out) if out.strip().isdigit() else None


def mark_stale(text: str, folder: str | Path, current: str | None = None) -> str:
    """``text`` (a page) with a note after each :func:`measured_by` line whose results files the code of today
    would not give: the docs build calls it on every page it reads (``docs/conf.py``), so the site it shows says
    which of its tables are stale *now*, while the committed page, read from the files alone, stays as it is.
    A line that already says it is stale is left as it is.

    >>> import json, tempfile
    >>> folder = Path(tempfile.mkdtemp())
    >>> _ = (folder / "a.json").write_text(json.dumps({"meta": {"code_hash": "ab" * 32, "commit": "abc1234",
    ...                                                "code_hashed": ["qpicross/**/*.py"]}}))
    >>> page = "| table |\\n\\n" + measured_by([folder / "a.json"]) + "\\n"
    >>> marked = mark_stale(page, folder, current="cd" * 32)
    >>> print(marked[marked.index("**Stale"):], end="")
    **Stale at this build:** this tree's code is cdcdcdcdcdcd, not the code that measured a.json.
    >>> mark_stale(page, folder, current="ab" * 32) == page
    True
    """
    status = {name: (state, detail) for name, state, detail in results_status(folder, current)}

    def note(match: re.Match) -> str:
        line = match.group(0)
        names = [n for n in re.findall(r"[\w.-]+\.json", line) if status.get(n, ("",))[0] == "stale"]
        if not names or " Stale: " in line:
            return line
        tree = (code_hash() if current is None else current)[:PREFIX]
        commits = {_commits_since(c) for c in re.findall(r"at commit (\w+)", line)} - {None}
        since = f" ({max(commits)} commits since touched qpicross/ or benchmarks/)" if commits else ""
        return (f"{line} **Stale at this build:** this tree's code is {tree}, not the code that measured "
                f"{', '.join(names)}{since}.")
    return _MEASURED_BY.sub(note, text)


def brief(reason: str) -> str:
    """An acknowledgement's reason as the listing shows it: where it began and its last step, with how many steps
    lie between (``results/STALE.txt`` keeps every step; ``--full`` prints them).

    >>> brief("written at abc (code 1); then (code 1 -> 2) a; then (code 2 -> 3) b; then (code 3 -> 4) c")
    'written at abc (code 1); ... 2 earlier steps ...; then (code 3 -> 4) c'
    >>> brief("written at abc (code 1); then (code 1 -> 2) a")
    'written at abc (code 1); then (code 1 -> 2) a'
    """
    steps = reason.split("; then (code ")
    if len(steps) <= 2:
        return reason
    between = len(steps) - 2
    return f"{steps[0]}; ... {between} earlier step{'s' * (between > 1)} ...; then (code {steps[-1]}"


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m benchmarks.provenance FOLDER``: list every results file's status; 1 if any is stale."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.provenance",
                                     description="List the results files the current code did not write.")
    parser.add_argument("folder", help="a folder of results files (the repository's: results)")
    parser.add_argument("--full", action="store_true",
                        help="print every acknowledgement's whole reason (default: its start and its last step)")
    args = parser.parse_args(argv)
    current = code_hash()
    rows = results_status(args.folder, current)
    for name, status, detail in rows:
        print(f"{status:12} {name}  {detail if args.full or status != 'acknowledged' else brief(detail)}")
    for error in acknowledgement_errors(args.folder):
        print(f"{ACKNOWLEDGED}: {error}")
    counts = {s: sum(status == s for _, status, _ in rows) for s in ("current", "stale", "acknowledged", "no hash")}
    print(f"code hash {current[:PREFIX]}: " + ", ".join(f"{n} {s}" for s, n in counts.items()))
    if Path(args.folder).resolve() == (ROOT / "results").resolve():  # the repository's: say which the pages quote
        from benchmarks.report import quoted_files

        for archive, where in ((False, "the README and the current pages"), (True, "the archive pages")):
            quoted = quoted_files(archive=archive)
            mine = [status for name, status, _ in rows if name in quoted]
            print(f"quoted by {where}: " + ", ".join(f"{sum(m == s for m in mine)} {s}" for s in counts))
    return 1 if counts["stale"] else 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
