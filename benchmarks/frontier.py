"""The formulation frontier in this repository: the puzzles its studies climb, and the page of their results.

* ``python -m benchmarks.frontier embedding`` (``make embedding``): every encoding's BQM minor-embedded into the
  QPU graphs (:func:`benchmarks.embedding.run_embedding_study`) over :data:`EMBEDDING_LADDER`;
* ``python -m benchmarks.frontier structured`` (``make embedding-structured``): the thermometer model laid on Zephyr
  as a crossbar (:func:`benchmarks.crossbar.run_structured_study`) beside minorminer alone, over
  :data:`STRUCTURED_LADDER`;
* ``python -m benchmarks.frontier schedule`` (``make schedule``): TTS99 against sweep count for plain SA on the
  thermometer encoding (:func:`benchmarks.schedule.run_schedule`) over :data:`SCHEDULE_LADDER`; with ``--arms``
  the peers too (``make schedule-peers``);
* ``python -m benchmarks.frontier page`` (``make frontier-page``): the tables of the frontier's pages
  (:data:`PAGES`: ``docs/results/formulation-frontier.md``, ``frontier-tournament.md``, ``qpu-embedding.md``), each
  between ``<!-- begin generated: NAME -->`` and
  ``<!-- end generated: NAME -->``; :data:`GENERATED` says which results file and which function give NAME, and
  under each table :func:`~benchmarks.tables.measured_by` says at which commit it was measured;
  ``--check`` exits 1 when one differs from what the results files give (``tests/benchmarks/test_frontier.py`` runs
  the same check).

Examples:
    >>> text = "a\\n<!-- begin generated: x -->\\nold\\n<!-- end generated: x -->\\nb\\n"
    >>> print(replace_blocks(text, {"x": "new"}), end="")
    a
    <!-- begin generated: x -->
    new
    <!-- end generated: x -->
    b
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from benchmarks.ladder import Rung, shared_rung, shipped_rung
from benchmarks.provenance import run_meta
from benchmarks.tables import measured_by

__all__ = ["EMBEDDING_LADDER", "STRUCTURED_LADDER", "SCHEDULE_LADDER", "PEERS_FILE", "GENERATED", "PAGE", "PAGES",
           "still_fails", "peers_compare", "random_sizes", "generated_tables",
           "replace_blocks", "stale_blocks", "update_page", "main"]

ROOT = Path(__file__).resolve().parents[1]
#: The pages that hold the frontier's generated blocks: the schedule and the peers, the tournament puzzles, the QPU.
PAGES = tuple(ROOT / "docs" / "results" / name
              for name in ("formulation-frontier.md", "frontier-tournament.md", "qpu-embedding.md"))
PAGE = PAGES[0]
_BLOCK = re.compile(r"(<!-- begin generated: (?P<name>[\w.-]+) -->\n)(?P<body>.*?)\n?(<!-- end generated: (?P=name) -->)",
                    re.S)

_BOMPOL = ("pikachu", "clock", "layton", "bird", "knife", "ratz", "tardis", "panda", "hare", "zen", "spade",
           "godzilla", "ouhbatman", "qrcode", "kabuki", "tarantino", "phantom")
#: collection -> rungs, climbed in order of size (cells); a collection's climb stops at its first
#: puzzle that does not embed (larger ones are recorded as not tried).
EMBEDDING_LADDER: dict[str, tuple] = {
    "shipped": tuple(shipped_rung(n, f"{n}.px") for n in ("5x5", "smile7", "house8", "star10", "boat12")),
    "bompol": tuple(shared_rung(n, f"bompol/{n}.px") for n in _BOMPOL),
    "generated": tuple(Rung(f"random{k}", generated=(k, k), seed=1) for k in (10, 12, 15, 18, 20, 25)),
    "tournament": tuple(shared_rung(f"taai2011#{i}", f"external/NonogramRecord/question/taai2011.txt#{i}")
                        for i in (1, 2, 3)),
}

#: What ``make embedding-structured`` climbs (:mod:`benchmarks.crossbar`): the 15×15 Bompol puzzles and panda,
#: generated puzzles from 15×15 to 20×20 and taai2011 #1-3, each collection smallest first.
STRUCTURED_LADDER: dict[str, tuple] = {
    "bompol": tuple(shared_rung(n, f"bompol/{n}.px") for n in ("bird", "knife", "ratz", "panda")),
    "generated": tuple(Rung(f"random{k}", generated=(k, k), seed=1) for k in (15, 18, 20)),
    "tournament": EMBEDDING_LADDER["tournament"],
}

#: Bompol puzzles from 10x10 to 20x20 and the first 25x25 tournament puzzle, smallest first.
SCHEDULE_LADDER = (
    shared_rung("clock", "bompol/clock.px"),
    shared_rung("layton", "bompol/layton.px"),
    shared_rung("bird", "bompol/bird.px"),
    shared_rung("knife", "bompol/knife.px"),
    shared_rung("ratz", "bompol/ratz.px"),
    shared_rung("panda", "bompol/panda.px"),
    shared_rung("taai2011#1", "external/NonogramRecord/question/taai2011.txt#1"),
)


#: The encodings embedding.json holds that qpicross no longer builds (issue 42's cell variables, at 0716963): the
#: page shows them in the section that says why they were not kept, not beside the current ones.
NOT_KEPT = ("thermometer_cells", "thermometer_cells+presolve")


def _only(data: dict, keep: Callable[[str], bool]) -> dict:
    """``data`` (an embedding results file) with only the records whose encoding ``keep`` accepts."""
    return {**data, "records": [r for r in data["records"] if keep(r["encoding"])]}


def _embedding(fn: str, not_kept: bool = False) -> Callable[[dict], str]:
    def table(results: Mapping[str, dict]) -> str:
        from benchmarks import embedding

        return getattr(embedding, fn)(_only(results["embedding.json"], lambda e: (e in NOT_KEPT) == not_kept))
    return table


def _schedule(fn: str, file: str = "schedule.json") -> Callable[[dict], str]:
    def table(results: Mapping[str, dict]) -> str:
        from benchmarks import schedule

        return getattr(schedule, fn)(results[file])
    return table


def still_fails(results: Mapping[str, dict]) -> str:
    """A list: the puzzles no arm of the schedule solved, and per encoding and QPU the first puzzle of each
    collection that did not embed (from the results files)."""
    lines = []
    for name in ("schedule.json", "schedule_bompol.json", "schedule_presolve.json", "schedule_tournament.json",
                 "schedule_tournament_plain.json"):
        sched = results.get(name)
        if sched is None:
            continue
        for p in sched["puzzles"]:
            if "absent" in p:
                continue
            mine = [r for r in sched["records"] if r["puzzle"] == p["label"]]
            arms = sched["meta"].get("arms") or sorted({r["arm"] for r in mine})
            failed = [a for a in arms if not any(r.get("num_solved") for r in mine if r["arm"] == a)]
            if not failed:
                continue
            cells = [r for r in mine if r["arm"] in failed and "num_reads" in r]
            reads = sum(r["num_reads"] for r in cells)
            best = min((r["best_energy"] for r in cells if r.get("best_energy") is not None), default=None)
            solved_by = [a for a in arms if a not in failed]
            lines.append(f"- {p['label']} ({p['rows']}×{p['cols']}, {name}): no read of plain SA reached the ground "
                         f"state with {' or '.join(failed)} at any sweep count ({reads} reads; best energy "
                         f"{best:g})" + (f"; solved with {', '.join(solved_by)}" if solved_by else ""))
    emb = results.get("embedding.json")
    if emb is not None:
        emb = _only(emb, lambda e: e not in NOT_KEPT)
        size = {p["label"]: f"{p['rows']}×{p['cols']}" for p in emb["puzzles"] if "rows" in p}
        seen = set()
        for r in emb["records"]:
            key = (r["encoding"], r["topology"], r["collection"])
            if r["status"] == "not embedded" and key not in seen:
                seen.add(key)
                lines.append(f"- {r['encoding']} on {r['topology']}: {r['collection']} stops at {r['puzzle']} "
                             f"({size[r['puzzle']]}, {r['num_variables']:,} variables, {r['num_interactions']:,} "
                             f"interactions): no embedding found in {r['embed_s']:.0f} s")
    return "\n".join(lines) if lines else "- nothing: every measured puzzle was solved and embedded"


#: ``make schedule-peers``: the peers on the schedule ladder beside plain SA with the rule's β range.
PEERS_FILE = "schedule_peers.json"


def peers_compare(results: Mapping[str, dict]) -> str:
    """Each peer's arm against plain SA's ``rule`` arm, puzzle by puzzle (:func:`benchmarks.schedule.comparison_list`)."""
    from benchmarks import schedule

    data = results[PEERS_FILE]
    pairs = [(arm, "rule") for arm in data["meta"]["arms"] if arm != "rule"]
    return schedule.comparison_list(data, pairs)


#: Issue 42's cell variables, measured and not kept: plain SA on the thermometer and on the thermometer with one
#: variable per cell, in one run (``make schedule-cells`` at 0716963).
CELLS_FILE = "schedule_cells.json"


def cells_compare(results: Mapping[str, dict]) -> str:
    """The cell-variable encoding's arm against the plain thermometer's, puzzle by puzzle
    (:func:`benchmarks.schedule.comparison_list`)."""
    from benchmarks import schedule

    return schedule.comparison_list(results[CELLS_FILE], [("rule@thermometer_cells", "rule")])


#: ``make schedule-random``: the size ladder of random boards, plain SA on the thermometer alone and after line logic.
RANDOM_FILES = ("schedule_random_plain.json", "schedule_random_presolve.json")


def random_sizes(results: Mapping[str, dict]) -> str:
    """Both arms of the random size ladder in one table (:func:`benchmarks.schedule.size_table`), each the puzzles
    solved and those within 60 s per board size."""
    from benchmarks import schedule

    files = [results[name] for name in RANDOM_FILES]
    merged = {"meta": {"arms": [arm for data in files for arm in data["meta"]["arms"]]},
              "puzzles": files[0]["puzzles"], "records": [r for data in files for r in data["records"]]}
    return schedule.size_table(merged)


#: The two arms of ``make schedule-tournament-sample``: plain SA on the thermometer, and the same after line logic.
SAMPLE_FILES = ("schedule_sample_plain.json", "schedule_sample_presolve.json")


def sample_summary(results: Mapping[str, dict]) -> str:
    """Each arm's line (:func:`benchmarks.schedule.summary_line`) on the tournament sample, with the puzzles it did not
    solve."""
    from benchmarks import schedule

    return "\n".join(schedule.summary_line(results[name], list_unsolved=True) for name in SAMPLE_FILES)


def _structured(fn: str, separator: str) -> Callable[[dict], str]:
    """``crossbar.fn`` of each structured results file there is, joined by ``separator``."""
    def table(results: Mapping[str, dict]) -> str:
        from benchmarks import crossbar

        return separator.join(getattr(crossbar, fn)(results[name]) for name in STRUCTURED_FILES if name in results)
    return table


def embedding_short(results: Mapping[str, dict]) -> str:
    """minorminer's embeddings (``make embedding``) of the thermometer model with no chain over 7 qubits: the largest
    puzzle of each collection on each graph (:func:`benchmarks.crossbar.largest_short`)."""
    from benchmarks import crossbar

    return crossbar.largest_short(_only(results["embedding.json"], lambda e: e.startswith("thermometer")
                                        and e not in NOT_KEPT))


#: ``make embedding-structured``'s results: the thermometer alone, and after line logic.
STRUCTURED_FILES = ("embedding_structured.json", "embedding_structured_presolve.json")


def embedding_chains(results: Mapping[str, dict]) -> str:
    """The not-kept encoding's chains over several minorminer seeds (:func:`benchmarks.embedding.chains_table`)."""
    from benchmarks import embedding

    return embedding.chains_table(results["embedding_chains.json"])


#: NAME -> (the results files it reads, the function that renders it)
GENERATED: dict[str, tuple[tuple[str, ...], Callable[[Mapping[str, dict]], str]]] = {
    "embedding-largest": (("embedding.json",), _embedding("largest_table")),
    "embedding": (("embedding.json",), _embedding("embedding_table")),
    "embedding-sampled": (("embedding.json",), _embedding("sampling_table")),
    "embedding-not-kept": (("embedding.json",), _embedding("largest_table", not_kept=True)),
    "schedule-optimum": (("schedule.json",), _schedule("optimum_table")),
    "schedule": (("schedule.json",), _schedule("schedule_table")),
    "schedule-compare": (("schedule.json",), _schedule("comparison_list")),
    "presolve-compare": (("schedule_presolve.json",), _schedule("comparison_list", "schedule_presolve.json")),
    "presolve-optimum": (("schedule_presolve.json",), _schedule("optimum_table", "schedule_presolve.json")),
    "presolve": (("schedule_presolve.json",), _schedule("schedule_table", "schedule_presolve.json")),
    "tournament-summary": (("schedule_tournament.json",), _schedule("summary_line", "schedule_tournament.json")),
    "schedule-summary": (("schedule.json",), _schedule("summary_line")),
    "plain-tournament-summary": (("schedule_tournament_plain.json",),
                                 _schedule("summary_line", "schedule_tournament_plain.json")),
    "plain-tournament-optimum": (("schedule_tournament_plain.json",),
                                 _schedule("optimum_table", "schedule_tournament_plain.json")),
    "bompol-summary": (("schedule_bompol.json",), _schedule("summary_line", "schedule_bompol.json")),
    "bompol-optimum": (("schedule_bompol.json",), _schedule("optimum_table", "schedule_bompol.json")),
    "tournament-optimum": (("schedule_tournament.json",),
                           _schedule("optimum_table", "schedule_tournament.json")),
    "tournament-sample-summary": (SAMPLE_FILES, sample_summary),
    "random-sizes": (RANDOM_FILES, random_sizes),
    "peers-summary": ((PEERS_FILE,), _schedule("summary_line", PEERS_FILE)),
    "peers-optimum": ((PEERS_FILE,), _schedule("optimum_table", PEERS_FILE)),
    "peers-compare": ((PEERS_FILE,), peers_compare),
    "cells-summary": ((CELLS_FILE,), _schedule("summary_line", CELLS_FILE)),
    "cells-optimum": ((CELLS_FILE,), _schedule("optimum_table", CELLS_FILE)),
    "cells-compare": ((CELLS_FILE,), cells_compare),
    "embedding-chains": (("embedding_chains.json",), embedding_chains),
    "embedding-structured": (STRUCTURED_FILES, _structured("structured_table", "\n\n")),  # two tables
    "embedding-structured-largest": (STRUCTURED_FILES, _structured("largest_short", "\n")),  # one list
    "embedding-short": (("embedding.json",), embedding_short),
    "still-fails": (("schedule.json", "schedule_bompol.json", "schedule_presolve.json", "schedule_tournament.json",
                     "schedule_tournament_plain.json", "embedding.json"),
                    still_fails),
}


def generated_tables(results_dir: str | Path | None = None) -> dict[str, str]:
    """NAME -> its text, for every block of :data:`GENERATED` whose results files exist."""
    folder = ROOT / "results" if results_dir is None else Path(results_dir)
    out = {}
    for name, (files, render) in GENERATED.items():
        present = {f: json.loads((folder / f).read_text()) for f in files if (folder / f).is_file()}
        if present and (len(present) == len(files) or name in ("still-fails", "embedding-structured",
                                                                "embedding-structured-largest")):
            out[name] = render(present) + "\n\n" + measured_by(folder / f for f in present)
    return out


def replace_blocks(text: str, tables: Mapping[str, str]) -> str:
    """``text`` with each generated block whose NAME is in ``tables`` rewritten; an unknown NAME is an error."""
    def sub(match: re.Match) -> str:
        name = match.group("name")
        if name not in GENERATED and name not in tables:
            raise ValueError(f"no generator for block {name!r}; known: {', '.join(GENERATED)}")
        if name not in tables:
            return match.group(0)
        return match.group(1) + tables[name] + "\n" + match.group(4)
    return _BLOCK.sub(sub, text)


def _pages(path: str | Path | None) -> list[Path]:
    return list(PAGES) if path is None else [Path(path)]


def stale_blocks(path: str | Path | None = None, results_dir: str | Path | None = None) -> list[str]:
    """Names of the blocks of the page (default: every page of :data:`PAGES`) that differ from what the results
    files give."""
    tables = generated_tables(results_dir)
    return [m.group("name") for page in _pages(path) for m in _BLOCK.finditer(page.read_text())
            if m.group("name") in tables and m.group("body") != tables[m.group("name")]]


def update_page(path: str | Path | None = None, results_dir: str | Path | None = None) -> list[str]:
    """Rewrite the generated blocks of the page (default: every page of :data:`PAGES`) in place; returns the names
    that changed."""
    changed = stale_blocks(path, results_dir)
    tables = generated_tables(results_dir)
    for page in _pages(path):
        page.write_text(replace_blocks(page.read_text(), tables))
    return changed


def main(argv: Sequence[str] | None = None) -> int:
    """``embedding``, ``structured`` or ``schedule``: run a study over this repository's ladder; ``page``: rewrite
    (or ``--check``) the frontier page's generated tables."""
    from benchmarks import crossbar, embedding, schedule

    parser = argparse.ArgumentParser(prog="python -m benchmarks.frontier", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    emb = sub.add_parser("embedding", help="embed the ladder's puzzles into the QPU graphs; write JSON")
    emb.add_argument("--json", default="results/embedding.json")
    emb.add_argument("--encodings", default=",".join(embedding.STUDY_ENCODINGS),
                     help="comma list (one_hot, domain_wall, thermometer; +presolve for line logic first)")
    emb.add_argument("--topologies", default=",".join(embedding.TOPOLOGIES))
    emb.add_argument("--timeout", type=float, default=30.0, help="minorminer's time limit per embedding (s)")
    emb.add_argument("--seed", type=int, default=1)
    emb.add_argument("--reads", type=int, default=0,
                     help="also anneal each embedded thermometer model, embedded and logical, with this many SA reads")
    st = sub.add_parser("structured", help="the crossbar embedding beside minorminer alone on Zephyr; write JSON")
    st.add_argument("--json", default="results/embedding_structured.json")
    st.add_argument("--encodings", default="thermometer", help="comma list: thermometer, thermometer+presolve")
    st.add_argument("--timeout", type=float, default=240.0, help="each method's time limit per embedding (s)")
    st.add_argument("--patience", type=int, default=crossbar.PATIENCE,
                    help="minorminer's chainlength_patience, both methods")
    st.add_argument("--seed", type=int, default=1)
    st.add_argument("--reads", type=int, default=0, help="anneal each crossbar embedding with its chains: SA reads")
    sch = sub.add_parser("schedule", help="TTS99 against sweep count on the ladder; write JSON")
    sch.add_argument("--json", default="results/schedule.json")
    sch.add_argument("--budget", type=float, default=15.0, help="sampling seconds per cell (default 15)")
    sch.add_argument("--plot", default=None, help="also draw TTS99 against size here")
    sch.add_argument("--arms", default=",".join(schedule.ARMS),
                     help="comma list of arms (benchmarks.schedule.parse_arm: SA's, or samplers' names; "
                          "ARM@ENCODING on another encoding)")
    page = sub.add_parser("page", help="rewrite the frontier page's generated tables")
    page.add_argument("page", nargs="?", default=None, help="one page (default: every page of PAGES)")
    page.add_argument("--results", default=None, help="the results folder (default results/)")
    page.add_argument("--check", action="store_true", help="exit 1 if a block differs from the results files")
    args = parser.parse_args(argv)
    log = lambda line: print(line, file=sys.stderr, flush=True)  # noqa: E731
    if args.command == "embedding":
        data = embedding.run_embedding_study(EMBEDDING_LADDER, args.encodings.split(","), args.topologies.split(","),
                                             timeout=args.timeout, seed=args.seed, reads=args.reads,
                                             path=args.json, log=log,
                                             meta=run_meta())
        print(embedding.largest_table(data))
        return 0
    if args.command == "structured":
        encodings = args.encodings.split(",")
        unknown = set(encodings) - {"thermometer", "thermometer+presolve"}
        if unknown:
            parser.error(f"the crossbar embeds the thermometer model only, not {', '.join(sorted(unknown))}")
        data = crossbar.run_structured_study(STRUCTURED_LADDER, encodings, timeout=args.timeout,
                                             patience=args.patience, seed=args.seed, reads=args.reads,
                                             path=args.json, log=log, meta=run_meta())
        print(crossbar.structured_table(data))
        return 0
    if args.command == "schedule":
        arms = tuple(args.arms.split(","))
        for arm in arms:
            try:
                schedule.parse_arm(arm)  # an unknown arm: one line, before anything runs
            except ValueError as exc:
                parser.error(str(exc))
        data = schedule.run_schedule(SCHEDULE_LADDER, arms=arms, budget_s=args.budget, path=args.json, log=log,
                                     meta=run_meta())
        if args.plot:
            schedule.plot_schedule(data, args.plot)
        print(schedule.optimum_table(data))
        return 0
    if args.check:
        stale = stale_blocks(args.page, args.results)
        for name in stale:
            print(f"stale: {name}")
        return 1 if stale else 0
    changed = update_page(args.page, args.results)
    print("rewrote: " + (", ".join(changed) or "nothing (already current)"))
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
