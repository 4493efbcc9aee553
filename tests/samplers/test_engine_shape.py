"""The engine's shape, as issue 57 set it: each sampler parameter declared once, short entry points, kernels that
take their data by name. Each test fails on the code it was written against (d7e996d)."""

import ast
import inspect
import textwrap
from pathlib import Path

import qpicross.samplers as samplers
from qpicross.samplers.blockshift.batched import BatchedShiftSampler, sample_many
from qpicross.samplers.blockshift.sampler import BlockShiftSampler
from qpicross.samplers.parameters import SHIFT_BATCHED_PARAMETERS, SHIFT_PARAMETERS

MOST_POSITIONAL = 8
MOST_LINES = 80


def _code_lines(function) -> int:
    """Lines of code of a function: without its docstring, comments and blank lines."""
    tree = ast.parse(textwrap.dedent(inspect.getsource(function)))
    body = tree.body[0].body
    if isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        body = body[1:]
    lines = set()
    for node in body:
        for inner in ast.walk(node):
            if hasattr(inner, "lineno"):
                lines.update(range(inner.lineno, inner.end_lineno + 1))
    source = textwrap.dedent(inspect.getsource(function)).splitlines()
    return sum(1 for n in lines if source[n - 1].strip() and not source[n - 1].strip().startswith("#"))


def test_the_entry_points_are_short():
    assert _code_lines(BlockShiftSampler.sample) <= MOST_LINES
    assert _code_lines(sample_many) <= MOST_LINES


def test_no_function_of_the_samplers_takes_more_than_eight_positional_parameters():
    crowded = []
    for path in Path(samplers.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
                names = [a.arg for a in node.args.posonlyargs + node.args.args if a.arg not in ("self", "cls")]
                if len(names) > MOST_POSITIONAL:
                    crowded.append(f"{path.name}:{node.lineno} {getattr(node, 'name', 'lambda')} ({len(names)})")
    assert crowded == []


def test_each_block_shift_parameter_is_declared_once_in_its_table():
    """The samplers' ``parameters``, signatures and docstrings all come from the tables: a parameter added to a
    signature alone, or a default written twice, fails here."""
    assert list(BlockShiftSampler().parameters) == list(SHIFT_PARAMETERS)
    assert list(BatchedShiftSampler().parameters) == list(SHIFT_BATCHED_PARAMETERS)
    for function in (BlockShiftSampler.sample, BatchedShiftSampler.sample, sample_many):
        kinds = [p.kind for p in inspect.signature(function).parameters.values()]
        assert inspect.Parameter.KEYWORD_ONLY not in kinds and kinds[-1] is inspect.Parameter.VAR_KEYWORD
    for function, table in ((BlockShiftSampler.sample, SHIFT_PARAMETERS), (sample_many, SHIFT_BATCHED_PARAMETERS)):
        for name, spec in table.items():
            assert f"{name}: " in function.__doc__ and spec.doc.split()[0] in function.__doc__
