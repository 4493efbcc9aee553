"""The named layouts of the block-shift engine's data: what every kernel takes, in one place.

Models (read-only, made once per BQM):

* :class:`Structure` -- the BQM's one-hot lines (:func:`~qpicross.samplers.blockshift.structure.read_structure`);
* :class:`Board` -- a Picross BQM's board (:func:`~qpicross.samplers.blockshift.board.board_model`);
* :class:`Profile` -- the profile chain's view of a board, one axis free
  (:func:`~qpicross.samplers.blockshift.profile.profile_model`).

Replicas (the state and scratch of one restart of ``R`` replicas, made by each chain's ``*_work``):

* :class:`ProfileWork` -- the profile chain;
* :class:`FieldsWork` -- the joint chain on any one-hot BQM, through local fields;
* :class:`BoardWork` -- the joint chain on a Picross BQM's two boards.

Every work has ``energy``, ``beta_of``, ``slot_of``, ``tables``, ``rng`` and ``order``, which the restart
loop of :mod:`~qpicross.samplers.blockshift.engine` reads; the rest belongs to its chain.

A call (what every restart of a call runs with, and what it shares with the host while it runs):

* :class:`Moves` -- the chain's moves;
* :class:`Params` -- a restart's moves, target and energy scale;
* :class:`Signals` -- its stop flag and status;
* :class:`Flags` -- how a ladder of the batched driver ends;
* :class:`Sizes` -- the true sizes of each model of a batched launch.

Examples:
    >>> params = make_params((0.5, 1, False), return_last=False, target=0)
    >>> params.moves.line_moves, params.target, params.w, params.constant
    (1.0, 0.0, 1.0, 0.0)
"""

from __future__ import annotations

from collections import namedtuple

__all__ = ["Structure", "Board", "Profile", "ProfileWork", "FieldsWork", "BoardWork", "Moves", "Params", "Signals",
           "Flags", "Sizes", "make_moves", "make_params", "make_flags"]

Structure = namedtuple("Structure", "linear adj_ptr adj_idx adj_val group_ptr group_vars free chain_ptr "
                                    "next_limit has_prev has_next inner")
Structure.__doc__ = """The structure of a BQM's one-hot lines.

``linear`` and ``adj_ptr``/``adj_idx``/``adj_val`` the model (linear biases, symmetric CSR couplings),
``group_ptr``/``group_vars`` the one-hot groups (blocks, then one per free variable) and their variables,
``free`` which groups are free variables, ``chain_ptr`` each line's groups, ``next_limit`` the first start
of the next block each start allows, ``has_prev``/``has_next`` a block's neighbours in its line, ``inner``
the lines with couplings between blocks that a consistent placement can hold together.
"""
Board = namedtuple("Board", "seg_start glen line_axis cell0 stride line_len n_cells table_size")
Board.__doc__ = """A Picross BQM's board: each start's first cell, each block's length, each line's axis, first
cell, stride between its cells and length; the board's cells and the size of a Boltzmann factor table."""
Profile = namedtuple("Profile", "prof_chain prof_cell0 prof_stride prof_len cross free_chains pos_of blocks "
                                "longest band")
Profile.__doc__ = """The profile chain's arrays: the profiled lines (each its line or -1, first cell, stride,
length), each cell's profiled line, the free lines, each block's position by start cell, and each profiled
line's band of offsets."""
ProfileWork = namedtuple("ProfileWork", "cur boards marg pcost energy beta_of slot_of tables weight prefix chosen "
                                        "cost dp scratch rng best_cur order")
ProfileWork.__doc__ = "State and scratch of one profile-chain restart of ``R`` replicas."
FieldsWork = namedtuple("FieldsWork", "x field cur energy beta_of slot_of tables weight prefix chosen rng best_x "
                                      "order")
FieldsWork.__doc__ = """State and scratch of one joint-chain restart on local fields: each replica's 0/1 state,
local fields and block positions."""
BoardWork = namedtuple("BoardWork", "cur boards energy beta_of slot_of tables weight prefix chosen cost rng "
                                    "best_cur order")
BoardWork.__doc__ = """State and scratch of one joint-chain restart on the board: each replica's block
positions and its two boards (rows painted, columns painted)."""


Moves = namedtuple("Moves", "shift_probability line_moves block_moves window")
Moves.__doc__ = """The chain's moves: a block move's chance of a shift by one (else a jump), each line's chance of
a line move in a sweep, whether block moves run, and the most free lines a window exchange swaps between neighbouring
rungs after each sweep (0: none; the profile chain's :func:`~qpicross.samplers.blockshift.profile.window_exchange`)."""
Params = namedtuple("Params", "moves return_last target w constant")
Params.__doc__ = """What every restart of a call runs with: its :class:`Moves`; ``return_last`` (a restart's sample
is its coldest replica's last state, not its best); the ``target`` energy at which it stops; and the chain's energy
scale: an energy ``e`` of the chain is ``constant + w * e`` of the BQM (the offset left out, as from ``target``)."""
Signals = namedtuple("Signals", "stop status")
Signals.__doc__ = """What a running restart shares with the host: ``stop`` (a one-element ``int8`` array: once set,
the restart ends before its next sweep) and ``status`` (two floats the restart writes: its sweeps done, its lowest
energy as ``constant + w * e``)."""
Flags = namedtuple("Flags", "stop_at_hit at_target return_last")
Flags.__doc__ = """How a ladder of the batched driver ends (:func:`~qpicross.samplers.blockshift.driver.ladder_run`):
with ``stop_at_hit`` once its model is solved by any ladder (seen between launches); with ``at_target`` at the
target (else it runs its whole budget, noting the sweep of its first hit); ``return_last`` as in :class:`Params`."""
Sizes = namedtuple("Sizes", "units slots chains cells table blocks longest n_prof n_free edges")
Sizes.__doc__ = """The true sizes of each model ``p`` of a batched launch, whose arrays are padded to the largest
(an array each, indexed by ``p``; the launch's ``Puzzles`` carry these fields): its groups (``units``), variables (``slots``), lines (``chains``), board cells,
factor table, most blocks in a line, longest line, ``n_prof[p, axis]`` and ``n_free[p, axis]`` its profiled and
free lines with ``axis`` free, and its couplings (``edges``)."""


def make_moves(shift_probability, line_moves, block_moves, window=0) -> Moves:
    """:class:`Moves` with the types every compiled kernel takes (two floats, a bool and an int)."""
    return Moves(float(shift_probability), float(line_moves), bool(block_moves), int(window))


def make_params(moves, return_last, target, w=1.0, constant=0.0) -> Params:
    """:class:`Params` with the types every compiled kernel takes (``moves`` any 3- or 4-sequence)."""
    return Params(make_moves(*moves), bool(return_last), float(target), float(w), float(constant))


def make_flags(stop_at_hit, at_target, return_last) -> Flags:
    """:class:`Flags` as three bools."""
    return Flags(bool(stop_at_hit), bool(at_target), bool(return_last))
