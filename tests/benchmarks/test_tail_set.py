"""The named tail sets in benchmarks/tail_sets/ are what their headers say: written from the committed tournament
passes by the stated rule, and read back into one bench spec a puzzle."""

from __future__ import annotations

import json

import pytest

from benchmarks import tail_set
from conftest import ROOT

#: Issue 58's taai2011 tail, slowest first, as the issue lists it.
ISSUE_58_TAAI2011 = ("448 591 372 608 346 574 493 610 396 549 597 609 436 587 469 510 563 739 481 307 655 385 428 672 "
                     "623 502 369 411 571 585 487 457 309 277 629").split()


#: The pass each list was written from (each kept beside today's): issue 58's taai2011 tail is 9ebc4c0's pass,
#: tcga2012's 23ef9f2's.
SOURCES = {"taai2011": "results/tournament_taai2011_9ebc4c0.json",
           "tcga2012": "results/tournament_tcga2012_23ef9f2.json"}


@pytest.mark.parametrize("name,count", [("taai2011", 35), ("tcga2012", 43)])
def test_each_committed_list_is_written_again_from_its_pass_by_its_rule(name, count):
    source = SOURCES[name]
    committed = (ROOT / "benchmarks" / "tail_sets" / f"{name}.txt").read_text()
    assert committed == tail_set.list_text(json.loads((ROOT / source).read_text()), source, 10.0)
    specs = tail_set.read_specs(committed.splitlines(), "q")
    assert len(specs) == count and all(s.startswith(f"q/{name}.txt#") for s in specs)


def test_the_taai2011_list_is_the_issues():
    lines = (ROOT / "benchmarks" / "tail_sets" / "taai2011.txt").read_text().splitlines()
    assert [s.rpartition("#")[2] for s in tail_set.read_specs(lines, "q")] == ISSUE_58_TAAI2011


def test_the_command_line_writes_and_reads_a_list(tmp_path, capsys):
    results = tmp_path / "tournament_t.json"
    results.write_text(json.dumps({"meta": {"commit": "abc1234", "cores": 1}, "summary": {"total_s": 40.0},
                                   "results": [{"puzzle": "t#1", "seconds": 11.0}, {"puzzle": "t#2", "seconds": 2.0}]}))
    out = tmp_path / "t.txt"
    assert tail_set.main(["write", str(results), "--above", "10", "-o", str(out)]) == 0
    assert tail_set.main(["specs", str(out), "--dir", "Q"]) == 0
    assert capsys.readouterr().out == "Q/t.txt#1\n"
    assert tail_set.main(["specs", str(tmp_path / "absent.txt"), "--dir", "Q"]) == 2
    assert "absent.txt" in capsys.readouterr().err
