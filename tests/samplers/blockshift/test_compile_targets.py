"""The kernel mark: what every block-shift kernel is compiled with."""

import pytest

from qpicross.samplers.blockshift import chains, compile_targets, driver  # noqa: F401 - every kernel module, marked


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
