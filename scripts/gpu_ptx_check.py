"""Compile shift-batched's CUDA kernels for a GPU this machine does not have: PTX, then ptxas's register report.

Needs the ``gpu`` extra (numba-cuda and the CUDA toolkit wheels, for NVVM and
ptxas) but no GPU and no driver: numba-cuda asks the driver which device it
compiles device functions for, so that question is answered with ``--cc``.
This checks that every kernel types and lowers for the real CUDA target (the
CUDA simulator in the tests runs them as Python, which checks the logic, not
the compilation).

    python scripts/gpu_ptx_check.py --cc 9.0        # H100 / H200 (sm_90)
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numba
import numpy as np


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cc", default="9.0", help="compute capability, e.g. 9.0 (default), 8.0")
    parser.add_argument("--keep", default=None, metavar="DIR", help="write the PTX files there")
    args = parser.parse_args(argv)
    cc = tuple(int(part) for part in args.cc.split("."))

    from numba import cuda
    import numba.cuda.dispatcher as dispatcher

    class _Device:  # what compile_device asks the (absent) driver for
        compute_capability = cc

    dispatcher.get_current_device = lambda: _Device()

    from qpicross import Puzzle, build_formulation
    from qpicross.samplers.blockshift import driver as _driver, launch as _launch

    print(f"numba {numba.__version__}, numba.cuda: {getattr(cuda, 'implementation', '?')} ({Path(cuda.__file__).parent})")
    formulation = build_formulation(Puzzle([[1], [1, 1], [1, 1], [5], [1, 1]], [[2], [3], [1, 1], [3], [2]]))
    i64, flag, f64 = numba.int64, numba.boolean, numba.float64
    kernels = {}
    for chain, model in (("profile", _launch.prepare_profile(formulation.bqm(), formulation.one_hot_lines(),
                                                              formulation.paints(), None, 0.0)),
                         ("fields", _launch.prepare_fields(formulation.bqm(), formulation.one_hot_lines(), (2.0, 5.0),
                                                           0.0, 4, 100))):
        launch = _launch.pack([model], np.random.SeedSequence(0), 2)
        pz = numba.typeof(_driver.Puzzles(**launch["puzzles"]))
        ld = numba.typeof(_driver.Ladders(**launch["ladders"]))
        _, run_kernel, close_kernel = _driver._cuda_driver(chain)
        kernels[f"{chain}_run"] = (run_kernel, (i64, i64, i64, f64, f64, flag, flag, flag, flag, pz, ld))
        kernels[f"{chain}_close"] = (close_kernel, (flag, flag, flag, pz, ld))
    out = Path(args.keep) if args.keep else Path(tempfile.mkdtemp())
    out.mkdir(parents=True, exist_ok=True)
    ptxas = _ptxas()
    for name, (kernel, signature) in kernels.items():
        t0 = time.perf_counter()
        ptx, _ = cuda.compile_ptx(kernel.py_func, signature, cc=cc)
        path = out / f"{name}.ptx"
        path.write_text(ptx)
        line = f"{name}: PTX for sm_{cc[0]}{cc[1]}, {len(ptx):,} characters, {time.perf_counter() - t0:.1f} s"
        if ptxas:
            report = subprocess.run([ptxas, f"-arch=sm_{cc[0]}{cc[1]}", "-v", str(path), "-o", os.devnull],
                                    capture_output=True, text=True)
            usage = [s.split("info    :")[-1].strip() for s in report.stderr.splitlines()
                     if "registers" in s or "spill" in s]
            line += "; ptxas: " + ("; ".join(usage) if report.returncode == 0 else report.stderr.strip()[-500:])
        print(line)
    return 0


def _ptxas() -> str | None:
    """ptxas from the CUDA toolkit wheels (nvidia-cuda-nvcc), else from PATH."""
    try:
        import nvidia.cuda_nvcc

        for root in nvidia.cuda_nvcc.__path__:
            candidate = Path(root) / "bin" / "ptxas"
            if candidate.exists():
                return str(candidate)
    except ImportError:
        pass
    return shutil.which("ptxas")


if __name__ == "__main__":
    sys.exit(main())
