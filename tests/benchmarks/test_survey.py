"""The survey's published times committed in benchmarks/survey.py are the index's, every puzzle of make bench-survey
has them, and the results page sets ours beside them."""

from __future__ import annotations

import math
import shutil
import subprocess
from pathlib import Path

import pytest

from benchmarks import report, survey
from conftest import ROOT


def test_the_committed_times_are_the_indexs(shared_instances):
    index = (shared_instances / "external" / "WOLTER_SURVEY_INDEX.txt").read_text()
    assert survey.parse_index(index) == survey.PUBLISHED


def test_bench_survey_runs_every_survey_puzzle_there_is_and_each_has_its_published_times():
    if shutil.which("make") is None:
        pytest.skip("needs make, to expand the Makefile's SURVEY list")
    out = subprocess.run(["make", "-s", "-f", "benchmarks/Makefile", "--eval", "print-survey: ; @echo $(SURVEY)",
                          "print-survey", "SHARED=S"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    files = out.stdout.split()
    assert all(f.startswith("S/external/") for f in files), files
    stems = [Path(f).stem for f in files]
    numbers = [survey.published_for(stem).webpbn for stem in stems]
    assert len(stems) == 22 and sorted(numbers) == sorted(survey.PUBLISHED)
    assert {"signed", "karate", "thing", "sierp12548", "gettys"} <= set(stems)


def test_the_page_sets_ours_beside_each_published_time_and_says_the_target():
    def row(puzzle, config, solved, tts, threads=1):
        return {"puzzle": puzzle, "config": config, "num_solved": solved, "num_reads": 3, "tts99_s": tts,
                "tts99_low_s": tts if solved else 175.0, "tts99_high_s": tts if solved else "inf", "threads": threads}

    rows = [row("sierp12548", "shift", 3, 20.0), row("gettys", "shift", 0, "inf"), row("webpbn-00001-dancer", "shift", 3, 0.005),
            row("sierp12548", "shift+presolve", 3, 10.0), row("mine", "shift", 3, 1.0)]
    table = report.survey_table(rows)
    lines = table.splitlines()
    assert len(lines[0].split("|")) == len(lines[1].split("|")) == len(lines[2].split("|"))
    sierp = next(line for line in lines if line.startswith("| Sierp"))
    # ours, ours with presolve, then the seven published times (+: not finished), their median, and median / ours
    assert sierp == "| Sierp (sierp12548) | 12548 | 47×40 | 20 s | 10 s | + | 132 s | + | + | + | + | 84 s | + | " \
                    "faster (the median solver did not finish) |"
    gettys = next(line for line in lines if line.startswith("| Gettys"))
    assert "| > 175 s | — | – | + |" in gettys and gettys.endswith("| 630 s | + | not solved |")
    assert next(line for line in lines if line.startswith("| Dancer")).endswith("| < 10 ms | < 2× |")
    assert "each read on 1 core (" in table
    assert "fastest survey solver needs more than 1 s (2 puzzles: Sierp, Gettys), the default is faster than the " \
           "survey's median solver on 1 (Sierp)." in table
    assert table.endswith("Not in the survey's table: mine.")
    assert math.isinf(survey.survey_median(survey.PUBLISHED[22336].times))
