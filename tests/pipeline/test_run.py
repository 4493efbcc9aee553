"""One configuration, one run function: anneal, bench and tune agree; presolve is one composite."""

import json
import math

import dimod
import numpy as np
import pytest

from qpicross import PenaltyWeights, PresolveComposite, SolverConfig, anneal, build_formulation, evaluate_samples, run
from qpicross.classical.presolve import fix_variables, presolve
from qpicross.exceptions import ParameterError
from qpicross.cli import main
from qpicross.experiments.bench import bench_puzzle, result_from_run, run_bench
from qpicross.experiments.tts import wilson_interval
from qpicross.puzzle import check
from qpicross.samplers.blockshift.sampler import default_threads

from puzzles import LETTER_A, LETTER_A_FILE, PARTLY_LOGICAL, TWO_DIAGONALS


def kaplan_meier_tts99(times, ran) -> float:
    """min over event times tau of tau x R(p(tau)), p = 1 - prod (1 - events / at risk), by hand (a read censored
    at tau is still at risk there)."""
    best, surviving = math.inf, 1.0
    for tau in sorted({t for t in times if math.isfinite(t)}):
        at_risk = sum(1 for t, r in zip(times, ran) if (t if math.isfinite(t) else r) >= tau)
        surviving *= 1 - sum(1 for t in times if t == tau) / at_risk
        p = 1 - surviving
        repetitions = 1.0 if p >= 0.99 else math.log(0.01) / math.log(1 - p)
        best = min(best, tau * max(1.0, repetitions))
    return best


def test_the_hand_written_kaplan_meier_on_a_tiny_case():
    """Hits at 1 and 3, a read censored at 2: p(1) = 1/3, p(3) = 1 - (2/3)(0/1) = 1, so TTS99 = min(1 x R(1/3), 3)."""
    assert kaplan_meier_tts99([1.0, math.inf, 3.0], [1.0, 2.0, 3.0]) == 3.0
    assert kaplan_meier_tts99([1.0, math.inf, math.inf], [1.0, 2.0, 2.0]) == pytest.approx(
        math.log(0.01) / math.log(2 / 3))


@pytest.mark.parametrize("config", [
    SolverConfig(num_reads=60, num_sweeps=200, seed=5),
    SolverConfig(sampler="shift", num_reads=8, num_sweeps=300, seed=5, options={"num_replicas": 2}),
    SolverConfig(num_reads=40, num_sweeps=100, seed=9, presolve=True),
    SolverConfig(num_reads=30, num_sweeps=200, seed=2, encoding="domain_wall", bounds="published"),
])
def test_bench_statistics_agree_with_an_independent_judgement_of_the_same_reads(config):
    """The bench row of a run, against the run's reads judged here without the decode module: each read's
    energy on the full one-hot model (dimod), its row board checked by the puzzle's own checker, and the
    formulas of p, its Wilson interval and TTS99 written out."""
    result = run(PARTLY_LOGICAL, config)
    row = result_from_run(result)
    f, ss = result.formulation, result.sampleset
    x = f.samples_to_array(ss)
    energy = result.bqm.energies((x, f.labels))
    boards = f.boards(x)
    occurrences = ss.record.num_occurrences
    ok = np.array([abs(e) < 1e-9 and not check(PARTLY_LOGICAL, b) for e, b in zip(energy, boards)])
    reads, solved = int(occurrences.sum()), int(occurrences[ok].sum())
    assert (row.num_reads, row.num_solved) == (reads, solved) and reads == config.num_reads
    assert row.p == solved / reads and (row.p_low, row.p_high) == wilson_interval(solved, reads)
    assert row.best_energy == pytest.approx(float(np.min(ss.record.energy)))
    assert sum(row.residual_histogram.values()) == reads
    if row.tts_method == "fixed":
        p = solved / reads
        repetitions = math.inf if p == 0 else 1.0 if p == 1 else max(1.0, math.log(0.01) / math.log(1 - p))
        assert row.tts99_s == pytest.approx(row.presolve_s + row.t_read_s * repetitions)
    else:  # early stopping: Kaplan-Meier written out here, on the sampler's own per-read times and this test's verdicts
        times = np.where(ok, np.asarray(ss.info["time_to_target_s"], float), np.inf)
        ran = np.maximum(np.asarray(ss.info["read_s"], float), np.where(np.isfinite(times), times, 0.0))
        assert row.tts99_s == pytest.approx(row.presolve_s + kaplan_meier_tts99(times, ran), rel=1e-12)
    assert bench_puzzle(PARTLY_LOGICAL, config).num_solved == solved  # same seed, same reads, same verdict


def test_cli_anneal_reaches_every_setting_bench_uses(capsys):
    argv = [LETTER_A_FILE, "--sampler", "shift", "--sweeps", "300", "--reads", "6", "--seed", "4",
            "--option", "num_replicas=2", "--option", "target_energy=0", "--beta-range", "0.5,3",
            "--weights", "match=2", "--presolve", "--time-limit", "60"]
    assert main(["anneal", *argv, "--json"]) == 0
    annealed = json.loads(capsys.readouterr().out)
    main(["bench", *argv, "--json"])
    benched = json.loads(capsys.readouterr().out)["results"][0]
    assert annealed["config"]["options"] == {"beta_range": [0.5, 3.0], "num_replicas": 2, "target_energy": 0}
    # a one-worker bench names the threads anneal gives a read by default: every core
    assert benched["options"] == f"beta_range=[0.5,3.0],num_replicas=2,target_energy=0,threads={default_threads()}"
    assert benched["num_reads"] == annealed["num_reads"] and benched["num_solved"] == annealed["num_solved"]


def test_a_read_with_disagreeing_boards_is_a_failure_everywhere():
    f = build_formulation(TWO_DIAGONALS)
    good = f.sample_from_board(["#.", ".#"])
    rows_only = {**good, ("col", 0, 0, 0): 0, ("col", 0, 1, 0): 1}  # columns paint the other diagonal
    ss = dimod.SampleSet.from_samples_bqm([rows_only] * 3, f.bqm())
    evaluation = evaluate_samples(f, ss)
    assert evaluation.valid_board.all() and not evaluation.ground_state.any()
    assert evaluation.num_solved == 0 and evaluation.num_valid_board_only == 3
    assert evaluation.success_probability == 0.0

    class Replay(dimod.Sampler):
        parameters = {"num_reads": []}
        properties = {}

        def sample(self, bqm, num_reads=1):
            return dimod.SampleSet.from_samples_bqm([rows_only] * num_reads, bqm)

    result = anneal(TWO_DIAGONALS, sampler=Replay(), num_reads=3)
    assert not result.solved and result.success_probability == 0.0
    assert result.to_dict()["num_valid_board_only"] == 3


def test_presolve_composite_returns_full_size_samples_with_the_full_models_energies():
    f = build_formulation(PARTLY_LOGICAL)
    bqm = f.bqm()
    found = presolve(f)
    assert 0 < len(found.fixed) < bqm.num_variables
    ss = PresolveComposite(dimod.SimulatedAnnealingSampler()).sample(bqm, formulation=f, num_reads=20, seed=1)
    assert set(ss.variables) == set(bqm.variables)
    dimod.testing.assert_sampleset_energies(ss, bqm)
    ruled_out = [label for label, value in found.fixed.items() if value == 0]
    forced = [label for label, value in found.fixed.items() if value == 1]
    assert ruled_out and forced
    ground = ss.record.energy == 0
    assert ground.any()
    for label in ruled_out:  # gone from the annealed model: 0 in every read
        assert (ss.record.sample[:, ss.variables.index(label)] == 0).all()
    for label in forced:  # kept, the one start left in its group: 1 in every read at the ground state
        assert (ss.record.sample[ground, ss.variables.index(label)] == 1).all()
    assert ss.info["presolve"]["variables_annealed"] == bqm.num_variables - len(ruled_out)


def test_fix_variables_matches_dimods_own():
    rng = np.random.default_rng(0)
    bqm = dimod.generators.gnp_random_bqm(12, 0.5, "BINARY", random_state=1)
    fixed = {v: int(rng.integers(2)) for v in list(bqm.variables)[:5]}
    mine = fix_variables(bqm, fixed)
    theirs = bqm.copy()
    theirs.fix_variables(fixed)
    assert mine.num_variables == theirs.num_variables
    for sample in dimod.ExactSolver().sample(theirs).samples():
        assert mine.energy(sample) == pytest.approx(theirs.energy(sample))


def test_bench_on_a_dask_cluster_counts_what_a_local_run_counts():
    distributed = pytest.importorskip("distributed", reason="the 'tune' extra (dask.distributed) is not installed")
    configs = [SolverConfig(num_reads=20, num_sweeps=100), SolverConfig(sampler="shift", num_reads=4, num_sweeps=200)]
    puzzles = [LETTER_A, PARTLY_LOGICAL]
    local = run_bench(puzzles, configs, seed=3, workers=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        remote = run_bench(puzzles, configs, seed=3, scheduler=cluster.scheduler_address)
    assert [(r.puzzle, r.config, r.num_reads, r.num_solved, r.residual_histogram) for r in local] == \
           [(r.puzzle, r.config, r.num_reads, r.num_solved, r.residual_histogram) for r in remote]


def test_bad_configuration_is_refused_before_any_work():
    with pytest.raises(ValueError, match="num_reads"):
        run(LETTER_A, SolverConfig(num_reads=0))
    with pytest.raises(ValueError, match="takes no option 'nosuch'"):
        run(LETTER_A, SolverConfig(options={"nosuch": 1}))
    with pytest.raises(ValueError, match="2\\^n"):
        anneal(LETTER_A, sampler=dimod.ExactSolver())



@pytest.mark.parametrize("config", [
    SolverConfig(sampler="sa", num_reads=20, num_sweeps=200, seed=4, presolve=True),
    SolverConfig(sampler="shift", num_reads=4, seed=4, options={"threads": 1}),  # one stream: same seed, same reads
    SolverConfig(sampler="sa", num_reads=20, num_sweeps=200, seed=4, encoding="thermometer", presolve=True),
])
def test_run_is_run_many_of_one_puzzle(config):
    """One pipeline: the reads run_many draws for each puzzle with a sampler that is not batched are those run
    draws for that puzzle alone, judged the same way; a batched sampler samples even one puzzle in one launch."""
    from qpicross.pipeline.run import run_many

    puzzles = [LETTER_A, PARTLY_LOGICAL, TWO_DIAGONALS]
    many = run_many(puzzles, config)
    for puzzle, together in zip(puzzles, many):
        alone = run(puzzle, config)
        assert together.puzzle is puzzle and together.solved == alone.solved and "batch_s" not in alone.timing
        assert np.array_equal(together.sampleset.record.sample, alone.sampleset.record.sample)
        assert (together.presolve or {}).keys() == (alone.presolve or {}).keys()
    batched = run(LETTER_A, SolverConfig(sampler="shift-batched-cpu", num_reads=4, num_sweeps=200, seed=4))
    assert batched.solved and batched.timing["batch_s"] > 0


def test_validate_refuses_a_sampler_name_the_registry_lacks_and_names_the_known_ones():
    with pytest.raises(ParameterError, match="unknown sampler 'nope'; known: sa, tabu, shift"):
        SolverConfig(sampler="nope").validate()
    SolverConfig(sampler="sa").validate()


def test_weights_may_be_a_mapping_of_term_names():
    assert SolverConfig(weights={"match": 2.0}).weights == PenaltyWeights(match=2.0)
    with pytest.raises(ParameterError, match="weights name no term 'macth'"):
        SolverConfig(weights={"macth": 2.0})
