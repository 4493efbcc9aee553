"""The figure module: the scaling plot from rows, and one quick figure written end to end."""

from __future__ import annotations

import math

import pytest

from qpicross.figures import plot_scaling


def _row(puzzle, config, size, p, tts, variables=50):
    return {"puzzle": puzzle, "config": config, "rows": size, "cols": size, "num_variables": variables,
            "p": p, "p_low": max(0.0, p - 0.1), "p_high": min(1.0, p + 0.1), "tts99_s": tts}


def test_plot_scaling_marks_never_solved_runs_above_every_finite_tts():
    rows = [_row("a", "baseline", 5, 0.5, 0.02), _row("b", "baseline", 10, 0.0, math.inf),
            _row("a", "presolve", 5, 1.0, 0.001, variables=0), _row("b", "presolve", 10, 0.8, 0.01)]
    fig = plot_scaling(rows, title="t")
    ax_p, ax_t = fig.axes
    # The never-solved run is one x on the dotted ceiling, 5x the largest finite TTS99 (0.02 s).
    points = [tuple(xy) for c in ax_t.collections for xy in c.get_offsets()]
    assert [y for _, y in points if y > 0.02] == [pytest.approx(0.1)]
    assert ax_t.lines[-1].get_ydata()[0] == pytest.approx(0.1)  # the dotted line
    assert "settled by logic alone" in [t.get_text() for t in ax_p.get_legend().get_texts()]
    assert [t.get_text() for t in ax_p.get_xticklabels()] == ["25", "100"]
