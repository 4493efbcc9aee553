"""Which puzzles fit on a D-Wave Advantage QPU: minor-embed each QUBO on a Pegasus P16 graph, offline.

Usage::

    python scripts/qpu_embedding_sizes.py PUZZLE [PUZZLE ...] [--timeout SECONDS] [--seed S]

For each puzzle, with and without line-logic presolve, prints one JSON line:
the logical variables and interactions of the BQM, whether ``minorminer``
found an embedding on the full Pegasus P16 graph (the Advantage topology,
5640 qubits; a real QPU has a few dozen fewer working ones) within the
timeout, the physical qubits used, the longest and mean chain, and seconds.
This is the same search ``--sampler qpu`` runs through ``EmbeddingComposite``
before every submission, so it is what a QPU run costs in embedding before
any QPU time is spent.
"""

from __future__ import annotations

import argparse
import json
import time

import minorminer
import numpy as np
from dwave.graphs import pegasus_graph

from qpicross import build_formulation, load_puzzle
from qpicross.classical.logic import propagate


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("puzzles", nargs="+", metavar="PUZZLE")
    parser.add_argument("--timeout", type=float, default=60, help="minorminer time limit per model (s)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    target = pegasus_graph(16)
    for path in args.puzzles:
        puzzle = load_puzzle(path)
        for presolve in (False, True):
            known = propagate(puzzle).known if presolve else None
            bqm = build_formulation(puzzle, known=known).bqm()
            row = {"puzzle": puzzle.name, "presolve": presolve, "variables": bqm.num_variables,
                   "interactions": bqm.num_interactions}
            if bqm.num_variables:
                start = time.perf_counter()
                embedding = minorminer.find_embedding(list(bqm.quadratic), target.edges,
                                                      random_seed=args.seed, timeout=args.timeout)
                chains = [len(chain) for chain in embedding.values()]
                row.update(embedded=bool(embedding), qubits=sum(chains), max_chain=max(chains, default=0),
                           mean_chain=round(float(np.mean(chains)), 2) if chains else None,
                           seconds=round(time.perf_counter() - start, 1))
            print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
