r"""A structured embedding of the thermometer model on Zephyr: each line's bits laid along the graph, as a crossbar.

minorminer's heuristic (:func:`benchmarks.embedding.embed_bqm`) sees the thermometer model as an anonymous graph and
needs long chains from 15×15 puzzles up on Zephyr Z12 (``docs/results/formulation-frontier.md``). The model is not
anonymous: every bit belongs to a line and enters the paint of a few cells along it
(:meth:`~qpicross.model.thermometer.ThermometerModel.bit_spans`), and it couples only to bits of the same cells. This
module lays that geometry onto the graph:

1. **The board over the grid.** Zephyr :math:`Z_{m,t}` is a grid of :math:`2m+1` by :math:`2m+1` positions; at each
   pass :math:`2t` vertical and :math:`2t` horizontal qubits, each qubit spanning two neighbouring positions, and a
   vertical and a horizontal qubit that cross are coupled. Row :math:`i` of the puzzle gets a band of grid rows,
   column :math:`j` a band of grid columns (:func:`bands`).
2. **Crossbar.** Each row bit becomes a run of horizontal qubits along one track of its row's band, from its first
   cell to its last; each column bit a run of vertical qubits in its column's band. A row bit and a column bit
   that share a cell then cross there: every coupling between a row and a column is met. A band's runs are
   packed onto its tracks left to right, each into the track that leaves the smallest gap (interval colouring;
   :func:`crossbar_chains`).
3. **Stubs.** Couplings between bits of one line (the wall, the order and the bits of one cell) run parallel; each
   gets a qubit coupled to both runs, the least used one, or else the shortest path to it (:func:`join_chains`).
   Every coupling is now met by a coupler, but a few qubits may be in two chains.
4. **Refinement.** minorminer starts from these chains (``skip_initialization``: a semi-valid embedding) and
   removes the overlaps while shortening chains (``chainlength_patience``).

:func:`structured_embedding` does all four and checks the result with :func:`dwave.embedding.is_valid_embedding`.
A chain's run is as long as its bit's cells: a bit of a block of length :math:`h` spans :math:`h+1` cells, so
long blocks give long chains whatever the search does; line logic, which settles long blocks first, shortens
them. Pegasus's qubits are offset in a way this crossbar does not follow: it is built for Zephyr only.

``python -m benchmarks.crossbar PUZZLE [--presolve]`` embeds one puzzle (``python -m benchmarks.embedding puzzle``
does the same with minorminer alone);
``make embedding-structured`` climbs the frontier's ladder beside minorminer alone with the same time and patience,
and samples what embeds with its chains (``results/embedding_structured.json``).

Examples:
    >>> from qpicross import Puzzle
    >>> p = Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]], name="A")
    >>> r = structured_embedding(p, timeout=10, seed=1)
    >>> r.embedded, r.num_variables, r.max_chain <= 3
    (True, 30, True)
"""

from __future__ import annotations

import collections
import json
import math
import time
from collections.abc import Sequence
from pathlib import Path

from qpicross.puzzle import Puzzle

__all__ = ["ZEPHYR_SHAPE", "PATIENCE", "SHORT_CHAIN", "thermometer_model", "bands", "crossbar_chains", "join_chains",
           "structured_embedding", "run_structured_study", "structured_table", "largest_short"]

#: Zephyr's ``(m, t)`` as :data:`benchmarks.embedding.TOPOLOGIES` has it: Z12 with tile 4 (Advantage2).
ZEPHYR_SHAPE = (12, 4)
#: minorminer's ``chainlength_patience`` in the refinement (its default is 10).
PATIENCE = 1000


def thermometer_model(puzzle: Puzzle, presolve: bool = False):
    """The thermometer model ``qpicross anneal --encoding thermometer [--presolve]`` anneals for ``puzzle`` (its
    :class:`~qpicross.model.thermometer.ThermometerModel`, whose ``bqm`` is
    :func:`benchmarks.embedding.encoded_bqm`'s)."""
    from benchmarks.embedding import encoded_model

    return encoded_model(puzzle, "thermometer", presolve=presolve)[2]


def bands(cells: int, positions: int) -> list[list[int]]:
    """The grid positions of each of ``cells`` cells laid evenly over ``positions`` (each gets at least one).

    >>> bands(3, 7)
    [[0, 1], [2, 3], [4, 5, 6]]
    """
    return [list(range(i * positions // cells, max((i + 1) * positions // cells, i * positions // cells + 1)))
            for i in range(cells)]


def _run(lo: int, hi: int, j: int, m: int) -> tuple[int, int]:
    """The qubits ``z0..z1`` of a track with offset ``j`` that cover grid positions ``lo..hi`` (qubit ``z`` covers
    ``2z + j`` and ``2z + j + 1``), clipped to the track's ``m`` qubits."""
    return max(0, math.ceil((lo - j - 1) / 2)), min(m - 1, max(0, (hi - j) // 2))


def crossbar_chains(spans: dict, shape: tuple[int, int], m: int = ZEPHYR_SHAPE[0],
                    t: int = ZEPHYR_SHAPE[1]) -> dict:
    """Step 2: each bit's run, as Zephyr coordinates ``(u, w, k, j, z)`` (``u`` 1 horizontal, 0 vertical).

    Args:
        spans: label -> ``(axis, line, first, last)`` (:meth:`~qpicross.model.thermometer.ThermometerModel.bit_spans`).
        shape: The puzzle's ``(rows, columns)``.
        m, t: The Zephyr graph's size and tile.
    """
    grid = 2 * m + 1
    row_band, col_band = bands(shape[0], grid), bands(shape[1], grid)
    chains = {}
    by_line = collections.defaultdict(list)
    for label, (axis, line, first, last) in spans.items():
        by_line[axis, line].append(label)
    for (axis, line), labels in sorted(by_line.items()):
        across, along = (row_band, col_band) if axis == "row" else (col_band, row_band)
        orientation = 1 if axis == "row" else 0
        tracks = [(w, k, j) for w in across[line] for k in range(t) for j in range(2)]
        end = dict.fromkeys(tracks, -1)  # the last qubit used on each track
        for label in sorted(labels, key=lambda v: (spans[v][2], -spans[v][3])):
            _, _, first, last = spans[label]
            lo, hi = along[first][0], along[last][-1]
            fits = [(z0 - end[tr], tr, z0, z1) for tr in tracks for z0, z1 in [_run(lo, hi, tr[2], m)]
                    if end[tr] < z0]
            if fits:
                _, (w, k, j), z0, z1 = min(fits)
            else:  # the band is full here: the track free soonest, shared (the refinement separates them)
                w, k, j = min(tracks, key=lambda tr: end[tr])
                z0, z1 = _run(lo, hi, j, m)
            end[w, k, j] = max(end[w, k, j], z1)
            chains[label] = [(orientation, w, k, j, z) for z in range(z0, z1 + 1)]
    return chains


def join_chains(source, target, chains: dict) -> dict:
    """Step 3: extend chains until every edge of ``source`` meets a coupler of ``target`` between its two chains.

    For an edge whose chains do not touch: a qubit coupled to both, the least used (free ones first), joins the
    shorter chain; where none is, the shortest path through the least used qubits joins the first chain. Returns
    ``chains`` (changed in place); a qubit may end up in more than one chain.
    """
    use = collections.Counter(q for chain in chains.values() for q in chain)

    def neighbours(label):
        return {q for p in chains[label] for q in target[p]}

    for a, b in source.edges:
        near_a, near_b = neighbours(a), neighbours(b)
        if near_a & set(chains[b]) or set(chains[a]) & set(chains[b]):
            continue
        common = (near_a & near_b) - set(chains[a]) - set(chains[b])
        if common:
            q = min(common, key=lambda q: (use[q], q))
            grow = a if len(chains[a]) <= len(chains[b]) else b
            chains[grow] = chains[grow] + [q]
            use[q] += 1
            continue
        start = set(chains[a])
        came_from = dict.fromkeys(start)
        frontier, found = sorted(start), None
        while frontier and found is None:
            nxt = []
            for q in frontier:
                for r in sorted(target[q], key=lambda r: (use[r], r)):
                    if r not in came_from:
                        came_from[r] = q
                        if r in near_b:
                            found = r
                            break
                        nxt.append(r)
                if found is not None:
                    break
            frontier = nxt
        path = []
        while found is not None and found not in start:
            path.append(found)
            found = came_from[found]
        chains[a] = chains[a] + path
        use.update(path)
    return chains


def structured_embedding(puzzle: Puzzle, *, presolve: bool = False, timeout: float = 300.0, seed: int | None = 1,
                         patience: int = PATIENCE, tries: int = 10):
    """Embed ``puzzle``'s thermometer model (``--presolve``: after line logic) into Zephyr Z12 by the crossbar and
    minorminer's refinement (the module's steps 1-4).

    Returns an :class:`~benchmarks.embedding.EmbeddingResult` (``topology`` ``"zephyr"``) whose ``start`` says what
    the crossbar gave before the refinement: its longest chain and the qubits it put in more than one chain.
    """
    import minorminer
    import networkx as nx
    from dwave.embedding import is_valid_embedding

    from benchmarks.embedding import EmbeddingResult, _graphs, target_graph

    model = thermometer_model(puzzle, presolve)
    bqm = model.bqm
    graphs = _graphs()
    m, t = ZEPHYR_SHAPE
    coordinates = graphs.zephyr_graph(m, t, coordinates=True)
    to_linear = graphs.zephyr_coordinates(m, t).zephyr_to_linear
    target = target_graph("zephyr")
    base = dict(topology="zephyr", num_variables=bqm.num_variables, num_interactions=bqm.num_interactions,
                timeout=timeout, seed=seed)
    source = nx.Graph()
    source.add_nodes_from(bqm.variables)
    source.add_edges_from(bqm.quadratic)
    t0 = time.perf_counter()
    chains = join_chains(source, coordinates, crossbar_chains(model.bit_spans(), puzzle.shape, m, t))
    start = {v: [to_linear(q) for q in chain] for v, chain in chains.items()}
    counts = collections.Counter(q for chain in start.values() for q in chain)
    base["start"] = {"max_chain": max(map(len, start.values()), default=0), "qubits": len(counts),
                     "shared_qubits": sum(1 for c in counts.values() if c > 1)}
    found = minorminer.find_embedding(source, target, initial_chains=start, skip_initialization=True,
                                      chainlength_patience=patience, timeout=timeout, tries=tries,
                                      random_seed=seed) if bqm.num_interactions else start
    elapsed = time.perf_counter() - t0
    if bqm.num_interactions and (not found or not is_valid_embedding(found, source, target)):
        return EmbeddingResult(embedded=False, embed_s=elapsed, **base)
    lengths = [len(c) for c in found.values()]
    qubits = sum(lengths)
    return EmbeddingResult(embedded=True, num_qubits=qubits, max_chain=max(lengths, default=0),
                           mean_chain=qubits / len(lengths) if lengths else 0.0,
                           qubit_fraction=qubits / target.number_of_nodes(), embed_s=elapsed,
                           embedding={v: list(c) for v, c in found.items()}, **base)


# -- the study: ``make embedding-structured`` ---------------------------------------------------------------------

#: The longest chain the issue asks for (chains of a few qubits keep a QPU's chain breaks rare).
SHORT_CHAIN = 7


def run_structured_study(ladder: dict, encodings: Sequence[str] = ("thermometer", "thermometer+presolve"), *,
                         timeout: float = 300.0, patience: int = PATIENCE, seed: int = 1, reads: int = 0,
                         path=None, log=None, meta: dict | None = None) -> dict:
    """Per collection of ``ladder`` (smallest first) and encoding, the crossbar embedding into Zephyr Z12 beside
    minorminer alone with the same time limit, tries, seed and ``patience``; write JSON to ``path``.

    A collection's climb stops after its first puzzle the crossbar does not embed. With ``reads``, each crossbar
    embedding is annealed with its chains (:func:`benchmarks.embedding.sample_embedded`: SA on the ideal graph,
    beside the logical model). Records: ``puzzle``, ``collection``, ``rows``, ``cols``, ``encoding``, ``method``
    (``crossbar`` or ``minorminer``) and the :class:`~benchmarks.embedding.EmbeddingResult` fields.
    """
    from benchmarks.embedding import embed_bqm, encoded_bqm, sample_embedded
    from benchmarks.provenance import run_meta, write_results
    from qpicross.experiments.result import load_average

    meta = run_meta() if meta is None else meta
    started = time.perf_counter()
    records = []
    for collection, rungs in ladder.items():
        present = [(rung, rung.load()) for rung in rungs if rung.available() is None]
        present.sort(key=lambda item: item[1].num_rows * item[1].num_cols)
        for encoding in encodings:
            presolve = encoding.endswith("+presolve")
            for rung, puzzle in present:
                base = {"puzzle": rung.label, "collection": collection, "rows": puzzle.num_rows,
                        "cols": puzzle.num_cols, "encoding": encoding}
                crossbar = structured_embedding(puzzle, presolve=presolve, timeout=timeout, seed=seed,
                                                patience=patience)
                alone = embed_bqm(encoded_bqm(puzzle, "thermometer", presolve=presolve), "zephyr", timeout=timeout,
                                  seed=seed, patience=patience)
                for method, r in (("crossbar", crossbar), ("minorminer", alone)):
                    rec = {**base, "method": method, **r.to_dict()}
                    if method == "crossbar" and reads and r.embedded and r.num_variables:
                        rec["sampled"] = sample_embedded(puzzle, r.embedding, "thermometer", "zephyr",
                                                         presolve=presolve, num_reads=reads, seed=seed)
                    records.append(rec)
                    if log is not None:
                        log(f"{encoding:22s} {rung.label:12s} {method:10s} embedded {r.embedded} vars "
                            f"{r.num_variables} qubits {r.num_qubits} max chain {r.max_chain} {r.embed_s:.0f}s"
                            + ("" if "sampled" not in rec else " solved {}/{} logical, {}/{} embedded".format(
                                *(rec["sampled"][k][f] for k in ("logical", "embedded")
                                  for f in ("num_solved", "num_reads")))))
                if not crossbar.embedded:
                    break
    from benchmarks.embedding import _graphs_version, _version

    out = {"meta": {**meta, "timeout_s": timeout, "patience": patience, "seed": seed, "tries": 10,
                    "sample_reads": reads, "encodings": list(encodings), "minorminer": _version("minorminer"),
                    "graphs": _graphs_version(), "topology": "zephyr_graph(12), t=4",
                    "elapsed_s": time.perf_counter() - started, "load_average_after": load_average()},
           "records": records}
    if path is not None:
        out = write_results(path, out)
    return out


def structured_table(results) -> str:
    """Per puzzle and encoding: the crossbar's chains (before and after the refinement) beside minorminer alone's,
    and the embedded model's success probability with its chains where it was sampled."""
    from benchmarks.tables import load_results

    data = load_results(results)
    pairs: dict[tuple, dict] = {}
    for r in data["records"]:
        pairs.setdefault((r["puzzle"], r["encoding"]), {"rows": r["rows"], "cols": r["cols"]})[r["method"]] = r

    def chains(r):
        if r is None:
            return "–"
        if not r["embedded"]:
            return f"✕ ({r['embed_s']:.0f} s)"
        if r["num_variables"] == 0:
            return "nothing to embed"
        return f"{r['max_chain']} / {r['mean_chain']:.1f}, {r['num_qubits']:,} qubits, {r['embed_s']:.0f} s"

    def sampled(r):
        got = (r or {}).get("sampled")
        if not got:
            return "–"
        return " vs ".join(f"{got[k]['num_solved']}/{got[k]['num_reads']} [{got[k]['p_low']:.2f}, "
                           f"{got[k]['p_high']:.2f}]" for k in ("embedded", "logical")) + \
            f" (chains broken {got['embedded']['chain_break_fraction']:.1%})"

    lines = ["| puzzle | size | encoding | variables | crossbar start: longest chain, shared qubits | "
             "crossbar: longest / mean chain, qubits, time | minorminer alone: the same | "
             "solved with chains vs logical [95 % CI] |", "|" + "---|" * 8]
    for (puzzle, encoding), by in pairs.items():
        cross = by.get("crossbar")
        start = cross.get("start") if cross else None
        lines.append(f"| {puzzle} | {by['rows']}×{by['cols']} | {encoding} | {cross['num_variables']:,} | "
                     + (f"{start['max_chain']}, {start['shared_qubits']:,}" if start and cross['num_variables']
                        else "–")
                     + f" | {chains(cross)} | {chains(by.get('minorminer'))} | {sampled(cross)} |")
    return "\n".join(lines)


def largest_short(results, longest: int = SHORT_CHAIN) -> str:
    """Per collection, encoding, graph and method, the largest puzzle (by cells, then variables) embedded with no
    chain over ``longest`` qubits, as a list. Reads this study's results and
    :func:`~benchmarks.embedding.run_embedding_study`'s (minorminer alone, its sizes from the file's ``puzzles``)."""
    from benchmarks.tables import load_results

    data = load_results(results)
    sizes = {p["label"]: (p.get("rows"), p.get("cols")) for p in data.get("puzzles", [])}
    best: dict[tuple, dict | None] = {}
    empty: dict[tuple, bool] = {}  # every puzzle tried had no variable left (line logic settled it)
    for r in data["records"]:
        key = (r["collection"], r["encoding"], r.get("topology", "zephyr"), r.get("method", "minorminer"))
        best.setdefault(key, None)
        empty[key] = empty.get(key, True) and r.get("status") != "not tried" and r["num_variables"] == 0
        rows, cols = (r["rows"], r["cols"]) if "rows" in r else sizes[r["puzzle"]]
        if r.get("embedded") and r["num_variables"] and r["max_chain"] <= longest and (
                best[key] is None or (rows * cols, r["num_variables"]) > best[key]["rank"]):
            best[key] = {**r, "rank": (rows * cols, r["num_variables"]), "size": f"{rows}×{cols}"}
    def found(key, r):
        if r is not None:
            return f"{r['puzzle']} ({r['size']}, {r['num_variables']:,} variables, longest chain {r['max_chain']})"
        return "nothing to embed: line logic settles every puzzle" if empty[key] else f"none with chains ≤ {longest}"
    return "\n".join(f"- {', '.join(key)}: {found(key, r)}" for key, r in best.items())


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m benchmarks.crossbar PUZZLE``: the structured embedding of one puzzle file, as JSON; 1 if it
    does not embed, 2 for a file that is missing or not a puzzle (one line)."""
    import argparse
    import sys

    from qpicross import load_puzzle
    from qpicross.exceptions import QpicrossError

    parser = argparse.ArgumentParser(prog="python -m benchmarks.crossbar", description=__doc__.split("\n")[0])
    parser.add_argument("puzzle", help="a puzzle file (FILE#N for a multi-puzzle file)")
    parser.add_argument("--presolve", action="store_true", help="line logic first")
    parser.add_argument("--timeout", type=float, default=30.0, help="minorminer's refinement, seconds")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--patience", type=int, default=10, help="minorminer's chainlength_patience")
    args = parser.parse_args(argv)
    try:
        puzzle = load_puzzle(args.puzzle)
    except QpicrossError as exc:  # a file that is not there or not a puzzle: one line, exit 2
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return 2
    r = structured_embedding(puzzle, presolve=args.presolve, timeout=args.timeout, seed=args.seed,
                             patience=args.patience)
    print(json.dumps(r.to_dict(), indent=1))
    return 0 if r.embedded else 1


if __name__ == "__main__":  # pragma: no cover
    import sys

    sys.exit(main())
