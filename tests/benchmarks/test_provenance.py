"""Provenance of results files: the code hash they record, and the check that lists the stale ones."""

import json
from pathlib import Path

from benchmarks import provenance
from qpicross import __version__
from qpicross.experiments.result import code_hash, machine_info

ROOT = Path(__file__).resolve().parents[2]


def _write(folder, name, meta):
    (folder / name).write_text(json.dumps({"meta": meta, "results": []}))


def test_committed_results_are_current_acknowledged_or_without_hash():
    """A results file that records a hash must have been written by the tree's sampler code, or be named in
    results/STALE.txt; files from before provenance ("no hash") are listed by `make stale-results`, not failed."""
    rows = provenance.results_status(ROOT / "results")
    assert rows, "no results files committed"
    assert {status for _, status, _ in rows} <= {"current", "acknowledged", "no hash"}, [
        (name, detail) for name, status, detail in rows if status == "stale"]


def test_a_file_whose_recorded_hash_differs_is_stale_until_acknowledged(tmp_path, capsys):
    current = code_hash()
    _write(tmp_path, "old.json", {"commit": "abc1234"})
    _write(tmp_path, "now.json", {"commit": "def5678", "code_hash": current})
    _write(tmp_path, "moved.json", {"commit": "0123456", "code_hash": "0" * 64})
    status = {name: s for name, s, _ in provenance.results_status(tmp_path)}
    assert status == {"old.json": "no hash", "now.json": "current", "moved.json": "stale"}
    assert provenance.stale_files(tmp_path) == ["moved.json"]
    assert provenance.main([str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "stale        moved.json" in out and "no hash      old.json  written at commit abc1234" in out
    (tmp_path / "STALE.txt").write_text("# judged unchanged\nmoved.json refactor: same samples for the same seed\n")
    status = {name: s for name, s, _ in provenance.results_status(tmp_path)}
    assert status["moved.json"] == "acknowledged" and provenance.main([str(tmp_path)]) == 0


def test_the_hash_covers_the_sampler_modules_and_nothing_else(tmp_path):
    package = tmp_path / "pkg"
    (package / "samplers" / "blockshift").mkdir(parents=True)
    kernel = package / "samplers" / "blockshift" / "kernel.py"
    kernel.write_text("def sweep(): return 1\n")
    (package / "plot.py").write_text("x = 1\n")
    before = code_hash(package)
    (package / "plot.py").write_text("x = 2\n")
    assert code_hash(package) == before
    kernel.write_text("def sweep(): return 2\n")
    assert code_hash(package) != before


def test_every_results_file_written_from_now_on_records_version_and_hash():
    meta = machine_info()
    assert meta["version"] == __version__ and meta["code_hash"] == code_hash()
