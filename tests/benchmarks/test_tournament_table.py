"""benchmarks.tournament: a file's default pass and its --presolve and two-core passes in one table, each line saying
whose."""

from benchmarks.tournament import tournament_table


def _pass(presolve: bool, total: float, cores: int = 1) -> dict:
    summary = {"puzzles": 2, "run": 2, "solved": 2, "total_s": total, "median_s": total / 2, "p99_s": total / 2,
               "slowest_s": total / 2, "slowest_puzzle": "taai2011#2", "within_limit": True}
    if presolve:
        summary.update(cells=1250, cells_settled=125, solved_by_logic=1)
    return {"meta": {"cores": cores, "commit": "c", "config": {"sampler": "shift", "presolve": presolve}},
            "summary": summary, "results": [{"puzzle": f"taai2011#{i}", "seconds": total / 2} for i in (1, 2)]}


def test_a_presolve_pass_is_a_row_of_its_files_table_with_what_line_logic_did():
    table = tournament_table({"taai2011": _pass(False, 4.0), "taai2011_presolve": _pass(True, 3.0)})
    assert table.count("**taai2011**") == 1 and "taai2011_presolve" not in table
    rows = [line for line in table.splitlines() if line.startswith("| qpicross")]
    assert [row.split("|")[1].strip() for row in rows] == ["qpicross `shift` (commit c)",
                                                           "qpicross `shift --presolve` (commit c)"]
    assert "| 4 s |" in rows[0] and "| 3 s |" in rows[1]
    assert "The default: the 2 slowest puzzles took 4 s" in table
    assert ("With `--presolve`: the 2 slowest puzzles took 3 s, 100 % of the total (taai2011#2, taai2011#1); the 0 "
            "puzzles under one second 0 ms, 0 %. Line logic settled 125 of 1 250 cells (10 %) and solved 1 of 2 "
            "puzzles alone; the annealer found the other 1 125.") in table
    alone = tournament_table({"taai2011": _pass(False, 4.0)})
    assert "The default:" not in alone and "The 2 slowest puzzles took 4 s" in alone


def test_a_two_core_pass_is_a_row_of_its_files_table_saying_its_cores_and_option():
    table = tournament_table({"taai2011_cores2": _pass(False, 2.5, cores=2), "taai2011": _pass(False, 4.0),
                              "tcga2012_cores2": _pass(False, 1.0, cores=2)})
    assert table.count("**taai2011**") == 1 and table.count("**tcga2012**") == 1 and "_cores2" not in table
    rows = [line for line in table.splitlines() if line.startswith("| qpicross")]
    assert [row.split("|")[1].strip() for row in rows] == ["qpicross `shift` (commit c)",
                                                           "qpicross `shift --option threads=2` (commit c)",
                                                           "qpicross `shift --option threads=2` (commit c)"]
    assert "1 core |" in rows[0] and "2 cores |" in rows[1] and "| 2.5 s |" in rows[1]
    assert "The default: the 2 slowest puzzles took 4 s" in table
    assert "On 2 cores: the 2 slowest puzzles took 2.5 s" in table
    assert "On 2 cores:" not in table.split("**tcga2012**")[1]  # a file with one pass needs no "whose"
