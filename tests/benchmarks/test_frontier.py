"""The formulation-frontier page: its generated blocks are what the results files give."""

import json
from pathlib import Path

import pytest

from benchmarks.frontier import GENERATED, PAGE, PAGES, generated_tables, replace_blocks, stale_blocks, still_fails


def test_the_page_agrees_with_the_results_files():
    if not PAGE.is_file():
        pytest.skip(f"{PAGE} is absent")
    text = "".join(page.read_text() for page in PAGES)
    tables = generated_tables()
    assert tables, "no results file for any block"
    for name in tables:
        assert text.count(f"<!-- begin generated: {name} -->") == 1, name
    assert stale_blocks() == [], "run make frontier-page"


def test_every_block_says_which_code_measured_it():
    for name, text in generated_tables().items():
        last = text.splitlines()[-1]
        assert last.startswith("*Measured at:* "), name
        assert all(f in last for f in GENERATED[name][0] if (PAGE.parents[2] / "results" / f).is_file()), name


def test_blocks_are_rewritten_and_unknown_names_refused():
    text = "<!-- begin generated: still-fails -->\nold\n<!-- end generated: still-fails -->"
    assert "new" in replace_blocks(text, {"still-fails": "new"})
    assert replace_blocks(text, {}) == text  # no results: the block stays as it is
    empty = "<!-- begin generated: still-fails -->\n<!-- end generated: still-fails -->"
    assert replace_blocks(empty, {"still-fails": "new"}) == text.replace("old", "new")
    with pytest.raises(ValueError, match="no generator"):
        replace_blocks("<!-- begin generated: nope -->\nx\n<!-- end generated: nope -->", {})


def test_still_fails_lists_what_the_files_say(tmp_path):
    sched = {"meta": {"arms": ["default", "rule"]},
             "puzzles": [{"label": "a", "rows": 2, "cols": 2}, {"label": "b", "rows": 3, "cols": 3}],
             "records": [{"puzzle": "a", "arm": "default", "num_solved": 1, "num_reads": 2, "best_energy": 0.0},
                         {"puzzle": "a", "arm": "rule", "num_solved": 1, "num_reads": 2, "best_energy": 0.0},
                         {"puzzle": "b", "arm": "default", "num_solved": 0, "num_reads": 7, "best_energy": 4.0},
                         {"puzzle": "b", "arm": "default", "status": "not measured"},
                         {"puzzle": "b", "arm": "rule", "num_solved": 3, "num_reads": 9, "best_energy": 0.0}]}
    emb = {"puzzles": [{"label": "b", "rows": 3, "cols": 3}],
           "records": [{"encoding": "thermometer", "topology": "zephyr", "collection": "c", "puzzle": "b",
                        "status": "not embedded", "num_variables": 9, "num_interactions": 12, "embed_s": 31.0}]}
    text = still_fails({"schedule.json": sched, "embedding.json": emb})
    assert ("- b (3×3, schedule.json): no read of plain SA reached the ground state with default at any sweep count "
            "(7 reads; best energy 4); solved with rule") in text
    assert "a (2×2" not in text
    assert "thermometer on zephyr: c stops at b (3×3, 9 variables, 12 interactions): no embedding found in 31 s" in text


def test_an_encoding_not_kept_is_shown_only_where_the_page_says_why():
    """embedding.json may hold encodings measured once and not kept (frontier.NOT_KEPT): the current tables and the
    list of what still fails leave them out, the not-kept block shows only them."""
    from benchmarks.frontier import NOT_KEPT, _embedding

    records = [{"puzzle": "a", "collection": "c", "encoding": e, "topology": "zephyr", "status": "not embedded",
                "num_variables": 9, "num_interactions": 9, "embed_s": 1.0} for e in ("thermometer", NOT_KEPT[0])]
    data = {"meta": {"topologies": {"zephyr": {}}}, "puzzles": [{"label": "a", "rows": 5, "cols": 5}],
            "records": records}
    current, not_kept = (_embedding("largest_table", flag)({"embedding.json": data}) for flag in (False, True))
    assert "| thermometer |" in current and NOT_KEPT[0] not in current
    assert f"| {NOT_KEPT[0]} |" in not_kept and "| thermometer |" not in not_kept
    fails = still_fails({"embedding.json": data})
    assert "thermometer on zephyr" in fails and NOT_KEPT[0] not in fails


def test_every_results_page_opens_with_a_figure_drawn_from_its_results_and_stays_short(tmp_path):
    """Each page of docs/results/ shows a figure before its first section, one that benchmarks.page_figures (or
    the study and schedule targets) draws from committed results files; no page is over 400 lines. The page
    figures are drawn again here and must come out."""
    from benchmarks.page_figures import PAGE_FIGURES, make_page_figures

    root = PAGE.parents[2]
    drawn = {path.name for path in make_page_figures(tmp_path)}
    assert drawn == {name for name, _ in PAGE_FIGURES} and all((tmp_path / n).stat().st_size > 10_000 for n in drawn)
    for page in sorted((root / "docs" / "results").glob("*.md")):
        lines = page.read_text().splitlines()
        assert len(lines) <= 400, page.name
        first = next(line for line in lines[1:] if line.strip())
        assert first.startswith("![") and "](../../figures/" in first, page.name
        figure = first.rsplit("/", 1)[1].rstrip(")")
        assert figure in drawn | {"study.png", "schedule.png"} and (root / "figures" / figure).is_file(), page.name
