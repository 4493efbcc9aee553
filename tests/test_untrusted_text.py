"""Text that comes from files (names, paths) is escaped when printed; JSON loads are linear and stop early."""

from __future__ import annotations

import json
import re
import time

import pytest

from qpicross import PuzzleFormatError, load_puzzle, load_puzzles
from qpicross.cli import main
from qpicross.cli._terminal import printable
from qpicross.puzzle.formats import parse_json

from conftest import INSTANCES

EVIL = "evil\n\x1b[31mRED\x1b[0m\x9b2J\u202e\x07"
#: Anything a terminal would act on: C0/C1 controls but the newline, DEL, bidi overrides.
CONTROL = re.compile("[\x00-\x09\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


@pytest.fixture
def evil_puzzle(tmp_path):
    path = tmp_path / "evil.json"
    path.write_text(json.dumps({"name": EVIL, "rows": [[1], [1]], "cols": [[1], [1]]}))
    return path


COMMANDS = [["show"], ["info"], ["anneal", "--reads", "5"], ["solve"], ["solve", "--method", "logic"],
            ["bench", "--reads", "5"], ["tune", "--grid", "match=1", "--workers", "1", "--reads", "5"],
            ["export", "-o", "{tmp}/m.coo"]]


@pytest.mark.parametrize("command", COMMANDS, ids=[" ".join(c[:3]) for c in COMMANDS])
def test_names_from_files_are_printed_escaped(evil_puzzle, tmp_path, capsys, command):
    args = [a.format(tmp=tmp_path) for a in command]
    main([args[0], str(evil_puzzle), *args[1:]])
    out = capsys.readouterr()
    for stream in (out.out, out.err):
        assert not CONTROL.search(stream), stream
        assert "\nRED" not in stream
    if command[0] not in ("export", "bench"):
        assert "evil\\n\\x1b[31mRED" in out.out
    if command[0] == "export":  # the name in the file's comment does not start a new line either
        text = (tmp_path / "m.coo").read_text()
        assert "\nRED" not in text and not CONTROL.search(text)


def test_an_error_naming_a_strange_path_is_one_escaped_line(tmp_path, capsys):
    assert main(["show", str(tmp_path / "no\nsuch\x1b[2J.px")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "\x1b" not in err and "no\\nsuch\\x1b[2J.px" in err


def test_generate_name_is_printed_escaped(tmp_path, capsys):
    assert main(["generate", "--size", "3x3", "--seed", "1", "--name", EVIL, "-o", str(tmp_path / "g.json")]) == 0
    assert not CONTROL.search(capsys.readouterr().out)


def test_printable_escapes_controls_and_surrogates_only():
    assert printable("café ☕ 5x5") == "café ☕ 5x5"
    assert printable("a\tb\x1bc\ud800") == "a\\tb\\x1bc\\ud800"


def test_lone_surrogate_in_a_json_name_is_one_line_exit_2(tmp_path, capsys):
    path = tmp_path / "s.json"
    path.write_text('{"name": "bad\\ud800name", "rows": [[1]], "cols": [[1]]}')
    with pytest.raises(PuzzleFormatError, match="surrogate"):
        load_puzzle(path)
    for command in (["show"], ["info"], ["anneal"], ["solve"]):
        assert main([command[0], str(path)]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "surrogate" in err and f"{path}:1:" in err


def _many(n: int) -> str:
    return json.dumps([{"name": f"p{i}", "rows": [[1], []], "cols": [[1], []]} for i in range(n)], indent=1)


def test_json_loading_is_linear():
    """20 000 puzzles (2.5 MB) took 82 s when every line number was counted from the start of the file."""
    small, large = _many(2_000), _many(20_000)
    start = time.perf_counter()
    assert len(parse_json(small)) == 2_000
    t_small = time.perf_counter() - start
    start = time.perf_counter()
    assert len(parse_json(large)) == 20_000
    t_large = time.perf_counter() - start
    assert t_large < 15 and t_large < 25 * t_small, (t_small, t_large)


def test_line_numbers_far_into_a_long_json_file(tmp_path):
    items = [{"rows": [[1], []], "cols": [[1], []]} for _ in range(3000)]
    items[2500]["rows"][0] = ["x"]
    text = json.dumps(items, indent=1)
    line = text.splitlines().index('    "x"') + 1 - 1  # the clue list opens on the line before its first item
    with pytest.raises(PuzzleFormatError, match="row 1 clue") as info:
        parse_json(text, path="long.json")
    assert info.value.line == line


def test_one_puzzle_of_a_huge_json_file_is_read_without_the_rest(tmp_path, monkeypatch):
    """Counted, not timed (a time bound fails on a loaded machine, e.g. under pytest -n 2): the puzzles built,
    and a tail that is not even JSON, which a reader that parsed the rest would stumble on."""
    from qpicross.puzzle.formats import jsonfile

    built = []
    real = jsonfile._json_puzzle
    monkeypatch.setattr(jsonfile, "_json_puzzle", lambda obj, *args: built.append(obj) or real(obj, *args))
    path = tmp_path / "many.json"
    # 100 000 puzzles, then a tail that is not JSON: picking #1, #7 or #3-4 never looks that far
    path.write_text(_many(100_000)[:-2] + ',\n {"rows": oops}\n]')
    assert load_puzzle(f"{path}#1").name == "many#1"
    assert load_puzzle(f"{path}#7").name == "many#7"
    assert [p.name for p in load_puzzles(f"{path}#3-4")] == ["many#3", "many#4"]
    assert len(built) < 100, len(built)  # the puzzles up to each pick (and one more), not 100 000
    built.clear()
    path.write_text(_many(100_000)[:-2] + ',\n {"rows": "oops"}\n]')
    with pytest.raises(PuzzleFormatError, match="holds 100001 puzzles"):  # FILE alone: counted, not built
        load_puzzle(path)
    assert len(built) < 100, len(built)
    path.write_text(_many(20_000))
    with pytest.raises(PuzzleFormatError, match="holds 20000 puzzles; pick one"):
        load_puzzle(path)
    with pytest.raises(PuzzleFormatError, match=r"#30000 asked for, .* \(20000 puzzles numbered 1..20000\)"):
        load_puzzle(f"{path}#30000")


def test_early_stop_keeps_names_and_single_puzzle_files(tmp_path):
    one = tmp_path / "one.json"
    one.write_text(json.dumps([{"name": "solo", "rows": [[1]], "cols": [[1]]}]))
    assert load_puzzle(one).name == load_puzzle(f"{one}#1").name == "solo"
    two = tmp_path / "two.json"
    two.write_text(_many(2))
    assert load_puzzle(f"{two}#1").name == "two#1" and load_puzzle(f"{two}#2").name == "two#2"
    bad_after = tmp_path / "bad.json"
    bad_after.write_text('[{"rows": [[1]], "cols": [[1]]}, {"rows": [[]], "cols": [[]]}, oops')
    assert load_puzzle(f"{bad_after}#1").shape == (1, 1)  # read up to #2 (to number the names), no further
    with pytest.raises(PuzzleFormatError, match="not valid JSON"):
        load_puzzles(bad_after)
