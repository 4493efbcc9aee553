"""Samples fingerprints: what a sampler draws from fixed seeds on a few fixed puzzles, as one digest.

A results file holds counts, probabilities, sweeps and times drawn by some samplers on some models. Whether
today's code would give the same figures is answered by drawing again, small: each *family* the file measures
(a sampler with its encoding, presolve, weights and options, or a model, an embedding, the command line's
answers) is drawn on :data:`PROBE_PUZZLES` from :data:`SEED`, and the samples (every read's state, energy,
and the sweeps and restarts it took) are hashed. Same digest: the same samples from the same seeds, so every
count, probability and sweep figure of the file holds (its times are those of the commit it names). Another
digest: re-run it. A docstring, a refactor or a faster kernel that draws the same samples changes nothing.

A family is a key (:func:`family_key`): ``SAMPLER@ENCODING[+presolve][ weights=...][ option=value ...]``, or
``model@ENCODING[+presolve]`` (the BQM the sampler sees), ``embedding@ENCODING[+presolve]`` (the model and
minorminer's embedding of it from a fixed seed) and ``cli`` (the command line's exit codes and first lines on
bad input). :func:`families_of` reads the families a results file measures from its rows or records, so the
same function serves a file written today and one written before fingerprints were recorded.

A generic sampler (SA, tabu, the peers) reaches the ground states of those small puzzles at its own defaults
whatever its moves do, so it is also drawn for :data:`FEW_SWEEPS` sweeps, where its reads stop short of them
(probe version 2). The block-shift sampler solves them within a read's first restart, so under a restart schedule
it is also drawn for :data:`SPAN_SWEEPS` sweeps of one-sweep restarts aimed at an energy no board has, each read
returning its last state: some thirty restarts a read, up to ``2^4`` units long, and the long restarts' ladder
(probe version 3). What a probe cannot see, and says: with ``threads > 1`` which restart stream ends a read
depends on timing, so a block-shift family is drawn on one stream, on each chain the streams run (the profile chain, and the
joint chain of the long restarts); the CUDA kernels are drawn through their CPU backend (the test suite holds
them to the same samples); times are never part of a digest. A family whose two draws from the same seed
differ gets :data:`UNREPEATABLE`, which matches nothing, and one that cannot be drawn here (a missing extra,
an encoding the package no longer has) gets ``unavailable: why``.

This module imports only ``qpicross``'s public API, numpy and the standard library, so that it can draw with
the package of another commit on ``sys.path`` (``python benchmarks/fingerprint.py --json FAMILY ...``).

Examples:
    >>> key = family_key("sa", "domain_wall", weights="one_hot=16,at_most_one=1,order=1,match=1")
    >>> key
    'sa@domain_wall weights=one_hot=16'
    >>> parse_family(key)["weights"]
    {'one_hot': 16.0}
    >>> fingerprint(key) == fingerprint(key) and len(fingerprint(key)) == 64
    True
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import hashlib
import io
import json
import re
import sys
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

import numpy as np

__all__ = ["PROBE_PUZZLES", "SEED", "READS", "UNREPEATABLE", "VERSION", "FEW_SWEEPS", "SPAN_SWEEPS", "probe_version",
           "family_key", "parse_family", "families_of", "fingerprint", "fingerprints", "main"]

#: What the probes draw, by version; a digest is salted with its family's version (:func:`probe_version`), so
#: digests of another version differ. 1: every family on :data:`PROBE_PUZZLES` from :data:`SEED`; 2: a generic
#: sampler (any but the block-shift ones) is also run for :data:`FEW_SWEEPS` sweeps, since at its own defaults it
#: reaches the ground states of those small puzzles whatever its moves, which a digest of ground states cannot see;
#: 3: a block-shift sampler under a restart schedule is also run past its first restart (:data:`SPAN_SWEEPS`), since
#: it solves those puzzles within it, which a digest cannot see past (the ladders of the later restarts).
VERSION = 3
#: The sweeps of a generic sampler's short run (version 2).
FEW_SWEEPS = 10
#: The sweeps of a block-shift read's run of one-sweep restarts (version 3): Luby lengths up to 16 units.
SPAN_SWEEPS = 64
#: The target energy of those runs: below every model's ground state, so that no read stops early.
_NEVER = -1e9
_BLOCK_SHIFT = ("shift", "shift-batched", "shift-batched-cpu", "gpu-shift")
#: The shipped puzzles every sampler family is drawn on (small: the draws take seconds, compiled).
PROBE_PUZZLES = ("5x5", "smile7", "house8", "star10")
#: The seed of every probe draw, and the reads drawn on each puzzle.
SEED, READS = 1, 3
#: The digest of a family whose two draws from the same seed differ: it matches no recorded digest.
UNREPEATABLE = "unrepeatable"
_INSTANCES = Path(__file__).resolve().parents[1] / "instances"
_DEFAULT_WEIGHTS = {"one_hot": 1.0, "at_most_one": 1.0, "order": 1.0, "match": 1.0}
#: Options that decide when or where a read runs, not what it draws: left out of keys and probes.
_NOT_DRAWN = {"time_limit", "progress", "scheduler", "token", "timeout"}
#: Sampleset ``info`` entries that are counts fixed by the seed (never times): hashed with the samples.
_COUNTS = ("sweeps", "restarts", "sweeps_to_target", "chain", "stream_chains", "kernel")
#: What each samplers' name in older results files is drawn as today.
_DRAWN_AS = {"gpu-shift": "shift-batched-cpu", "shift-batched": "shift-batched-cpu"}


def _weights_of(weights) -> dict[str, float]:
    """The weights that differ from the default, from a mapping or ``"one_hot=1,order=2,..."``."""
    if isinstance(weights, str):
        weights = dict(part.split("=") for part in weights.split(",") if "=" in part)
    return {k: float(v) for k, v in (weights or {}).items() if float(v) != _DEFAULT_WEIGHTS.get(k, 1.0)}


def _options_of(options) -> dict:
    """Sampler options from a mapping or the results rows' ``"k=v,k=v"`` text (values as Python literals)."""
    if isinstance(options, dict):
        return dict(options)
    out = {}
    for part in re.split(r",(?=\w+=)", options or ""):
        if "=" in part:
            key, value = part.split("=", 1)
            try:
                out[key] = ast.literal_eval(value)
            except (ValueError, SyntaxError):
                out[key] = value
    return out


def family_key(sampler: str, encoding: str = "one_hot", presolve: bool = False, weights=None, options=None) -> str:
    """The family a configuration belongs to: what decides its samples, in a canonical text."""
    weights = _weights_of(weights)
    options = {k: v for k, v in _options_of(options).items() if k not in _NOT_DRAWN}
    if options.get("threads", 1) != 1:  # several restart streams: drawn alike, whatever their number
        del options["threads"]
    key = f"{sampler}@{encoding or 'one_hot'}" + ("+presolve" if presolve else "")
    if weights:
        key += " weights=" + ",".join(f"{k}={v:g}" for k, v in sorted(weights.items()))
    return key + "".join(f" {k}={v!r}".replace(", ", ",") for k, v in sorted(options.items()))


def parse_family(key: str) -> dict:
    """``sampler``, ``encoding``, ``presolve``, ``weights`` and ``options`` of a :func:`family_key`."""
    head, *rest = key.split(" ")
    sampler, _, encoding = head.partition("@")
    presolve = encoding.endswith("+presolve")
    encoding = encoding.removesuffix("+presolve") or "one_hot"
    weights, options = {}, {}
    for part in rest:
        name, _, value = part.partition("=")
        if name == "weights":
            weights = _weights_of(value)
        else:
            options[name] = ast.literal_eval(value)
    return {"sampler": sampler, "encoding": encoding, "presolve": presolve, "weights": weights, "options": options}


def _row_families(rows: Iterable[dict]) -> set[str]:
    return {family_key(r["sampler"], r.get("encoding", "one_hot"), bool(r.get("presolve")), r.get("weights"),
                       r.get("options")) for r in rows if isinstance(r, dict) and r.get("sampler")}


def families_of(data: dict) -> list[str]:
    """The families a results file (its parsed JSON) measures, read from what it holds.

    >>> families_of({"meta": {}, "results": [{"sampler": "shift", "encoding": "one_hot", "presolve": False,
    ...                                       "weights": "one_hot=1", "options": "threads=1,time_limit=60.0"}]})
    ['shift@one_hot threads=1']
    """
    meta = data.get("meta") or {}
    if isinstance(meta.get("fingerprints"), dict):
        return sorted(meta["fingerprints"])
    out: set[str] = set()
    if "counts" in data and "runs" in data:  # the bad-input campaign: the command line's answers
        out.add("cli")
    if "combinations" in data:  # the study: one family per tuned combination
        out |= {family_key(c["sampler"], c["encoding"], c["presolve"], c.get("weights"))
                for c in data["combinations"] if c.get("weights") is not None}
    if "records" in data and "arms" in meta:  # the schedule studies: arms of one encoding
        for arm in meta["arms"]:
            sampler, encoding = (meta[name].get(arm) if isinstance(meta[name], dict) else meta[name]
                                 for name in ("sampler", "encoding"))
            out.add(family_key(sampler or arm.partition("@")[0], encoding, arm.endswith("+presolve"),
                               meta.get("weights")))
    elif "records" in data:  # the embedding studies: models and their embeddings, and what they sampled
        out |= {"embedding@" + r["encoding"].removesuffix("+presolve") + ("+presolve" if "+presolve" in r["encoding"]
                else "") for r in data["records"] if r.get("encoding")}
        out |= {f"sa@{enc}" for enc in meta.get("sampled_encodings") or ()}
    rows = data.get("results") or []
    out |= _row_families(rows)
    if rows and isinstance(rows[0], dict) and "path" in rows[0]:  # the memory study: the models each path builds
        for r in rows:
            words = r["path"].split()
            enc = words[words.index("--encoding") + 1].replace("-", "_") if "--encoding" in words else "one_hot"
            out.add(f"model@{enc}" + ("+presolve" if "--presolve" in words else ""))
    if rows and isinstance(rows[0], dict) and "bqm_kernel" in rows[0]:  # the kernels study: both kernels
        out.add("shift-kernels")
    if rows and isinstance(rows[0], dict) and "ladders" in rows[0]:  # the GPU throughput study
        out.add("shift-batched-cpu@one_hot")
    if not out and (rows or "config" in meta):  # the tournament pass and its breakdown: the default on one core
        out.add(family_key("shift", options={"threads": 1}))
    return sorted(out)


def _puzzles():
    from qpicross import load_puzzle

    return [load_puzzle(_INSTANCES / f"{name}.px") for name in PROBE_PUZZLES]


def _update(digest, *parts) -> None:
    for part in parts:
        data = part if isinstance(part, bytes) else json.dumps(part, sort_keys=True, default=str).encode()
        digest.update(len(data).to_bytes(8, "big") + data)


def _hash_sampleset(digest, sampleset) -> None:
    variables = sorted(sampleset.variables, key=repr)
    _update(digest, [repr(v) for v in variables],
            np.ascontiguousarray(sampleset.record.sample[:, [sampleset.variables.index(v) for v in variables]],
                                 dtype=np.int8).tobytes(),
            [f"{e:.9g}" for e in sampleset.record.energy], sampleset.record.num_occurrences.tolist(),
            {k: sampleset.info[k] for k in _COUNTS if k in sampleset.info})


def _hash_bqm(digest, bqm) -> None:
    linear = sorted((repr(v), f"{b:.12g}") for v, b in bqm.linear.items())
    quadratic = sorted((*sorted((repr(u), repr(v))), f"{b:.12g}") for (u, v), b in bqm.quadratic.items())
    _update(digest, linear, quadratic, f"{bqm.offset:.12g}", str(bqm.vartype))


def _anneal(puzzle, family: dict, **changes):
    from qpicross import PenaltyWeights, anneal

    options = {k: v for k, v in family["options"].items() if k != "threads"}
    options.update(changes.pop("options", {}))
    weights = PenaltyWeights(**{**_DEFAULT_WEIGHTS, **family["weights"]})
    run = dict(sampler=_DRAWN_AS.get(family["sampler"], family["sampler"]), encoding=family["encoding"],
               presolve=family["presolve"], weights=weights, num_reads=READS, seed=SEED)
    if run["sampler"] == "shift":
        run["threads"] = 1
    return anneal(puzzle, **{**run, **changes}, **options)


def probe_version(key: str, rules: int = VERSION) -> int:
    """The probe version of a family (see :data:`VERSION`) as the probes of version ``rules`` drew it: 2 for a
    generic sampler's, 3 for a block-shift sampler's under a restart schedule, else 1.

    >>> probe_version("sa@one_hot"), probe_version("shift@one_hot threads=1"), probe_version("model@one_hot")
    (2, 3, 1)
    >>> probe_version("shift@one_hot threads=1", rules=2), probe_version("shift@one_hot num_replicas=8")
    (1, 1)
    """
    sampler = key.partition("@")[0]
    if "@" not in key or sampler in ("model", "embedding"):
        return 1
    if sampler in _BLOCK_SHIFT:
        return 3 if rules >= 3 and _restarts(parse_family(key)["options"]) else 1
    return min(rules, 2)


def _restarts(options: dict) -> bool:
    """Whether a block-shift family's reads run restarts (``schedule`` Luby or population, as ``"auto"`` gives)."""
    schedule = options.get("schedule", "auto")
    fixed = {"num_replicas", "beta_range"} & set(options)
    return schedule in ("luby", "population") or (schedule == "auto" and not fixed)


def _spans(family: dict) -> list[dict]:
    """The options of a block-shift family's runs past its first restart (version 3): one-sweep restarts, and for
    the sampler with threads the long restarts' plan (its second stream's, on one thread), each aimed at
    :data:`_NEVER` and returning each read's last state."""
    never = {"target_energy": _NEVER, "return_state": "last"}
    runs = [{**never, "restart_sweeps": 1}]
    options = family["options"]
    if family["sampler"] == "shift" and options.get("schedule", "auto") != "population" and \
            options.get("stream_plans", "mixed") == "mixed":
        runs.append({**never, "stream_plans": "long"})
    return runs


def _draw(key: str, digest, rules: int = VERSION) -> None:
    """Hash what ``key`` draws on every probe puzzle into ``digest``, as the probes of version ``rules`` draw."""
    if key == "cli":
        return _draw_cli(digest)
    if key == "shift-kernels":
        return _draw_kernels(digest)
    kind, _, _ = key.partition("@")
    family = parse_family(key)
    for puzzle in _puzzles():
        if kind in ("model", "embedding"):
            result = _anneal(puzzle, {**family, "sampler": "sa"}, num_reads=1, num_sweeps=1)
            bqm = getattr(result, "sampled_bqm", None) or result.bqm
            _hash_bqm(digest, bqm)
            if kind == "embedding" and puzzle.num_rows <= 5:
                _hash_embedding(digest, bqm)
            continue
        _hash_sampleset(digest, _anneal(puzzle, family).sampleset)
        version = probe_version(key, rules)
        if version == 2:  # a generic sampler, stopped before the ground state
            _hash_sampleset(digest, _anneal(puzzle, family, num_sweeps=FEW_SWEEPS).sampleset)
        options = family["options"]
        if family["sampler"] == "shift" and options.get("threads", 2) != 1 and "chain" not in options and \
                options.get("schedule") != "population":  # the long restarts' chain of the second stream
            _hash_sampleset(digest, _anneal(puzzle, family, options={"chain": "joint"}).sampleset)
        if version >= 3:  # a block-shift sampler past its first restart
            for span in _spans(family):
                _hash_sampleset(digest, _anneal(puzzle, family, num_sweeps=SPAN_SWEEPS, options=span).sampleset)


def _hash_embedding(digest, bqm) -> None:
    import minorminer

    try:
        import dwave.graphs as graphs
    except ImportError:  # dwave-system before dwave-graphs
        import dwave_networkx as graphs

    edges = [(repr(u), repr(v)) for u, v in bqm.quadratic]
    embedding = minorminer.find_embedding(edges, graphs.pegasus_graph(4), random_seed=SEED, tries=2)
    _update(digest, sorted((k, sorted(chain)) for k, chain in embedding.items()))


def _draw_kernels(digest) -> None:
    """The block-shift sampler on both kernels (``make bench-kernels``: the BQM's and the board layout's)."""
    from qpicross import BlockShiftSampler, build_formulation

    for puzzle in _puzzles():
        f = build_formulation(puzzle)
        for extra in ({}, {"paints": f.paints(), "chain": "joint"}):
            _hash_sampleset(digest, BlockShiftSampler().sample(f.bqm(), lines=f.one_hot_lines(), num_reads=2,
                                                               num_sweeps=200, seed=SEED, **extra))


#: Bad input the command line must refuse: (file name, its text, arguments after ``qpicross``).
_CLI_CASES = (
    ("empty.px", "", ["show"]),
    ("short.px", "2,2\n1\n", ["anneal", "--reads", "1"]),
    ("letters.px", "2,2\na\n1\n1\n1\n", ["info"]),
    ("ok.px", "1,1\n1\n1\n", ["anneal", "--reads", "0"]),
    ("ok.px", "1,1\n1\n1\n", ["anneal", "--sampler", "nope"]),
    ("missing.px", None, ["solve"]),
)


def _draw_cli(digest) -> None:
    """The command line's exit code and first error line on each of :data:`_CLI_CASES`, run in this process."""
    from qpicross.cli import main as cli

    with tempfile.TemporaryDirectory() as folder:
        for name, text, argv in _CLI_CASES:
            path = Path(folder) / name
            if text is not None:
                path.write_text(text)
            out, err = io.StringIO(), io.StringIO()
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                try:
                    code = cli([argv[0], str(path), *argv[1:]])
                except SystemExit as stop:
                    code = stop.code
            first = err.getvalue().replace(folder, "DIR").strip().splitlines()[:1]
            _update(digest, [name, argv, code, first])


def fingerprint(key: str, rules: int = VERSION) -> str:
    """The digest of what family ``key`` draws (two draws, which must agree: else :data:`UNREPEATABLE`), or
    ``unavailable: why`` when it cannot be drawn here; ``rules``: as the probes of that version drew it."""
    digests = []
    for _ in range(2):
        digest = hashlib.sha256(f"fingerprint v{probe_version(key, rules)} {key}".encode())
        try:
            _draw(key, digest, rules)
        except Exception as error:  # an extra not installed, a sampler or option this code does not have
            return f"unavailable: {type(error).__name__}: {str(error).splitlines()[0] if str(error) else ''}"[:200]
        digests.append(digest.hexdigest())
    return digests[0] if digests[0] == digests[1] else UNREPEATABLE


#: What this process has drawn, by family and probe rules: the code it imported does not change under it, so
#: neither do the digests.
_DRAWN: dict[tuple[str, int], str] = {}


def fingerprints(keys: Iterable[str], rules: int = VERSION) -> dict[str, str]:
    """:func:`fingerprint` of each family, quietly (the samplers' progress lines and warnings are not shown), each
    drawn once in a process (a study that writes its file after every puzzle draws them at its first write)."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for key in sorted(set(keys)):
            if (key, rules) not in _DRAWN:
                with contextlib.redirect_stderr(io.StringIO()):
                    _DRAWN[key, rules] = fingerprint(key, rules)
    return {key: _DRAWN[key, rules] for key in sorted(set(keys))}


def main(argv: Sequence[str] | None = None) -> int:
    """``python benchmarks/fingerprint.py FAMILY ...``: each family's digest (``--json``: as one JSON object)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.fingerprint", description=__doc__.split("\n")[0])
    parser.add_argument("families", nargs="*", help="family keys (default: those of --file)")
    parser.add_argument("--file", action="append", default=[], help="a results file whose families to draw")
    parser.add_argument("--json", action="store_true", help="print one JSON object, family -> digest")
    parser.add_argument("--version", type=int, default=VERSION, choices=range(1, VERSION + 1),
                        help=f"draw as the probes of this version did (default: {VERSION}, today's)")
    args = parser.parse_args(argv)
    keys = list(args.families)
    for path in args.file:
        keys += families_of(json.loads(Path(path).read_text()))
    digests = fingerprints(keys, args.version)
    if args.json:
        print(json.dumps(digests, indent=1, sort_keys=True))
    else:
        for key, digest in digests.items():
            print(f"{digest[:16] if len(digest) == 64 else digest:18} {key}")
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
