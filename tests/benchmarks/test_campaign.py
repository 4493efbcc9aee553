"""The bad-input campaign's classifier and case list (no command is run: synthetic outcomes only)."""

from collections import Counter

import pytest

from benchmarks.campaign import (CLASSES, EXPECTATIONS, FORMULA_NAME, SECRET_TOKEN, Case, Outcome, cases, classify,
                                 write_inputs)

REFUSE = Case(("anneal", "a.px", "--reads", "-1"), "refuse")
ONE_LINE = "qpicross: error: anneal: --reads must be at least 1, got -1 (see --help)\n"


@pytest.mark.parametrize("case, outcome, expected", [
    (REFUSE, Outcome(2, 0.2, stderr=ONE_LINE), "ok"),
    (REFUSE, Outcome(1, 1.5, stderr="Traceback (most recent call last):\n  File ...\nValueError: x\n"), "traceback"),
    (REFUSE, Outcome(1, 1.5, stderr="qpicross: error: internal error, a bug in qpicross: KeyError: 'x'\n"),
     "traceback"),
    (REFUSE, Outcome(-11, 1.5), "traceback"),
    (REFUSE, Outcome(-9, 60.0, timed_out=True), "hang"),
    (REFUSE, Outcome(0, 1.5, stdout="SOLVED\n"), "silent_accept"),
    (REFUSE, Outcome(2, 1.5, stderr="a.px: 25 variables\n" + ONE_LINE), "noisy_error"),
    (REFUSE, Outcome(2, 1.5, stderr="error: no\n"), "noisy_error"),
    (REFUSE, Outcome(1, 1.5, stderr="/x/y.py:3: UserWarning: raw\n  warnings.warn(x)\n" + ONE_LINE), "noisy_error"),
    (REFUSE, Outcome(2, 1.5, stderr=ONE_LINE, leaked=["TMPDIR/dask-scratch-space/global.lock"]), "leak"),
    (REFUSE, Outcome(2, 1.5, stderr=f"qpicross: error: bad token {SECRET_TOKEN}\n"), "leak"),
    (REFUSE, Outcome(2, 1.5, stderr="qpicross: error: evil\x1b[31m\n"), "unsafe_output"),
    (Case(("bench", "f.json", "--csv", "o.csv"), "succeed", csv_output="o.csv"),
     Outcome(0, 3.0, csv_cells=["puzzle", FORMULA_NAME, "-1.5", "-inf"]), "unsafe_output"),
    (Case(("bench", "f.json", "--csv", "o.csv"), "succeed", csv_output="o.csv"),
     Outcome(0, 3.0, csv_cells=["puzzle", "'" + FORMULA_NAME, "-1.5", "-inf"]), "ok"),
    (Case(("solve", "a.px"), "succeed"), Outcome(2, 1.5, stderr=ONE_LINE), "unexpected_exit"),
    (Case(("solve", "big.px"), "interrupt", interrupt_after=3.0),
     Outcome(130, 3.2, stderr="qpicross: error: interrupted\n"), "ok"),
    (Case(("solve", "big.px"), "interrupt", interrupt_after=3.0),
     Outcome(130, 3.2, stdout="interrupted: the best read so far is shown above\n"), "ok"),
    (Case(("solve", "big.px"), "interrupt", interrupt_after=3.0),
     Outcome(130, 3.2, stderr="qpicross: error: interrupted\nException ignored in: <PassBuilder>\n"), "noisy_error"),
    (Case(("bench", "a.px"), "interrupt", interrupt_after=3.0),
     Outcome(130, 3.2, stderr="wrote x.json\nqpicross: interrupted; no result finished, written to x.json\n"), "ok"),
    (Case(("solve", "big.px"), "interrupt", interrupt_after=3.0), Outcome(-9, 13.0, interrupt_ignored=True), "hang"),
    (Case(("solve", "big.px"), "interrupt", interrupt_after=3.0), Outcome(0, 2.0, interrupted_late=True),
     "unexpected_exit"),
    (Case(("show", "big.px"), "pipe"), Outcome(141, 1.0), "ok"),
    (Case(("show", "big.px"), "pipe"), Outcome(0, 1.0), "ok"),
    (Case(("show", "big.px"), "pipe"), Outcome(1, 1.0, stderr="qpicross: error: Broken pipe\n"), "noisy_error"),
])
def test_classify(case, outcome, expected):
    assert classify(case, outcome) == expected


def test_every_class_is_reachable_from_the_table_above():
    assert set(CLASSES) == {"hang", "traceback", "leak", "unsafe_output", "silent_accept", "noisy_error",
                            "unexpected_exit", "ok"}


def test_the_case_list_has_no_duplicate_command_line_and_covers_every_command_and_expectation():
    all_cases = cases()
    counts = Counter(case.argv for case in all_cases)
    assert [argv for argv, n in counts.items() if n > 1] == []
    assert len(all_cases) >= 300
    commands = {case.argv[0] for case in all_cases if case.argv}
    assert {"anneal", "solve", "generate", "show", "info", "bench", "tune", "export"} <= commands
    assert {case.expect for case in all_cases} == set(EXPECTATIONS)
    assert sum(case.expect == "interrupt" for case in all_cases) >= 6


def test_an_interrupt_case_needs_its_delay():
    with pytest.raises(ValueError):
        Case(("anneal", "a.px"), "interrupt")
    with pytest.raises(ValueError):
        Case(("anneal", "a.px"), "refuse", interrupt_after=1.0)


def test_the_inputs_the_cases_name_are_written(tmp_path):
    write_inputs(tmp_path)
    assert (tmp_path / "fifo.px").is_fifo() and (tmp_path / "dir.px").is_dir()
    assert (tmp_path / "a.px").read_text().startswith("5,5\n")
    assert next((tmp_path / "formula_name").iterdir()).name.startswith("@")
