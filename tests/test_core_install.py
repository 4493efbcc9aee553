"""Issue 15: a core-only install (``pip install .``, no extras) answers every command that needs an extra
with one line naming the extra (exit 2), never a traceback.

The core-only install is simulated in a child process: every module an extra provides is set to None in
``sys.modules`` before qpicross is imported, so importing it fails as it would where it is absent.
"""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from cli_subprocess import child_env

from puzzles import LETTER_A_FILE

#: What the extras install (import names), none of which the core may need
#: (networkx is not here: dwave-samplers, a core dependency, needs it; nor pysat: python-sat is a core dependency,
#: for solve and generate --unique).
EXTRA_MODULES = [
    "ortools", "ortools.sat", "ortools.sat.python", "ortools.sat.python.cp_model",
    "dwave.system", "dwave.cloud", "amplify", "dask", "distributed", "pandas", "openjij",
    "simulated_bifurcation", "torch", "hybrid", "nbclient", "nbformat", "hypothesis",
]


#: (command line, the extra its one line must name)
NEEDS_AN_EXTRA = [
    (["solve", LETTER_A_FILE, "--method", "cpsat"], "classical"),
    (["generate", "--size", "5x5", "--unique", "--method", "cpsat"], "classical"),
    (["anneal", LETTER_A_FILE, "--sampler", "qpu"], "cloud"),
    (["anneal", LETTER_A_FILE, "--sampler", "hybrid"], "cloud"),
    (["anneal", LETTER_A_FILE, "--sampler", "hybrid-cqm"], "cloud"),
    (["anneal", LETTER_A_FILE, "--sampler", "amplify"], "amplify"),
    (["anneal", LETTER_A_FILE, "--sampler", "openjij-sa"], "openjij"),
    (["anneal", LETTER_A_FILE, "--sampler", "sb"], "sb"),
    (["anneal", LETTER_A_FILE, "--sampler", "pt"], "hybrid"),
    (["bench", LETTER_A_FILE, "--reads", "2", "--sampler", "openjij-sqa"], "openjij"),
    (["bench", LETTER_A_FILE, "--reads", "2", "--scheduler", "tcp://127.0.0.1:1"], "tune"),
    (["tune", LETTER_A_FILE, "--grid", "match=1:2:2", "--scheduler", "tcp://127.0.0.1:1"], "tune"),
    (["anneal", LETTER_A_FILE, "--scheduler", "local:2"], "tune"),
    (["anneal", LETTER_A_FILE, "--scheduler", "tcp://127.0.0.1:1"], "tune"),
    (["anneal", LETTER_A_FILE, "--option", "scheduler=local:2"], "tune"),
]

#: Commands the core does on its own.
CORE_ONLY = [
    ["anneal", LETTER_A_FILE, "--seed", "1"],
    ["solve", LETTER_A_FILE, "--method", "logic"],
    ["solve", LETTER_A_FILE],  # the README's second command (issue 59, item 1)
    ["generate", "--size", "5x5", "--unique", "--seed", "1"],
    ["info", LETTER_A_FILE],
    ["show", LETTER_A_FILE],
    ["generate", "--size", "5x5", "--seed", "1"],
]

_CHILD = """
import contextlib, io, json, sys
for name in {blocked!r}:
    sys.modules[name] = None
from qpicross.cli import main
results = []
for argv in json.loads(sys.argv[1]):
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except BaseException as exc:  # a traceback the command line let through
            import traceback
            code, err = "raised", io.StringIO(traceback.format_exc())
    results.append({{"code": code, "err": err.getvalue()}})
print(json.dumps(results))
"""


@pytest.fixture(scope="module")
def core_results(tmp_path_factory):
    argvs = [argv for argv, _ in NEEDS_AN_EXTRA] + CORE_ONLY
    proc = subprocess.run([sys.executable, "-c", _CHILD.format(blocked=EXTRA_MODULES), json.dumps(argvs)],
                          capture_output=True, text=True, timeout=300, env=child_env(),
                          cwd=tmp_path_factory.mktemp("core"))
    assert proc.returncode == 0, proc.stderr[-3000:]
    return dict(zip(map(tuple, argvs), json.loads(proc.stdout.splitlines()[-1])))


@pytest.mark.parametrize("argv, extra", NEEDS_AN_EXTRA, ids=[" ".join(a[:1] + a[2:]) for a, _ in NEEDS_AN_EXTRA])
def test_a_command_needing_an_extra_says_which_in_one_line(argv, extra, core_results):
    result = core_results[tuple(argv)]
    assert result["code"] == 2, result
    lines = result["err"].splitlines()
    assert len(lines) == 1 and lines[0].startswith("qpicross: error: "), result["err"][-2000:]
    assert f"qpicross[{extra}]" in lines[0]


@pytest.mark.parametrize("argv", CORE_ONLY, ids=[" ".join(a[:1] + a[2:]) for a in CORE_ONLY])
def test_the_core_works_without_any_extra(argv, core_results):
    result = core_results[tuple(argv)]
    assert result["code"] == 0, result
    assert "Traceback" not in result["err"]


def test_what_the_core_commands_import_is_a_core_dependency():
    """The simulated core install above blocks only what the extras bring: what it leaves importable must be
    what pyproject.toml's core dependencies install (issue 59, item 1: python-sat, for solve and
    generate --unique, was in the 'classical' extra, and the README's second command failed after make demo)."""
    import re
    import tomllib

    from conftest import ROOT

    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    core = {re.split(r"[<>=!~ \[]", spec)[0].lower() for spec in project["dependencies"]}
    assert "python-sat" in core
    extras = {re.split(r"[<>=!~ \[]", spec)[0].lower() for specs in project["optional-dependencies"].values()
              for spec in specs}
    assert "python-sat" not in extras and "ortools" in extras
