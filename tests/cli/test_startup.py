"""Issue 35: ``qpicross --help`` and ``--version`` start fast because parsing imports nothing heavy.

Checked without a clock: a child process parses (``--help``, ``--version``, each command's ``--help``
and a full command line) and then names the heavy modules it imported; none may be there. The names
the help lists without importing the samplers (:mod:`qpicross.names`) must be the registry's.
"""

from __future__ import annotations

import subprocess
import sys

import pytest

from cli_subprocess import ROOT, child_env

HEAVY = ("dimod", "numpy", "numba", "matplotlib", "scipy", "qpicross.samplers")

_CHILD = """
import contextlib, io, sys
from qpicross.cli import build_parser, main
argv = sys.argv[1:]
with contextlib.redirect_stdout(io.StringIO()):
    try:
        if argv[0] == "parse":
            build_parser().parse_args(argv[1:])
        else:
            main(argv)
    except SystemExit:
        pass
print(" ".join(m for m in {heavy!r} if m in sys.modules))
"""


@pytest.mark.parametrize("argv", [
    ["--help"], ["--version"], ["anneal", "--help"], ["bench", "--help"], ["tune", "--help"], ["solve", "--help"],
    ["generate", "--help"], ["show", "--help"], ["info", "--help"], ["export", "--help"],
    ["parse", "anneal", "p.px", "--sampler", "sa", "--encoding", "domain-wall", "--reads", "3", "--seed", "1"],
    ["parse", "bench", "p.px", "q.px", "--sampler", "sa,shift", "--workers", "2", "--baseline"],
    ["parse", "solve", "p.px", "--method", "cpsat", "--model", "M2"],
])
def test_parsing_and_help_import_no_heavy_module(argv):
    proc = subprocess.run([sys.executable, "-c", _CHILD.format(heavy=HEAVY), *argv], capture_output=True,
                          text=True, timeout=60, env=child_env(), cwd=ROOT)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.strip() == "", f"{argv} imported {proc.stdout.strip()}"


def test_help_lists_every_registered_sampler_and_constant():
    """One source of truth: the static names are the registry's and the modules import them from there."""
    import qpicross.samplers
    from qpicross import names
    from qpicross.classical import exact
    from qpicross.model import export
    from qpicross.pipeline import config

    assert tuple(qpicross.samplers.SAMPLERS)[:len(names.SAMPLER_NAMES)] == names.SAMPLER_NAMES
    assert set(qpicross.samplers.SAMPLERS) == set(names.SAMPLER_NAMES)  # nothing registered but these
    assert config.ENCODINGS is names.ENCODINGS and config.MAX_READS is names.MAX_READS
    assert exact.METHODS is names.EXACT_METHODS and exact.MODELS is names.EXACT_MODELS
    assert export.EXPORT_FORMATS is names.EXPORT_FORMATS


def test_a_model_too_large_error_is_still_one_line(tmp_path, capsys, monkeypatch):
    """The lazily made ModelTooLargeError is still caught by the command line (one line, exit 2)."""
    from qpicross.cli import main
    from qpicross.exceptions import ModelTooLargeError

    path = tmp_path / "a.px"
    path.write_text("2,2\n1\n1\n1\n1\n")
    monkeypatch.delenv("QPICROSS_MAX_COUPLERS", raising=False)
    assert main(["anneal", str(path), "--max-memory", "10K"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "couplers" in err
    assert issubclass(ModelTooLargeError, ValueError)
