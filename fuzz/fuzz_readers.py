"""Coverage-guided fuzzing of every puzzle reader with atheris.

Install the extra and run, e.g. for five minutes::

    pip install -e '.[fuzz]'
    python fuzz/fuzz_readers.py -max_total_time=300 -print_final_stats=1 [CORPUS_DIR ...]

The first input byte picks the reader (px, non, nonpack, tournament, xml,
json); the rest is the file's bytes, decoded as ``load_puzzle`` does. Any
exception other than :class:`qpicross.PuzzleFormatError` is a crash: atheris
stops and writes the input to ``crash-*``. ``--seed-corpus DIR`` writes seed
inputs (small valid files of each format, plus the .non / .xml files under
``../shared/instances/external`` when present) into DIR first.
"""

from __future__ import annotations

import sys
from pathlib import Path

import atheris

# Only qpicross's own modules are instrumented (dimod, numpy... load as usual).
with atheris.instrument_imports(include=["qpicross"]):
    from qpicross.puzzle.formats import MULTI_READERS
from qpicross.puzzle.formats._text import _decode_text
    from qpicross.puzzle import Puzzle, PuzzleFormatError

FORMATS = sorted(MULTI_READERS)


def test_one_input(data: bytes) -> None:
    if not data:
        return
    fmt = FORMATS[data[0] % len(FORMATS)]
    try:
        puzzles = MULTI_READERS[fmt](_decode_text(data[1:], "fuzz"), "fuzz", "fuzz")
    except PuzzleFormatError as exc:
        if "\n" in str(exc):
            raise AssertionError(f"multi-line error message: {exc!r}") from None
        return
    for _, puzzle in puzzles:
        Puzzle(puzzle.rows, puzzle.cols, goal=puzzle.goal)


def write_seed_corpus(directory: Path) -> int:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "puzzle" / "formats"))
    from test_fuzz import VALID  # the small valid documents of each format

    directory.mkdir(parents=True, exist_ok=True)
    count = 0
    for fmt, text in VALID.items():
        (directory / f"seed-{fmt}").write_bytes(bytes([FORMATS.index(fmt)]) + text.encode())
        count += 1
    external = Path(__file__).resolve().parent.parent.parent / "shared" / "instances" / "external"
    for suffix, fmt in ((".non", "non"), (".xml", "xml")):
        for path in sorted(external.rglob(f"*{suffix}"))[:20]:
            seed = bytes([FORMATS.index(fmt)]) + path.read_bytes()
            (directory / f"seed-{path.stem}{suffix}").write_bytes(seed)
            count += 1
    return count


def main() -> None:
    argv = list(sys.argv)
    if "--seed-corpus" in argv:
        i = argv.index("--seed-corpus")
        print(f"wrote {write_seed_corpus(Path(argv[i + 1]))} seed inputs to {argv[i + 1]}")
        del argv[i:i + 2]
    atheris.Setup(argv, test_one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
