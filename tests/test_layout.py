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


_WATCHED = r'''
import os, sys
root, venv = sys.argv[1], os.path.join(sys.argv[1], ".venv")
reached = []

def audit(event, args):
    if event in ("open", "os.listdir", "os.scandir", "glob.glob", "os.chdir"):
        path = args[0]
    elif event == "subprocess.Popen":
        path = args[2] or os.getcwd()
    else:
        return
    if isinstance(path, (str, bytes, os.PathLike)):
        path = os.path.abspath(os.fsdecode(path))
        if (path == root or path.startswith(root + os.sep)) and not path.startswith(venv):
            reached.append(f"{event} {path}")

sys.addaudithook(audit)
import qpicross
from qpicross.cli import main
from qpicross.experiments.result import machine_info
assert not qpicross.__file__.startswith(root), qpicross.__file__
for argv in (["info", "p.px"], ["anneal", "p.px", "--reads", "3", "--seed", "1"], ["solve", "p.px"],
             ["bench", "p.px", "--sampler", "sa", "--reads", "5", "--json", "b.json"],
             ["generate", "--size", "6x6", "--seed", "1", "-o", "g.px"], ["show", "g.px"]):
    assert main(argv) == 0, argv
machine_info()
print("\n".join(reached) or "none")
'''


def test_an_installed_copy_of_the_package_opens_no_file_of_the_repository(tmp_path):
    """The package copied out of the checkout and run there on a user's puzzle, every file open, folder listing,
    change of directory and subprocess watched by an audit hook: none may reach into the repository (its
    environment, .venv, aside). Path arithmetic cannot hide a read from this."""
    import shutil
    import subprocess
    import sys

    site = tmp_path / "site"
    shutil.copytree(ROOT / "qpicross", site / "qpicross")
    work = tmp_path / "work"
    work.mkdir()
    shutil.copy(ROOT / "instances" / "5x5.px", work / "p.px")  # the user's own puzzle, in the user's folder
    env = {k: v for k, v in __import__("os").environ.items() if k != "PYTHONPATH"}
    out = subprocess.run([sys.executable, "-c", _WATCHED, str(ROOT)], cwd=work, capture_output=True, text=True,
                         env={**env, "PYTHONPATH": str(site)}, timeout=600)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1] == "none", out.stdout[-3000:]


def _imports(root, packages=("qpicross", "benchmarks")):
    """Module -> the modules of ``packages`` it imports anywhere in its code (in functions and under
    ``TYPE_CHECKING`` too: an import circle is one whichever line closes it), by the files under ``root``."""
    import ast

    modules = {}
    for package in packages:
        for path in (root / package).rglob("*.py"):
            parts = list(path.relative_to(root).with_suffix("").parts)
            modules[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path

    def known(name):
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph = {}
    for module, path in modules.items():
        package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
        found = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found |= {known(alias.name) for alias in node.names}
            elif isinstance(node, ast.ImportFrom):
                base = ".".join(package[:len(package) - node.level + 1] + [node.module or ""]).strip(".") \
                    if node.level else node.module
                found |= {known(f"{base}.{alias.name}") for alias in node.names} | {known(base)}
        # importing a module imports the packages above it: not an edge that can close a circle of its own
        graph[module] = {m for m in found - {None, module} if not module.startswith(m + ".")}
    return graph


def _circles(graph):
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    index, low, stack, on_stack, circles = {}, {}, [], set(), []

    def visit(v):
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for v in graph:
        if v not in index:
            visit(v)
    return circles


def test_no_import_circle_in_the_package_or_the_benchmarks():
    assert _circles(_imports(ROOT)) == []


def test_the_circle_finder_finds_a_circle(tmp_path):
    (tmp_path / "qpicross").mkdir()
    (tmp_path / "benchmarks").mkdir()
    (tmp_path / "qpicross" / "__init__.py").write_text("")
    (tmp_path / "qpicross" / "a.py").write_text("from qpicross.b import x\n")
    (tmp_path / "qpicross" / "b.py").write_text("def f():\n    from . import a\n")
    (tmp_path / "qpicross" / "c.py").write_text("import qpicross.a\n")
    assert _circles(_imports(tmp_path)) == [["qpicross.a", "qpicross.b"]]


#: The package's floors, lowest first, as the pipeline runs (puzzle -> model -> samplers -> classical -> decode ->
#: plot, the pipeline on top, then what runs pipelines and the command line); a module may import its own floor and
#: those below it, never one above.
FLOORS = ("names", "exceptions", "_files", "puzzle", "model", "samplers", "classical", "decode", "plot", "pipeline",
          "experiments", "cli", "__main__")


def _upward(graph):
    """The imports of ``graph`` from a floor of the package to a higher one, as ``(module, imported)``."""
    def floor(module):
        parts = module.split(".")
        return len(FLOORS) if len(parts) == 1 else FLOORS.index(parts[1])  # qpicross itself: the top

    return sorted((m, d) for m, deps in graph.items() if m.startswith("qpicross.")
                  for d in deps if d.startswith("qpicross") and floor(d) > floor(m))


def test_no_module_imports_from_a_floor_above_its_own():
    modules = {m.split(".")[1] for m in _imports(ROOT) if m.startswith("qpicross.")}
    assert modules <= set(FLOORS), modules - set(FLOORS)  # every module has a floor
    assert _upward(_imports(ROOT)) == []


def test_the_floor_check_finds_an_upward_import(tmp_path):
    (tmp_path / "qpicross" / "model").mkdir(parents=True)
    (tmp_path / "benchmarks").mkdir()
    for path in ("__init__.py", "model/__init__.py", "model/a.py", "plot.py"):
        (tmp_path / "qpicross" / path).write_text("")
    (tmp_path / "qpicross" / "model" / "a.py").write_text("def f():\n    from qpicross.plot import x\n")
    assert _upward(_imports(tmp_path)) == [("qpicross.model.a", "qpicross.plot")]


def test_no_module_below_the_pipeline_imports_the_package_top():
    """``from qpicross import ...`` loads every floor (the package's top imports the pipeline): a module below the
    pipeline that does so reaches above its floor, which the import graph (that drops a package's own top) hides."""
    import ast

    below = FLOORS[:FLOORS.index("pipeline")]
    found = []
    for path in (ROOT / "qpicross").rglob("*.py"):
        parts = path.relative_to(ROOT / "qpicross").with_suffix("").parts
        if parts[0] not in below:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module == "qpicross" and node.level == 0:
                found.append(f"{'/'.join(parts)}:{node.lineno}")
            if isinstance(node, ast.Import) and any(alias.name == "qpicross" for alias in node.names):
                found.append(f"{'/'.join(parts)}:{node.lineno}")
    assert found == []
