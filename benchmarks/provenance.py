"""Which committed results files today's code would reproduce (``make stale-results``), by their samples.

Every results file's ``meta`` records where it ran (the package's
:func:`~qpicross.experiments.result.machine_info`: machine, CPUs, load, Python and the versions of the libraries
that draw and time the samples) and, stamped by :func:`stamp` in the run that wrote it, the repository's state
(:func:`repository_state`: the commit and whether ``qpicross/``, ``benchmarks/`` or ``pyproject.toml`` had
uncommitted changes) and ``fingerprints``: for each family of samplers and encodings the file measures
(:func:`benchmarks.fingerprint.families_of`), the digest of what it draws from fixed seeds on a few fixed
puzzles (:func:`benchmarks.fingerprint.fingerprint`), drawn by the code that ran the benchmark.

:func:`results_status` draws today's fingerprints (each family once, seconds once compiled) and sorts every file:

* ``current``: every family draws the same samples from the same seeds: each count, probability and sweep
  figure of the file holds today; its times are those of the commit it names (a change that keeps the samples
  but may change the speed is what ``make bench-no-slowdown`` measures, in the commit that makes it);
* ``changed``: some family draws other samples, cannot be drawn here, does not repeat its samples from a seed,
  was fingerprinted by an older probe version that drew it differently (:func:`~benchmarks.fingerprint.probe_version`),
  or the file records no fingerprint: re-run it (``detail`` says which family, and why).

When the probes change (:data:`~benchmarks.fingerprint.VERSION`), a file need not be re-run to be checked by the new
ones: :func:`upgrade` draws its families again by the package of the commit it names, under the old probes and the
new, and takes the new digests only where the old ones match what the file recorded (``make upgrade-fingerprints``).

Nothing is acknowledged by hand: what decides is the samples. ``make stale-results`` (:mod:`benchmarks.stale`)
prints the listing.

Examples:
    >>> import json, tempfile
    >>> from benchmarks.fingerprint import fingerprint
    >>> folder = Path(tempfile.mkdtemp())
    >>> key = "sa@one_hot"
    >>> for name, digest in (("now.json", fingerprint(key)), ("old.json", "0" * 64)):
    ...     meta = {"fingerprints": {key: digest}, "fingerprint_version": VERSION}
    ...     _ = (folder / name).write_text(json.dumps({"meta": meta}))
    >>> [(name, status) for name, status, _ in results_status(folder)]
    [('now.json', 'current'), ('old.json', 'changed')]
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterable, Mapping
from pathlib import Path

from benchmarks.fingerprint import VERSION, families_of, fingerprints, probe_version

__all__ = ["ROOT", "repository_state", "run_meta", "write_results", "stamp", "stamp_meta", "tree_fingerprints",
           "results_status", "outdated_families", "upgrade"]

#: The repository (the folder above benchmarks/).
ROOT = Path(__file__).resolve().parents[1]
#: What can change a file's samples besides the libraries: ``dirty`` says whether any of it had uncommitted changes.
SOURCES = ("qpicross", "benchmarks", "pyproject.toml")


def _git(*args: str, cwd: Path = ROOT) -> str | None:
    try:
        out = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() if out.returncode == 0 else None


def repository_state(tree: Path = ROOT) -> dict:
    """``commit`` (the checked-out commit, short) and ``dirty`` (uncommitted changes to :data:`SOURCES`) of
    ``tree``; both None outside a git work tree.

    >>> sorted(repository_state())
    ['commit', 'dirty']
    """
    commit = _git("rev-parse", "--short", "HEAD", cwd=tree)
    status = _git("status", "--porcelain", "--untracked-files=no", "--", *SOURCES, cwd=tree)
    return {"commit": commit or None, "dirty": None if status is None else bool(status)}


def stamp_meta(meta: Mapping, families: Iterable[str], tree: str | Path | None = None) -> dict:
    """``meta`` with the fingerprints of ``families`` and the repository's state.

    Without ``tree``: the fingerprints are drawn by the code this process imported, and the state is the
    ``commit`` and ``dirty`` that ``meta`` took when the run started (:func:`run_meta`), else the tree's now. With
    ``tree`` (another checkout whose package ran, ``make bench-no-slowdown``'s base trees): both are that tree's,
    the fingerprints drawn by its package (:func:`tree_fingerprints`)."""
    families = sorted(set(families))
    if tree is None:
        digests, how = fingerprints(families), "drawn in the run that wrote the file"
        state = {k: meta[k] for k in ("commit", "dirty") if k in meta} if "commit" in meta else repository_state()
    else:
        tree = Path(tree).resolve()
        digests, how = tree_fingerprints(tree, families), f"drawn after the run by the package of {tree.name}"
        state = repository_state(tree)
    return {**meta, **state, "fingerprints": digests, "fingerprint_version": VERSION, "fingerprinted": how}


def run_meta() -> dict:
    """What a benchmark records at its start: :func:`~qpicross.experiments.result.machine_info` and
    :func:`repository_state`."""
    from qpicross.experiments.result import machine_info

    return {**machine_info(), **repository_state()}


def write_results(path: str | Path, data: dict, families: Iterable[str] | None = None,
                  tree: str | Path | None = None) -> dict:
    """Write the results ``data`` to ``path`` as JSON, its ``meta`` stamped (:func:`stamp_meta`, ``tree`` as there)
    with the fingerprints of ``families`` (default: those :func:`~benchmarks.fingerprint.families_of` reads from
    ``data``). Returns ``data`` as written."""
    meta = {k: v for k, v in (data.get("meta") or {}).items() if k != "fingerprints"}
    families = families_of({**data, "meta": meta}) if families is None else families
    data = {**data, "meta": stamp_meta(meta, families, tree)}
    _write_json(path, data)
    return data


def _write_json(path: str | Path, data: dict) -> None:
    Path(path).write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def stamp(path: str | Path, families: Iterable[str] | None = None, state: Mapping | None = None,
          tree: str | Path | None = None) -> dict:
    """Stamp the results file ``path`` (:func:`write_results` of what it holds): its ``meta`` gains the fingerprints
    of the families it measures and the repository's state. ``state``: the commit and ``dirty`` taken when the run
    started (default: those the file records, else the tree's now); ``tree``: another checkout whose package wrote
    the file (its state and fingerprints, drawn there). Returns the new ``meta``."""
    data = json.loads(Path(path).read_text())
    if state is not None:
        data["meta"] = {**(data.get("meta") or {}), **state}
    return write_results(path, data, families, tree)["meta"]


def tree_fingerprints(tree: Path, families: Iterable[str], rules: int = VERSION) -> dict[str, str]:
    """The fingerprints of ``families`` drawn by another checkout's package (``make bench-no-slowdown``'s base
    trees): :mod:`benchmarks.fingerprint` run as a script with ``tree`` first on the path (``rules``: under the
    probes of that version)."""
    import os

    script = Path(__file__).with_name("fingerprint.py")
    out = subprocess.run([sys.executable, str(script), "--json", "--version", str(rules), *sorted(set(families))],
                         cwd=tree, env={**os.environ, "PYTHONPATH": str(tree)}, capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout)


def outdated_families(meta: Mapping) -> list[str]:
    """The families of a results file's ``meta`` that today's probes draw otherwise than those that stamped it.

    >>> outdated_families({"fingerprint_version": 2, "fingerprints": {"sa@one_hot": "", "shift@one_hot": ""}})
    ['shift@one_hot']
    """
    rules = int(meta.get("fingerprint_version") or 1)
    return sorted(k for k in meta.get("fingerprints") or {} if probe_version(k, rules) != probe_version(k))


def upgrade(paths: Iterable[str | Path], tree: str | Path) -> dict[str, str]:
    """Stamp the results files ``paths`` with today's probes (:data:`~benchmarks.fingerprint.VERSION`) for their
    :func:`outdated_families`, drawn by the package of ``tree``, a checkout of the commit they name: first under the
    probes that stamped each, and only where those draws give the digests it recorded (else the file is left as it
    is). Each family is drawn once for all of them. Returns what was done to each file, in words, by its name."""
    tree = Path(tree).resolve()
    files = {Path(path): json.loads(Path(path).read_text()) for path in paths}
    rules = {path: int(data["meta"].get("fingerprint_version") or 1) for path, data in files.items()}
    outdated = {path: outdated_families(data["meta"]) for path, data in files.items()}
    then = {version: tree_fingerprints(tree, {k for path in files if rules[path] == version for k in outdated[path]},
                                       version) for version in {rules[path] for path in files if outdated[path]}}
    everything = {k for families in outdated.values() for k in families}
    now = tree_fingerprints(tree, everything) if everything else {}
    done = {}
    for path, data in files.items():
        meta, families = data["meta"], outdated[path]
        differ = [k for k in families if then[rules[path]][k] != meta["fingerprints"][k]]
        undrawn = [k for k in families if len(meta["fingerprints"][k]) != 64]
        if not families:
            done[path.name] = "already stamped by today's probes"
        elif undrawn:
            done[path.name] = f"left as it is: {', '.join(undrawn)} could not be drawn when it ran"
        elif differ:
            done[path.name] = f"left as it is: {', '.join(differ)} draw other samples there than the file recorded"
        else:
            data["meta"] = {**meta, "fingerprints": {**meta["fingerprints"], **{k: now[k] for k in families}},
                            "fingerprint_version": VERSION,
                            "fingerprinted": f"{meta.get('fingerprinted', 'stamped')}; {', '.join(families)} drawn "
                                             f"again under probe version {VERSION} by the package of its commit, "
                                             "whose earlier digests it gave again"}
            _write_json(path, data)
            done[path.name] = f"stamped by probe version {VERSION}: {', '.join(families)}"
    return done


def results_status(folder: str | Path, today: Mapping[str, str] | None = None) -> list[tuple[str, str, str]]:
    """``(file name, status, detail)`` for each ``*.json`` of ``folder``, by name: ``current`` or ``changed``
    (see the module docstring). ``today``: the fingerprints to compare with (default: drawn now, each family
    the files record once)."""
    files = sorted(Path(folder).glob("*.json"))
    recorded = {path.name: (json.loads(path.read_text()).get("meta") or {}) for path in files}
    if today is None:
        today = fingerprints({k for meta in recorded.values() for k in (meta.get("fingerprints") or {})})
    out = []
    for name, meta in recorded.items():
        prints = meta.get("fingerprints") or {}
        where = f"commit {meta.get('commit') or '?'}" + (" (uncommitted changes)" if meta.get("dirty") else "")
        why = []
        if not prints:
            why.append("no samples fingerprint recorded")
        outdated = outdated_families(meta)
        for key, digest in sorted(prints.items()):
            now = today.get(key, "not drawn")
            if key in outdated:
                why.append(f"{key}: stamped by probe version {meta.get('fingerprint_version') or 1}, which draws it "
                           f"otherwise than today's {VERSION} (or make upgrade-fingerprints)")
            elif len(digest) != 64:
                why.append(f"{key}: {digest} when it ran")
            elif now != digest:
                why.append(f"{key}: " + ("draws other samples" if len(now) == 64 else now))
        if why:
            out.append((name, "changed", f"{where}; re-run: " + "; ".join(why)))
        else:
            out.append((name, "current", f"{where}: the same samples from {len(prints)} "
                        f"famil{'y' if len(prints) == 1 else 'ies'}"))
    return out
