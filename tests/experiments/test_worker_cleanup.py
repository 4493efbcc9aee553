"""Issue 15: no worker of ``run_tasks`` (``bench --workers N``, ``tune``) outlives its parent, even one killed
by SIGTERM or SIGKILL, which runs no cleanup of its own."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import pytest
from cli_subprocess import child_env

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="PR_SET_PDEATHSIG is Linux's")

_PARENT = """
import os, sys, time
from qpicross.samplers.workers import run_tasks

def work(shared, task):
    with open(os.path.join(shared, f"worker-{os.getpid()}"), "w"):
        pass
    time.sleep(120)

run_tasks(work, [0, 1, 2, 3], shared=sys.argv[1], workers=2, on_result=lambda *a: None)
"""


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as handle:
            return handle.read().split(")")[-1].split()[0] != "Z"  # a zombie has exited
    except FileNotFoundError:
        return False


@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGKILL])
def test_workers_die_with_their_parent(how, tmp_path):
    parent = subprocess.Popen([sys.executable, "-c", _PARENT, str(tmp_path)], env=child_env(),
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 60
        while len(list(tmp_path.glob("worker-*"))) < 2:
            assert parent.poll() is None, parent.stderr.read().decode()[-2000:]
            assert time.monotonic() < deadline, "the workers never started"
            time.sleep(0.1)
        workers = [int(p.name.split("-")[1]) for p in tmp_path.glob("worker-*")]
        assert all(_alive(pid) for pid in workers)
        parent.send_signal(how)
        parent.wait(timeout=10)
        deadline = time.monotonic() + 5
        while any(_alive(pid) for pid in workers) and time.monotonic() < deadline:
            time.sleep(0.05)
        survivors = [pid for pid in workers if _alive(pid)]
        assert survivors == [], f"workers {survivors} outlived a parent killed by {how.name}"
    finally:
        parent.kill()
        for path in tmp_path.glob("worker-*"):
            pid = int(path.name.split("-")[1])
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
