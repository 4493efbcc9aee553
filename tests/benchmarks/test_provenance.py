"""Provenance of results files: the code hash they record, and the check that lists the stale ones."""

import importlib.metadata
import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from benchmarks import provenance
from qpicross import __version__
from qpicross.experiments.result import code_hash, hashed_inputs, machine_info

ROOT = Path(__file__).resolve().parents[2]


def _write(folder, name, meta):
    (folder / name).write_text(json.dumps({"meta": meta, "results": []}))


def test_every_committed_acknowledgement_names_a_results_file_as_it_is():
    """Whatever the tree's code (the hash covers the library versions, so it differs between machines), each line of
    results/STALE.txt names a committed results file and the hashes it was made for, the file's among them; which
    files are stale is `make stale-results`'s listing, not a test (nearly every commit makes them stale)."""
    rows = provenance.results_status(ROOT / "results")
    assert rows, "no results files committed"
    assert provenance.acknowledgement_errors(ROOT / "results") == []


def test_a_file_whose_recorded_hash_differs_is_stale_until_acknowledged_for_this_code(tmp_path, capsys):
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
    line = f"moved.json {'0' * 12} {current[:12]} refactor: same samples"
    (tmp_path / "STALE.txt").write_text(f"# judged unchanged\n{line}\n")
    status = {name: s for name, s, _ in provenance.results_status(tmp_path)}
    assert status["moved.json"] == "acknowledged" and provenance.main([str(tmp_path)]) == 0
    assert provenance.acknowledgement_errors(tmp_path) == []


def test_an_acknowledgement_made_for_another_hash_is_not_honoured(tmp_path):
    current = code_hash()
    _write(tmp_path, "moved.json", {"commit": "0123456", "code_hash": "0" * 64})
    for line, error in [(f"moved.json {'0' * 12} {'1' * 12} judged for the code before the last change", None),
                        (f"moved.json {'2' * 12} {current[:12]} judged for another run of the file", "not this one"),
                        ("moved.json judged without saying for which code", "no RECORDED and CODE hashes")]:
        (tmp_path / "STALE.txt").write_text(line + "\n")
        [(_, status, detail)] = provenance.results_status(tmp_path)
        assert status == "stale" and "no longer: judged" in detail, line
        errors = provenance.acknowledgement_errors(tmp_path)
        assert (errors[0].endswith(error) if error else errors == []), line


def test_a_file_hashed_the_old_way_is_stale_and_says_so(tmp_path):
    _write(tmp_path, "narrow.json", {"commit": "0123456", "code_hash": "3" * 64, "code_hashed": ["samplers/**/*.py"]})
    [(_, status, detail)] = provenance.results_status(tmp_path)
    assert status == "stale" and detail.startswith("hashed the old way")
    assert "sampler hash 333333333333 only (narrow.json). Stale" in provenance.measured_by([tmp_path / "narrow.json"])


def test_the_docs_build_marks_a_table_whose_code_is_no_longer_the_trees(tmp_path):
    first = subprocess.run(["git", "rev-list", "--max-parents=0", "HEAD"], cwd=ROOT, capture_output=True,
                           text=True).stdout.split()
    if not first:
        pytest.skip("not a git checkout")
    _write(tmp_path, "run.json", {"commit": first[0][:7], "code_hash": "4" * 64, "code_hashed": ["qpicross/**/*.py"]})
    page = "| a | table |\n\n" + provenance.measured_by([tmp_path / "run.json"]) + "\n\nprose\n"
    assert "Stale" not in page and "make stale-results" in page
    marked = provenance.mark_stale(page, tmp_path, current="5" * 64)
    note = marked.splitlines()[2]
    assert "**Stale at this build:** this tree's code is 555555555555, not the code that measured run.json" in note
    assert re.search(r"\(\d+ commits since touched qpicross/ or benchmarks/\)\.$", note)
    assert provenance.mark_stale(page, tmp_path, current="4" * 64) == page
    (tmp_path / "STALE.txt").write_text(f"run.json {'4' * 12} {'5' * 12} a refactor: same samples\n")
    assert provenance.mark_stale(page, tmp_path, current="5" * 64) == page  # acknowledged for this code


def _copy_of_the_tree(tmp_path):
    """A source checkout's hashed parts: the package and benchmarks/, beside a pyproject.toml."""
    skip = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "qpicross", tmp_path / "qpicross", ignore=skip)
    shutil.copytree(ROOT / "benchmarks", tmp_path / "benchmarks", ignore=skip)
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    return tmp_path / "qpicross"


@pytest.mark.parametrize("module", ["decode.py", "model/formulation.py", "experiments/tts.py",
                                    "samplers/blockshift/sampler.py", "../benchmarks/report.py"])
def test_a_change_to_any_module_that_can_change_a_figure_changes_the_hash(tmp_path, module):
    package = _copy_of_the_tree(tmp_path)
    before = code_hash(package)
    assert before == code_hash(ROOT / "qpicross"), "a copy of the tree hashes as the tree"
    path = package / module
    path.write_text(path.read_text().replace("1e-9", "1e9") + "\n# changed\n")
    assert code_hash(package) != before


def test_the_hash_covers_the_libraries_versions_and_an_installed_package_records_what_it_hashed(tmp_path, monkeypatch):
    package = _copy_of_the_tree(tmp_path)
    before = code_hash(package)
    assert hashed_inputs(package)[:2] == ["qpicross/**/*.py", "benchmarks/*.py"]
    real = importlib.metadata.version
    monkeypatch.setattr(importlib.metadata, "version", lambda name: "0.0" if name == "numpy" else real(name))
    assert code_hash(package) != before and "numpy==0.0" in hashed_inputs(package)
    (tmp_path / "pyproject.toml").unlink()  # an installed wheel: no benchmarks/ hashed beside it
    assert hashed_inputs(package)[0] == "qpicross/**/*.py" and "benchmarks/*.py" not in hashed_inputs(package)
    with_tooling = code_hash(package)
    (tmp_path / "benchmarks" / "report.py").write_text("changed = True\n")
    assert code_hash(package) == with_tooling


def test_every_results_file_written_from_now_on_records_version_hash_and_what_it_covered():
    meta = machine_info()
    assert meta["version"] == __version__ and meta["code_hash"] == code_hash()
    assert meta["code_hashed"] == hashed_inputs() and "commit" in meta and len(meta["load_average"]) == 3
