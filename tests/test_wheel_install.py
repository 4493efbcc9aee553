"""The built wheel works without the repository beside it: build it, install it (not editable) into a
fresh folder, and run the CLI on a puzzle from a temporary directory."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def installed(tmp_path_factory):
    pytest.importorskip("setuptools", minversion="77")
    wheels, target = tmp_path_factory.mktemp("wheels"), tmp_path_factory.mktemp("site")
    build = subprocess.run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--no-build-isolation",
                            "--wheel-dir", str(wheels), str(ROOT)], capture_output=True, text=True, cwd=wheels)
    assert build.returncode == 0, build.stderr
    (wheel,) = wheels.glob("qpicross-*.whl")
    install = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-index",
                              "--target", str(target), str(wheel)], capture_output=True, text=True, cwd=wheels)
    assert install.returncode == 0, install.stderr
    return target


def _run(installed, cwd, *args):
    env = {**os.environ, "PYTHONPATH": str(installed)}  # ahead of the editable install of the checkout
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, cwd=cwd, env=env, timeout=600)


def test_the_installed_package_is_the_wheel_not_the_checkout(installed, tmp_path):
    out = _run(installed, tmp_path, "-c", "import qpicross; print(qpicross.__file__)")
    assert out.returncode == 0, out.stderr
    assert Path(out.stdout.strip()).is_relative_to(installed)


def test_cli_from_the_wheel_solves_a_puzzle_in_a_temporary_directory(installed, tmp_path):
    (tmp_path / "a.px").write_text((ROOT / "instances" / "5x5.px").read_text())
    solved = _run(installed, tmp_path, "-m", "qpicross", "anneal", "a.px", "--sampler", "sa", "--reads", "200")
    assert solved.returncode == 0, solved.stderr
    assert "SOLVED" in solved.stdout
    broken = tmp_path / "bad.px"
    broken.write_text("5 5\nx\n")
    refused = _run(installed, tmp_path, "-m", "qpicross", "info", "bad.px")
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "bad.px" in refused.stderr
