"""Issue 35, ``--option`` and friends: every sampler parameter has a declared type and range, checked
before any work; a key with a flag of its own is refused; one line and exit 2, never a traceback, a
crash or a run that does not end."""

from __future__ import annotations

import pytest
from cli_subprocess import one_line_error, run_cli

from qpicross.cli import main
from qpicross.pipeline.config import SolverConfig
from qpicross.samplers import SAMPLERS, SamplerUnavailableError, get_sampler
from qpicross.samplers.parameters import OWN_SETTINGS, PARAMETERS, STRUCTURE, check_sampler_options
from puzzles import LETTER_A_FILE


#: (command line after the puzzle, what the one line says): the campaign's cases that raised or were accepted.
REFUSED = [
    (["--option", "seed=0"], "seed is set by --seed"),
    (["--option", "time_limit=1"], "time_limit is set by --time-limit"),
    (["--option", "early_stop=read"], "early_stop is set by --early-stop"),
    (["--option", "progress=1"], "progress is set by the command"),
    (["--option", "num_reads=5"], "num_reads is set by --reads"),
    (["--option", "beta_range=(1,5)"], "beta_range is set by --beta-range"),
    (["--option", "restart_sweeps=abc"], "restart_sweeps must be an integer"),
    (["--option", "line_moves=garbage"], "line_moves must be a number in [0, 1], got 'garbage'"),
    (["--option", "groups=garbage"], "groups is the puzzle's structure"),
    (["--option", "threads=-1"], "threads must be an integer in [1, 256], got -1"),
    (["--sampler", "sa", "--option", "interrupt_function=1"], "interrupt_function takes a function"),
    (["--sampler", "sa", "--option", "randomize_order=garbage"], "randomize_order must be True or False"),
    (["--sampler", "tabu", "--option", "lower_bound_z=garbage"], "lower_bound_z must be an integer"),
    (["--sampler", "tabu", "--option", "energy_threshold=abc"], "energy_threshold must be a finite number"),
    (["--sampler", "tabu", "--option", "timeout=-1"], "timeout must be an integer in [1, "),
    (["--sampler", "pt", "--option", "convergence=garbage"], "convergence must be an integer"),
    (["--sampler", "pt", "--option", "num_replicas=1000000"], "num_replicas must be an integer in [1, 1,000]"),
    (["--sampler", "pt", "--option", "max_iter=-1"], "max_iter must be an integer"),
    (["--sampler", "pt", "--option", "max_time=-1"], "max_time must be a number in (0, "),
    (["--sampler", "openjij-sa", "--option", "beta_max=abc"], "beta_max must be a number"),
    (["--sampler", "openjij-sa", "--option", "beta_min=-1"], "beta_min must be a number in (0, "),
    (["--sampler", "openjij-sqa", "--option", "beta=abc"], "beta must be a number"),
    (["--sampler", "openjij-sqa", "--option", "gamma=-1"], "gamma must be a number in (0, "),
    (["--sampler", "openjij-sqa", "--option", "trotter=0"], "trotter must be an integer in [2, "),
    (["--sampler", "sb", "--option", "dtype=garbage"], "dtype must be one of 'float32', 'float64'"),
    (["--sampler", "sb", "--option", "timeout=-1"], "timeout must be a number in (0, "),
    (["--sampler", "shift-batched-cpu", "--option", "threads_per_block=100000"], "threads_per_block must be"),
    (["--weights", "match=1,,order=2"], "--weights: empty item between commas"),
    (["--weights", "match=1,match=2"], "weight match is given twice"),
    (["--plot", ""], "--plot wants a file name, got ''"),
]


@pytest.mark.parametrize("command", ["anneal", "bench"])
@pytest.mark.parametrize("extra, message", REFUSED, ids=[" ".join(e) for e, _ in REFUSED])
def test_bad_option_is_one_line_before_any_work(command, extra, message, capsys):
    assert main([command, LETTER_A_FILE, "--reads", "2", *extra]) == 2
    err = capsys.readouterr().err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("qpicross: error: "), err
    assert message in lines[0], lines[0]


@pytest.mark.parametrize("extra", [
    ["--sampler", "openjij-sqa", "--option", "trotter=0"],  # was a segfault
    ["--sampler", "tabu", "--option", "timeout=-1"],  # ran past 60 s
    ["--sampler", "pt", "--option", "num_replicas=1000000"],  # ran past 60 s
])
def test_options_that_crashed_or_hung_are_one_line_in_a_child(extra):
    one_line_error(run_cli("anneal", LETTER_A_FILE, "--reads", "1", *extra, timeout=30))


def test_tune_seeds_and_runs_are_bounded(capsys):
    assert main(["tune", LETTER_A_FILE, "--grid", "match=1:2:2", "--seeds", "1000000000"]) == 2
    assert "--seeds must be from 1 to 10,000" in capsys.readouterr().err
    assert main(["tune", LETTER_A_FILE, "--grid", "match=1:2:100,order=1:2:100", "--seeds", "200"]) == 2
    assert "runs; at most 1,000,000" in capsys.readouterr().err


def test_huge_time_limit_is_no_overflow(capsys):
    assert main(["anneal", LETTER_A_FILE, "--sampler", "sa", "--reads", "60", "--sweeps", "10", "--seed", "1",
                 "--time-limit", "1e308"]) in (0, 1)
    assert "Traceback" not in capsys.readouterr().err


#: The options the Makefile and the README pass: all still accepted.
DOCUMENTED = [
    ("shift", {"chain": "joint"}), ("shift", {"threads": 1}), ("shift", {"restart_sweeps": 1000}),
    ("shift", {"schedule": "population", "population": 250, "population_steps": 100}),
    ("shift", {"stream_plans": "same"}), ("shift", {"block_moves": True}), ("shift", {"num_replicas": 1}),
    ("shift", {"line_moves": 0.0}), ("shift", {"profile_lines": "rows"}), ("shift", {"target_energy": 0}),
    ("shift", {"stream_chains": ("profile", "joint")}), ("shift-batched", {"target_energy": 0}),
    ("pt", {"num_replicas": 8}), ("sa", {"beta_schedule_type": "linear"}), ("tabu", {"timeout": 100}),
    ("openjij-sqa", {"trotter": 8, "gamma": 1.0}), ("sb", {"mode": "discrete", "dtype": "float64"}),
]


@pytest.mark.parametrize("sampler, options", DOCUMENTED)
def test_documented_options_pass(sampler, options):
    check_sampler_options(sampler, options, from_text=True)
    SolverConfig(sampler=sampler, options=options).validate()


def test_python_api_refuses_options_that_have_a_field():
    with pytest.raises(ValueError, match="seed is set by the configuration's seed"):
        SolverConfig(sampler="sa", options={"seed": 1}).validate()
    with pytest.raises(ValueError, match="line_moves must be a number in"):
        SolverConfig(options={"line_moves": "garbage"}).validate()
    SolverConfig(sampler="sa", options={"beta_range": (0.1, 5.0), "interrupt_function": lambda: False}).validate()


@pytest.mark.parametrize("name", sorted(SAMPLERS))
def test_every_parameter_of_every_sampler_is_declared(name):
    try:
        sampler = get_sampler(name)
    except SamplerUnavailableError as exc:  # an extra that is not installed
        pytest.skip(str(exc))
    declared = set(PARAMETERS[name]) | set(OWN_SETTINGS) | set(STRUCTURE)
    assert set(sampler.parameters) <= declared, set(sampler.parameters) - declared


def test_bounds_follow_the_pipeline():
    from qpicross.samplers import parameters
    from qpicross.pipeline import config

    assert parameters.MAX_SWEEPS == config.MAX_SWEEPS


def test_a_bench_where_every_run_failed_exits_2_as_anneal_does(capsys):
    """A value only the model can refuse (tabu's tenure must be below the variable count)."""
    assert main(["anneal", LETTER_A_FILE, "--reads", "2", "--sampler", "tabu", "--option", "tenure=1000000"]) == 2
    assert main(["bench", LETTER_A_FILE, "--reads", "2", "--sampler", "tabu", "--option", "tenure=1000000"]) == 2
    assert capsys.readouterr().err.splitlines()[-1].startswith("qpicross: error: every run failed; the first: ")


def test_option_help_lists_what_option_may_set_from_the_samplers_table(capsys):
    """``--option help`` prints each option with what it holds, its default and its doc, from the table that
    declares the parameter (issue 57, item 1), and runs nothing; a parameter with a flag of its own is not listed."""
    from qpicross.samplers.parameters import SHIFT_PARAMETERS

    with pytest.raises(SystemExit) as exit_:
        main(["anneal", str(LETTER_A_FILE), "--option", "help"])
    out = capsys.readouterr().out
    assert exit_.value.code == 0 and out.startswith("options of shift")
    assert f"threads (an integer in [1, 256]; default 1): {SHIFT_PARAMETERS['threads'].doc.split()[0]}" in out
    assert "\nseed (" not in out and "\ntime_limit (" not in out and "SOLVED" not in out
