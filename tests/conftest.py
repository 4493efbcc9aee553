"""Shared fixtures: the shipped instances, the shared puzzle collections, a machine without cloud credentials.

The small puzzles the tests share are constants in ``tests/puzzles.py``. Test files are found by pytest's default
(prepend) import mode, without ``__init__.py``: every test folder is put on ``sys.path``, so ``conftest``,
``puzzles`` and ``cli_subprocess`` import by name from any of them, and no two test files may share a name."""

from __future__ import annotations

import signal
import threading
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
INSTANCES = ROOT / "instances"
SHARED_INSTANCES = ROOT.parent / "shared" / "instances"


def pytest_collection_modifyitems(items):
    """Tests of an ``xdist_group`` first (the docs build: about a minute and a half in one worker), so that ``make
    test``'s workers share out the many short tests after it and end together, rather than one building the site
    while the other has nothing left. The order is otherwise the collection's."""
    items.sort(key=lambda item: item.get_closest_marker("xdist_group") is None)


@pytest.fixture(autouse=True)
def ctrl_c_as_in_a_terminal():
    """Every test starts with Python's own SIGINT handler, as a command in a terminal does: an xdist worker may
    start with SIGINT ignored, and a test of the command line's exit path may leave it so, and then a simulated
    Ctrl-C (``signal.raise_signal``, ``_thread.interrupt_main``) does nothing and a test of Ctrl-C fails by the
    order the tests happened to run in."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


@pytest.fixture
def letter_a():
    """The letter "A" read from the shipped file (named "5x5"), as a test of a reader or the command line sees it."""
    from puzzles import LETTER_A_FILE
    from qpicross import load_puzzle

    return load_puzzle(LETTER_A_FILE)


@pytest.fixture
def shared_instances() -> Path:
    """../shared/instances, or skip: those collections are never copied into the repository."""
    if not SHARED_INSTANCES.is_dir():
        pytest.skip(f"{SHARED_INSTANCES} is absent (shared puzzle collections are not in the repository)")
    return SHARED_INSTANCES


@pytest.fixture
def letter_a_path() -> str:
    from puzzles import LETTER_A_FILE

    return LETTER_A_FILE


@pytest.fixture
def no_credentials(tmp_path, monkeypatch):
    """No D-Wave configuration file, no token variables, whatever the machine has."""
    for name in ("DWAVE_API_TOKEN", "DWAVE_PROFILE", "DWAVE_API_SOLVER", "AMPLIFY_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("DWAVE_CONFIG_FILE", str(tmp_path / "absent.conf"))
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
