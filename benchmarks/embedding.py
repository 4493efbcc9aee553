r"""What fits on a D-Wave QPU: minor-embed a puzzle's BQM into the Advantage and Advantage2 graphs.

A QPU anneals a fixed graph of qubits; a BQM whose interaction graph is not a subgraph of it is
*minor-embedded*: each logical variable becomes a connected chain of physical qubits, and every
interaction must meet a physical coupler between the two chains. This module runs minorminer's
heuristic (:func:`minorminer.find_embedding`) on the BQM each encoding gives a puzzle -- exactly the
model ``qpicross anneal --encoding E`` hands its sampler -- and reports logical variables and
interactions, physical qubits, the longest and mean chain, and the time the search took, for the
ideal (fully yielded) graphs of

* ``pegasus``: D-Wave Advantage, :func:`pegasus_graph(16) <dwave.graphs.pegasus_graph>` (5 640
  qubits, 40 484 couplers; the QPU's own working graph lacks a few of them);
* ``zephyr``: D-Wave Advantage2, :func:`zephyr_graph(12) <dwave.graphs.zephyr_graph>` (tile
  ``t = 4``: 4 800 qubits, 45 864 couplers) -- the size of the full Advantage2 processor (the
  Advantage2 prototypes were Zephyr Z4 and Z6).

Nothing here samples on a QPU. What is measured is whether the model *fits*, at what cost in qubits and
chain lengths, and -- with ``reads`` -- what the chains cost a sampler: :func:`sample_embedded` anneals the
embedded model, chains and all, with dwave-samplers SA on the ideal graph
(:class:`~dwave.system.composites.FixedEmbeddingComposite` over a
:class:`dimod.StructureComposite`, dwave-system's default chain strength and majority-vote
unembedding), and the same SA on the logical model beside it, so the success probability after embedding,
chain breaks included, is measured, not assumed. A simulated graph is not a QPU: it says what the chains do to
an annealer that samples the graph, not what a QPU's noise and control errors add. minorminer is a heuristic
with a time limit: "not embedded" means no embedding was found within that limit, not that none
exists. A found embedding is checked with dwave-system's :func:`dwave.embedding.is_valid_embedding`.

A user's own puzzle (needs the ``cloud`` extra: dwave-system brings minorminer and the graphs)::

    >>> from qpicross import Puzzle
    >>> p = Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]], name="A")
    >>> r = embed_puzzle(p, "thermometer", "zephyr", timeout=10, seed=1)
    >>> r.embedded, r.num_variables, r.num_qubits >= r.num_variables, r.max_chain >= 1
    (True, 30, True, True)

``make embedding`` runs :func:`run_embedding_study` over the repository's ladder of puzzle collections
(``benchmarks/frontier.py``) and writes ``results/embedding.json``; :func:`embedding_table` and :func:`largest_table` are its markdown tables.
"""

from __future__ import annotations

import argparse
import dataclasses
import functools
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import dimod

from qpicross.exceptions import ParameterError
from benchmarks.tables import load_results
from qpicross.model.formulation import PenaltyWeights
from qpicross.names import ENCODINGS
from qpicross.puzzle import Puzzle

__all__ = ["TOPOLOGIES", "ENCODINGS", "EmbeddingResult", "target_graph", "encoded_bqm", "encoded_model", "embed_bqm",
           "embed_puzzle", "sample_embedded", "run_embedding_study", "embedding_table", "largest_table", "sampling_table",
           "chains_table", "main"]

#: topology name -> (the QPU it stands for, the generator's name, its size argument)
TOPOLOGIES: dict[str, tuple[str, str, int]] = {
    "pegasus": ("Advantage (Pegasus P16)", "pegasus_graph", 16),
    "zephyr": ("Advantage2 (Zephyr Z12, t=4)", "zephyr_graph", 12),
}
#: What ``make embedding`` embeds: the encodings (:data:`qpicross.names.ENCODINGS`) and the thermometer after
#: line logic (``+presolve``: line logic first, as ``--presolve``).
STUDY_ENCODINGS = ENCODINGS + ("thermometer+presolve",)
#: The encodings whose embedded models ``make embedding`` also samples (:func:`sample_embedded`).
SAMPLED_ENCODINGS = ("thermometer", "thermometer+presolve")
#: Sweeps of each SA read of :func:`sample_embedded` (logical and embedded alike).
SAMPLE_SWEEPS = 10_000
#: Reads of each arm of :func:`sample_embedded`.
SAMPLE_READS = 20


@functools.lru_cache(maxsize=None)
def target_graph(topology: str):
    """The ideal QPU graph (networkx) of ``topology`` (see :data:`TOPOLOGIES`)."""
    if topology not in TOPOLOGIES:
        raise ParameterError(f"unknown topology {topology!r}; use one of {', '.join(TOPOLOGIES)}")
    _, name, size = TOPOLOGIES[topology]
    return getattr(_graphs(), name)(size)


def _graphs():
    """D-Wave's graph generators: dwave-graphs, dwave-networkx's new name (dwave-system >= 1.30), else the old one."""
    try:
        import dwave.graphs as graphs
    except ImportError:  # pragma: no cover - older installs
        import dwave_networkx as graphs
    return graphs


def encoded_bqm(puzzle: Puzzle, encoding: str = "thermometer", *, weights: PenaltyWeights | None = None,
                presolve: bool = False, bounds: str = "stacking") -> dimod.BinaryQuadraticModel:
    """The BQM ``qpicross anneal --encoding ENCODING [--presolve]`` hands its sampler for ``puzzle``.

    With ``presolve`` the one-hot model has line logic's settled variables substituted (as
    :class:`~qpicross.classical.presolve.PresolveComposite` does); the thermometer model is built
    from the formulation pruned by the settled cells
    (:func:`~qpicross.classical.presolve.presolve_formulation`).
    """
    formulation, sampled, _ = encoded_model(puzzle, encoding, weights=weights, presolve=presolve, bounds=bounds)
    if presolve and encoding.replace("-", "_") == "one_hot":
        from qpicross.classical.presolve import fix_variables, presolve as line_logic

        sampled = fix_variables(sampled, line_logic(formulation).fixed)
    return sampled


def encoded_model(puzzle: Puzzle, encoding: str = "thermometer", *, weights: PenaltyWeights | None = None,
                  presolve: bool = False, bounds: str = "stacking") -> tuple:
    """``(formulation, sampled BQM, the encoding's model)`` as ``qpicross anneal --encoding ENCODING [--presolve]``
    builds them (:func:`qpicross.pipeline.models.encode`; the model is None for one-hot, whose presolve fixes
    variables at sampling time: :func:`encoded_bqm` does)."""
    from qpicross.model.formulation import build_formulation
    from qpicross.pipeline.config import SolverConfig
    from qpicross.pipeline.models import encode, presolved_formulation

    config = SolverConfig(sampler="sa", encoding=encoding.replace("-", "_"), presolve=presolve,
                          weights=weights or PenaltyWeights(), bounds=bounds).validate()
    formulation, _ = presolved_formulation(build_formulation(puzzle, bounds=bounds), config)
    _, sampled, model = encode(formulation, config)
    return formulation, sampled, model


@dataclasses.dataclass
class EmbeddingResult:
    """One embedding attempt.

    Attributes:
        topology: ``pegasus`` or ``zephyr``.
        num_variables, num_interactions: The logical BQM.
        embedded: Whether minorminer found an embedding (verified) within ``timeout``.
        num_qubits: Physical qubits of the embedding (sum of chain lengths), 0 when not embedded.
        max_chain, mean_chain: Chain lengths, 0 when not embedded.
        qubit_fraction: ``num_qubits`` over the graph's qubits.
        embed_s: Wall seconds minorminer took (it checks its ``timeout`` between rounds, so may overrun it).
        timeout: minorminer's time limit (s).
        seed: minorminer's ``random_seed``.
        reason: Why nothing was tried, or None.
        start: A structured embedding's chains before minorminer refined them (:mod:`benchmarks.crossbar`).
    """

    topology: str
    num_variables: int
    num_interactions: int
    embedded: bool
    num_qubits: int = 0
    max_chain: int = 0
    mean_chain: float = 0.0
    qubit_fraction: float = 0.0
    embed_s: float = 0.0
    timeout: float = 0.0
    seed: int | None = None
    reason: str | None = None
    start: dict | None = None
    embedding: dict | None = dataclasses.field(default=None, repr=False)

    def to_dict(self) -> dict:
        out = dataclasses.asdict(self)
        out.pop("embedding")
        return out


def embed_bqm(bqm: dimod.BinaryQuadraticModel, topology: str = "pegasus", *, timeout: float = 30.0,
              seed: int | None = 1, tries: int = 10, patience: int = 10) -> EmbeddingResult:
    """Minor-embed ``bqm``'s interaction graph into ``topology`` with :func:`minorminer.find_embedding`
    (``patience``: its ``chainlength_patience``, rounds without a shorter chain before it stops; 10 is its default).

    Variables with no interaction take one qubit each (any free qubit holds them). A model with
    more variables than the graph has qubits, or more interactions than it has couplers, cannot
    embed: it is refused without a search.
    """
    import minorminer
    import networkx as nx
    from dwave.embedding import is_valid_embedding

    target = target_graph(topology)
    n, m = bqm.num_variables, bqm.num_interactions
    base = dict(topology=topology, num_variables=n, num_interactions=m, timeout=timeout, seed=seed)
    if n > target.number_of_nodes() or m > target.number_of_edges():
        return EmbeddingResult(embedded=False, reason="more variables or interactions than the graph has qubits "
                               "or couplers", **base)
    source = nx.Graph()
    source.add_edges_from(bqm.quadratic)
    isolated = n - source.number_of_nodes()
    t0 = time.perf_counter()
    found = minorminer.find_embedding(source, target, timeout=timeout, tries=tries, random_seed=seed,
                                      chainlength_patience=patience) if m else {}
    elapsed = time.perf_counter() - t0
    if m and (not found or not is_valid_embedding(found, source, target)):
        return EmbeddingResult(embedded=False, embed_s=elapsed, **base)
    chains = [len(chain) for chain in found.values()] + [1] * isolated
    qubits = sum(chains)
    if qubits > target.number_of_nodes():
        return EmbeddingResult(embedded=False, embed_s=elapsed, reason="no free qubits left for the isolated "
                               "variables", **base)
    embedding = {v: list(c) for v, c in found.items()}
    free = iter(sorted(set(target.nodes) - {q for c in embedding.values() for q in c}))
    embedding.update({v: [next(free)] for v in bqm.variables if v not in embedding})  # one free qubit each
    return EmbeddingResult(embedded=True, num_qubits=qubits, max_chain=max(chains, default=0),
                           mean_chain=qubits / len(chains) if chains else 0.0,
                           qubit_fraction=qubits / target.number_of_nodes(), embed_s=elapsed,
                           embedding=embedding, **base)


def embed_puzzle(puzzle: Puzzle, encoding: str = "thermometer", topology: str = "pegasus", *,
                 presolve: bool = False, weights: PenaltyWeights | None = None, timeout: float = 30.0,
                 seed: int | None = 1, tries: int = 10, patience: int = 10) -> EmbeddingResult:
    """Embed the BQM of ``puzzle`` in ``encoding`` (:func:`encoded_bqm`) into ``topology`` (:func:`embed_bqm`)."""
    return embed_bqm(encoded_bqm(puzzle, encoding, weights=weights, presolve=presolve), topology,
                     timeout=timeout, seed=seed, tries=tries, patience=patience)


def sample_embedded(puzzle: Puzzle, embedding: dict, encoding: str = "thermometer", topology: str = "pegasus", *,
                    presolve: bool = False, num_reads: int = SAMPLE_READS, num_sweeps: int = SAMPLE_SWEEPS,
                    seed: int = 1) -> dict:
    """Anneal ``puzzle``'s model (:func:`encoded_bqm`) embedded by ``embedding`` into the ideal ``topology`` graph,
    chains and all, and the logical model beside it, with the same SA reads; judge every read as ``qpicross
    anneal`` does.

    Returns ``{"logical": {...}, "embedded": {...}}``, each with ``num_reads``, ``num_solved``, ``p`` and its
    Wilson 95 % interval ``p_low``/``p_high`` and the lowest energy; the embedded one also with ``chain_strength`` and the
    mean ``chain_break_fraction`` (the share of chains whose qubits disagree, read by read); the chain strength is
    None where every chain is one qubit.

    Raises:
        ParameterError: When ``embedding`` lacks a chain for a variable of the model.
    """
    from dwave.samplers import SimulatedAnnealingSampler
    from dimod import StructureComposite, TrackingComposite
    from dwave.system import FixedEmbeddingComposite

    from qpicross.pipeline.run import anneal
    from qpicross.experiments.tts import wilson_interval

    missing = set(encoded_bqm(puzzle, encoding, presolve=presolve).variables) - set(embedding)
    if missing:
        raise ParameterError(f"the embedding has no chain for {len(missing)} of the model's variables, e.g. "
                             f"{next(iter(missing))!r}")
    target = target_graph(topology)
    graph_sa = StructureComposite(SimulatedAnnealingSampler(), list(target.nodes), list(target.edges))
    out = {}
    for kind, sampler in (("logical", SimulatedAnnealingSampler()),
                          ("embedded", TrackingComposite(FixedEmbeddingComposite(graph_sa, embedding)))):
        options = {"return_embedding": True} if kind == "embedded" else {}
        r = anneal(puzzle, sampler=sampler, encoding=encoding.replace("-", "_"), presolve=presolve,
                   num_reads=num_reads, num_sweeps=num_sweeps, seed=seed, **options)
        solved = r.evaluation.num_solved
        low, high = wilson_interval(solved, num_reads)
        out[kind] = dict(num_reads=num_reads, num_solved=solved, p=solved / num_reads, p_low=low, p_high=high,
                         best_energy=r.energy)
        if kind == "embedded":  # the embedded sampler's own sampleset, before the pipeline maps it to one-hot
            raw = sampler.output
            out[kind].update(chain_strength=raw.info["embedding_context"]["chain_strength"],
                             chain_break_fraction=float(raw.record.chain_break_fraction.mean()))
    return out


# -- the study ------------------------------------------------------------------------------

def _variants(encodings: Sequence[str]) -> list[tuple[str, bool]]:
    out = []
    for e in encodings:
        name, _, extra = e.partition("+")
        out.append((name.replace("-", "_"), extra == "presolve"))
    return out


def run_embedding_study(ladder: dict[str, Sequence], encodings: Sequence[str] = ENCODINGS,
                        topologies: Sequence[str] = tuple(TOPOLOGIES), *, timeout: float = 30.0, seed: int = 1,
                        reads: int = 0, sampled: Sequence[str] = SAMPLED_ENCODINGS,
                        path: str | os.PathLike | None = None, log=None, meta: dict | None = None) -> dict:
    """Embed every collection's puzzles, smallest first, for each encoding and topology; write JSON to ``path``.

    Each (collection, encoding, topology) climbs its puzzles in order of cells and stops at the
    first one that does not embed: the larger ones are recorded ``not tried``. With ``reads``, every
    embedded model of an encoding in ``sampled`` is also annealed, embedded and logical
    (:func:`sample_embedded`, ``reads`` reads each): the record's ``sampled``.
    """
    from benchmarks.provenance import run_meta, write_results
    from qpicross.experiments.result import load_average

    # ``ladder``: collection -> rungs (:class:`~benchmarks.ladder.Rung`), each climbed in order of cells.
    # ``meta``: what the results file records of the run, taken at its start (default: benchmarks.provenance.run_meta()).
    meta = run_meta() if meta is None else meta
    start = time.perf_counter()
    puzzles: dict[str, dict] = {}
    loaded: dict[str, Puzzle] = {}
    for collection, rungs in ladder.items():
        for rung in rungs:
            why = rung.available()
            entry = {"collection": collection, "label": rung.label, "spec": rung.spec,
                     "generated": list(rung.generated) if rung.generated else None, "seed": rung.seed}
            if why is not None:
                entry["absent"] = why
            else:
                p = loaded[rung.label] = rung.load()
                entry.update(rows=p.num_rows, cols=p.num_cols)
            puzzles[rung.label] = entry
    records = []
    for encoding, presolve in _variants(encodings):
        label = encoding + ("+presolve" if presolve else "")
        for topology in topologies:
            for collection, rungs in ladder.items():
                present = sorted((r for r in rungs if r.label in loaded),
                                 key=lambda r: loaded[r.label].num_rows * loaded[r.label].num_cols)
                failed = None
                for rung in present:
                    rec = {"puzzle": rung.label, "collection": collection, "encoding": label, "topology": topology}
                    if failed is not None:
                        records.append({**rec, "status": "not tried",
                                        "reason": f"{failed} (smaller) did not embed"})
                        continue
                    bqm = encoded_bqm(loaded[rung.label], encoding, presolve=presolve)
                    r = embed_bqm(bqm, topology, timeout=timeout, seed=seed)
                    rec.update(status="embedded" if r.embedded else "not embedded", **r.to_dict())
                    if reads and r.embedded and r.num_variables and label in sampled:
                        rec["sampled"] = sample_embedded(loaded[rung.label], r.embedding, encoding, topology,
                                                         presolve=presolve, num_reads=reads, seed=seed)
                    records.append(rec)
                    if not r.embedded:
                        failed = rung.label
                    if log is not None:
                        log(f"{label:22s} {topology:8s} {rung.label:12s} {rec['status']:13s} vars {r.num_variables} "
                            f"int {r.num_interactions} qubits {r.num_qubits} max chain {r.max_chain} "
                            f"{r.embed_s:.1f}s" + ("" if "sampled" not in rec else " solved {}/{} logical, {}/{} "
                            "embedded".format(*(rec["sampled"][k][f] for k in ("logical", "embedded")
                                                for f in ("num_solved", "num_reads")))))
    out = {"meta": {**meta, "timeout_s": timeout, "seed": seed, "tries": 10, "sample_reads": reads,
                    "sample_sweeps": SAMPLE_SWEEPS, "sampled_encodings": list(sampled) if reads else [],
                    "minorminer": _version("minorminer"), "graphs": _graphs_version(),
                    "topologies": {t: {"qpu": TOPOLOGIES[t][0], "graph": f"{TOPOLOGIES[t][1]}({TOPOLOGIES[t][2]})",
                                       "qubits": target_graph(t).number_of_nodes(),
                                       "couplers": target_graph(t).number_of_edges()} for t in topologies},
                    "elapsed_s": time.perf_counter() - start, "load_average_after": load_average()},
           "puzzles": list(puzzles.values()), "records": records}
    if path is not None:
        out = write_results(path, out)
    return out


def chains_table(results) -> str:
    """Per puzzle and encoding, over the minorminer seeds of a results file whose records are :class:`EmbeddingResult`
    rows with ``puzzle``, ``rows``, ``cols`` and ``encoding`` (``make embedding-chains`` at bac37d1, issue 42's cell
    variables): how many embedded, and the longest chain and the qubits of each that did (min / median / max)."""
    import statistics

    data = load_results(results)
    encodings = data["meta"]["encodings"]
    rows: dict[str, dict[str, list]] = {}
    sizes = {}
    for r in data["records"]:
        rows.setdefault(r["puzzle"], {}).setdefault(r["encoding"], []).append(r)
        sizes[r["puzzle"]] = f"{r['rows']}×{r['cols']}"
    number = lambda x: f"{int(x):,}" if float(x).is_integer() else f"{x:,.1f}"  # noqa: E731
    spread = lambda xs: " / ".join(number(x) for x in (min(xs), statistics.median(xs), max(xs)))  # noqa: E731
    lines = ["| puzzle | size | " + " | ".join(f"{e.replace('_', '-')}: embedded, longest chain, qubits (min / median "
                                               f"/ max)" for e in encodings) + " |", "|" + "---|" * (2 + len(encodings))]
    for puzzle, by_encoding in rows.items():
        cells = []
        for e in encodings:
            done = [r for r in by_encoding.get(e, []) if r["embedded"]]
            tried = len(by_encoding.get(e, []))
            cells.append(f"{len(done)}/{tried}" + ("" if not done else
                         f", {spread([r['max_chain'] for r in done])}, {spread([r['num_qubits'] for r in done])}"))
        lines.append(f"| {puzzle} | {sizes[puzzle]} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _version(module: str) -> str | None:
    try:
        return __import__(module).__version__
    except (ImportError, AttributeError):  # pragma: no cover
        return None


def _graphs_version() -> str:
    graphs = _graphs()
    return f"{graphs.__name__.replace('.', '-').replace('_', '-')} {graphs.__version__}"


# -- tables ---------------------------------------------------------------------------------

def _size(puzzles: dict, label: str) -> str:
    p = puzzles[label]
    return f"{p['rows']}×{p['cols']}"


def embedding_table(results) -> str:
    """Every attempt: puzzle, encoding, logical size, and per topology qubits, chains and time (✕ = not embedded)."""
    data = load_results(results)
    puzzles = {p["label"]: p for p in data["puzzles"]}
    topologies = list(data["meta"]["topologies"])
    rows: dict[tuple, dict] = {}
    for r in data["records"]:
        if r["status"] == "not tried":
            continue
        rows.setdefault((r["collection"], r["puzzle"], r["encoding"]), {})[r["topology"]] = r
    head = "| puzzle | size | encoding | variables | interactions | " + " | ".join(
        f"{t}: qubits (max / mean chain), s" for t in topologies) + " |"
    lines = [head, "|" + "---|" * (5 + len(topologies))]
    for (collection, puzzle, encoding), by_topology in rows.items():
        any_r = next(iter(by_topology.values()))
        cells = []
        for t in topologies:
            r = by_topology.get(t)
            if r is None:
                cells.append("–")
            elif r["status"] == "embedded" and r["num_variables"] == 0:
                cells.append("nothing to embed (line logic settles every cell)")
            elif r["status"] == "embedded":
                cells.append(f"{r['num_qubits']:,} ({r['max_chain']} / {r['mean_chain']:.1f}), {r['embed_s']:.1f}")
            else:
                cells.append(f"✕ ({r['embed_s']:.0f} s)" if not r.get("reason") else "✕ (too many)")
        lines.append(f"| {puzzle} | {_size(puzzles, puzzle)} | {encoding} | {any_r['num_variables']:,} | "
                     f"{any_r['num_interactions']:,} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def largest_table(results) -> str:
    """Per collection and encoding, the largest puzzle that embedded into each topology (and the first that did not)."""
    data = load_results(results)
    puzzles = {p["label"]: p for p in data["puzzles"]}
    topologies = list(data["meta"]["topologies"])
    found: dict[tuple, dict] = {}
    for r in data["records"]:
        key = (r["collection"], r["encoding"])
        slot = found.setdefault(key, {}).setdefault(r["topology"], {"largest": None, "first_failure": None})
        cells = lambda label: puzzles[label]["rows"] * puzzles[label]["cols"]  # noqa: E731
        if r["status"] == "embedded" and (slot["largest"] is None or cells(r["puzzle"]) >= cells(slot["largest"])):
            slot["largest"] = r["puzzle"]
            slot["logic"] = r["num_variables"] == 0
        if r["status"] == "embedded" and r["num_variables"] and (
                slot.get("model") is None or cells(r["puzzle"]) >= cells(slot["model"])):
            slot["model"] = r["puzzle"]  # the largest that embedded with a model left to anneal
        if r["status"] == "not embedded" and slot["first_failure"] is None:
            slot["first_failure"] = r["puzzle"]
    lines = ["| collection | encoding | " + " | ".join(f"{t}: largest embedded (first not embedded)"
                                                       for t in topologies) + " |",
             "|" + "---|" * (2 + len(topologies))]
    for (collection, encoding), by_topology in found.items():
        cells = []
        for t in topologies:
            slot = by_topology.get(t, {"largest": None, "first_failure": None})
            largest = "none" if slot["largest"] is None else f"{slot['largest']} ({_size(puzzles, slot['largest'])}" + \
                (", solved by line logic: nothing to embed)" if slot.get("logic") else ")")
            if slot.get("logic") and slot.get("model"):
                largest += f"; with a model left: {slot['model']} ({_size(puzzles, slot['model'])})"
            miss = "all embedded" if slot["first_failure"] is None else \
                f"{slot['first_failure']} ({_size(puzzles, slot['first_failure'])})"
            cells.append(f"{largest} ({miss})")
        lines.append(f"| {collection} | {encoding} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def sampling_table(results) -> str:
    """Every sampled embedding: the success probability of the same SA reads on the logical model and on the
    embedded one (95 % Wilson intervals), with the chains' longest and mean length, the chain strength and the
    mean fraction of broken chains."""
    data = load_results(results)
    puzzles = {p["label"]: p for p in data["puzzles"]}
    lines = ["| puzzle | size | encoding | graph | longest / mean chain | chain strength | logical: solved, p [95 %] | "
             "embedded: solved, p [95 %] | broken chains |", "|" + "---|" * 9]
    for r in data["records"]:
        if "sampled" not in r:
            continue
        cells = []
        for kind in ("logical", "embedded"):
            s = r["sampled"][kind]
            cells.append(f"{s['num_solved']}/{s['num_reads']}, {s['p']:.2f} [{s['p_low']:.2f}, {s['p_high']:.2f}]")
        e = r["sampled"]["embedded"]
        lines.append(f"| {r['puzzle']} | {_size(puzzles, r['puzzle'])} | {r['encoding'].replace('_', '-')} | "
                     f"{r['topology']} | {r['max_chain']} / {r['mean_chain']:.1f} | "
                     + ("– (no chains)" if e["chain_strength"] is None else f"{e['chain_strength']:.2f}") + " | "
                     + " | ".join(cells) + f" | {100 * e['chain_break_fraction']:.1f} % |")
    if len(lines) == 2:
        return "No embedded model was sampled (run with reads)."
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    """Print a results file's ``table``, or embed one ``puzzle`` file (the repository's study: ``benchmarks.frontier``)."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.embedding", description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    table_p = sub.add_parser("table", help="the markdown tables of a results file")
    table_p.add_argument("results")
    one = sub.add_parser("puzzle", help="embed one puzzle file (FILE#N for a multi-puzzle file)")
    one.add_argument("puzzle")
    one.add_argument("--encoding", default="thermometer")
    one.add_argument("--presolve", action="store_true")
    one.add_argument("--topology", default="pegasus", choices=list(TOPOLOGIES))
    one.add_argument("--timeout", type=float, default=30.0)
    one.add_argument("--seed", type=int, default=1)
    one.add_argument("--patience", type=int, default=10, help="minorminer's chainlength_patience")
    args = parser.parse_args(argv)
    if args.command == "table":
        print(largest_table(args.results) + "\n\n" + embedding_table(args.results))
        return 0
    from qpicross import load_puzzle
    from qpicross.exceptions import QpicrossError

    try:
        puzzle = load_puzzle(args.puzzle)
    except QpicrossError as exc:  # a file that is not there or not a puzzle: one line, exit 2
        print(f"{parser.prog}: error: {exc}", file=sys.stderr)
        return 2
    r = embed_puzzle(puzzle, args.encoding, args.topology, presolve=args.presolve, timeout=args.timeout,
                     seed=args.seed, patience=args.patience)
    print(json.dumps(r.to_dict(), indent=1))
    return 0 if r.embedded else 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
