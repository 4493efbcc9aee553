"""The kernel mark: what every block-shift kernel is compiled with."""

from qpicross.samplers.blockshift import chains, driver, targets  # noqa: F401 - every kernel module, marked


def test_only_the_kernels_that_allocate_count_references():
    """A sweep's kernels allocate nothing, so they run without numba's reference counting (about half of a profile
    sweep's time when they had it); the ones that allocate, or run a ``prange``, keep it."""
    counting = {name for (_, name), (_, options, dispatcher) in targets._KERNELS.items()
                if dispatcher.targetoptions.get("_nrt", True)}
    assert counting == {"population_read", "run_ladders", "close_ladders"}
    for kernels in (chains.PROFILE, chains.BOARD, chains.FIELDS):  # the copies each chain's build made
        assert kernels.read.targetoptions["_nrt"] is False
        assert kernels.restart_sweeps.targetoptions["_nrt"] is False
