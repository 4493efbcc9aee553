"""Run the command line in a child process with a memory ceiling and a timeout.

For cases that, when broken, eat memory or hang (``/dev/zero``, FIFOs, huge
puzzles): a regression then fails the test instead of the machine.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

#: Address-space ceiling of the child (bytes): enough for numpy + numba + OR-tools.
MEMORY_LIMIT = 1536 * 1024 * 1024


def _limit_memory(limit: int):
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    return apply


def child_env(extra: dict | None = None) -> dict:
    """The environment of a child that imports this checkout's qpicross."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT)] + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    env.pop("QPICROSS_MAX_COUPLERS", None)
    env.update(extra or {})
    return env


def run_cli(*args: str, timeout: float = 60, memory: int = MEMORY_LIMIT, env: dict | None = None,
            cwd: str | os.PathLike | None = None, stdin=subprocess.DEVNULL) -> subprocess.CompletedProcess:
    """``python -m qpicross ARGS`` under an address-space limit; returns the finished process (text output)."""
    return subprocess.run(
        [sys.executable, "-m", "qpicross", *args], capture_output=True, text=True, timeout=timeout,
        env=child_env(env), cwd=cwd or ROOT, preexec_fn=_limit_memory(memory), stdin=stdin,
    )


def one_line_error(proc: subprocess.CompletedProcess, code: int = 2) -> str:
    """Assert the process printed exactly one ``qpicross: error:`` line and exited ``code``; return it."""
    assert proc.returncode == code, (proc.returncode, proc.stdout[-2000:], proc.stderr[-2000:])
    assert "Traceback" not in proc.stderr, proc.stderr[-2000:]
    lines = proc.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("qpicross: error: "), proc.stderr[-2000:]
    return lines[0]
