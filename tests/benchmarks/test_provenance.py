"""Provenance of results files: the samples fingerprints they record, and the check that sorts them."""

import json
import shutil
from pathlib import Path

import pytest

from benchmarks import fingerprint, provenance, stale
from qpicross.samplers.blockshift.sampler import BlockShiftSampler

ROOT = Path(__file__).resolve().parents[2]
SHIFT = "shift@one_hot threads=1"


def _row(sampler, options=""):
    return {"sampler": sampler, "encoding": "one_hot", "presolve": False,
            "weights": "one_hot=1,at_most_one=1,order=1,match=1", "options": options}


@pytest.fixture
def results(tmp_path):
    """A results folder: a file of the block-shift sampler, one of SA, one of both; stamped with today's samples."""
    files = {"shift.json": [_row("shift", "threads=1,time_limit=60.0")], "sa.json": [_row("sa")],
             "both.json": [_row("sa"), _row("shift", "threads=1")]}
    for name, rows in files.items():
        provenance.write_results(tmp_path / name, {"meta": provenance.run_meta(), "results": rows})
    return tmp_path


@pytest.fixture
def fresh_draws(monkeypatch):
    """Digests drawn anew: the process's cache of what it drew emptied."""
    monkeypatch.setattr(fingerprint, "_DRAWN", {})


def _status(folder):
    return {name: status for name, status, _ in provenance.results_status(folder)}


def test_files_stamped_with_todays_samples_are_current_and_record_their_families(results):
    assert _status(results) == {"both.json": "current", "sa.json": "current", "shift.json": "current"}
    meta = json.loads((results / "both.json").read_text())["meta"]
    assert sorted(meta["fingerprints"]) == ["sa@one_hot", SHIFT] and set(meta) >= {"commit", "dirty"}
    assert all(len(d) == 64 for d in meta["fingerprints"].values())


def test_a_seed_offset_in_the_block_shift_sampler_changes_exactly_the_files_that_measure_it(results, fresh_draws,
                                                                                            monkeypatch):
    sample = BlockShiftSampler.sample

    def offset(self, bqm, *args, seed=None, **kwargs):
        return sample(self, bqm, *args, seed=None if seed is None else seed + 1, **kwargs)

    monkeypatch.setattr(BlockShiftSampler, "sample", offset)
    rows = {name: (status, detail) for name, status, detail in provenance.results_status(results)}
    assert {name: status for name, (status, _) in rows.items()} == {
        "both.json": "changed", "sa.json": "current", "shift.json": "changed"}
    assert f"{SHIFT}: draws other samples" in rows["both.json"][1] and "sa@one_hot" not in rows["both.json"][1]


@pytest.fixture(scope="module")
def package_copy(tmp_path_factory):
    """The package and the shipped puzzles copied (``__pycache__`` too: numba's cache serves the copy), a docstring of
    the block-shift sampler and of the pipeline edited."""
    tree = tmp_path_factory.mktemp("tree")
    shutil.copytree(ROOT / "qpicross", tree / "qpicross")
    shutil.copytree(ROOT / "instances", tree / "instances")
    for module in ("samplers/blockshift/sampler.py", "pipeline/run.py"):
        path = tree / "qpicross" / module
        text = path.read_text()
        head, quote, rest = text.partition('"""')
        path.write_text(head + quote + "Edited. " + rest)
    return tree


def test_a_docstring_edit_changes_no_file(results, package_copy):
    """The families drawn by the edited copy in a process of its own: the same digests as this tree's."""
    families = ["sa@one_hot", SHIFT]
    assert provenance.tree_fingerprints(package_copy, families) == fingerprint.fingerprints(families)
    today = provenance.tree_fingerprints(package_copy, families)
    assert _status(results) == {"both.json": "current", "sa.json": "current", "shift.json": "current"}
    assert {name: s for name, s, _ in provenance.results_status(results, today)} == _status(results)


def test_a_denser_ladder_after_the_first_restart_changes_the_block_shift_files(results, fresh_draws, monkeypatch):
    """Every probe puzzle is solved within a read's first restart: the probes of version 2 could not see a change to
    the later restarts' ladders, today's do (version 3)."""
    from qpicross.samplers.blockshift import plans

    before = fingerprint.fingerprint(SHIFT, rules=2)
    ladder = plans._ladder
    monkeypatch.setattr(plans, "_ladder", lambda hot, cold, level, rungs: ladder(hot, cold, level, rungs + (rungs > 4)))
    assert fingerprint.fingerprint(SHIFT, rules=2) == before
    assert _status(results) == {"both.json": "changed", "sa.json": "current", "shift.json": "changed"}


def test_an_upgrade_stamps_a_file_with_todays_probes_only_where_its_earlier_digests_are_drawn_again(tmp_path,
                                                                                                    package_copy):
    old = {"sampler": "sa", "fingerprint_version": 2}
    for name, digest in (("same.json", fingerprint.fingerprint(SHIFT, rules=2)), ("other.json", "0" * 64),
                         ("gone.json", "unavailable: ImportError: x")):
        meta = {"commit": "abc1234", "fingerprint_version": 2, "fingerprints": {"sa@one_hot": "1" * 64, SHIFT: digest}}
        (tmp_path / name).write_text(json.dumps({"meta": meta, "results": [old]}))
    detail = dict((name, d) for name, _, d in provenance.results_status(tmp_path))
    assert "stamped by probe version 2" in detail["same.json"]
    assert "sa@one_hot: draws other samples" in detail["same.json"]
    done = provenance.upgrade([tmp_path / name for name in ("same.json", "other.json", "gone.json")], package_copy)
    assert done["gone.json"] == f"left as it is: {SHIFT} could not be drawn when it ran"
    assert done["same.json"] == f"stamped by probe version 3: {SHIFT}"
    assert done["other.json"].startswith(f"left as it is: {SHIFT} draw other samples")
    meta = json.loads((tmp_path / "same.json").read_text())["meta"]
    assert meta["fingerprints"] == {"sa@one_hot": "1" * 64, SHIFT: fingerprint.fingerprint(SHIFT)}
    assert meta["fingerprint_version"] == 3
    assert json.loads((tmp_path / "other.json").read_text())["meta"]["fingerprint_version"] == 2
    again = provenance.upgrade([tmp_path / "same.json"], package_copy)
    assert again == {"same.json": "already stamped by today's probes"}


def test_a_file_with_no_fingerprint_or_a_family_that_cannot_be_drawn_is_changed(tmp_path):
    (tmp_path / "old.json").write_text(json.dumps({"meta": {"commit": "abc"}, "results": []}))
    gone = {"sa@one_hot": "unavailable: ModuleNotFoundError: No module named 'x'"}
    (tmp_path / "gone.json").write_text(json.dumps({"meta": {"commit": "abc", "fingerprints": gone}}))
    (tmp_path / "later.json").write_text(json.dumps({"meta": {"fingerprints": {"sa@thermometer_cells": "0" * 64},
                                                             "fingerprint_version": fingerprint.VERSION}}))
    rows = {name: (status, detail) for name, status, detail in provenance.results_status(tmp_path)}
    assert {name: status for name, (status, _) in rows.items()} == {
        "gone.json": "changed", "later.json": "changed", "old.json": "changed"}
    assert "no samples fingerprint recorded" in rows["old.json"][1]
    assert "unknown encoding" in rows["later.json"][1].lower() or "unavailable" in rows["later.json"][1]
    assert stale.main([str(tmp_path), "--check"]) == 1 and stale.main([str(tmp_path)]) == 0


def test_the_families_of_every_kind_of_results_file_are_read_from_what_it_holds():
    assert fingerprint.families_of({"meta": {}, "counts": {}, "runs": []}) == ["cli"]
    schedule = {"meta": {"sampler": "sa", "encoding": "thermometer", "arms": ["default", "rule+presolve"],
                         "weights": {"order": 2.0}}, "records": []}
    assert fingerprint.families_of(schedule) == ["sa@thermometer weights=order=2",
                                                 "sa@thermometer+presolve weights=order=2"]
    memory = {"meta": {}, "results": [{"path": "anneal --encoding domain-wall --sampler sa"}]}
    assert fingerprint.families_of(memory) == ["model@domain_wall"]
    several_streams = {"meta": {}, "results": [_row("shift", "threads=16")]}
    assert fingerprint.families_of(several_streams) == ["shift@one_hot"]


def test_every_committed_results_file_records_its_commit_and_fingerprints():
    """The check has something to compare for every file, and no file of hand-kept acknowledgements is left."""
    files = sorted((ROOT / "results").glob("*.json"))
    assert files and not (ROOT / "results" / "STALE.txt").exists()
    for path in files:
        meta = json.loads(path.read_text())["meta"]
        assert meta.get("commit") and meta.get("fingerprints"), path.name


def test_the_record_command_runs_qpicross_and_stamps_what_it_wrote(tmp_path):
    from benchmarks import record

    out = tmp_path / "b.json"
    code = record.main(["bench", str(ROOT / "instances" / "5x5.px"), "--sampler", "sa", "--reads", "3", "--seed", "1",
                        "--json", str(out)])
    meta = json.loads(out.read_text())["meta"]
    assert code == 0 and list(meta["fingerprints"]) == ["sa@one_hot"]
    assert meta["fingerprints"]["sa@one_hot"] == fingerprint.fingerprints(["sa@one_hot"])["sa@one_hot"]


def test_a_stamp_keeps_the_commit_the_run_started_at(tmp_path):
    """A run that started at one commit and ended after another was made names the one whose code it imported:
    the state taken at its start (run_meta, or what benchmarks.record takes before it runs qpicross)."""
    started = {"commit": "abc1234", "dirty": False}
    path = tmp_path / "r.json"
    provenance.write_results(path, {"meta": started, "results": [_row("sa")]})
    assert {k: json.loads(path.read_text())["meta"][k] for k in started} == started
    (tmp_path / "s.json").write_text(json.dumps({"meta": {}, "results": [_row("sa")]}))
    meta = provenance.stamp(tmp_path / "s.json", state=started)
    assert {k: meta[k] for k in started} == started and list(meta["fingerprints"]) == ["sa@one_hot"]

