"""The figure module: the scaling plot from rows, and one quick figure written end to end."""

from __future__ import annotations

import math

import pytest

from qpicross.experiments.scaling import plot_scaling


def _row(puzzle, config, size, p, tts, variables=50, **extra):
    return {"puzzle": puzzle, "config": config, "rows": size, "cols": size, "num_variables": variables,
            "p": p, "p_low": max(0.0, p - 0.1), "p_high": min(1.0, p + 0.1), "tts99_s": tts,
            "presolve": "presolve" in config, **extra}


def test_plot_scaling_marks_never_solved_runs_above_every_finite_tts():
    rows = [_row("a", "baseline", 5, 0.5, 0.02), _row("b", "baseline", 10, 0.0, math.inf),
            _row("a", "presolve", 5, 1.0, 0.001, variables=0), _row("b", "presolve", 10, 0.8, 0.01),
            _row("c", "baseline", 20, 0.0, math.inf, variables=0, error="MemoryError")]  # a run that raised
    fig = plot_scaling(rows, title="t")
    ax_p, ax_t = fig.axes
    # The never-solved run is one x on the dotted ceiling, 5x the largest finite TTS99 (0.02 s).
    points = [tuple(xy) for c in ax_t.collections for xy in c.get_offsets()]
    assert [y for _, y in points if y > 0.02] == [pytest.approx(0.1)]
    assert ax_t.lines[-1].get_ydata()[0] == pytest.approx(0.1)  # the dotted line
    assert "settled by logic alone" in [t.get_text() for t in ax_p.get_legend().get_texts()]
    assert [t.get_text() for t in ax_p.get_xticklabels()] == ["25", "100"]


def test_scaling_rows_read_several_bench_files(tmp_path):
    import json

    fields = dict(rows=5, cols=5, num_variables=44, p=1.0, p_low=0.9, p_high=1.0)
    (tmp_path / "pure.json").write_text(json.dumps({"results": [
        dict(puzzle="a", config="shift", presolve=False, tts99_s=0.01, **fields),
        dict(puzzle="a", config="baseline", presolve=False, tts99_s="inf", **{**fields, "p": 0.0}),
    ]}))
    (tmp_path / "hybrid.json").write_text(json.dumps({"results": [
        dict(puzzle="a", config="shift", presolve=True, tts99_s=0.002, **fields),
    ]}))
    from qpicross.experiments.scaling import scaling_rows

    rows = scaling_rows([tmp_path / "pure.json", tmp_path / "hybrid.json"])
    assert [r["config"] for r in rows] == ["shift", "baseline", "shift + presolve"]
    assert math.isinf(rows[1]["tts99_s"]) and rows[2]["tts99_s"] == 0.002


def test_plot_scaling_draws_medians_for_collections():
    rows = [_row(f"p{k}", "shift", size, p, 0.01 * size)
            for size in (10, 25) for k, p in enumerate((0.5, 0.7, 0.9))]
    ax_p, _ = plot_scaling(rows).axes
    (median,) = ax_p.lines
    assert list(median.get_ydata()) == [0.7, 0.7]
    assert [t.get_text() for t in ax_p.get_legend().get_texts()] == ["shift (median)"]
