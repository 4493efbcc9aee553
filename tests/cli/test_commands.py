import json
import re
import subprocess
import sys

import dimod
import numpy as np
import pytest

from qpicross.cli import main
from qpicross.samplers.registry import SAMPLERS, SamplerEntry

from puzzles import LETTER_A_BOARD, LETTER_A_FILE


def run(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_anneal_json(capsys):
    code, out, _ = run(capsys, "anneal", LETTER_A_FILE, "--reads", "200", "--seed", "1", "--json")
    data = json.loads(out)
    assert code == 0
    for key in ("solved", "board", "energy", "num_reads", "success_probability", "num_variables",
                "num_interactions", "timing"):
        assert key in data
    assert data["solved"] is True
    assert data["board"] == LETTER_A_BOARD
    assert set(data["timing"]) == {"build_s", "sample_s", "decode_s"}


def test_anneal_text_and_plot(capsys, tmp_path):
    png = tmp_path / "a.png"
    code, out, _ = run(capsys, "anneal", LETTER_A_FILE, "--reads", "100", "--seed", "2",
                       "--plot", str(png))
    assert code == 0
    assert "SOLVED" in out and "# # # # #  | 5" in out
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_unsolved_anneal_exits_1(capsys):
    code, out, _ = run(capsys, "anneal", LETTER_A_FILE, "--reads", "1", "--sweeps", "1",
                       "--seed", "4", "--beta-range", "5,5", "--weights", "match=0.1", "--json")
    assert code == (0 if json.loads(out)["solved"] else 1)


@pytest.mark.parametrize(
    "content, fragment",
    [("5,5\n1\nx\n", "bad.px:"), ("", "bad.px:1:"), ("2,2\n1\n1\n1\n1,1\n", "bad.px:")],
)
def test_bad_file_is_one_line_and_exit_2(capsys, tmp_path, content, fragment):
    bad = tmp_path / "bad.px"
    bad.write_text(content)
    code, out, err = run(capsys, "anneal", str(bad))
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and fragment in err and "Traceback" not in err


@pytest.mark.parametrize(
    "extra, fragment",
    [(["--weights", "nope=1"], "--weights"), (["--sampler", "x"], "unknown sampler"),
     (["--reads", "0"], "--reads"), (["--sampler", "exact"], "refuses")],
)
def test_bad_options_exit_2(capsys, extra, fragment):
    code, _, err = run(capsys, "anneal", LETTER_A_FILE, *extra)
    assert code == 2 and fragment in err and err.count("\n") == 1


@pytest.mark.parametrize("samplers, fragment", [("sa,,tabu", "empty item between commas"), ("sa,", "empty item"),
                                                 (",", "names no sampler")])
def test_bench_refuses_a_sampler_list_with_a_name_left_out(capsys, samplers, fragment):
    code, out, err = run(capsys, "bench", LETTER_A_FILE, "--sampler", samplers, "--reads", "2")
    assert code == 2 and out == "" and fragment in err and err.count("\n") == 1


def test_show_and_info(capsys, tmp_path):
    code, out, _ = run(capsys, "show", LETTER_A_FILE, "--plot", str(tmp_path / "p.svg"))
    assert code == 0 and "? ? ? ? ?  | 5" in out
    assert (tmp_path / "p.svg").exists()
    code, out, _ = run(capsys, "info", LETTER_A_FILE, "--json")
    info = json.loads(out)
    assert code == 0 and info["num_variables"] == 44 and "match" in info["terms"]


def test_entry_point_runs_as_module():
    proc = subprocess.run([sys.executable, "-m", "qpicross", "info", LETTER_A_FILE],
                          capture_output=True, text=True)
    assert proc.returncode == 0 and "variables" in proc.stdout


class AllZeros(dimod.Sampler):
    """A sampler whose every read sets every variable to 0: each line's one-hot group is empty."""

    parameters = {"num_reads": []}
    properties = {}

    def sample(self, bqm, num_reads=1):
        zeros = np.zeros((num_reads, bqm.num_variables), np.int8)
        return dimod.SampleSet.from_samples_bqm((zeros, list(bqm.variables)), bqm)


def test_unsolved_text_report_lists_violations(capsys, monkeypatch):
    monkeypatch.setitem(SAMPLERS, "all-zeros", SamplerEntry(AllZeros, "every variable 0 (a test stub)"))
    code, out, _ = run(capsys, "anneal", LETTER_A_FILE, "--sampler", "all-zeros", "--reads", "2")
    assert code == 1 and "NOT SOLVED (10 broken lines: row 1," in out
    # no block of any line starts anywhere: one-hot broken once per block, 14 blocks (5x5's clues)
    assert "one_hot penalty 14: row 1: block 1 starts 0 times (+1)" in out and "success probability 0.000 over 2 reads" in out


def test_a_seeded_run_of_racing_streams_says_why_the_seed_does_not_fix_its_reads(capsys):
    code, _, err = run(capsys, "anneal", LETTER_A_FILE, "--seed", "3", "--option", "threads=2")
    assert code == 0 and "note: shift races 2 restart streams" in err and "--option threads=1" in err
    code, _, err = run(capsys, "anneal", LETTER_A_FILE, "--seed", "3", "--option", "threads=1")
    assert code == 0 and "note:" not in err


@pytest.mark.parametrize("debug", [False, True])
def test_a_bug_is_named_as_a_bug_not_as_the_users_mistake(capsys, monkeypatch, debug):
    """An exception that is not a qpicross error (here a ValueError from deep inside a run) is an internal error:
    one line that says so, exit 70 (not 1, which says no solution was found: issue 57, item 6), and its traceback
    only with --debug; a qpicross error stays one line, exit 2."""
    from qpicross.cli import info

    def broken(args):
        raise ValueError("an index went astray")

    monkeypatch.setattr(info, "run", broken)
    code = main((["--debug"] if debug else []) + ["info", LETTER_A_FILE])
    err = capsys.readouterr().err
    assert code == 70 and err.count("\n") == (err.count("\n") if debug else 1)
    assert "qpicross: error: internal error, a bug in qpicross: ValueError: an index went astray" in err
    assert "please report it with the command line, its --debug output and qpicross --version" in err
    assert ("Traceback" in err) == debug and ("run again with --debug" in err) == (not debug)

    def refused(args):
        from qpicross.exceptions import ParameterError

        raise ParameterError("reads must be positive")

    monkeypatch.setattr(info, "run", refused)
    assert main(["info", LETTER_A_FILE]) == 2
    assert capsys.readouterr().err == "qpicross: error: reads must be positive\n"


def test_the_exit_codes_are_one_table_in_the_code_and_on_the_page():
    """Issue 57, item 6: the reference documents every exit status the command line returns."""
    from pathlib import Path

    from qpicross.cli import EXIT_CODES, EXIT_INTERNAL_ERROR

    page = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text()
    documented = {int(code) for code in re.findall(r"^\| (\d+) \|", page, flags=re.M)}
    assert documented == set(EXIT_CODES) and EXIT_INTERNAL_ERROR not in (0, 1, 2)
