"""The interleaved runs' journal: a run cut short resumes, shards measure a set between them, once."""

import json

import pytest

from benchmarks import interleave

SPECS = ["x/taai2011.txt#1-4"]


@pytest.fixture
def fake_bench(monkeypatch):
    """Each tree's bench of a puzzle replaced by a row naming the puzzle and the tree (``calls``: what ran);
    the trees' fingerprints by a fixed stamp. ``fail``: specs whose run fails."""
    calls, fail = [], set()

    def run_puzzle(trees, spec, collection, bench_args, cpu, scratch):
        calls.append(spec)
        assert scratch.is_absolute()  # each tree's bench runs in that tree's folder
        if spec in fail:
            return None
        return {"rows": {label: [{"puzzle": spec, "tree": label, "source": collection}] for label, _, _ in trees},
                "metas": {label: {"time_utc": f"t{len(calls)}", "time_utc_end": f"e{len(calls)}"}
                          for label, _, _ in trees}, "worst": 0, "cpu": cpu}

    monkeypatch.setattr(interleave, "_run_puzzle", run_puzzle)
    monkeypatch.setattr(interleave, "tree_provenance", lambda meta, tree, rows: {**meta, "commit": tree.name})
    return calls, fail


def _trees(tmp_path):
    return [(label, tmp_path / label, tmp_path / f"{label}.json") for label in ("head", "base")]


def _puzzles(path):
    return [row["puzzle"] for row in json.loads(path.read_text())["results"]]


def test_shards_share_a_journal_and_the_last_writes_the_files(tmp_path, fake_bench):
    calls, _ = fake_bench
    trees, journal = _trees(tmp_path), tmp_path / "journal"
    assert interleave.interleave(trees, SPECS, ["--reads", "2"], "0", journal, (0, 2)) == 0
    assert calls == ["x/taai2011.txt#1", "x/taai2011.txt#3"]
    assert not (tmp_path / "head.json").exists() and len(list(journal.glob("*.json"))) == 2
    assert interleave.interleave(trees, SPECS, ["--reads", "2"], "1", journal, (1, 2)) == 0
    assert calls[2:] == ["x/taai2011.txt#2", "x/taai2011.txt#4"]
    for label, _, out in trees:  # every puzzle once, in the set's order, each tree's own rows
        data = json.loads(out.read_text())
        assert [row["puzzle"] for row in data["results"]] == [f"x/taai2011.txt#{n}" for n in range(1, 5)]
        assert {row["tree"] for row in data["results"]} == {label}
        assert data["meta"]["interleave_cpus"] == ["0", "1"] and data["meta"]["interleaved"] == ["head", "base"]
        assert data["meta"]["time_utc"] == "t1" and data["meta"]["time_utc_end"] == "e4"
    assert not journal.exists()  # measured: a later run measures afresh


def test_a_run_cut_short_resumes_where_it_stopped(tmp_path, fake_bench, monkeypatch):
    calls, fail = fake_bench
    monkeypatch.chdir(tmp_path)
    trees, journal = _trees(tmp_path), "journal"  # as the Makefile gives it
    fail.add("x/taai2011.txt#3")
    assert interleave.interleave(trees, SPECS, [], None, journal) == 2
    assert not (tmp_path / "head.json").exists()
    fail.clear()
    calls.clear()
    assert interleave.interleave(trees, SPECS, [], None, journal) == 0
    assert calls == ["x/taai2011.txt#3", "x/taai2011.txt#4"]  # the first two kept, not run again
    assert _puzzles(tmp_path / "base.json") == [f"x/taai2011.txt#{n}" for n in range(1, 5)]


def test_another_runs_journal_is_refused_not_overwritten(tmp_path, fake_bench, capsys):
    calls, fail = fake_bench
    trees, journal = _trees(tmp_path), tmp_path / "journal"
    fail.add("x/taai2011.txt#2")
    assert interleave.interleave(trees, SPECS, ["--reads", "2"], None, journal) == 2
    kept = (journal / "00000.json").read_text()
    calls.clear()
    assert interleave.interleave(trees, SPECS, ["--reads", "3"], None, journal) == 2
    assert calls == [] and "other commits, arguments or puzzles" in capsys.readouterr().err
    assert (journal / "00000.json").read_text() == kept


def test_without_a_journal_nothing_is_left_behind(tmp_path, fake_bench, monkeypatch):
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setattr(interleave.tempfile, "tempdir", str(scratch))
    trees = _trees(tmp_path)
    assert interleave.interleave(trees, SPECS, [], None) == 0
    assert _puzzles(tmp_path / "head.json") == [f"x/taai2011.txt#{n}" for n in range(1, 5)]
    assert not list(scratch.iterdir())


def test_a_shard_outside_its_count_is_a_usage_error(tmp_path):
    with pytest.raises(SystemExit) as stop:
        interleave.main(["x.px", "--tree", f"head={tmp_path}:{tmp_path}/h.json", "--shard", "2/2"])
    assert stop.value.code == 2
