"""What fits on a QPU (benchmarks.embedding): embeddings checked from scratch on tiny puzzles."""

import json

import dimod
import networkx as nx
import pytest

pytest.importorskip("minorminer")

from benchmarks import embedding as emb
from benchmarks.embedding import (ENCODINGS, TOPOLOGIES, embed_bqm, embedding_table, encoded_bqm,
                                  largest_table, run_embedding_study, target_graph)
from benchmarks.ladder import Rung
from qpicross import SolverConfig, load_puzzle, run

from conftest import INSTANCES
from puzzles import LETTER_A_FILE, PARTLY_LOGICAL_4X4


def assert_valid_minor(bqm, embedding, target):
    """Chains disjoint and connected in the target, every interaction on a coupler between its two chains."""
    used = [q for chain in embedding.values() for q in chain]
    assert len(used) == len(set(used))
    for chain in embedding.values():
        assert chain and nx.is_connected(target.subgraph(chain))
    for u, v in bqm.quadratic:
        assert any(target.has_edge(a, b) for a in embedding[u] for b in embedding[v]), (u, v)


@pytest.mark.parametrize("topology", list(TOPOLOGIES))
@pytest.mark.parametrize("encoding", ENCODINGS)
def test_tiny_puzzle_embeds_with_valid_chains(encoding, topology):
    puzzle = load_puzzle(LETTER_A_FILE)
    bqm = encoded_bqm(puzzle, encoding)
    r = embed_bqm(bqm, topology, timeout=10, seed=3)
    assert r.embedded and r.reason is None
    assert (r.num_variables, r.num_interactions) == (bqm.num_variables, bqm.num_interactions)
    assert_valid_minor(bqm, r.embedding, target_graph(topology))
    chains = [len(c) for c in r.embedding.values()]
    assert r.num_qubits == sum(chains) and r.max_chain == max(chains)
    assert r.mean_chain == pytest.approx(sum(chains) / len(chains))
    assert r.qubit_fraction == pytest.approx(r.num_qubits / target_graph(topology).number_of_nodes())


@pytest.mark.parametrize("encoding, presolve", [(e, False) for e in ENCODINGS] + [("thermometer", True)])
def test_the_embedded_model_is_the_one_anneal_samples(encoding, presolve):
    # line logic settles all of boat12, part of this one
    puzzle = PARTLY_LOGICAL_4X4 if presolve else load_puzzle(INSTANCES / "boat12.px")
    result = run(puzzle, SolverConfig(sampler="sa", encoding=encoding, presolve=presolve, num_reads=1, num_sweeps=10,
                                      seed=0))
    bqm = encoded_bqm(puzzle, encoding, presolve=presolve)
    assert bqm.num_variables > 0
    assert set(bqm.variables) == set(result.sampled_bqm.variables)
    assert set(map(frozenset, bqm.quadratic)) == set(map(frozenset, result.sampled_bqm.quadratic))


def test_graphs_are_the_named_qpus():
    assert target_graph("pegasus").number_of_nodes() == 5640  # P16, fabric only
    assert target_graph("zephyr").number_of_nodes() == 4800  # Z12, t=4
    with pytest.raises(ValueError, match="unknown topology"):
        target_graph("chimera")


def test_more_variables_than_qubits_is_refused_without_a_search():
    bqm = dimod.BinaryQuadraticModel({i: 1.0 for i in range(target_graph("zephyr").number_of_nodes() + 1)}, {}, 0,
                                     "BINARY")
    r = embed_bqm(bqm, "zephyr")
    assert not r.embedded and r.embed_s == 0 and "more variables" in r.reason


def test_study_climbs_each_collection_until_the_first_failure(tmp_path, monkeypatch):
    real = emb.embed_bqm

    def fails_above_40(bqm, topology, **kw):  # a stand-in limit: the climb's bookkeeping, not minorminer's
        if bqm.num_variables > 40:
            return emb.EmbeddingResult(topology=topology, num_variables=bqm.num_variables,
                                       num_interactions=bqm.num_interactions, embedded=False, embed_s=0.5)
        return real(bqm, topology, **kw)

    monkeypatch.setattr(emb, "embed_bqm", fails_above_40)
    shipped = [Rung(name, f"instances/{name}.px", path=str(INSTANCES / f"{name}.px")) for name in ("smile7", "5x5", "house8")]
    ladder = {"shipped": tuple(shipped)}
    path = tmp_path / "embedding.json"
    data = run_embedding_study(ladder, ["thermometer"], ["zephyr"], timeout=5, path=path)
    saved = json.loads(path.read_text())
    assert saved["meta"]["commit"] and list(saved["meta"]["fingerprints"]) == ["embedding@thermometer"]
    records = saved["records"]
    assert [(r["puzzle"], r["status"]) for r in records] == [  # smallest first: 5x5 (30 bits), smile7, house8
        ("5x5", "embedded"), ("smile7", "not embedded"), ("house8", "not tried")]
    table = largest_table(data)
    assert "| shipped | thermometer | 5x5 (5×5) (smile7 (7×7)) |" in table
    full = embedding_table(data)
    row = next(line for line in full.splitlines() if line.startswith("| 5x5 |"))
    r = records[0]
    assert f"{r['num_qubits']:,} ({r['max_chain']} / {r['mean_chain']:.1f}), {r['embed_s']:.1f}" in row
    assert "house8" not in full  # not tried: not in the table of attempts


def test_the_embedded_model_is_sampled_with_its_chains_and_judged_as_anneal_judges(tmp_path):
    """The same SA reads on the logical model and through the chains on the ideal graph, each read judged by the
    pipeline (ground state and the independent check); the chains' strength and breaks from the embedded reads."""
    puzzle = load_puzzle(LETTER_A_FILE)
    bqm = encoded_bqm(puzzle, "thermometer")
    r = embed_bqm(bqm, "zephyr", timeout=10, seed=3)
    assert set(r.embedding) == set(bqm.variables)
    out = emb.sample_embedded(puzzle, r.embedding, "thermometer", "zephyr", num_reads=10, num_sweeps=2000)
    logical, embedded = out["logical"], out["embedded"]
    assert logical["num_reads"] == embedded["num_reads"] == 10
    assert logical["num_solved"] == 10 and 0 < embedded["num_solved"] <= 10
    assert embedded["p_low"] <= embedded["p"] == embedded["num_solved"] / 10 <= embedded["p_high"]
    assert embedded["chain_strength"] > 0 and 0 <= embedded["chain_break_fraction"] <= 1
    with pytest.raises(ValueError):  # an embedding that misses a variable is refused, not sampled around
        emb.sample_embedded(puzzle, dict(list(r.embedding.items())[1:]), "thermometer", "zephyr", num_reads=2)
    ladder = {"shipped": (Rung("5x5", "instances/5x5.px", path=LETTER_A_FILE),)}
    data = run_embedding_study(ladder, ["thermometer"], ["zephyr"], timeout=5, reads=4, path=tmp_path / "e.json")
    assert data["records"][0]["sampled"]["embedded"]["num_reads"] == 4 and data["meta"]["sample_reads"] == 4
    assert "| 5x5 | 5×5 | thermometer | zephyr |" in emb.sampling_table(data)


def test_the_chains_table_counts_each_encodings_seeds_and_spreads_their_chains():
    """Every (puzzle, encoding, seed) is one attempt; the table counts the embedded ones and spreads their chains."""
    puzzle = load_puzzle(LETTER_A_FILE)
    records = []
    for encoding in ("thermometer", "one_hot"):
        bqm = encoded_bqm(puzzle, encoding)
        for seed in (1, 2):
            r = embed_bqm(bqm, "zephyr", timeout=5, seed=seed)
            records.append({"puzzle": "5x5", "rows": 5, "cols": 5, "encoding": encoding, **r.to_dict()})
    records.append({**records[-1], "embedded": False, "seed": 3})  # a seed that found none
    data = {"meta": {"encodings": ["thermometer", "one_hot"]}, "records": records}
    chains = sorted(r["max_chain"] for r in records[:2])
    row = next(line for line in emb.chains_table(data).splitlines() if line.startswith("| 5x5 |"))
    median = (chains[0] + chains[1]) / 2
    assert f"| 2/2, {chains[0]} / {int(median) if median.is_integer() else median} / {chains[1]}, " in row
    assert row.split(" | ")[-1].startswith("2/3, ")


def test_command_embeds_one_puzzle(capsys):
    assert emb.main(["puzzle", LETTER_A_FILE, "--topology", "zephyr", "--timeout", "5"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["embedded"] and out["num_variables"] == 30


def test_tables_tell_a_model_line_logic_emptied_from_an_embedding():
    base = dict(collection="c", encoding="thermometer+presolve", topology="zephyr", status="embedded", embed_s=0.0,
                num_interactions=0, num_qubits=0, max_chain=0, mean_chain=0.0)
    data = {"meta": {"topologies": {"zephyr": {}}},
            "puzzles": [{"label": "a", "rows": 5, "cols": 5}, {"label": "b", "rows": 9, "cols": 9}],
            "records": [{**base, "puzzle": "a", "num_variables": 8, "num_interactions": 9, "num_qubits": 8,
                         "max_chain": 1, "mean_chain": 1.0}, {**base, "puzzle": "b", "num_variables": 0}]}
    assert "| c | thermometer+presolve | b (9×9, solved by line logic: nothing to embed); with a model left: a (5×5) " \
           "(all embedded) |" in largest_table(data)
    row = next(line for line in embedding_table(data).splitlines() if line.startswith("| b |"))
    assert "nothing to embed (line logic settles every cell)" in row


def test_the_repository_run_records_whether_the_tree_had_uncommitted_changes():
    from benchmarks.provenance import run_meta

    meta = run_meta()
    assert meta["commit"] and isinstance(meta["dirty"], bool)
