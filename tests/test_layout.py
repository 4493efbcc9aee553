"""The installed package stands apart from the repository: nothing in it reads the repository's own files (its
README, results, instances or the shared collections beside it); that tooling lives in benchmarks/."""

from __future__ import annotations

import re

from conftest import ROOT

#: What reaching for the repository looks like: climbing out of the package, or naming its files.
REPOSITORY = re.compile(r"__file__.*(parents\[[2-9]\]|\.parent\.parent)|README\.md|\.\./shared|QPICROSS_SHARED"
                        r"|/\s*\"(results|instances)\"")


def test_no_module_of_the_package_reaches_for_the_repository():
    offenders = [f"{path.relative_to(ROOT)}:{n}: {line.strip()}"
                 for path in sorted((ROOT / "qpicross").rglob("*.py"))
                 for n, line in enumerate(path.read_text().splitlines(), 1) if REPOSITORY.search(line)]
    assert offenders == []


def test_the_pattern_catches_what_it_is_for():
    for line in ('ROOT = Path(__file__).resolve().parents[2]', 'root = Path(qpicross.__file__).parent.parent / "x"',
                 'SHARED = os.environ.get("QPICROSS_SHARED")', 'path = ROOT / "results" / "a.json"'):
        assert REPOSITORY.search(line), line
    # a user's own folders next to the file they named are theirs, not the repository
    assert not REPOSITORY.search('candidate = path.parent.parent / "solution" / path.name')
