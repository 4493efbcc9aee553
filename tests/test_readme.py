"""The result tables of the README and the docs are generated from the committed results files: a hand-typed
number fails here."""

import json
import shutil

import numpy as np
import pytest

from benchmarks import report

README = report.ROOT / "README.md"


def test_every_generated_section_has_its_markers_on_a_page():
    texts = {page: page.read_text() for page in report.pages()}
    assert README in texts and len(texts) > 5, "the README and the docs pages"
    for name in report.SECTIONS:
        holders = [page.name for page, text in texts.items()
                   if f"<!-- begin generated: {name} -->" in text and f"<!-- end generated: {name} -->" in text]
        assert holders, name


def test_the_tables_agree_with_the_committed_results():
    present = [name for name, (files, _) in report.SECTIONS.items() if all(f.is_file() for f in files)]
    assert present, "no results files committed"
    differ = {page.name: report.update_page(page, check=True) for page in report.pages()}
    assert not any(differ.values()), f"run `make readme` after `make bench`: {differ}"


def test_every_generated_table_says_which_code_measured_it():
    """The last line of every section names each results file it came from, with the commit they record (read from the files alone: the pages stay as they are when only the code changes)."""
    for page in report.pages():
        text = page.read_text()
        for name, (files, _) in report.SECTIONS.items():
            if not report.has_section(text, name) or not all(f.is_file() for f in files):
                continue
            last = report.section_text(name).splitlines()[-1]
            assert last.startswith("*Measured at:* ") and "commit " in last, (page.name, name)
            assert all(f"{f.name}" in last for f in report.section_files(name)), (page.name, name)
    targets = [f.name for f in report.section_files("targets")]
    assert {"bench_pure.json", "bench_hard.json", "tournament_taai2011.json"} <= set(targets)


def test_a_hand_edited_number_is_caught(tmp_path):
    name = next(name for name, (files, _) in report.SECTIONS.items()
                if all(f.is_file() for f in files) and report.has_section(README.read_text(), name))
    copy = tmp_path / "README.md"
    shutil.copy(README, copy)
    text = copy.read_text()
    begin = text.index(f"<!-- begin generated: {name} -->")
    end = text.index(f"<!-- end generated: {name} -->")
    copy.write_text(text[:begin] + text[begin:end].replace("|", "| 9.99 ", 3) + text[end:])
    assert report.update_page(copy, check=True) == [name]
    assert report.update_page(copy) == [name] and report.update_page(copy, check=True) == []
    assert copy.read_text() == text


def test_the_command_line_checks_and_names_a_missing_readme(tmp_path, capsys):
    copy = tmp_path / "README.md"
    shutil.copy(README, copy)
    assert report.main([str(copy), "--check"]) == 0
    assert report.main([str(tmp_path / "absent.md")]) == 2
    assert "absent.md: no such file" in capsys.readouterr().err


def test_missing_markers_are_an_error():
    with pytest.raises(ValueError, match="no generated section"):
        report.replace_section("no markers here", "pure-table", "x")


def test_targets_table_computes_its_verdicts():
    def row(puzzle, solved, tts, source="../shared/instances/bompol", config="shift", **extra):
        return {"puzzle": puzzle, "source": source, "config": config, "num_solved": solved, "num_reads": 5, "rows": 25, "cols": 25,
                "p": solved / 5, "p_low": 0.0, "p_high": 1.0, "tts99_s": tts, "tts99_low_s": tts,
                "tts99_high_s": tts, "best_energy": 0.0 if solved else 2.0, **extra}

    rows = [row("phantom", 5, 12.0), row("kabuki", 0, "inf")] + [row(f"p{i}", 5, 0.1) for i in range(15)]
    table = report.targets_table(rows)
    assert "16 of 17 (unsolved: kabuki)" in table
    lines = table.splitlines()
    assert lines[2].endswith("**missed** |")  # not all 17
    assert next(line for line in lines if "phantom" in line).endswith("**met** |")
    assert next(line for line in lines if "kabuki" in line).endswith("**missed** |")


def test_a_tournament_sample_can_miss_a_target_but_not_meet_it():
    def row(puzzle, solved, tts, source):
        return {"puzzle": puzzle, "source": source, "config": "shift", "num_solved": solved, "tts99_s": tts,
                "rows": 25, "cols": 25}

    sample = [row(f"taai2011#{n}", 5, 0.1, "q/taai2011.txt#1-1000/10") for n in range(1, 1000, 10)]
    unsolved = sample[:-1] + [row("taai2011#991", 0, "inf", "q/taai2011.txt#1-1000/10")]
    verdict = next(line for line in report.targets_table([], sample).splitlines() if "taai2011" in line)
    assert "not measured on all 1 000 (on these 100, taai2011.txt#1-1000/10: met)" in verdict
    verdict = next(line for line in report.targets_table([], unsolved).splitlines() if "taai2011" in line)
    assert "**missed** (measured on 100, taai2011.txt#1-1000/10" in verdict and "not measured" not in verdict
    assert "of these, median within 0.5 s, 1 unsolved, 0 solved above 30 s" in verdict
    slow = [row(r["puzzle"], r["num_solved"], 0.7 if i % 3 else r["tts99_s"], r["source"]) for i, r in enumerate(unsolved)]
    verdict = next(line for line in report.targets_table([], slow).splitlines() if "taai2011" in line)
    assert "of these, median above 0.5 s" in verdict
    full = [row(f"taai2011#{n}", 5, 0.1, "q/taai2011.txt#1-1000") for n in range(1, 1001)]
    verdict = next(line for line in report.targets_table([], full).splitlines() if "taai2011" in line)
    assert verdict.endswith("**met** |")
    slow = full[:-1] + [row("taai2011#1000", 5, 31.0, "q/taai2011.txt#1-1000")]
    verdict = next(line for line in report.targets_table([], slow).splitlines() if "taai2011" in line)
    assert verdict.endswith("**missed** (median within 0.5 s, 0 unsolved, 1 solved above 30 s) |")


def test_the_anneal_row_counts_the_retried_puzzles():
    def row(n, solved, tts=None):
        return {"puzzle": f"taai2011#{n}", "source": "q/taai2011.txt#1-1000", "config": "shift", "num_solved": solved,
                "tts99_s": tts or (0.1 if solved else "inf"), "rows": 25, "cols": 25}

    full = [row(n, 5) for n in range(1, 999)] + [row(999, 0), row(1000, 0)]
    assert "qpicross anneal" not in report.targets_table([], full)  # no retry run: no row
    retry = [row(999, 2, 41.5), row(1000, 0)]
    line = next(line for line in report.targets_table([], full, retry=retry).splitlines() if "qpicross anneal" in line)
    assert "998 of 1000 in the full runs; the other 2 with that budget: 1 of 2 (TTS99 up to 41.5 s, taai2011#999); " \
           "not solved: taai2011#1000" in line and line.endswith("**missed** |")
    retry[1] = row(1000, 1, 7.0)
    line = next(line for line in report.targets_table([], full, retry=retry).splitlines() if "qpicross anneal" in line)
    assert "2 of 2 (TTS99 up to 41.5 s, taai2011#999)" in line and line.endswith("**met** |")
    retry[1] = row(1000, 1, 700.0)  # solved, but anneal's budget finds it less than 99 times in 100
    line = next(line for line in report.targets_table([], full, retry=retry).splitlines() if "qpicross anneal" in line)
    assert line.endswith("**missed** (every one solved; TTS99 above 600 s, so more than 1 run in 100 fails: "
                         "taai2011#1000) |")


def test_the_anneal_budget_is_the_clis():
    from qpicross.cli._solver_options import FIND_TIME_LIMIT

    assert report.ANNEAL_BUDGET_S == FIND_TIME_LIMIT
    # and the retry target's reads get that budget
    makefile = (report.ROOT / "benchmarks" / "Makefile").read_text()
    recipe = makefile[makefile.index("\nbench-tournament-retry:"):].split("\n\n")[0]
    assert f"--time-limit {FIND_TIME_LIMIT:g} " in recipe


def test_the_command_line_lists_the_unsolved_puzzles_of_results_files(tmp_path, capsys):
    def results(name, solved):
        rows = [{"source": "q/t.txt#1-3", "puzzle": f"t#{n}", "num_solved": s} for n, s in zip((1, 2, 3), solved)]
        path = tmp_path / name
        path.write_text(json.dumps({"results": rows}))
        return str(path)

    assert report.main(["--unsolved", results("a.json", (0, 2, 0))]) == 0
    assert capsys.readouterr().out.split() == ["q/t.txt#1", "q/t.txt#3"]
    assert report.main(["--unsolved", results("b.json", (1, 1, 1))]) == 0
    assert capsys.readouterr().out.split() == []
    assert report.main(["--unsolved", str(tmp_path / "absent.json")]) == 2
    assert "absent.json" in capsys.readouterr().err


def test_the_command_line_adds_the_slow_puzzles_with_above(tmp_path, capsys):
    rows = [{"source": "q/t.txt#1-3", "puzzle": f"t#{n}", "num_solved": s, "tts99_s": t}
            for n, s, t in [(1, 3, 0.4), (2, 2, 45.0), (3, 0, "inf")]]
    path = tmp_path / "a.json"
    path.write_text(json.dumps({"results": rows}))
    assert report.main(["--unsolved", str(path), "--above", "30"]) == 0
    assert capsys.readouterr().out.split() == ["q/t.txt#2", "q/t.txt#3"]
    assert report.main(["--unsolved", str(path), "--above", "50"]) == 0
    assert capsys.readouterr().out.split() == ["q/t.txt#3"]
    with pytest.raises(SystemExit) as error:  # --above alone is a usage error
        report.main(["--above", "30"])
    assert error.value.code == 2


def test_tables_carry_intervals_core_seconds_and_what_censoring_moved():
    def row(puzzle, tts, naive, low, high, threads=2, few=False):
        return {"puzzle": puzzle, "source": "q/t.txt#1-3", "config": "shift", "rows": 25, "cols": 25,
                "num_variables": 100, "num_reads": 3, "num_solved": 2, "p": 0.67, "p_low": 0.2, "p_high": 0.9,
                "tts99_s": tts, "tts99_low_s": low, "tts99_high_s": high, "tts99_naive_s": naive,
                "tts_method": "time-to-target", "threads": threads, "few_events": few, "best_energy": 0.0}

    rows = [row("t#1", 29.6, 107.7, 9.5, "inf", few=True), row("t#2", 2.0, 2.0, 1.0, 4.0), row("t#3", 1.0, 1.0, 0.5, 3.0)]
    table = report.summary_table(rows)
    line = table.splitlines()[2]
    # median 2 s with the medians of the interval ends; worst with its own interval; 2 cores: 4 and 59.2 core-s
    assert "| 2 s [1 s, 4 s] | 29.6 s [9.5 s, ∞] (t#1) | 2 | 4 core-s / 59.2 core-s | 1 | 1 puzzles; worst was 108 s |" in line
    cells = report.puzzle_table(rows, ["shift"])
    assert "29.6 s [9.5 s, ∞] † (59.2 core-s) (was 108 s)" in cells
    assert "treated as censored; core-seconds of rows without measured CPU time" in cells
    assert "† the optimal cutoff rests on fewer than 3" in cells
    line = report.distribution_line(rows)
    assert "median 2 s [1 s, 4 s]" in line and "(4 core-s, worst 59.2 core-s on 2 cores)" in line
    assert "1 moved by censoring (before: median 2 s, 1 above 30 s, worst 108 s)" in line


def test_a_row_no_read_of_which_solved_reads_as_a_lower_bound_whichever_its_kind():
    """An early-stopping row with every read censored and a fixed-length row with no success both print "> X",
    X what their reads rule out; for reads of one length the two agree; an old file's inf low end is recomputed."""
    from qpicross.experiments.tts import tts99, wilson_interval
    from qpicross.experiments.survival import survival_tts

    censored = survival_tts([float("inf")] * 3, [2.0] * 3)
    fixed_low = tts99(2.0, wilson_interval(0, 3)[1])  # result_from_run's low end: 3 fixed reads of 2 s, none solved
    assert censored.tts99_low_s == pytest.approx(fixed_low)
    common = {"source": "q", "config": "shift", "rows": 5, "cols": 5, "num_variables": 10, "num_reads": 3,
              "num_solved": 0, "p": 0.0, "p_low": 0.0, "p_high": 0.56, "tts99_s": "inf", "tts99_high_s": "inf",
              "best_energy": 2.0, "threads": 1}
    rows = [{**common, "puzzle": "early", "tts_method": "time-to-target", "tts99_low_s": censored.tts99_low_s,
             "time_to_target_s": ["inf"] * 3, "read_s": [2.0] * 3},
            {**common, "puzzle": "fixed", "tts_method": "fixed", "tts99_low_s": fixed_low},
            {**common, "puzzle": "old", "tts_method": "time-to-target", "tts99_low_s": "inf",
             "time_to_target_s": ["inf"] * 3, "read_s": [2.0] * 3}]
    expected = f"> {report.fmt_time(fixed_low)}"
    table = report.puzzle_table(rows, ["shift"])
    for line, row in zip(table.splitlines()[2:], rows):
        assert f"| {expected} (best E 2) |" in line, (row["puzzle"], line)
    summary = report.summary_table(rows)
    assert "∞ [∞, ∞]" not in summary and f"| {expected} | {expected} (early) |" in summary


def test_the_parallel_pages_ratios_are_all_generated():
    """The parallel-restarts section quotes no ratio outside its generated blocks: each one, with its interval,
    is written from the results files by parallel_table and parallel_summary."""
    import re

    text = (report.ROOT / "docs" / "results" / "parallel.md").read_text()
    section = text[text.index("## Parallel restarts of one read"):text.index("## The batched annealer")]
    prose = re.sub(r"<!-- begin generated: (\S+) -->.*?<!-- end generated: \1 -->", "", section, flags=re.S)
    assert not re.findall(r"\d(?:\.\d+)?×", prose)
    assert "What two cores can show, and what they cannot" in prose
    assert re.search(r"1 / 2 is \d[\d.]*× \[", section) and "(puzzles and reads resampled)" in section  # with its interval


def test_the_cores_section_gives_each_core_together_over_alone():
    def row(puzzle, config, tts):
        return {"puzzle": puzzle, "source": "instances", "config": config, "num_solved": 5, "num_reads": 5, "rows": 5,
                "cols": 5, "p": 1.0, "p_low": 0.5, "p_high": 1.0, "tts99_s": tts, "tts99_low_s": tts,
                "tts99_high_s": tts, "best_energy": 0.0, "threads": 1}

    rows = [row(p, c, t * f) for p, t in (("a", 1.0), ("b", 2.0))
            for c, f in (("shift-alone", 1.0), ("shift-together-0", 2.0), ("shift-together-1", 1.5))]
    text = report._cores_together(rows)
    assert "- TTS99 shift-together-0 / shift-alone over 2 puzzles: geometric mean 2×" in text
    assert "- TTS99 shift-together-1 / shift-alone over 2 puzzles: geometric mean 1.5×" in text


def test_a_ratio_lines_ends_carry_their_intervals_from_the_reads():
    """The range of a ratio line gives each end's interval from that puzzle's reads (of the statistic the rows'
    ``tts99_s`` holds); rows without per-read times give the ends without one."""
    import re

    def row(puzzle, config, times):
        from qpicross.experiments.survival import survival_tts99

        return {"puzzle": puzzle, "source": "s", "config": config, "tts99_s": survival_tts99(times, times),
                "time_to_target_s": times, "read_s": times}

    rows = [row("a", "x", [2.0, 4.0, 6.0, 8.0]), row("a", "y", [1.0, 2.0, 3.0, 4.0]),
            row("b", "x", [1.0, 2.0, 3.0, 4.0]), row("b", "y", [1.0, 2.0, 3.0, 4.0])]
    line = report.ratio_line(rows, "x", "y")
    ends = re.findall(r"(\d[\d.]*)× \[([\d.]+), ([\d.]+)\] \((\w)\)", line.split("from ", 1)[1])
    assert [(float(v), p) for v, _, _, p in ends] == [(1.0, "b"), (2.0, "a")], line
    for value, low, high, _ in ends:
        assert float(low) <= float(value) <= float(high)
    bare = [{k: v for k, v in r.items() if k not in ("time_to_target_s", "read_s")} for r in rows]
    assert report.ratio_line(bare, "x", "y").endswith("from 1× (b) to 2× (a)")


def test_the_median_line_resamples_the_median():
    """The no-slowdown section's median-time ratio takes its ends' intervals from the reads' median, not their
    TTS99 (a statistic with other resamples)."""
    from benchmarks.ratios import median_time_of_reads, reads_ratio

    x, y = [1.0, 2.0, 2.5, 3.0, 40.0], [1.0, 1.5, 2.0, 9.0, 10.0]
    rows = [{"puzzle": "a", "source": "s", "config": c, "time_to_target_s": t, "read_s": t,
             "tts99_s": median_time_of_reads(np.array(t), np.array(t))} for c, t in (("x", x), ("y", y))]
    line = report.ratio_line(rows, "x", "y", median_time_of_reads)
    median = reads_ratio([(x, x)], [(y, y)], statistic=median_time_of_reads)
    tts99 = reads_ratio([(x, x)], [(y, y)])
    assert f"[{median.low:.3g}, {median.high:.3g}] (a)" in line, line
    assert (median.low, median.high) != (tts99.low, tts99.high)


def test_an_unsolved_worst_reads_as_what_its_reads_rule_out():
    """The distribution line's worst puzzle, when no read of it solved, prints "> X" (its row's lower bound), in
    wall and core-seconds, never a bare ∞."""
    def row(puzzle, tts, low, solved):
        return {"puzzle": puzzle, "source": "q", "config": "shift", "rows": 25, "cols": 25, "num_reads": 1,
                "num_solved": solved, "p": float(solved), "p_low": 0.0, "p_high": 1.0, "tts99_s": tts,
                "tts99_low_s": low, "tts99_high_s": "inf" if not solved else tts, "best_energy": 0.0 if solved else 2.0,
                "threads": 1, "tts_method": "time-to-target"}

    line = report.distribution_line([row("a", 1.0, 0.5, 1), row("b", 2.0, 1.0, 1), row("c", "inf", 175.2, 0)])
    assert "worst > 175 s (" in line and "worst > 175 core-s on 1 core" in line, line
    assert "∞" not in line


def test_a_ratio_line_between_different_cores_gives_the_core_seconds_ratio_too():
    rows = [{"puzzle": p, "source": "s", "config": c, "tts99_s": t, "threads": n}
            for p, c, t, n in [("a", "x", 2.0, 1), ("a", "y", 1.0, 2), ("b", "x", 4.0, 1), ("b", "y", 2.0, 2)]]
    line = report.ratio_line(rows, "x", "y")
    assert line.endswith("x ran on 1 core, y on 2: in core-seconds, geometric mean 1×"), line
