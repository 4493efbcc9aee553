"""qpicross export: every format reads back to the model that was built."""

from __future__ import annotations

import json

import dimod
import numpy as np
import pytest

from qpicross import PenaltyWeights, build_formulation, load_puzzle
from qpicross.cli import main
from qpicross.model.cqm import build_cqm
from qpicross.model.export import load_model, read_coo
from puzzles import LETTER_A_FILE


@pytest.mark.parametrize("suffix", [".json", ".bqm", ".coo"])
def test_bqm_formats_round_trip(tmp_path, letter_a, suffix):
    out = tmp_path / f"model{suffix}"
    assert main(["export", LETTER_A_FILE, "-o", str(out), "--weights", "one_hot=2.5,match=0.75"]) == 0
    expected = build_formulation(letter_a).bqm(PenaltyWeights(one_hot=2.5, match=0.75))
    model = load_model(out)
    assert model == expected  # same labels, biases and offset
    assert set(model.variables) == set(expected.variables)


def test_coo_is_readable_without_dimod(tmp_path, letter_a):
    """The energy a plain 'i j Q' reader computes equals the BQM's, labels from the map."""
    out = tmp_path / "model.coo"
    assert main(["export", LETTER_A_FILE, "-o", str(out)]) == 0
    lines = out.read_text().splitlines()
    offset = float(next(line.split()[2] for line in lines if line.startswith("# offset ")))
    labels = [tuple(json.loads(line.split(" ", 3)[3])) for line in lines if line.startswith("# label ")]
    data = np.array([line.split() for line in lines if not line.startswith("#")], dtype=float)
    i, j, q = data[:, 0].astype(int), data[:, 1].astype(int), data[:, 2]
    assert (i <= j).all()
    bqm = build_formulation(letter_a).bqm()
    rng = np.random.default_rng(3)
    for _ in range(20):
        x = rng.integers(0, 2, len(labels))
        plain = offset + float(np.sum(q * x[i] * x[j]))
        assert plain == pytest.approx(bqm.energy(dict(zip(labels, x))))


def test_coo_round_trips_spin_models_and_odd_labels(tmp_path):
    import io

    from qpicross.model.export import write_coo

    spin = dimod.BinaryQuadraticModel({"a": 0.5, 3: -1.25}, {("a", 3): 0.1}, -2.0, "SPIN")
    text = io.StringIO()
    write_coo(spin, text)
    back = read_coo(io.StringIO(text.getvalue()))
    assert back == spin.change_vartype("BINARY", inplace=False)


def test_cqm_export_round_trips(tmp_path, letter_a):
    out = tmp_path / "model.cqm"
    assert main(["export", LETTER_A_FILE, "-o", str(out), "--matching", "constraints"]) == 0
    assert load_model(out).is_equal(build_cqm(build_formulation(letter_a), "constraints"))


def test_presolve_exports_the_reduced_model(tmp_path, shared_instances):
    from qpicross.classical.logic import propagate

    puzzle = load_puzzle(shared_instances / "bompol" / "bird.px")
    full, reduced = tmp_path / "full.json", tmp_path / "reduced.coo"
    bird = str(shared_instances / "bompol" / "bird.px")
    assert main(["export", bird, "-o", str(full)]) == 0
    assert main(["export", bird, "-o", str(reduced), "--presolve"]) == 0
    expected = build_formulation(puzzle, known=propagate(puzzle).known)
    model = load_model(reduced)
    assert model == expected.bqm()
    assert model.num_variables < load_model(full).num_variables
    fixed = [line for line in reduced.read_text().splitlines() if line.startswith("# fixed ")]
    assert len(fixed) == len(expected.fixed_labels)


def test_export_refuses_to_overwrite_and_bad_extensions(tmp_path, capsys):
    out = tmp_path / "model.json"
    out.write_text("keep me")
    assert main(["export", LETTER_A_FILE, "-o", str(out)]) == 2
    assert out.read_text() == "keep me" and "--force" in capsys.readouterr().err
    assert main(["export", LETTER_A_FILE, "-o", str(out), "--force"]) == 0
    assert main(["export", LETTER_A_FILE, "-o", str(tmp_path / "model.txt")]) == 2
    assert "unknown model extension" in capsys.readouterr().err


def test_read_coo_names_the_bad_line(tmp_path):
    bad = tmp_path / "bad.coo"
    bad.write_text("# offset 0.0\n0 0 1.0\n0 1 x\n")
    with pytest.raises(ValueError, match="line 3"):
        read_coo(bad)
