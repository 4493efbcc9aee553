"""Issue 43, what the command line says: one plain line a user can act on, numbers as the user counts them."""

from __future__ import annotations

import warnings

import pytest

from qpicross.cli import main
from puzzles import LETTER_A_FILE


@pytest.mark.parametrize("command", [["anneal"], ["bench"], ["tune", "--grid", "match=1:2:2"]], ids=str)
@pytest.mark.parametrize("encoding", ["thermometer", "domain-wall"])
@pytest.mark.parametrize("sampler", ["shift", "shift-batched-cpu"])
def test_a_shift_sampler_on_another_encoding_is_refused_in_one_line(command, encoding, sampler, capsys):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no raw UserWarning on the way
        assert main([command[0], LETTER_A_FILE, *command[1:], "--reads", "2", "--encoding", encoding, "--sampler", sampler]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1, err
    assert err[0] == (f"qpicross: error: --encoding {encoding}: the {sampler} sampler anneals the one-hot encoding "
                      f"(its moves shift one-hot block starts); use --sampler sa (or another generic sampler) for "
                      f"{encoding}")


def test_another_encoding_with_a_generic_sampler_runs_without_a_warning(capsys):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        code = main(["anneal", LETTER_A_FILE, "--reads", "5", "--sweeps", "200", "--seed", "1", "--encoding",
                     "thermometer", "--sampler", "sa"])
    assert code in (0, 1)
    assert capsys.readouterr().err == ""
