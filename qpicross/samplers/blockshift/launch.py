"""A launch of the batched driver: its models, and every model's and ladder's arrays, padded to the largest.

:func:`prepare_profile` and :func:`prepare_fields` read one model for the profile chain or the joint chain;
:func:`pack` lays out a launch's :data:`~qpicross.samplers.blockshift.driver.Puzzles` and
:data:`~qpicross.samplers.blockshift.driver.Ladders` as numpy arrays, which
:func:`~qpicross.samplers.blockshift.driver.run` runs; :func:`memory_bytes` is what :func:`pack` will
allocate, to check before it does.

Examples:
    >>> from qpicross import Puzzle, build_formulation
    >>> f = build_formulation(Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]]))
    >>> model = prepare_profile(f.bqm(), f.one_hot_lines(), f.paints(), None, 0.0)
    >>> launch = pack([model, model], np.random.SeedSequence(1), 3)
    >>> launch["chain"], launch["ladders"]["puzzle"].tolist(), memory_bytes([model], 3) > 0
    ('profile', [0, 0, 0, 1, 1, 1], True)
"""

from __future__ import annotations

import dataclasses
import math

import dimod
import numpy as np

from qpicross.samplers.blockshift import board as _board, profile as _profile
from qpicross.samplers.blockshift.engine import seed_rng
from qpicross.samplers.blockshift.layouts import Board, Sizes, Structure
from qpicross.samplers.blockshift.plans import MAX_RUNGS, ladder
from qpicross.samplers.blockshift.structure import default_beta_range, read_structure

__all__ = ["LaunchModel", "prepare_profile", "prepare_fields", "pack", "memory_bytes", "LEVELS", "MAX_RUNGS",
           "BATCHED_RUNGS"]

#: Luby levels whose ladders a profile launch carries (a restart of a higher level runs the last one's).
LEVELS = 24
#: The batched ladders' level-0 replicas: every restart runs :func:`~.plans.ladder` of its level with this ``rungs``
#: (the CPU sampler's plan with ``rungs=4``; its denser default is not on the device yet).
BATCHED_RUNGS = 4


@dataclasses.dataclass
class LaunchModel:
    """One model of a launch: its BQM and structure, and for the profile chain its board and both axes' profiles.

    ``w`` and ``constant`` turn the chain's energies into the BQM's (1 and 0 on the fields); ``levels`` holds
    the inverse temperatures of a restart of each Luby level and ``rungs`` its replicas (one when it anneals
    along them sweep by sweep); ``target`` is the target without the offset, ``offset`` the BQM's (as BINARY),
    which the chains' energies leave out.
    """

    bqm: dimod.BinaryQuadraticModel
    variables: list
    structure: Structure
    board: Board | None
    w: float
    constant: float
    profiles: tuple | None
    levels: list
    rungs: list
    target: float
    offset: float


def _binary(bqm):
    return bqm.change_vartype(dimod.BINARY, inplace=False) if bqm.vartype is dimod.SPIN else bqm


def _target(binary, target_energy) -> float:
    return -math.inf if target_energy is None else float(target_energy) - float(binary.offset)


def prepare_profile(bqm, lines, paints, beta_range, target_energy, layout=None) -> LaunchModel | None:
    """The profile chain's model of a BQM with its lines and paints (or its
    :class:`~qpicross.model.layout.PicrossLayout`, whose lines are the default and whose board is read, not
    checked, as in :class:`~qpicross.samplers.blockshift.sampler.BlockShiftSampler`), or ``None`` where it does
    not apply (not "constant + w x mismatches" on clue-consistent states, or lines that are not plain nonogram
    lines)."""
    binary = _binary(bqm)
    variables = list(binary.variables)
    if layout is not None:
        layout.check(binary)
        lines = layout.lines if lines is None else lines
    if not variables or not lines or (paints is None and layout is None):
        return None
    structure, couplings = read_structure(binary, variables, lines)
    found = _board.picross_board(variables, structure, couplings, paints=paints, layout=layout)
    if found is None:
        return None
    board, w, constant = found
    profiles = tuple(_profile.profile_model(board, structure, axis) for axis in (0, 1))
    if any(p is None for p in profiles):
        return None
    hot_cold = default_beta_range(binary) if beta_range is None else beta_range
    levels = [ladder(tuple(float(b) for b in hot_cold), level, BATCHED_RUNGS) for level in range(LEVELS)]
    return LaunchModel(bqm, variables, structure, board, w, constant, profiles, levels, [len(b) for b in levels],
                       _target(binary, target_energy), float(binary.offset))


def prepare_fields(bqm, lines, beta_range, target_energy, num_replicas: int, num_sweeps: int) -> LaunchModel:
    """The joint chain's model of any BQM with one-hot ``lines``, on one fixed schedule: ``num_replicas``
    rungs geometric over ``beta_range`` (one: annealing from hot to cold over ``num_sweeps``)."""
    binary = _binary(bqm)
    variables = list(binary.variables)
    structure, _ = read_structure(binary, variables, lines)
    hot, cold = (float(b) for b in beta_range)
    betas = np.geomspace(hot, cold, num_replicas if num_replicas > 1 else max(num_sweeps, 1))
    return LaunchModel(bqm, variables, structure, None, 1.0, 0.0, None, [betas], [num_replicas],
                       _target(binary, target_energy), float(binary.offset))


def _chain(models) -> str:
    return "fields" if models[0].profiles is None else "profile"


def pack(models: list[LaunchModel], seed: np.random.SeedSequence, num_reads: int) -> dict:
    """The launch's arrays (all of one chain): every model's padded to the largest (:data:`Puzzles`) and every
    ladder's state (:data:`Ladders`), as numpy arrays, and ``seeds``: ladder ``l``'s random stream is the one
    :func:`~.engine.read` starts from ``seeds[l]``, so its first restart is that call's."""
    P = len(models)
    profile = _chain(models) == "profile"
    sizes = Sizes(*(np.zeros((P, 2) if name in ("n_prof", "n_free") else P, np.int64) for name in Sizes._fields))
    for p, m in enumerate(models):
        s = m.structure
        sizes.units[p], sizes.slots[p], sizes.chains[p] = len(s.group_ptr) - 1, len(s.group_vars), len(s.chain_ptr) - 1
        sizes.edges[p] = len(s.adj_idx)
        if profile:
            b, profiles = m.board, m.profiles
            sizes.cells[p], sizes.table[p] = int(b.n_cells), int(b.table_size)
            sizes.blocks[p], sizes.longest[p] = int(profiles[0].blocks), int(profiles[0].longest)
            sizes.n_prof[p] = [len(profile_.prof_chain) for profile_ in profiles]
            sizes.n_free[p] = [len(profile_.free_chains) for profile_ in profiles]
    units, slots, chains, cells, table, blocks, longest, n_prof, n_free, edges = (int(v.max()) for v in sizes)
    width = max(len(b) for m in models for b in m.levels)
    n_levels = max(len(m.levels) for m in models)
    R = max(max(m.rungs) for m in models)

    def rows(shape, dtype, fill=0, used=True, count=P):
        """``count`` rows of ``shape`` (empty ones where the launch's chain does not use the array)."""
        return np.full((count, *(shape if used else [0] * len(shape))), fill, dtype)

    def joint_rows(shape, dtype):
        return rows(shape, dtype, used=not profile)

    def prof_rows(shape, dtype, fill=0):
        return rows(shape, dtype, fill, used=profile)
    pz = dict(linear=joint_rows((slots,), np.float64), adj_ptr=joint_rows((slots + 1,), np.int64),
              adj_idx=joint_rows((edges,), np.int64), adj_val=joint_rows((edges,), np.float64),
              group_ptr=rows((units + 1,), np.int64), group_vars=rows((slots,), np.int64),
              free=joint_rows((units,), np.bool_), chain_ptr=rows((chains + 1,), np.int64),
              next_limit=rows((slots,), np.int64), has_prev=joint_rows((units,), np.bool_),
              has_next=joint_rows((units,), np.bool_), inner=joint_rows((chains,), np.bool_),
              seg_start=prof_rows((slots,), np.int64), glen=prof_rows((units,), np.int64),
              line_axis=prof_rows((chains,), np.int64), cell0=prof_rows((chains,), np.int64),
              stride=prof_rows((chains,), np.int64), line_len=prof_rows((chains,), np.int64),
              prof_chain=prof_rows((2, n_prof), np.int64), prof_cell0=prof_rows((2, n_prof), np.int64),
              prof_stride=rows((2,), np.int64), prof_len=rows((2,), np.int64), cross=prof_rows((2, cells), np.int64),
              free_chains=prof_rows((2, n_free), np.int64), pos_of=prof_rows((units, longest + 1), np.int64, -1),
              band=prof_rows((2, n_prof, blocks + 1, 2), np.int64), **sizes._asdict(),
              w=np.array([m.w for m in models], np.float64), constant=np.array([m.constant for m in models]),
              target=np.array([m.target for m in models], np.float64), rungs=rows((n_levels,), np.int64),
              level_betas=rows((n_levels, width), np.float64), level_len=rows((n_levels,), np.int64),
              stopped=np.zeros(P, np.int8))
    for p, m in enumerate(models):
        s = m.structure
        fields = [("group_ptr", s.group_ptr), ("group_vars", s.group_vars), ("chain_ptr", s.chain_ptr),
                  ("next_limit", s.next_limit)]
        if profile:
            b = m.board
            fields += [("seg_start", b.seg_start), ("glen", b.glen), ("line_axis", b.line_axis), ("cell0", b.cell0),
                       ("stride", b.stride), ("line_len", b.line_len)]
        else:
            fields += [("linear", s.linear), ("adj_ptr", s.adj_ptr), ("adj_idx", s.adj_idx), ("adj_val", s.adj_val),
                       ("free", s.free), ("has_prev", s.has_prev), ("has_next", s.has_next), ("inner", s.inner)]
        for name, value in fields:
            pz[name][p, :len(value)] = value
        if profile:
            pos_of = m.profiles[0].pos_of
            pz["pos_of"][p, :pos_of.shape[0], :pos_of.shape[1]] = pos_of
            for a, prof in enumerate(m.profiles):
                k, f = len(prof.prof_chain), len(prof.free_chains)
                pz["prof_chain"][p, a, :k] = prof.prof_chain
                pz["prof_cell0"][p, a, :k] = prof.prof_cell0
                pz["prof_stride"][p, a] = prof.prof_stride
                pz["prof_len"][p, a] = prof.prof_len
                pz["cross"][p, a, :len(prof.cross)] = prof.cross
                pz["free_chains"][p, a, :f] = prof.free_chains
                pz["band"][p, a, :k, :prof.band.shape[1]] = prof.band
        for level, betas in enumerate(m.levels):
            pz["level_betas"][p, level, :len(betas)] = betas
            pz["level_len"][p, level] = len(betas)
            pz["rungs"][p, level] = m.rungs[level]

    L = P * num_reads
    span = (blocks + 1) * (longest + 1)
    seeds = (seed.generate_state(max(L, 1), np.uint64)[:L] >> np.uint64(1)).astype(np.int64)
    rng = np.ones(L, np.uint64)
    for l in range(L):  # each ladder's stream as engine.read starts one from its seed
        seed_rng(rng[l:l + 1], seeds[l])
    n = slots if not profile else 0

    def fl(shape, dtype):  # a ladder's arrays of the profile chain only
        return rows(shape, dtype, used=profile, count=L)

    ld = dict(
        puzzle=np.repeat(np.arange(P, dtype=np.int64), num_reads), stream=np.tile(np.arange(num_reads), P),
        restart=np.zeros(L, np.int64), left=np.zeros(L, np.int64), s=np.zeros(L, np.int64), best=np.zeros(L),
        axis=np.zeros(L, np.int64), level=np.zeros(L, np.int64), used=np.zeros(L, np.int64),
        done=np.zeros(L, np.int64), hit=np.full(L, -1, np.int64), lowest=np.full(L, np.inf),
        sample=np.zeros((L, slots), np.int8), finished=np.zeros(L, np.int8), status=np.zeros((L, 2)),
        x=np.zeros((L, R, n), np.int8), field=np.zeros((L, R, n)), best_x=np.zeros((L, n), np.int8),
        cur=np.zeros((L, R, units), np.int64), boards=fl((R, 2, cells), np.int16), marg=fl((R, 2, cells), np.int32),
        pcost=fl((R, n_prof), np.int64), energy=np.zeros((L, R), np.int64 if profile else np.float64),
        beta_of=np.zeros((L, R)), slot_of=np.zeros((L, R), np.int64),
        tables=np.zeros((L, R, table if profile else 1)), weight=np.zeros((L, slots)),
        prefix=np.zeros((L, slots + 1)), chosen=np.zeros((L, units + 1), np.int64),
        cost=fl((2 * (longest + 1),), np.int64), dp=fl((2, span), np.int64), scratch=fl((6 * (longest + 1),), np.int64),
        rng=rng, best_cur=np.zeros((L, units), np.int64), order=np.zeros((L, R), np.int64))
    return {"puzzles": pz, "ladders": ld, "seeds": seeds, "chain": _chain(models)}


def memory_bytes(models: list[LaunchModel], num_reads: int) -> int:
    """Bytes :func:`pack` allocates for the ladders (the bulk of a launch), to check before allocating them:
    each ladder's state padded to the largest model."""
    slots = max(len(m.structure.group_vars) for m in models)
    units = max(len(m.structure.group_ptr) for m in models)
    if _chain(models) == "fields":  # x, fields, positions and energy per replica; scratch and sample per ladder
        per_rung = 9 * slots + 8 * units + 40
        rungs = max(max(m.rungs) for m in models)
        return len(models) * num_reads * (rungs * per_rung + 26 * slots + 16 * units)
    cells = max(int(m.board.n_cells) for m in models)
    table = max(int(m.board.table_size) for m in models)
    lines = max(max(len(p.prof_chain) for p in m.profiles) for m in models)
    per_rung = cells * (2 * 2 + 2 * 4) + 8 * (units + table + lines)
    return len(models) * num_reads * (MAX_RUNGS * per_rung + 17 * slots + 16 * units)
