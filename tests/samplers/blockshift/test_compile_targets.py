"""The kernel mark: what every block-shift kernel is compiled with."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from qpicross.samplers.blockshift import chains, compile_targets, driver  # noqa: F401 - every kernel module, marked

ROOT = Path(__file__).resolve().parents[3]


def test_only_the_kernels_that_allocate_count_references():
    """A sweep's kernels allocate nothing, so they run without numba's reference counting (about half of a profile
    sweep's time when they had it); the ones that allocate, or run a ``prange``, keep it."""
    counting = {name for (_, name), (_, options, dispatcher) in compile_targets._KERNELS.items()
                if dispatcher.targetoptions.get("_nrt", True)}
    assert counting == {"population_read", "run_ladders", "close_ladders"}
    for kernels in (chains.PROFILE, chains.BOARD, chains.FIELDS):  # the copies each chain's build made
        assert kernels.read.targetoptions["_nrt"] is False
        assert kernels.restart_sweeps.targetoptions["_nrt"] is False


def test_a_binding_must_name_an_open_name():
    from qpicross.samplers.blockshift import engine

    with pytest.raises(ValueError, match="not open names"):
        compile_targets.build("cpu", {"chain_stat": engine.luby})


def test_an_open_name_called_unbound_says_what_binds_it():
    """The placeholders the kernels import (so that go-to-definition finds the table of open names) say so if a
    kernel of no chain's build ever runs them; every chain's bindings bind only names of the table."""
    with pytest.raises(RuntimeError, match="open name of the block-shift kernels"):
        compile_targets.chain_start(0, None, None, None)
    for bindings in (driver.PROFILE_LAUNCH, driver.FIELDS_LAUNCH):
        assert set(bindings) <= set(compile_targets.OPEN_NAMES)


def test_a_stale_cache_is_cleared_once_and_a_fresh_one_kept(tmp_path):
    sources = [tmp_path / "engine.py", tmp_path / "profile.py"]
    for path in sources:
        path.write_text(f"# {path.name}\n")
    cached = [tmp_path / "engine.read-432.py311.nbi", tmp_path / "engine.read-432.py311.1.nbc"]
    other = tmp_path / "engine.cpython-311.pyc"

    def fill():
        for path in [*cached, other]:
            path.write_text("")

    fill()
    assert compile_targets.clear_stale_cache(tmp_path, sources) == 2  # no stamp: of unknown sources
    assert not any(p.exists() for p in cached) and other.exists()
    fill()
    assert compile_targets.clear_stale_cache(tmp_path, sources) == 0 and all(p.exists() for p in cached)
    sources[1].write_text("# profile.py, edited\n")  # a callee's module: engine's cache is stale too
    assert compile_targets.clear_stale_cache(tmp_path, sources) == 2 and not cached[0].exists()
    fill()
    extra = tmp_path / "joint.py"
    extra.write_text("")
    assert compile_targets.clear_stale_cache(tmp_path, [*sources, extra]) == 2  # a kernel module added


_CALLEE = "from qpicross.samplers.blockshift.compile_targets import kernel\n\n@kernel\ndef callee(x):\n    return x + {}\n"
_CALLER = "from kernels.callee import callee\nfrom qpicross.samplers.blockshift.compile_targets import kernel\n\n" \
          "@kernel\ndef caller(x):\n    return callee(x)\n"


def test_an_edited_callee_reaches_a_cached_caller_in_another_module(tmp_path):
    """numba alone would load the caller's cached machine code, the old callee inlined in it."""
    package = tmp_path / "kernels"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "caller.py").write_text(_CALLER)
    run = [sys.executable, "-c", "from kernels.caller import caller; print(caller(1))"]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    answers = []
    for step in (1, 2):
        (package / "callee.py").write_text(_CALLEE.format(step))
        answers.append(subprocess.run(run, env=env, capture_output=True, text=True, check=True).stdout.strip())
        assert list((package / "__pycache__").glob("caller.caller-*.nbi")), "the caller was cached"
    assert answers == ["2", "3"]
