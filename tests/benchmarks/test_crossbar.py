"""The structured (crossbar) embedding of the thermometer model on Zephyr (benchmarks.crossbar)."""

import json
from pathlib import Path

import networkx as nx
import pytest

pytest.importorskip("minorminer")

from benchmarks.crossbar import (bands, crossbar_chains, join_chains, largest_short, run_structured_study,
                                 structured_embedding, structured_table, thermometer_model)
from benchmarks.embedding import _graphs, encoded_bqm, target_graph
from benchmarks.ladder import Rung
from qpicross import load_puzzle

from conftest import INSTANCES
from puzzles import LETTER_A_FILE
from test_embedding import assert_valid_minor

PUZZLES = [Path(LETTER_A_FILE), INSTANCES / "house8.px", INSTANCES / "star10.px"]


def _source(bqm):
    graph = nx.Graph()
    graph.add_nodes_from(bqm.variables)
    graph.add_edges_from(bqm.quadratic)
    return graph


def _meets(target, a, b):
    return bool(set(a) & set(b)) or any(target.has_edge(p, q) for p in a for q in b)


def test_bands_cover_the_grid_in_order():
    for cells, positions in ((15, 25), (25, 25), (7, 25), (3, 7)):
        b = bands(cells, positions)
        flat = [p for band in b for p in band]
        assert len(b) == cells and all(b) and flat == sorted(flat)
        assert flat[0] == 0 and flat[-1] == positions - 1 and len(set(flat)) == len(flat)


@pytest.mark.parametrize("path", PUZZLES, ids=lambda p: p.name)
def test_crossbar_meets_every_coupling_between_a_row_and_a_column(path):
    """Step 2 alone: a row bit's run and a column bit's run cross wherever their bits share a cell."""
    puzzle = load_puzzle(path)
    model = thermometer_model(puzzle)
    graph = _graphs().zephyr_graph(12, 4, coordinates=True)
    chains = crossbar_chains(model.bit_spans(), puzzle.shape)
    assert set(chains) == set(model.bqm.variables)
    for chain in chains.values():
        assert chain and all(q in graph for q in chain) and nx.is_connected(graph.subgraph(chain))
    crossing = [(u, v) for u, v in model.bqm.quadratic if u[1] != v[1]]
    assert crossing
    assert all(_meets(graph, chains[u], chains[v]) for u, v in crossing)


@pytest.mark.parametrize("path", PUZZLES, ids=lambda p: p.name)
def test_joined_chains_meet_every_coupling(path):
    """Step 3: after the stubs every interaction has a coupler (or a shared qubit) between its chains, and each chain
    is still connected: the semi-valid start minorminer's refinement needs."""
    puzzle = load_puzzle(path)
    model = thermometer_model(puzzle)
    graph = _graphs().zephyr_graph(12, 4, coordinates=True)
    chains = join_chains(_source(model.bqm), graph, crossbar_chains(model.bit_spans(), puzzle.shape))
    for chain in chains.values():
        assert nx.is_connected(graph.subgraph(chain))
    assert all(_meets(graph, chains[u], chains[v]) for u, v in model.bqm.quadratic)


@pytest.mark.parametrize("presolve", [False, True])
def test_structured_embedding_is_a_valid_minor_of_the_model_anneal_samples(presolve):
    puzzle = load_puzzle(INSTANCES / "star10.px")
    bqm = encoded_bqm(puzzle, "thermometer", presolve=presolve)
    r = structured_embedding(puzzle, presolve=presolve, timeout=20, seed=2, patience=10)
    assert (r.num_variables, r.num_interactions) == (bqm.num_variables, bqm.num_interactions)
    if bqm.num_variables == 0:  # line logic settles every cell: nothing to embed
        assert r.embedded and r.num_qubits == 0
        return
    assert r.embedded and set(r.embedding) == set(bqm.variables)
    assert_valid_minor(bqm, r.embedding, target_graph("zephyr"))
    assert r.num_qubits == sum(map(len, r.embedding.values())) and r.max_chain == max(map(len, r.embedding.values()))
    assert r.start["qubits"] >= r.start["shared_qubits"] >= 0 and r.start["max_chain"] >= 1


def test_study_records_both_methods_samples_the_crossbar_and_renders_its_tables(tmp_path):
    ladder = {"shipped": (Rung("house8", "instances/house8.px", path=str(INSTANCES / "house8.px")),
                          Rung("5x5", "instances/5x5.px", path=LETTER_A_FILE))}
    path = tmp_path / "structured.json"
    data = run_structured_study(ladder, ("thermometer",), timeout=10, patience=10, seed=1, reads=3, path=path)
    assert json.loads(path.read_text()) == data
    records = data["records"]
    assert [(r["puzzle"], r["method"]) for r in records] == [
        ("5x5", "crossbar"), ("5x5", "minorminer"), ("house8", "crossbar"), ("house8", "minorminer")]  # smallest first
    assert all(r["embedded"] and r["topology"] == "zephyr" for r in records)
    crossbar = [r for r in records if r["method"] == "crossbar"]
    assert all(r["start"]["max_chain"] >= 1 and r["sampled"]["embedded"]["num_reads"] == 3 for r in crossbar)
    assert all("sampled" not in r and r["start"] is None for r in records if r["method"] == "minorminer")
    table = structured_table(data)
    assert table.count("\n") == 3 and "| house8 | 8×8 | thermometer |" in table
    largest = largest_short(data, longest=100)
    assert "shipped, thermometer, zephyr, crossbar: house8 (8×8" in largest
    assert "shipped, thermometer, zephyr, minorminer: house8 (8×8" in largest
    assert "none with chains ≤ 0" in largest_short(data, longest=0)


def test_the_crossbar_cli_embeds_one_puzzle_on_zephyr(capsys):
    from benchmarks import crossbar

    assert crossbar.main([LETTER_A_FILE, "--timeout", "5"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["embedded"] and out["topology"] == "zephyr" and out["start"]["max_chain"] >= 1


def test_largest_short_reads_minorminer_study_files_and_says_when_line_logic_left_nothing():
    record = dict(collection="c", topology="pegasus", embedded=True, status="embedded")
    data = {"puzzles": [{"label": "a", "rows": 10, "cols": 10}, {"label": "b", "rows": 15, "cols": 15}],
            "records": [{**record, "puzzle": "a", "encoding": "thermometer", "num_variables": 9, "max_chain": 3},
                        {**record, "puzzle": "b", "encoding": "thermometer", "num_variables": 99, "max_chain": 9},
                        {**record, "puzzle": "a", "encoding": "thermometer+presolve", "num_variables": 0,
                         "max_chain": 0}]}
    assert largest_short(data).splitlines() == [
        "- c, thermometer, pegasus, minorminer: a (10×10, 9 variables, longest chain 3)",
        "- c, thermometer+presolve, pegasus, minorminer: nothing to embed: line logic settles every puzzle"]
    assert largest_short(data, longest=9).splitlines()[0].endswith("b (15×15, 99 variables, longest chain 9)")


def test_the_study_command_refuses_an_encoding_the_crossbar_does_not_lay(capsys):
    from benchmarks import frontier

    with pytest.raises(SystemExit) as exc:
        frontier.main(["structured", "--encodings", "thermometer,one_hot"])
    assert exc.value.code == 2 and "one_hot" in capsys.readouterr().err


def test_the_embedding_clis_name_a_bad_puzzle_file_in_one_line(tmp_path, capsys):
    from benchmarks import crossbar, embedding

    bad = tmp_path / "bad.px"
    bad.write_text("not a puzzle\n")
    for path in (bad, tmp_path / "missing.px"):
        for run in (lambda: embedding.main(["puzzle", str(path), "--topology", "zephyr"]),
                    lambda: crossbar.main([str(path)])):
            code = run()
            err = capsys.readouterr().err
            assert code == 2 and err.count("\n") == 1 and path.name in err and "Traceback" not in err
