"""Shared fixtures: the shipped instances and the shared puzzle collections."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
INSTANCES = ROOT / "instances"
SHARED_INSTANCES = ROOT.parent / "shared" / "instances"


@pytest.fixture
def letter_a():
    from qpicross import load_puzzle

    return load_puzzle(INSTANCES / "5x5.px")


@pytest.fixture
def shared_instances() -> Path:
    """../shared/instances, or skip: those collections are never copied into the repository."""
    if not SHARED_INSTANCES.is_dir():
        pytest.skip(f"{SHARED_INSTANCES} is absent (shared puzzle collections are not in the repository)")
    return SHARED_INSTANCES
