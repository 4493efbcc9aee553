"""Issue 35, outputs: a full disk or a closed pipe is one line; only regular (or new) files are written,
and every output is checked before the run; errors name the user's file; CSV cells are safe in a
spreadsheet; an interrupted bench writes every output it was asked for."""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys

import pytest
from cli_subprocess import child_env, one_line_error

from conftest import INSTANCES
from qpicross import Puzzle
from qpicross.cli import main
from qpicross.experiments.bench import bench_puzzle, read_results
from qpicross.pipeline.config import SolverConfig
from puzzles import LETTER_A_FILE


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="no /dev/full")
@pytest.mark.parametrize("args", [["show", LETTER_A_FILE], ["info", LETTER_A_FILE],
                                  ["generate", "--size", "5x5", "--seed", "1"],
                                  ["--help"], ["--version"], ["bench", "--help"]])
def test_full_disk_on_stdout_is_one_line(args):
    with open("/dev/full", "w") as full:
        proc = subprocess.run([sys.executable, "-m", "qpicross", *args], stdout=full, stderr=subprocess.PIPE,
                              text=True, env=child_env(), timeout=60)
    line = one_line_error(proc)
    assert "cannot write standard output: No space left on device" in line


@pytest.mark.parametrize("args", [["show", LETTER_A_FILE], ["--version"], ["--help"]])
def test_closed_pipe_ends_quietly(args):
    # qpicross ... | head: the reader has gone, and a Unix tool says nothing (status 141, as for SIGPIPE)
    read, write = os.pipe()
    os.close(read)
    try:
        proc = subprocess.run([sys.executable, "-m", "qpicross", *args], stdout=write,
                              stderr=subprocess.PIPE, text=True, env=child_env(), timeout=60)
    finally:
        os.close(write)
    assert (proc.returncode, proc.stderr) == (141, "")


@pytest.mark.parametrize("flag, name", [("--csv", "out.csv"), ("--json", "out.json"), ("--plot", "out.png")])
def test_force_never_replaces_a_fifo_or_device(flag, name, tmp_path, capsys):
    # A FIFO of our own stands for every node that is not a regular file: a test that named /dev/null here
    # would replace the machine's /dev/null with a regular file when the fix is reverted.
    fifo = tmp_path / name
    os.mkfifo(fifo)
    assert main(["bench", LETTER_A_FILE, "--reads", "2", flag, str(fifo), "--force"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and "is not a regular file" in err[0], err
    assert fifo.is_fifo()


@pytest.mark.skipif(not os.path.isdir("/proc/self"), reason="needs /proc")
def test_unwritable_folder_is_refused_before_the_bench_runs(capsys):
    assert main(["bench", LETTER_A_FILE, "--reads", "2", "--json", "/proc/x.json"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("qpicross: error: cannot write /proc/x.json"), err  # no [1/1] line


def test_errors_name_the_users_file_not_the_temporary_one(tmp_path, capsys):
    out = tmp_path / "gen.foo"
    assert main(["generate", "--size", "5x5", "--seed", "1", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert f"{out}: cannot tell the format" in err and ".tmp" not in err
    assert main(["generate", "--size", "5x5", "--seed", "1", "-o", str(out), "--format", "xml"]) == 2
    err = capsys.readouterr().err
    assert f"{out}: unknown format 'xml'" in err and ".tmp" not in err
    assert not list(tmp_path.iterdir())


def test_csv_cells_are_safe_in_a_spreadsheet(tmp_path, capsys):
    puzzle = tmp_path / "=HYPERLINK(1).px"
    puzzle.write_text((INSTANCES / "5x5.px").read_text())
    out = tmp_path / "b.csv"
    assert main(["bench", str(puzzle), "--reads", "2", "--sweeps", "50", "--label", "@x\x1b[31m\u202e",
                 "--csv", str(out)]) in (0, 1)
    rows = list(csv.DictReader(out.open(newline="")))
    assert rows[0]["puzzle"] == "'=HYPERLINK(1)"
    assert rows[0]["config"] == "'@x\\x1b[31m\\u202e"
    assert read_results(out)[0]["puzzle"] == "=HYPERLINK(1)"  # read back as it was named
    tuned = tmp_path / "t.csv"
    assert main(["tune", str(puzzle), "--grid", "match=1:2:2", "--reads", "2", "--sweeps", "50", "--workers", "1",
                 "--csv", str(tuned)]) in (0, 1)
    assert next(csv.DictReader(tuned.open(newline="")))["puzzle"] == "'=HYPERLINK(1)"
    assert f"wrote {tuned}" in capsys.readouterr().err


def _interrupt_after_one(monkeypatch):
    import qpicross.experiments.bench as cli_bench  # the command imports run_bench from here when it runs

    real = bench_puzzle(Puzzle.from_board(["#."]), SolverConfig(sampler="sa", num_sweeps=10), num_reads=2)

    def interrupted(puzzles, configs, progress=None, **kwargs):
        progress(1, 2, real)
        raise KeyboardInterrupt

    monkeypatch.setattr(cli_bench, "run_bench", interrupted)


def test_interrupted_bench_writes_every_requested_output(tmp_path, capsys, monkeypatch):
    _interrupt_after_one(monkeypatch)
    paths = {flag: tmp_path / name for flag, name in (("--csv", "r.csv"), ("--json", "r.json"), ("--plot", "r.png"))}
    for path in paths.values():
        path.write_text("stale")
    argv = [arg for flag, path in paths.items() for arg in (flag, str(path))]
    assert main(["bench", LETTER_A_FILE, *argv, "--force"]) == 130
    err = capsys.readouterr().err
    assert "1 of 2 results finished, written to" in err and all(str(p) in err for p in paths.values())
    assert len(json.loads(paths["--json"].read_text())["results"]) == 1
    assert len(read_results(paths["--csv"])) == 1
    assert paths["--plot"].read_bytes().startswith(b"\x89PNG")


def test_interrupted_bench_without_outputs_drops_no_file(tmp_path, capsys, monkeypatch):
    _interrupt_after_one(monkeypatch)
    monkeypatch.chdir(tmp_path)
    assert main(["bench", LETTER_A_FILE]) == 130
    captured = capsys.readouterr()
    assert "1 of 2 results finished, shown above" in captured.err and "| config |" in captured.out
    assert not list(tmp_path.iterdir())


def test_plot_and_csv_say_where_they_went(tmp_path, capsys):
    plot = tmp_path / "a.png"
    assert main(["show", LETTER_A_FILE, "--plot", str(plot)]) == 0
    assert f"wrote {plot}" in capsys.readouterr().err
    out = tmp_path / "b.csv"
    assert main(["bench", LETTER_A_FILE, "--reads", "2", "--sweeps", "50", "--csv", str(out)]) in (0, 1)
    assert f"wrote {out}" in capsys.readouterr().err


def test_a_file_that_appears_while_the_output_is_written_is_not_replaced(tmp_path):
    """Issue 59, item 9: two runs writing the same new --plot path both reported success and one silently replaced
    the other. The file another run put there while this one wrote is kept, and this one is refused in one line;
    --force still replaces it."""
    from qpicross.cli._output_files import write_output
    from qpicross.exceptions import UsageError

    path = tmp_path / "plot.png"

    def other_run_wins(tmp):
        tmp.write_bytes(b"mine")
        path.write_bytes(b"the other run's")  # lands between this run's check and its rename

    with pytest.raises(UsageError, match="appeared while this command ran"):
        write_output(path, other_run_wins, force=False)
    assert path.read_bytes() == b"the other run's" and [p.name for p in tmp_path.iterdir()] == ["plot.png"]
    write_output(path, b"mine", force=True)
    assert path.read_bytes() == b"mine"


def test_anneal_writes_its_json_to_a_file_as_bench_does(tmp_path, capsys):
    """Issue 59, item 9: `anneal --json FILE` was refused where `bench --json FILE` works."""
    from qpicross.cli import main

    out = tmp_path / "a.json"
    assert main(["anneal", str(INSTANCES / "5x5.px"), "--seed", "1", "--json", str(out)]) == 0
    captured = capsys.readouterr()
    assert "SOLVED" in captured.out and f"wrote {out}" in captured.err  # the report on stdout, the file beside
    assert json.loads(out.read_text())["solved"] is True
    assert main(["anneal", str(INSTANCES / "5x5.px"), "--json", str(out)]) == 2  # an existing file: --force
    assert "exists; pass --force" in capsys.readouterr().err
    assert main(["anneal", str(INSTANCES / "5x5.px"), "--seed", "1", "--json"]) == 0  # stdout, as before
    assert json.loads(capsys.readouterr().out)["solved"] is True
