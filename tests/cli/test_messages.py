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


def test_a_valid_board_that_is_not_a_ground_state_says_so(capsys):
    # plain SA, seed 3: the best read's row variables paint the solution, its column variables another board
    code = main(["anneal", "instances/5x5.px", "--sampler", "sa", "--reads", "3", "--sweeps", "100", "--seed", "3"])
    out = capsys.readouterr().out
    assert code == 1
    assert ("NOT SOLVED: the board satisfies the clues, but the read is not a ground state of the QUBO (energy 2; "
            "penalty terms not 0: match 2)") in out, out
    assert "broken lines" not in out
    assert "  match penalty 2: row 1, column 2: rows paint 0, columns paint 1 (+1); row 4, column 2:" in out, out


def test_rows_columns_and_blocks_are_counted_from_one(tmp_path, capsys):
    path = tmp_path / "broken.px"
    path.write_text("2,2\n1\n1,1\n1\n1\n")  # the second row's clue needs 3 cells
    assert main(["show", str(path)]) == 2
    assert capsys.readouterr().err.strip() == f"qpicross: error: {path}:3: row 2: clue 1 1 needs 3 cells but the line has 2"
    blank = tmp_path / "blank.px"
    blank.write_text("2,2\n2\n0\n0\n2\n")  # the first row fills the first column, whose clue is blank
    assert main(["anneal", str(blank)]) == 1
    assert "(line logic: column 1: no placement of clue 0 fits)" in capsys.readouterr().out


def test_one_is_singular(tmp_path, capsys):
    path = tmp_path / "one.px"
    path.write_text("1,1\n1\n1\n")
    assert main(["export", str(path), "-o", str(tmp_path / "one.json")]) == 0
    assert ": json, 2 variables, 1 interaction\n" in capsys.readouterr().out


@pytest.mark.parametrize("command, hint", [
    (["anneal"], "; use --force to build it anyway"),
    (["bench", "--reads", "2"], "; give a larger --max-memory to run it anyway"),
    (["tune", "--grid", "match=1:2:2"], "; give a larger --max-memory to run it anyway"),
])
def test_the_size_guard_speaks_in_options_on_the_command_line(command, hint, capsys, monkeypatch):
    monkeypatch.setenv("QPICROSS_MAX_COUPLERS", "10")
    assert main([command[0], LETTER_A_FILE, *command[1:]]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].endswith(hint), err
    assert "; --max-memory or QPICROSS_MAX_MEMORY)" in err[0] and "=True" not in err[0] and "max_couplers" not in err[0]


def test_the_size_guard_speaks_in_keywords_in_python():
    from qpicross.model.size import ModelTooLargeError, check_size
    from qpicross.puzzle import load_puzzle

    with pytest.raises(ModelTooLargeError, match=r"max_couplers=, QPICROSS_MAX_COUPLERS or QPICROSS_MAX_MEMORY\); "
                                                 r"use force=True to build it anyway"):
        check_size(load_puzzle(LETTER_A_FILE), max_couplers=10)


def test_show_refuses_an_existing_plot_before_printing(tmp_path, capsys):
    existing = tmp_path / "existing.png"
    existing.write_bytes(b"mine")
    assert main(["show", LETTER_A_FILE, "--plot", str(existing)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err == f"qpicross: error: {existing} exists; pass --force to overwrite it\n"
    assert existing.read_bytes() == b"mine"


def test_anneal_refuses_the_exact_sampler_before_printing_the_model(capsys):
    assert main(["anneal", LETTER_A_FILE, "--sampler", "exact", "--reads", "1"]) == 2
    out, err = capsys.readouterr()
    assert out == "", out
    assert len(err.splitlines()) == 1 and "enumerates 2^n assignments" in err, err


def test_anneal_prints_the_model_before_its_report(capsys):
    assert main(["anneal", LETTER_A_FILE, "--sampler", "sa", "--reads", "2", "--sweeps", "100", "--seed", "1"]) in (0, 1)
    first = capsys.readouterr().out.splitlines()[0]
    assert first.endswith(" variables, 140 interactions; sampler sa") or "interactions; sampler sa" in first, first


class _Terminal:
    """A stderr that says it is a terminal."""

    def __init__(self):
        self.text = ""

    def isatty(self) -> bool:
        return True

    def write(self, text: str) -> None:
        self.text += text

    def flush(self) -> None:
        pass


def test_a_cache_miss_is_announced_on_any_output_and_compiled_before_the_clock(monkeypatch, capsys, letter_a_path):
    """Issue 59, item 5: the first shift-batched-cpu run compiled for 324 s with no word, piped output never said
    it was compiling, and the compile time was reported as sampling. The note now goes to stderr on a terminal or
    not, for the batched kernels too, and anneal compiles them (the warm-up) before its clock starts."""
    import importlib
    import io

    from qpicross.cli import _terminal
    from qpicross.experiments import bench
    from qpicross.samplers.blockshift import chains, driver

    monkeypatch.setattr(chains, "compiled", lambda: False)
    monkeypatch.setattr(driver, "compiled", lambda chain="profile": False)
    for name in ("shift", "shift-batched-cpu"):
        piped = io.StringIO()  # not a terminal
        assert _terminal.compile_note(name, piped) and piped.getvalue() == _terminal.COMPILE_NOTES[name] + "\n"
    assert not _terminal.compile_note("sa", io.StringIO())  # no kernels of ours to compile
    order = []
    pipeline = importlib.import_module("qpicross.pipeline.run")
    real_run = pipeline.run
    monkeypatch.setattr(bench, "warm_up", lambda config: order.append(("warm-up", config.sampler_name)))
    monkeypatch.setattr(pipeline, "run", lambda *a, **k: order.append(("run",)) or real_run(*a, **k))
    assert main(["anneal", letter_a_path, "--seed", "1", "--option", "threads=1"]) == 0
    assert order == [("warm-up", "shift"), ("run",)]
    assert _terminal.COMPILE_NOTES["shift"] in capsys.readouterr().err
    monkeypatch.setattr(chains, "compiled", lambda: True)
    order.clear()
    assert main(["anneal", letter_a_path, "--seed", "1", "--option", "threads=1"]) == 0
    assert order == [("run",)] and "compiling" not in capsys.readouterr().err


def test_the_cache_is_read_from_numba(tmp_path, monkeypatch):
    import importlib
    import sys

    from qpicross.samplers.blockshift.compile_targets import cached

    (tmp_path / "fresh_kernel.py").write_text("import numba\n\n@numba.njit(cache=True)\ndef twice(x):\n"
                                              "    return 2 * x\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("fresh_kernel")
    assert not cached(module.twice)
    assert module.twice(2) == 4
    del sys.modules["fresh_kernel"]
    assert cached(importlib.import_module("fresh_kernel").twice)


@pytest.mark.parametrize("command, early_stop", [
    (["anneal", "--reads", "100"], "read"),  # N whole reads, as shift draws them: the success probability
    (["anneal"], "puzzle"),  # looking for a solution: the first one ends the run
    (["anneal", "--reads", "100", "--early-stop", "puzzle"], "puzzle"),
    (["tune", "--grid", "match=1:2:2"], "read"),
])
def test_batched_reads_measure_whole_reads_as_shift_does(command, early_stop):
    # the batched sampler's own default stops a puzzle's every ladder at its first solution: with --reads 100 on
    # a 10x10 it reported p 0.13 where shift, the same algorithm, reported 1.00
    from qpicross.cli import build_parser
    from qpicross.cli._solver_options import config_from_args

    args = build_parser().parse_args([command[0], LETTER_A_FILE, *command[1:], "--sampler", "shift-batched-cpu"])
    assert config_from_args(args).early_stop == early_stop


def test_counts_of_one_are_singular(tmp_path, capsys):
    """Issue 59, item 12: "over 1 reads" and "(1 puzzles numbered 1..1)"."""
    from puzzles import LETTER_A_FILE

    assert main(["anneal", LETTER_A_FILE, "--sampler", "sa", "--reads", "1", "--seed", "1"]) in (0, 1)
    assert "over 1 read (sa)" in capsys.readouterr().out
    one = tmp_path / "one.txt"
    one.write_text("$1\n1\n1\n1\n1\n")  # a tournament file holding one 1x1 puzzle
    assert main(["show", f"{one}#2"]) == 2
    err = capsys.readouterr().err
    assert "(1 puzzle, numbered 1)" in err and "puzzles numbered" not in err


def test_every_shift_run_is_bounded_by_a_time_limit_it_states(capsys, monkeypatch):
    """Issue 59, item 5: ``anneal random100.px --reads 2`` was still running at 590 s with one header line and
    nothing bounding it. A run of the shift samplers without --time-limit now stops after 600 s of sampling, and
    says so; a generic sampler's --reads N stays N reads (a limit would make its chunks follow the clock)."""
    import importlib

    pipeline = importlib.import_module("qpicross.pipeline.run")
    real_run, limits = pipeline.run, []
    monkeypatch.setattr(pipeline, "run",
                        lambda p, config, **k: limits.append(config.time_limit) or real_run(p, config, **k))
    assert main(["anneal", LETTER_A_FILE, "--reads", "2", "--seed", "1", "--option", "threads=1"]) == 0
    assert "; at most 600 s (--time-limit)" in capsys.readouterr().out.splitlines()[0]
    assert main(["anneal", LETTER_A_FILE, "--reads", "2", "--seed", "1", "--time-limit", "30"]) == 0
    assert "at most" not in capsys.readouterr().out.splitlines()[0]
    assert main(["anneal", LETTER_A_FILE, "--sampler", "sa", "--reads", "20", "--seed", "1"]) == 0
    assert limits == [600.0, 30.0, None]
    capsys.readouterr()
    assert main(["bench", LETTER_A_FILE, "--reads", "2", "--option", "threads=1"]) == 0
    assert "note: each run samples for at most 600 s (--time-limit S sets it)" in capsys.readouterr().err


def test_a_bad_beta_range_is_told_in_the_flags_words(capsys):
    """Issue 59, item 12: the command line said ``beta_range wants finite 0 <= hot <= cold, cold > 0, got (5.0,
    1.0)``: a Python tuple, and not the flag's name."""
    assert main(["anneal", LETTER_A_FILE, "--sampler", "sa", "--beta-range", "5,1"]) == 2
    assert capsys.readouterr().err == ("qpicross: error: --beta-range wants finite hot <= cold (0 <= hot, 0 < cold), "
                                       "got 5,1\n")


@pytest.mark.parametrize("command", [["anneal"], ["show"], ["info"], ["solve"], ["bench"], ["export", "-o", "m.json"]])
def test_a_missing_file_is_told_it_does_not_exist_whatever_its_extension(command, capsys, tmp_path):
    """Issue 59, item 12: a missing ``nonexist.txt`` was told about its format, not that it does not exist."""
    missing = str(tmp_path / "nonexist.txt")
    argv = [command[0], missing, *(str(tmp_path / a) if a.endswith(".json") else a for a in command[1:])]
    assert main(argv) == 2
    assert capsys.readouterr().err == f"qpicross: error: {missing}: no such file or directory\n"


def test_logic_rounds_without_presolve_is_refused_not_turned_on_silently(capsys):
    """Issue 59, item 12: ``--logic-rounds 3`` without ``--presolve`` ran line logic the user had not asked for."""
    assert main(["anneal", LETTER_A_FILE, "--logic-rounds", "3"]) == 2
    assert capsys.readouterr().err == ("qpicross: error: --logic-rounds runs line logic between anneals, after "
                                       "presolve: add --presolve\n")
    assert main(["anneal", LETTER_A_FILE, "--logic-rounds", "3", "--presolve", "--seed", "1"]) == 0


def test_tune_interrupted_before_its_first_point_writes_no_csv(monkeypatch, capsys, tmp_path):
    """Issue 59, item 8: ``tune`` interrupted before its first point left a CSV holding only its header."""
    from qpicross.experiments import tune as tuning

    real = tuning.tune

    def interrupted_at_once(*args, progress=None, **kwargs):
        def stop(done, total):
            raise KeyboardInterrupt

        return real(*args, progress=stop, **kwargs)

    monkeypatch.setattr(tuning, "tune", interrupted_at_once)
    monkeypatch.chdir(tmp_path)
    csv = tmp_path / "t.csv"
    argv = ["tune", LETTER_A_FILE, "--grid", "match=1:2:2", "--seeds", "2", "--workers", "1", "--csv", str(csv)]
    assert main(argv) == 130  # stopped after the first run: point 1 has one of its two seeds
    assert not csv.exists() and not list(tmp_path.glob("*.csv"))
    assert "interrupted before any of the 2 points finished; nothing written" in capsys.readouterr().err


def test_bench_with_a_plot_loads_matplotlib_before_the_run_not_on_ctrl_c(monkeypatch, tmp_path):
    """Issue 59, item 8: ``bench --plot`` took 3.8 s to answer Ctrl-C, importing matplotlib to draw what had
    finished; it is imported before the first job, so Ctrl-C only draws."""
    import sys

    from qpicross.experiments import bench

    seen = []

    def interrupted(*args, **kwargs):
        seen.append("matplotlib.pyplot" in sys.modules)
        raise KeyboardInterrupt

    monkeypatch.delitem(sys.modules, "matplotlib.pyplot", raising=False)
    monkeypatch.setattr(bench, "run_bench", interrupted)
    assert main(["bench", LETTER_A_FILE, "--reads", "2", "--plot", str(tmp_path / "b.png")]) == 130
    assert seen == [True]
