"""The repository's own tooling, kept out of the installed package.

What only this repository needs lives here, next to ``results/``, ``figures/`` and ``docs/``; ``Makefile`` beside
this file holds every benchmark target (``make -C benchmarks help``).

Provenance:

* :mod:`benchmarks.fingerprint` -- the samples fingerprint of a family of samplers and encodings: what it draws
  from fixed seeds on a few shipped puzzles, as one digest;
* :mod:`benchmarks.provenance` -- every results file stamped with its commit and fingerprints
  (:func:`~benchmarks.provenance.write_results`), and sorted into current or changed;
* :mod:`benchmarks.stale` -- ``make stale-results``: that sorting, printed;
* :mod:`benchmarks.record` -- a ``qpicross`` command run and its results file stamped in one process.

Benchmarks and studies:

* :mod:`benchmarks.kernels` -- the block-shift annealer's two kernels side by side (``bench-kernels``);
* :mod:`benchmarks.memory` -- the size guard against the memory runs really take (``bench-memory``);
* :mod:`benchmarks.campaign` -- the bad-input campaign (``campaign``);
* :mod:`benchmarks.breakdown`, :mod:`benchmarks.interleave`, :mod:`benchmarks.gpu_throughput`,
  :mod:`benchmarks.tournament` -- where a puzzle's time goes, trees compared puzzle by puzzle, the batched
  driver's throughput, the tournament passes;
* :mod:`benchmarks.ladder` -- a ladder of puzzles (:class:`~benchmarks.ladder.Rung`), shipped, shared or generated;
* :mod:`benchmarks.study` -- generic samplers x encodings tuned and climbed up a ladder (``study``);
* :mod:`benchmarks.schedule` -- TTS99 against sweep count, and a β range from the model's energy gap;
* :mod:`benchmarks.embedding`, :mod:`benchmarks.crossbar` -- what fits on a D-Wave QPU, by minorminer and laid
  along the board;
* :mod:`benchmarks.frontier` -- the ladders the schedule and embedding studies climb, and the
  formulation-frontier page's tables.

Pages and figures:

* :mod:`benchmarks.report` -- rewrites the generated results tables of the README and the docs' results pages
  from ``results/*.json`` (``make readme``);
* :mod:`benchmarks.ratios` -- how much faster one configuration is than another: geometric-mean ratios with
  puzzle and read bootstrap intervals;
* :mod:`benchmarks.restate` -- a results file's TTS99 recomputed on the censored estimator (``restate``);
* :mod:`benchmarks.figures` -- the figures of the README and the docs (``make figures``);
* :mod:`benchmarks.tables` -- small helpers the results files and their tables share.

Run them from the repository root (``python -m benchmarks.report``); the Makefiles do.
"""
