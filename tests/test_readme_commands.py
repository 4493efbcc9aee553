"""Every command and the Python example of the README run as shown, from a fresh folder holding the shipped
puzzles, and print what the README says they print (timings aside)."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

from cli_subprocess import child_env
from conftest import ROOT

README = (ROOT / "README.md").read_text()
#: ```console blocks: each "$ qpicross ..." line with the output shown under it (up to the next "$").
CONSOLE = re.findall(r"```console\n(.*?)```", README, re.S)
COMMANDS = [(m.group(1), m.group(2)) for block in CONSOLE
            for m in re.finditer(r"^\$ (qpicross [^\n#]*?)\s*(?:#[^\n]*)?\n(.*?)(?=^\$ |\Z)", block, re.S | re.M)]
#: The bad file the README's error example reads: its third line holds an 'x' in the second row's clue.
BROKEN = "3,2\n1\nx\n1\n1\n1\n"


@pytest.fixture
def folder(tmp_path):
    (tmp_path / "instances").symlink_to(ROOT / "instances")
    (tmp_path / "broken.px").write_text(BROKEN)
    return tmp_path


def test_the_readme_shows_commands():
    assert [c for c, _ in COMMANDS][:3] == ["qpicross anneal instances/5x5.px",
                                             "qpicross anneal instances/5x5.px --sampler sa --reads 1000 --seed 1",
                                             "qpicross anneal broken.px"]


@pytest.mark.parametrize(("command", "shown"), COMMANDS, ids=[c for c, _ in COMMANDS])
def test_command_prints_what_the_readme_shows(folder, command, shown):
    args = command.split()[1:]
    proc = subprocess.run([sys.executable, "-m", "qpicross", *args], cwd=folder, env=child_env(),
                          capture_output=True, text=True, timeout=300)
    printed = (proc.stdout + proc.stderr).splitlines()
    expected = [line for line in shown.rstrip("\n").splitlines() if line != "..." and not line.startswith("time:")]
    assert expected, command
    assert proc.returncode == (2 if "error:" in shown else 0), proc.stderr
    lines = [line for line in printed if not line.startswith("time:")]
    if "..." in shown.splitlines():  # the README shows the end of the output
        lines = lines[-len(expected):]
    assert lines == expected


def test_python_example_runs(folder):
    code = re.search(r"```python\n(.*?)```", README, re.S).group(1)
    proc = subprocess.run([sys.executable, "-c", code], cwd=folder, env=child_env({"MPLBACKEND": "Agg"}),
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr[-2000:]
    solved, verdict = proc.stdout.splitlines()
    assert solved.split()[0] == "True" and solved.split()[2] == "0.0"  # solved, at energy 0
    assert verdict == "[]"  # the verifier finds nothing broken
    assert os.path.getsize(folder / "star10.png") > 1000


def test_the_python_example_says_where_it_runs_and_what_the_folder_above_says(tmp_path):
    """Issue 59, item 13: run from the clone's parent folder, the example stopped with "cannot import name
    'anneal' from 'qpicross' (unknown location)" and nothing said why. It fails so there still (Python imports
    the clone's folder as a namespace package before the installed one), and the README now says it, in the
    words the user sees."""
    (tmp_path / "qpicross").symlink_to(ROOT)  # the folder above a clone named qpicross
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.run([sys.executable, "-c", "from qpicross import anneal"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode != 0, "the import works from the folder above: the README's note is out of date"
    shown = proc.stderr.strip().splitlines()[-1].removeprefix("ImportError: ")
    assert shown in README and "In the folder above the clone" in README, shown


#: Pages that repeat what the README states, checked against it (the README's commands are checked against runs).
GETTING_STARTED = (ROOT / "docs" / "getting-started.md").read_text()
MAKEFILE = (ROOT / "Makefile").read_text()
PYPROJECT = (ROOT / "pyproject.toml").read_text()


def _flat(text: str) -> str:
    return " ".join(text.split())


def test_the_demo_and_getting_started_show_the_readmes_sa_run():
    command = [c for c, _ in COMMANDS][1]
    result = next(line for line in dict(COMMANDS)[command].splitlines() if line.startswith("success probability"))
    assert f"\t$(BIN)/{command}\n" in MAKEFILE  # make demo runs it with the seed, so it prints the same line
    assert f"`{command}`" in _flat(GETTING_STARTED) and f"`{result}`" in _flat(GETTING_STARTED)


def test_the_error_example_is_the_same_on_both_pages():
    shown = dict(COMMANDS)["qpicross anneal broken.px"]
    assert f"$ qpicross anneal broken.px\n{shown}" in GETTING_STARTED


def test_the_pages_state_the_python_version_and_core_dependencies_of_pyproject():
    python = re.search(r'^requires-python = ">=(\S+)"', PYPROJECT, re.M).group(1)
    core = re.search(r"^dependencies = \[(.*?)^\]", PYPROJECT, re.S | re.M).group(1)
    names = sorted(re.findall(r'^\s*"([A-Za-z0-9_.-]+)', core, re.M))
    for page, text in (("README.md", README), ("getting-started.md", GETTING_STARTED)):
        flat = _flat(text)
        assert re.findall(r"Python ≥ (\S+),", flat) == [python], page
        listed = re.search(r"`pip install -e \.` (?:for the core \(|\(core: )(.*?)\)", flat).group(1)
        assert sorted(listed.split(", ")) == names, page
    assert not re.search(r"\b\d[\d ]* tests\b", README)  # a count of tests goes stale with the next test
