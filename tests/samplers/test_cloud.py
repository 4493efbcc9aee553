"""Cloud annealers, run offline: a mock Pegasus QPU, dimod's exact CQM solver, Amplify conversion.

Tests that need the real services are at the end; they skip with the reason
when no token is configured.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys

import dimod
import networkx as nx
import numpy as np
import pytest

from qpicross import Puzzle, anneal, build_formulation, check
from qpicross.cli import main
from qpicross.samplers.cloud import (
    HybridBQMSampler,
    HybridCQMSampler,
    QPUSampler,
    check_credentials,
    cloud_options,
    leap_token_configured,
    read_token_file,
)
from qpicross.model.cqm import build_cqm
from qpicross.samplers import SAMPLERS, SamplerUnavailableError
from qpicross.samplers.reads import independent_reads
from puzzles import LETTER_A_FILE, TWO_DIAGONALS

CLOUD_SAMPLERS = ["qpu", "hybrid", "hybrid-cqm", "amplify"]


def mock_qpu(seed: int, num_sweeps: int = 5000):
    """A mock Advantage: the full Pegasus P16 graph, simulated annealing standing in for the anneal."""
    from dwave.samplers import SimulatedAnnealingSampler
    from dwave.system.testing import MockDWaveSampler

    return MockDWaveSampler(topology_type="pegasus", topology_shape=[16], parameter_warnings=False,
                            substitute_sampler=SimulatedAnnealingSampler(),
                            substitute_kwargs={"seed": seed, "num_sweeps": num_sweeps})


# --- registration ---------------------------------------------------------------------------------


def test_cloud_samplers_register_without_importing_their_sdks():
    code = ("import sys, qpicross.samplers as s; "
            "print(all(n in s.SAMPLERS for n in %r), 'dwave.system' in sys.modules, 'amplify' in sys.modules)"
            % CLOUD_SAMPLERS)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.split() == ["True", "False", "False"]
    assert not any(independent_reads(SAMPLERS[name].factory()) for name in CLOUD_SAMPLERS)


# --- QPU on a mock Pegasus ------------------------------------------------------------------------


def test_mock_qpu_embeds_the_letter_a_and_returns_a_decoded_board(letter_a):
    qpu = mock_qpu(seed=3)
    result = anneal(letter_a, sampler=QPUSampler(qpu=qpu), num_reads=100, chain_strength=2.0,
                    embedding_parameters={"random_seed": 3})
    info = result.to_dict()["sampler_info"]
    # A real minor embedding: chains are connected Pegasus subgraphs, disjoint, longer than 1 somewhere.
    embedding = result.sampleset.info["embedding_context"]["embedding"]
    graph = nx.Graph(qpu.edgelist)
    assert set(embedding) == set(result.bqm.variables)
    qubits = [q for chain in embedding.values() for q in chain]
    assert len(qubits) == len(set(qubits)) == info["physical_qubits"] > info["logical_variables"] == 44
    assert all(nx.is_connected(graph.subgraph(chain)) for chain in embedding.values())
    for u, v in result.bqm.quadratic:  # every logical coupling has a physical coupler
        assert any(graph.has_edge(p, q) for p in embedding[u] for q in embedding[v])
    # Unembedded reads carry the logical BQM's energies and decode to checked boards.
    dimod.testing.assert_sampleset_energies(result.sampleset, result.bqm)
    assert result.board.shape == (5, 5)
    assert result.solved and not check(letter_a, result.board)
    assert info["chain_strength"] == 2.0
    assert info["qpu_access_time_us"] == pytest.approx(8550.28)  # the mock's figure
    assert info["qpu_access_time_per_read_us"] == pytest.approx(8550.28 / 100)
    assert 0 <= info["chain_break_fraction"] <= info["reads_with_chain_breaks"] <= 1


def test_text_report_shows_the_qpu_figures(letter_a, capsys):
    from qpicross.cli.anneal import print_report

    result = anneal(letter_a, sampler=QPUSampler(qpu=mock_qpu(seed=1, num_sweeps=10)), num_reads=10,
                    embedding_parameters={"random_seed": 1})
    print_report(result)
    info = result.to_dict()["sampler_info"]
    assert f"44 variables on {info['physical_qubits']} qubits" in capsys.readouterr().out


def test_default_chain_strength_is_uniform_torque_compensation(letter_a):
    from dwave.embedding.chain_strength import uniform_torque_compensation

    result = anneal(letter_a, sampler=QPUSampler(qpu=mock_qpu(seed=1, num_sweeps=10)), num_reads=5,
                    embedding_parameters={"random_seed": 1})
    # dwave-system embeds the Ising (spin) form, so the chain strength is in Ising units.
    expected = uniform_torque_compensation(result.bqm.spin)
    assert result.to_dict()["sampler_info"]["chain_strength"] == pytest.approx(expected)


def test_weak_chains_break_and_are_counted(letter_a):
    result = anneal(letter_a, sampler=QPUSampler(qpu=mock_qpu(seed=2, num_sweeps=50)), num_reads=40,
                    chain_strength=0.01, embedding_parameters={"random_seed": 2})
    info = result.to_dict()["sampler_info"]
    record = result.sampleset.record
    expected = float(record.chain_break_fraction @ record.num_occurrences / record.num_occurrences.sum())
    assert info["chain_break_fraction"] == pytest.approx(expected) and expected > 0
    assert info["reads_with_chain_breaks"] > 0


# --- hybrid BQM (Leap stand-in) -------------------------------------------------------------------


class IntegerLabelledStandIn(dimod.Sampler):
    """Plays LeapHybridSampler: insists on integer labels, reports timing like Leap does."""

    parameters = {"time_limit": []}
    properties: dict = {}

    def sample(self, bqm, time_limit=None):
        assert all(isinstance(v, int) for v in bqm.variables)
        from dwave.samplers import SimulatedAnnealingSampler

        result = SimulatedAnnealingSampler().sample(bqm, num_reads=20, seed=4, num_sweeps=2000)
        result.info.update(timing={"run_time": 1e6 * time_limit, "charge_time": 1e6 * time_limit,
                                   "qpu_access_time": 40.0}, problem_id="stand-in")
        return result


def test_hybrid_relabels_round_trip_and_reports_timing(letter_a):
    result = anneal(letter_a, sampler=HybridBQMSampler(hybrid=IntegerLabelledStandIn()), time_limit=3.0)
    assert set(result.sampleset.variables) == set(result.bqm.variables)
    dimod.testing.assert_sampleset_energies(result.sampleset, result.bqm)
    info = result.to_dict()["sampler_info"]
    assert info["run_time_us"] == 3e6 and info["qpu_access_time_us"] == 40.0 and info["time_limit_s"] == 3.0


# --- CQM ------------------------------------------------------------------------------------------


def all_solutions(puzzle: Puzzle) -> set[bytes]:
    """Every valid board, by brute force over all 2^cells boards."""
    n_rows, n_cols = puzzle.shape
    boards = (np.array(bits, np.uint8).reshape(n_rows, n_cols)
              for bits in itertools.product((0, 1), repeat=n_rows * n_cols))
    return {b.tobytes() for b in boards if not check(puzzle, b)}


def tiny_puzzles(count: int, max_variables: int = 14):
    rng = np.random.default_rng(2024)
    found = []
    while len(found) < count:
        shape = tuple(rng.integers(2, 4, size=2))
        puzzle = Puzzle.from_board(rng.integers(0, 2, size=shape))
        if 0 < build_formulation(puzzle).num_variables <= max_variables:
            found.append(puzzle)
    return found


@pytest.mark.parametrize("matching", ["objective", "constraints"])
def test_cqm_feasible_optimum_is_exactly_the_valid_boards(matching):
    for puzzle in tiny_puzzles(6):
        f = build_formulation(puzzle)
        cqm = build_cqm(f, matching)
        sampleset = dimod.ExactCQMSolver().sample_cqm(cqm)
        optimal = sampleset.filter(lambda d: d.is_feasible and d.energy == 0)
        boards = f.boards(f.samples_to_array(optimal))
        # One feasible assignment per valid board, and its rows and columns paint the same board.
        assert {b.tobytes() for b in boards} == all_solutions(puzzle)
        assert len(optimal) == len(all_solutions(puzzle))
        assert (boards == f.boards(f.samples_to_array(optimal), side="col")).all()
        # The QUBO gives those same assignments energy 0.
        assert np.allclose(f.bqm().energies(optimal), 0)


def test_cqm_with_presolve_fixed_blocks():
    puzzle = Puzzle([[2], [1], [1, 1]], [[1, 1], [1], [2]])  # one solution, 3x3
    (solution,) = all_solutions(puzzle)
    board = np.frombuffer(solution, np.uint8).reshape(3, 3)
    known = np.full((3, 3), -1)
    known[0] = board[0]  # settle the first row: its block and some column blocks get fixed
    f = build_formulation(puzzle, known=known)
    assert f.fixed_labels
    for matching in ("objective", "constraints"):
        sampleset = dimod.ExactCQMSolver().sample_cqm(build_cqm(f, matching))
        optimal = sampleset.filter(lambda d: d.is_feasible and d.energy == 0)
        assert [b.tobytes() for b in f.boards(f.samples_to_array(optimal))] == [solution]


def test_hybrid_cqm_through_anneal_decodes_like_any_sampler():
    puzzle = tiny_puzzles(1)[0]
    result = anneal(puzzle, sampler=HybridCQMSampler(hybrid=dimod.ExactCQMSolver()))
    assert result.solved and result.energy == 0
    # The reads carry the BQM's energies, not the CQM objective.
    dimod.testing.assert_sampleset_energies(result.sampleset, result.bqm)
    info = result.to_dict()["sampler_info"]
    assert 0 < info["feasible_fraction"] <= 1 and info["num_constraints"] > 0


def test_hybrid_cqm_needs_the_formulation(letter_a):
    from qpicross import build_bqm

    with pytest.raises(ValueError, match="formulation"):
        HybridCQMSampler(hybrid=dimod.ExactCQMSolver()).sample(build_bqm(letter_a))


# --- Amplify --------------------------------------------------------------------------------------


def test_amplify_polynomial_equals_bqm_energy(letter_a):
    pytest.importorskip("amplify", reason="the amplify SDK (extra 'amplify') is not installed")
    from qpicross import build_bqm
    from qpicross.samplers.amplify import bqm_to_amplify

    rng = np.random.default_rng(7)
    binary = build_bqm(letter_a)
    spin = dimod.BinaryQuadraticModel({"a": 0.5, "b": -1}, {("a", "b"): 1.5, ("b", "c"): -2}, 0.25, "SPIN")
    for bqm in (binary, spin):
        poly, variables, labels = bqm_to_amplify(bqm)
        binary_bqm = bqm.change_vartype("BINARY", inplace=False)
        for _ in range(20):
            x = rng.integers(0, 2, len(labels))
            value = poly.substitute({variables[i]: int(x[i]) for i in range(len(labels))})
            assert value.is_number()
            assert float(value) == pytest.approx(binary_bqm.energy(dict(zip(labels, x))))


class SimulatedAnnealingAmplifyClient:
    """An Amplify custom client (amplify.CustomClientProtocol) that anneals locally: Amplify AE's stand-in."""

    parameters = None
    version = "stand-in"

    @property
    def acceptable_degrees(self):
        import amplify

        return amplify.AcceptableDegrees(objective={"Binary": "Quadratic"})

    def solve(self, objective, constraints, dry_run=False):
        import datetime

        from dwave.samplers import SimulatedAnnealingSampler

        if dry_run:
            return None
        position = {variable.id: i for i, variable in enumerate(objective.variables)}
        bqm = dimod.BinaryQuadraticModel(len(position), "BINARY")
        for key, coefficient in objective.as_dict().items():
            if len(key) == 0:
                bqm.offset += coefficient
            elif len(key) == 1:
                bqm.add_linear(position[key[0]], coefficient)
            else:
                bqm.add_quadratic(position[key[0]], position[key[1]], coefficient)
        sampleset = SimulatedAnnealingSampler().sample(bqm, num_reads=20, seed=1, num_sweeps=1000)
        columns = [sampleset.variables.index(i) for i in range(len(position))]
        took = datetime.timedelta(milliseconds=5)
        solutions = [(row[columns].astype(float).tolist(), took) for row in sampleset.record.sample]
        result = {"_solutions": solutions, "_response_time": took, "_execution_time": took}
        return type("StandInResult", (), result)()


def test_amplify_sampler_round_trip_through_the_sdk(letter_a):
    pytest.importorskip("amplify", reason="the amplify SDK (extra 'amplify') is not installed")
    from qpicross.samplers.amplify import AmplifyAESampler

    result = anneal(letter_a, sampler=AmplifyAESampler(client=SimulatedAnnealingAmplifyClient()))
    # amplify.solve ran the model through the client and its solutions decoded back onto our labels.
    dimod.testing.assert_sampleset_energies(result.sampleset, result.bqm)
    assert result.solved and result.energy == 0
    info = result.to_dict()["sampler_info"]
    assert info["num_solutions"] == result.num_reads >= 1 and info["execution_time_s"] == pytest.approx(0.005)


# --- credentials and the command line -------------------------------------------------------------


@pytest.mark.parametrize("sampler", CLOUD_SAMPLERS)
def test_without_credentials_each_cloud_sampler_fails_in_one_line(sampler, letter_a, no_credentials, capsys):
    code = main(["anneal", LETTER_A_FILE, "--sampler", sampler])
    out, err = capsys.readouterr()
    assert code == 2
    assert err.count("\n") == 1 and "Traceback" not in err
    assert out == ""  # refused before anything was built: no size line
    expected = "AMPLIFY_TOKEN" if sampler == "amplify" else "dwave config create"
    assert expected in err or "pip install 'qpicross[" in err


def test_network_failure_message_never_shows_the_token(monkeypatch, tmp_path, letter_a):
    system = pytest.importorskip("dwave.system")
    secret = "DEV-0123456789abcdef"

    def refuse(**config):
        raise OSError(f"connection refused for token {config['token']}")

    monkeypatch.setattr(system, "DWaveSampler", refuse)
    token_file = tmp_path / "token"
    token_file.write_text(secret + "\n")
    with pytest.raises(SamplerUnavailableError) as info:
        anneal(letter_a, sampler="qpu", num_reads=1, **cloud_options("qpu", token_file=token_file))
    assert secret not in str(info.value) and "cannot use D-Wave Leap" in str(info.value)


def test_cloud_options_validate(tmp_path):
    assert cloud_options("hybrid", profile="prod") == {"profile": "prod"}
    with pytest.raises(ValueError, match="does not apply"):
        cloud_options("sa", chain_strength=2.0)
    with pytest.raises(ValueError, match="positive"):
        cloud_options("qpu", chain_strength=0)
    empty = tmp_path / "empty"
    empty.write_text("\n")
    with pytest.raises(SamplerUnavailableError, match="empty"):
        read_token_file(empty)


@pytest.mark.parametrize("sampler, module", [("qpu", "dwave.system"), ("hybrid-cqm", "dwave.system"),
                                             ("amplify", "amplify")])
def test_check_credentials_needs_a_token_and_nothing_else(sampler, module, no_credentials, monkeypatch, tmp_path):
    pytest.importorskip(module, reason=f"{module} (the sampler's extra) is not installed")
    (tmp_path / "empty.conf").write_text("")
    monkeypatch.setenv("DWAVE_CONFIG_FILE", str(tmp_path / "empty.conf"))  # a configuration without a token
    with pytest.raises(SamplerUnavailableError, match="no .*token"):
        check_credentials(sampler)
    check_credentials(sampler, {"token": "DEV-0123"})  # given: passes without the network
    monkeypatch.setenv("AMPLIFY_TOKEN" if sampler == "amplify" else "DWAVE_API_TOKEN", "DEV-0123")
    check_credentials(sampler)  # from the environment
    check_credentials("sa")  # not a cloud sampler


def test_cli_rejects_cloud_options_for_local_samplers(capsys):
    assert main(["anneal", LETTER_A_FILE, "--chain-strength", "2"]) == 2
    assert "does not apply to sampler 'shift'" in capsys.readouterr().err


# --- the real services (skipped without credentials) ----------------------------------------------

needs_leap = pytest.mark.skipif(
    not leap_token_configured(),
    reason="no D-Wave Leap token configured (dwave config create or DWAVE_API_TOKEN)",
)
needs_amplify = pytest.mark.skipif(not os.environ.get("AMPLIFY_TOKEN"), reason="AMPLIFY_TOKEN is not set")


@pytest.mark.cloud
@needs_leap
def test_real_qpu_solves_a_tiny_puzzle():
    result = anneal(TWO_DIAGONALS, sampler="qpu", num_reads=20)
    assert result.solved and result.to_dict()["sampler_info"]["qpu_access_time_us"] > 0


@pytest.mark.cloud
@needs_leap
def test_real_hybrid_cqm_solves_the_letter_a(letter_a):
    assert anneal(letter_a, sampler="hybrid-cqm").solved


@pytest.mark.cloud
@needs_amplify
def test_real_amplify_solves_the_letter_a(letter_a):
    assert anneal(letter_a, sampler="amplify", time_limit=1.0).solved
