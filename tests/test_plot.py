import matplotlib.colors as mcolors
import numpy as np

from qpicross.plot import BROKEN_COLOUR, plot_puzzle
from puzzles import LETTER_A_BOARD


def _red_patches(fig):
    red = mcolors.to_rgba(BROKEN_COLOUR)[:3]
    return [p for p in fig.axes[0].patches if tuple(p.get_edgecolor()[:3]) == red and not p.get_fill()]


def test_solved_board_has_no_highlight(letter_a):
    fig = plot_puzzle(letter_a, LETTER_A_BOARD)
    assert _red_patches(fig) == []
    assert fig.axes[0].get_title(loc="left").endswith("solved")


def test_broken_lines_are_outlined(letter_a):
    board = np.zeros((5, 5), dtype=int)
    board[3] = 1  # only row 3 right: rows 0,1,2,4 and every column break
    fig = plot_puzzle(letter_a, board)
    assert len(_red_patches(fig)) == 4 + 5
    assert "9 broken lines" in fig.axes[0].get_title(loc="left")


def test_clues_are_drawn(letter_a):
    fig = plot_puzzle(letter_a)
    texts = [t.get_text() for t in fig.axes[0].texts]
    # 8 row-clue numbers + 6 column-clue numbers
    assert len(texts) == 14 and texts.count("5") == 1


def test_marked_cells_are_crossed_out(letter_a):
    fig = plot_puzzle(letter_a, LETTER_A_BOARD, marked=[(0, 0), (4, 2)])
    red = mcolors.to_rgba(BROKEN_COLOUR)[:3]
    crosses = [line for line in fig.axes[0].lines if tuple(mcolors.to_rgba(line.get_color())[:3]) == red]
    assert len(crosses) == 4  # two strokes per cell
    assert {(min(line.get_xdata()), min(line.get_ydata())) for line in crosses} == {(0.2, 0.2), (2.2, 4.2)}
