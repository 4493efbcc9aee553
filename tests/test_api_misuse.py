"""The Python API's answers to misuse: every mistake a caller can make with a public function is a
:class:`~qpicross.exceptions.QpicrossError` (a typed error, also the built-in one a caller expects) whose
message names the parameter, raised before any work -- never an ``AttributeError`` from deep inside, a plain
``ValueError`` or numpy's allocation error.

Each case is one call: an id, the call, and the word its message must contain (the parameter's name). Before
these checks 43 of the 90 first cases raised something else (an ``AttributeError``, a ``TypeError``, numpy's
``MemoryError``) or nothing at all.
"""

from __future__ import annotations

import numpy as np
import pytest
from puzzles import LETTER_A

import qpicross
from qpicross.exceptions import QpicrossError

P = LETTER_A


def _bqm():
    return qpicross.build_formulation(P).bqm()


def _formulation():
    return qpicross.build_formulation(P)


def _shift(**kwargs):
    f = _formulation()
    return qpicross.BlockShiftSampler().sample(f.bqm(), lines=f.one_hot_lines(), num_sweeps=10, **kwargs)


def _bench(*args, **kwargs):
    from qpicross.experiments.bench import bench_puzzle

    return bench_puzzle(*args, **kwargs)


def _run_bench(*args, **kwargs):
    from qpicross.experiments.bench import run_bench

    return run_bench(*args, **kwargs)


def _tune(*args, **kwargs):
    from qpicross.experiments.tune import tune

    return tune(*args, **kwargs)


def _plot():
    from qpicross import plot

    return plot


def _exact():
    from qpicross.samplers.exact import GroundStateExactSolver

    return GroundStateExactSolver


def _tune_module():
    from qpicross.experiments import tune

    return tune


CASES = [
    # anneal: every keyword
    ("anneal-num_reads-negative", lambda: qpicross.anneal(P, num_reads=-1), "num_reads"),
    ("anneal-num_reads-float", lambda: qpicross.anneal(P, num_reads=1.5), "num_reads"),
    ("anneal-num_reads-text", lambda: qpicross.anneal(P, num_reads="10"), "num_reads"),
    ("anneal-num_reads-huge", lambda: qpicross.anneal(P, num_reads=10**12), "num_reads"),
    ("anneal-num_sweeps-zero", lambda: qpicross.anneal(P, num_sweeps=0), "num_sweeps"),
    ("anneal-sampler-unknown", lambda: qpicross.anneal(P, sampler="nope"), "sampler"),
    ("anneal-sampler-number", lambda: qpicross.anneal(P, sampler=42), "sampler"),
    ("anneal-seed-text", lambda: qpicross.anneal(P, seed="x"), "seed"),
    ("anneal-seed-negative", lambda: qpicross.anneal(P, seed=-1), "seed"),
    ("anneal-weights-text", lambda: qpicross.anneal(P, weights="x"), "weights"),
    ("anneal-weights-list", lambda: qpicross.anneal(P, weights=[1, 2]), "weights"),
    ("anneal-weights-unknown-term", lambda: qpicross.anneal(P, weights={"nope": 1}), "nope"),
    ("anneal-encoding-unknown", lambda: qpicross.anneal(P, encoding="nope"), "encoding"),
    ("anneal-bounds-unknown", lambda: qpicross.anneal(P, bounds="nope"), "bounds"),
    ("anneal-presolve-text", lambda: qpicross.anneal(P, presolve="yes"), "presolve"),
    ("anneal-presolve-domain-wall", lambda: qpicross.anneal(P, presolve=True, encoding="domain_wall"), "presolve"),
    ("anneal-time_limit-negative", lambda: qpicross.anneal(P, time_limit=-1), "time_limit"),
    ("anneal-time_limit-text", lambda: qpicross.anneal(P, time_limit="1"), "time_limit"),
    ("anneal-early_stop-unknown", lambda: qpicross.anneal(P, early_stop="nope"), "early_stop"),
    ("anneal-beta_range-one", lambda: qpicross.anneal(P, beta_range=(1,)), "beta_range"),
    ("anneal-beta_range-text", lambda: qpicross.anneal(P, beta_range="x"), "beta_range"),
    ("anneal-beta_range-reversed", lambda: qpicross.anneal(P, beta_range=(5, 1)), "beta_range"),
    ("anneal-option-unknown", lambda: qpicross.anneal(P, bogus_option=1), "bogus_option"),
    ("anneal-option-bad-value", lambda: qpicross.anneal(P, line_moves="garbage"), "line_moves"),
    ("anneal-known-shape", lambda: qpicross.anneal(P, known=np.zeros((2, 2), np.int8)), "known"),
    ("anneal-known-text", lambda: qpicross.anneal(P, known="x"), "known"),
    ("anneal-config-text", lambda: qpicross.anneal(P, config="x"), "config"),
    ("anneal-max_couplers-negative", lambda: qpicross.anneal(P, max_couplers=-1), "max_couplers"),
    ("anneal-progress-number", lambda: qpicross.anneal(P, progress=5), "progress"),
    ("anneal-puzzle-number", lambda: qpicross.anneal(42), "puzzle"),
    ("anneal-puzzle-missing-path", lambda: qpicross.anneal("nope.px"), "nope.px"),
    # run and SolverConfig
    ("run-config-text", lambda: qpicross.run(P, "shift"), "config"),
    ("run-puzzle-text-list", lambda: qpicross.run([[1]]), "puzzle"),
    ("config-sampler-unknown", lambda: qpicross.SolverConfig(sampler="nope").validate(), "sampler"),
    ("config-options-text", lambda: qpicross.SolverConfig(options="x"), "options"),
    ("config-options-count", lambda: qpicross.SolverConfig(options={"num_replicas": 0}).validate(), "num_replicas"),
    ("config-weights-text", lambda: qpicross.SolverConfig(weights="x").validate(), "weights"),
    ("config-name-number", lambda: qpicross.SolverConfig(name=5).validate(), "name"),
    ("config-replace-unknown", lambda: qpicross.SolverConfig().replace(bogus=1), "bogus"),
    # puzzles and files
    ("load_puzzle-missing", lambda: qpicross.load_puzzle("nope.px"), "nope.px"),
    ("load_puzzle-format-unknown", lambda: qpicross.load_puzzle("x.px", format="nope"), "format"),
    ("load_puzzle-path-number", lambda: qpicross.load_puzzle(42), "path"),
    ("load_puzzles-missing", lambda: qpicross.load_puzzles("nope.px#3"), "nope.px"),
    ("save_puzzle-format-unknown", lambda: qpicross.save_puzzle(P, "x.px", format="nope"), "format"),
    ("save_puzzle-puzzle-text", lambda: qpicross.save_puzzle("x", "x.px"), "puzzle"),
    ("puzzle-rows-text", lambda: qpicross.Puzzle("abc", [[1]]), "row"),
    ("puzzle-negative-clue", lambda: qpicross.Puzzle([[-1]], [[1]]), "clue"),
    ("puzzle-goal-shape", lambda: qpicross.Puzzle([[1]], [[1]], goal=["##", "##"]), "goal"),
    ("check-board-shape", lambda: qpicross.check(P, ["##"]), "board"),
    ("board_from_strings-bad-character", lambda: qpicross.board_from_strings(["#?"]), "'?'"),
    ("board_from_strings-not-strings", lambda: qpicross.board_from_strings("#."), "board"),
    # model
    ("build_formulation-bounds", lambda: qpicross.build_formulation(P, bounds="nope"), "bounds"),
    ("build_formulation-puzzle-text", lambda: qpicross.build_formulation("x"), "puzzle"),
    ("build_formulation-known-shape", lambda: qpicross.build_formulation(P, known=np.zeros((3, 3))), "known"),
    ("build_bqm-weights-text", lambda: qpicross.build_bqm(P, weights="x"), "weights"),
    ("estimate_size-bounds", lambda: qpicross.estimate_size(P, bounds="nope"), "bounds"),
    ("weights-negative", lambda: qpicross.PenaltyWeights(match=-1), "match"),
    ("weights-text", lambda: qpicross.PenaltyWeights(match="x"), "match"),
    ("decode_sample-length", lambda: qpicross.decode_sample(_formulation(), np.zeros(3)), "sample"),
    ("decode_sample-missing-label", lambda: qpicross.decode_sample(_formulation(), {}), "sample"),
    # samplers
    ("get_sampler-unknown", lambda: qpicross.get_sampler("nope"), "nope"),
    ("sample-sampler-unknown", lambda: qpicross.sample(_bqm(), "nope"), "nope"),
    ("sample-num_reads-negative", lambda: qpicross.sample(_bqm(), "sa", num_reads=-1), "num_reads"),
    ("sample-time_limit-negative", lambda: qpicross.sample(_bqm(), "sa", time_limit=-1), "time_limit"),
    ("sample-bqm-text", lambda: qpicross.sample("x", "sa"), "bqm"),
    ("register_sampler-factory", lambda: qpicross.register_sampler("mine", 5, "x"), "factory"),
    ("shift-num_reads-huge", lambda: _shift(num_reads=10**12), "num_reads"),
    ("shift-num_reads-negative", lambda: _shift(num_reads=-1), "num_reads"),
    ("shift-num_reads-text", lambda: _shift(num_reads="x"), "num_reads"),
    ("shift-num_sweeps-huge", lambda: qpicross.BlockShiftSampler().sample(
        _bqm(), num_sweeps=10**13, schedule="fixed", num_replicas=1), "num_sweeps"),
    ("shift-paints-list", lambda: _shift(paints=[1, 2, 3]), "paints"),
    ("shift-paints-bad-entry", lambda: _shift(paints={("row", 0, 0, 0): "x"}), "paints"),
    ("shift-paints-missing-variable", lambda: _shift(paints={}), "paints"),
    ("shift-seed-text", lambda: _shift(seed="x"), "seed"),
    ("shift-threads-zero", lambda: _shift(threads=0), "threads"),
    ("shift-shift_probability-text", lambda: _shift(shift_probability="x"), "shift_probability"),
    ("shift-beta_range-text", lambda: _shift(beta_range="x"), "beta_range"),
    ("shift-lines-number", lambda: qpicross.BlockShiftSampler().sample(_bqm(), lines=5), "lines"),
    ("shift-bqm-text", lambda: qpicross.BlockShiftSampler().sample("x"), "bqm"),
    ("batched-num_sweeps-huge", lambda: qpicross.get_sampler("shift-batched-cpu").sample(_bqm(), num_sweeps=10**13),
     "num_sweeps"),
    ("batched-shift_probability-text", lambda: qpicross.get_sampler("shift-batched-cpu").sample(
        _bqm(), shift_probability="x"), "shift_probability"),
    # classical
    ("propagate-known-text", lambda: qpicross.propagate(P, known="x"), "known"),
    ("solve_line-cells-text", lambda: qpicross.solve_line([1], "abc"), "cells"),
    ("solve_line-clue-text", lambda: qpicross.solve_line("x", "..."), "clue"),
    ("solve_exact-method", lambda: qpicross.solve_exact(P, method="nope"), "method"),
    ("solve_exact-time_limit", lambda: qpicross.solve_exact(P, time_limit_s=-1), "time_limit"),
    ("anneal_with_logic-rounds", lambda: qpicross.anneal_with_logic(P, rounds=0), "rounds"),
    ("anneal_with_logic-top_fraction", lambda: qpicross.anneal_with_logic(P, top_fraction=2), "top_fraction"),
    # experiments
    ("bench_puzzle-config-text", lambda: _bench(P, "x"), "config"),
    ("bench_puzzle-num_reads", lambda: _bench(P, qpicross.SolverConfig(), num_reads=-1), "num_reads"),
    ("run_bench-workers", lambda: _run_bench([P], [qpicross.SolverConfig()], workers=0), "workers"),
    ("tune-points-text", lambda: _tune(P, ["x"]), "points"),
    ("tune-seeds-zero", lambda: _tune(P, [qpicross.PenaltyWeights()], seeds=0), "seeds"),
    ("parse_grid-garbage", lambda: _tune_module().parse_grid("nope"), "nope"),
    ("random_points-n", lambda: _tune_module().random_points(_tune_module().parse_grid("match=1:2:3"), -1), "n"),
    # issue 59, item 10: what the campaign found ending in an AttributeError, a library's message or nothing
    ("check-puzzle-none", lambda: qpicross.check(None, ["#"]), "puzzle"),
    ("weights-parse-none", lambda: qpicross.PenaltyWeights.parse(None), "weights"),
    ("weights-parse-number", lambda: qpicross.PenaltyWeights.parse(5), "weights"),
    ("plot_puzzle-none", lambda: _plot().plot_puzzle(None), "puzzle"),
    ("plot_puzzle-cell_size-zero", lambda: _plot().plot_puzzle(P, cell_size=0), "cell_size"),
    ("plot_puzzle-cell_size-text", lambda: _plot().plot_puzzle(P, cell_size="big"), "cell_size"),
    ("save_figure-no-extension", lambda: _plot().save_figure(None, "/tmp/qpicross-no-such-dir/figure"), "path"),
    ("save_figure-dpi", lambda: _plot().save_figure(None, "figure.png", dpi=0), "dpi"),
    ("solve_exact-none", lambda: qpicross.solve_exact(None), "puzzle"),
    ("propagate-none", lambda: qpicross.propagate(None), "puzzle"),
    ("estimate_size-none", lambda: qpicross.estimate_size(None), "puzzle"),
    ("decode_sample-none", lambda: qpicross.decode_sample(None, {}), "formulation"),
    ("solve_line-clue-none", lambda: qpicross.solve_line(None, "..."), "clue"),
    ("exact-max_variables-text", lambda: _exact()(max_variables="x"), "max_variables"),
    ("exact-max_variables-negative", lambda: _exact()(max_variables=-1), "max_variables"),
    ("sample-num_sweeps-zero", lambda: qpicross.sample(_bqm(), "sa", num_sweeps=0), "num_sweeps"),
    ("sample-beta_range-text", lambda: qpicross.sample(_bqm(), "sa", beta_range="ab"), "beta_range"),
    ("sample-beta_range-reversed", lambda: qpicross.sample(_bqm(), "sa", beta_range=(5, 1)), "beta_range"),
    ("sample-unknown-keyword", lambda: qpicross.sample(_bqm(), "sa", bogus=1), "bogus"),
    ("shift-layout-number", lambda: qpicross.BlockShiftSampler().sample(_bqm(), layout=5), "layout"),
    *[(f"sample-{name}-seed-negative", lambda name=name: qpicross.sample(_bqm(), name, seed=-1, num_reads=1), "seed")
      for name in ("sa", "tabu", "pt", "pa", "openjij-sa", "openjij-sqa", "sb", "sa+descent", "sb+descent")],
]


@pytest.mark.parametrize("call,word", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_misuse_is_a_typed_error_naming_the_parameter(call, word):
    with pytest.raises(QpicrossError) as caught:
        call()
    assert word in str(caught.value), f"{type(caught.value).__name__}: {caught.value}"


def test_a_path_is_read_as_the_puzzle(letter_a_path):
    assert qpicross.anneal(letter_a_path, sampler="sa", num_reads=5, num_sweeps=200, seed=1).puzzle.name == "5x5"


def test_the_reads_arrays_are_bounded_before_they_are_allocated(monkeypatch):
    monkeypatch.setenv("QPICROSS_MAX_MEMORY", "1M")
    with pytest.raises(qpicross.ModelTooLargeError, match=r"1,000,000 reads of 44 variables would need about 80 MiB"
                                                          r" of memory, above the limit of 1 MiB"):
        _shift(num_reads=1_000_000)
