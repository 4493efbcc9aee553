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
"""

from __future__ import annotations

from collections import namedtuple

__all__ = ["Structure", "Board", "Profile", "ProfileWork", "FieldsWork", "BoardWork"]

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
