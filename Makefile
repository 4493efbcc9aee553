# Everything the project needs is installed by these targets into .venv.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: demo test install docs figures clean bench bench-pure bench-hard bench-unit bench-chains bench-axes bench-streams bench-streams-hard bench-hybrid bench-tournament bench-tournament-long bench-tournament-pass bench-tournament-sample bench-tournament-retry bench-tail bench-survey bench-ablation bench-kernels bench-population bench-random bench-parallel bench-parallel-403 bench-parallel-307 bench-batched-cpu bench-no-slowdown bench-breakdown bench-core bench-cores bench-memory campaign readme restate stale-results study embedding embedding-structured schedule schedule-peers schedule-presolve schedule-tournament schedule-tournament-plain schedule-tournament-sample schedule-random schedule-bompol frontier-page \
        gpu-wheels gpu-data gpu-site bench-gpu bench-gpu-check bench-gpu-throughput

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Re-install when pyproject.toml changes. Then one run on the 5x5 compiles the structured annealer's kernels into
# numba's cache (about 20 s, once), so that a user's first `qpicross anneal` does not wait for it.
WARM_KERNELS = $(BIN)/qpicross anneal instances/5x5.px --seed 1 > /dev/null \
	|| echo "qpicross: the kernels were not compiled ahead; the first run will compile them"
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	$(WARM_KERNELS)
	touch $@

# torch (for the 'sb' extra) goes in first as its CPU build, so the test install never pulls the
# CUDA packages (several GB) that an unpinned torch brings; pip finds the wheel through this machine's
# find-links. Elsewhere, set TORCH_CPU to a CPU torch your index offers.
TORCH_CPU ?= torch==2.13.0+cpu
$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet '$(TORCH_CPU)'
	$(BIN)/python -m pip install --quiet -e '.[test]'
	$(WARM_KERNELS)
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed

demo: $(VENV)/.installed
	$(BIN)/qpicross anneal instances/5x5.px
	$(BIN)/qpicross anneal instances/5x5.px --sampler sa --reads 1000 --seed 1

# The whole suite, doctests included, on every core (pytest-xdist; TEST_WORKERS=1 runs it in one process). Tests
# marked xdist_group run in one worker (the docs build: its fixture builds the site once).
TEST_WORKERS ?= auto
test: $(VENV)/.installed-test
	$(BIN)/python -m pytest -n $(TEST_WORKERS) --dist loadgroup

# The documentation site, warnings as errors (the notebooks are executed as it builds; about a minute here):
# open docs/_build/html/index.html. tests/test_docs.py runs the same build.
docs: $(VENV)/.installed-test
	rm -rf docs/_build docs/api
	$(BIN)/sphinx-build -W --keep-going -q -b html docs docs/_build/html
	@echo "built docs/_build/html/index.html"

# The README's figures (about a minute and a half on 2 cores). The scaling plot reads results/bench_*.json
# where `make bench` wrote them (else measures instances/); FIGURE_ARGS="--results FILE..." names others.
figures: $(VENV)/.installed-test
	$(BIN)/python -m benchmarks.figures figures $(FIGURE_ARGS)

# Annealing benchmarks behind the README's results. Every line runs `qpicross anneal`'s default settings
# (the structured annealer, self-tuning schedule, each read stopping at the ground state) unless it says
# otherwise, writes results/*.json (with the commit, machine and load average), and `make readme` then
# rewrites the README's generated tables from those files. Puzzle collections are read from SHARED,
# never copied into the repository.
SHARED       ?= ../shared/instances
TOURNAMENT   := $(SHARED)/external/NonogramRecord/question
# CPU=1 runs every benchmark under `taskset -c 1`, on one core, so that another can run on the other (each results
# file records the CPUs it had, meta.cpus_allowed); on one core give BENCH_WORKERS=1 too (two workers would share it).
CPU           ?=
PIN           := $(if $(CPU),taskset -c $(CPU))
BENCH_WORKERS ?= 2
BENCH         := $(PIN) $(BIN)/qpicross bench --force --workers $(BENCH_WORKERS)
# bird, knife, ratz, panda and six 25x25 tournament puzzles
ABLATION_SET := $(foreach p,bird knife ratz panda,$(SHARED)/bompol/$(p).px) $(TOURNAMENT)/taai2011.txt\#1-6
# bench-tournament: the first TOURNAMENT_RANGE puzzles of each file in TOURNAMENT_FILES (bench-tournament-long:
# all of them; TOURNAMENT_FILES=taai2011 for one file)
TOURNAMENT_RANGE ?= 1-100
TOURNAMENT_FILES ?= taai2011 tcga2012
# bench-tournament-sample: every 10th puzzle of each file (the first 100 are its easiest part)
TOURNAMENT_SAMPLE ?= 1-1000/10
# where bench-tournament writes (the README's first-100 table reads results/bench_tournament.json)
TOURNAMENT_JSON  ?= results/bench_tournament.json
# every tournament benchmark's settings: one puzzle at a time, each read on both cores, 5 reads or 60 s a puzzle
TOURNAMENT_BENCH := $(BENCH) --workers 1 --reads 5 --time-limit 60

# Each bench line: exit 1 says some configuration never solved some puzzle (a result, not a failure);
# any other status (2 bad input, 130 interrupted) stops make.
# `make bench`: every benchmark of the README's results section but bench-tournament (the first 100), the
# full runs (bench-tournament-long), the retry of what they left unsolved (bench-tournament-retry) and their tail
# (bench-tail), then `make readme` (about 3 h 15 min on 2 cores).
bench: bench-pure bench-hard bench-unit bench-chains bench-axes bench-streams bench-streams-hard bench-hybrid bench-ablation bench-kernels bench-population bench-random bench-survey bench-tournament-sample readme

# The shipped puzzles, all 17 Bompol puzzles (kabuki and phantom included) and taai2011 #1-20, with the
# published baseline (dwave-samplers SA on the published variable set) in the same run (~20 min on 2 cores).
bench-pure: $(VENV)/.installed
	mkdir -p results figures
	$(BENCH) instances $(SHARED)/bompol $(TOURNAMENT)/taai2011.txt\#1-20 --baseline --reads 20 --time-limit 60 \
	    --json results/bench_pure.json --plot figures/bench_pure.png || test $$? -eq 1

# The two hardest Bompol puzzles with a longer budget, one puzzle at a time so that each read has both cores:
# the default (two restart streams per read: short restarts on the profile chain, the second stream's long runs on
# the joint chain), the joint chain on every restart (chain=joint, the same streams), and the default on one stream
# (threads=1: the ratio), ~15 min. Every line draws the same seeds.
HARD      := $(SHARED)/bompol/kabuki.px $(SHARED)/bompol/phantom.px
HARD_RUN  := $(BENCH) $(HARD) --workers 1 --reads 8 --time-limit 400
bench-hard: $(VENV)/.installed
	mkdir -p results
	$(HARD_RUN) --json results/bench_hard.json || test $$? -eq 1
	$(HARD_RUN) --option chain=joint --label shift-joint --json results/bench_hard_joint.json || test $$? -eq 1
	$(HARD_RUN) --option threads=1 --label shift-1-thread --json results/bench_hard_1thread.json || test $$? -eq 1

# The default (the profile chain for every short restart) against the joint chain on every restart, on puzzles
# spread over both tournament files (every 50th: the easy start, the hard middle), one puzzle at a time, each read
# on both cores (~10 min).
CHAINS_SET := $(foreach f,taai2011 tcga2012,$(TOURNAMENT)/$(f).txt\#1-1000/50)
bench-chains: $(VENV)/.installed
	mkdir -p results
	$(BENCH) $(CHAINS_SET) --workers 1 --reads 3 --time-limit 60 --json results/chains_profile.json || test $$? -eq 1
	$(BENCH) $(CHAINS_SET) --workers 1 --reads 3 --time-limit 60 --option chain=joint --label shift-joint \
	    --json results/chains_joint.json || test $$? -eq 1

# The default (a read's restarts take rows and columns in turn as the profile chain's free lines) against the
# rows on every restart (profile_lines=rows, the default before), on bench-chains' puzzles, same seeds (~20 min).
bench-axes: $(VENV)/.installed
	mkdir -p results
	$(BENCH) $(CHAINS_SET) --workers 1 --reads 3 --time-limit 60 --json results/axes_alternate.json || test $$? -eq 1
	$(BENCH) $(CHAINS_SET) --workers 1 --reads 3 --time-limit 60 --option profile_lines=rows --label shift-rows \
	    --json results/axes_rows.json || test $$? -eq 1

# The Luby unit: the default (restart_sweeps 8 000) against the unit before (--option restart_sweeps=1000, the
# previous default exactly), on bench-chains' 40 puzzles (3 reads or 60 s) and on kabuki and phantom (5 reads or
# 200 s), one puzzle at a time, each read on both cores, same seeds (~15 min).
UNIT_1000 := --option restart_sweeps=1000 --label shift-unit-1000
bench-unit: $(VENV)/.installed
	mkdir -p results
	$(BENCH) $(CHAINS_SET) --workers 1 --reads 3 --time-limit 60 --json results/unit_default.json || test $$? -eq 1
	$(BENCH) $(CHAINS_SET) --workers 1 --reads 3 --time-limit 60 $(UNIT_1000) --json results/unit_1000.json \
	    || test $$? -eq 1
	$(BENCH) $(HARD) --workers 1 --reads 5 --time-limit 200 --json results/unit_hard_default.json || test $$? -eq 1
	$(BENCH) $(HARD) --workers 1 --reads 5 --time-limit 200 $(UNIT_1000) --json results/unit_hard_1000.json \
	    || test $$? -eq 1

# Population annealing (--option schedule=population: Luby restarts of population annealing on the profile chain,
# 250 members, 100 temperatures) against the default's tempering restarts: every 100th puzzle of both tournament
# files, kabuki, phantom and the slowest solved puzzle of each full run (taai2011 #403, tcga2012 #468); 3 reads or
# 60 s a puzzle, one puzzle at a time, each read on both cores, same seeds (~20 min).
POPULATION_SET := $(HARD) $(foreach f,taai2011 tcga2012,$(TOURNAMENT)/$(f).txt\#1-1000/100) \
                  $(TOURNAMENT)/taai2011.txt\#403 $(TOURNAMENT)/tcga2012.txt\#468
bench-population: $(VENV)/.installed
	mkdir -p results
	$(BENCH) $(POPULATION_SET) --workers 1 --reads 3 --time-limit 60 --json results/population_default.json \
	    || test $$? -eq 1
	$(BENCH) $(POPULATION_SET) --workers 1 --reads 3 --time-limit 60 --option schedule=population \
	    --label shift-population --json results/population.json || test $$? -eq 1
# Beyond the tournament sets: random boards (`qpicross generate`, written to build/random, not committed) of
# 30x30 to 80x80 at densities 0.5 and 0.6, one seed each, 3 reads or 60 s a puzzle, each read on both cores (~10 min).
RANDOM_SIZES     := 30x30 45x45 60x60 80x80
RANDOM_DENSITIES := 0.5 0.6
bench-random: $(VENV)/.installed
	mkdir -p results build/random
	$(foreach s,$(RANDOM_SIZES),$(foreach d,$(RANDOM_DENSITIES),\
	    $(BIN)/qpicross generate --size $(s) --density $(d) --seed 1 --force -o build/random/random-$(s)-$(d).px &&)) true
	$(BENCH) $(foreach s,$(RANDOM_SIZES),$(foreach d,$(RANDOM_DENSITIES),build/random/random-$(s)-$(d).px)) \
	    --workers 1 --reads 3 --time-limit 60 --json results/bench_random.json || test $$? -eq 1
# What the default's mixed streams cost on typical puzzles: taai2011 #1-40, one puzzle at a time, each read on
# both cores, against both streams on the Luby plan (~5 min).
bench-streams: $(VENV)/.installed
	mkdir -p results
	$(BENCH) $(TOURNAMENT)/taai2011.txt\#1-40 --workers 1 --reads 5 --time-limit 60 \
	    --json results/streams_mixed.json || test $$? -eq 1
	$(BENCH) $(TOURNAMENT)/taai2011.txt\#1-40 --workers 1 --reads 5 --time-limit 60 --option stream_plans=same \
	    --label shift-same-streams --json results/streams_same.json || test $$? -eq 1

# The same two on the hardest part of taai2011 (every 10th puzzle of #501-750), where the time goes (~25 min).
bench-streams-hard: $(VENV)/.installed
	mkdir -p results
	$(BENCH) $(TOURNAMENT)/taai2011.txt\#501-750/10 --workers 1 --reads 5 --time-limit 60 \
	    --json results/streams_hard_mixed.json || test $$? -eq 1
	$(BENCH) $(TOURNAMENT)/taai2011.txt\#501-750/10 --workers 1 --reads 5 --time-limit 60 --option stream_plans=same \
	    --label shift-same-streams --json results/streams_hard_same.json || test $$? -eq 1

# Hybrid: line-logic presolve, then the default annealer, on all 17 Bompol puzzles and the first 100 of two
# tournament files (~10 min).
bench-hybrid: $(VENV)/.installed
	mkdir -p results
	$(BENCH) $(SHARED)/bompol $(foreach f,taai2011 tcga2012,$(TOURNAMENT)/$(f).txt\#1-100) \
	    --presolve --reads 3 --time-limit 60 --label shift+presolve --json results/bench_hybrid.json || test $$? -eq 1

# Tournament 25x25 puzzles, one at a time, each read on both cores as `qpicross anneal` runs it: the first 100 of
# each file (the easiest part, several minutes), into TOURNAMENT_JSON.
bench-tournament: $(VENV)/.installed
	mkdir -p results
	$(TOURNAMENT_BENCH) $(foreach f,$(TOURNAMENT_FILES),$(TOURNAMENT)/$(f).txt\#$(TOURNAMENT_RANGE)) \
	    --json $(TOURNAMENT_JSON) || test $$? -eq 1

# Every puzzle of each file in TOURNAMENT_FILES, one results file each (results/bench_tournament_long_FILE.json;
# 69 and 86 min on 2 cores with the sampler of de00f85), the same settings. Run it in a foreground terminal: Ctrl-C keeps
# the finished puzzles. The README's full-run table and the targets read every bench_tournament_long*.json.
define TOURNAMENT_LONG_LINE
	$(TOURNAMENT_BENCH) $(TOURNAMENT)/$(1).txt\#1-1000 --json results/bench_tournament_long_$(1).json \
	    || test $$? -eq 1

endef
bench-tournament-long: $(VENV)/.installed
	mkdir -p results
	$(foreach f,$(TOURNAMENT_FILES),$(call TOURNAMENT_LONG_LINE,$(f)))

# The tournament rules (issue 41): the 1 000 puzzles of each file in TOURNAMENT_FILES once, in order, each until its
# first solving read, on one core (taskset pins it to CPU 0, or to CPU; keep the other core quiet), two hours in all:
# results/tournament_FILE.json, every puzzle's time and the running total (python: qpicross.experiments.tournament).
TOURNAMENT_PASS_RANGE ?= 1-1000
define TOURNAMENT_PASS_LINE
	taskset -c $(or $(CPU),0) $(BIN)/qpicross bench $(TOURNAMENT)/$(1).txt\#$(TOURNAMENT_PASS_RANGE) --tournament --seed 0 \
	    --json results/tournament_$(1).json --force || test $$? -eq 1

endef
bench-tournament-pass: $(VENV)/.installed
	mkdir -p results
	$(foreach f,$(TOURNAMENT_FILES),$(call TOURNAMENT_PASS_LINE,$(f)))

# Every 10th puzzle of the 1 000 + 1 000 (100 + 100 spread over the whole files, the late and hard ones
# included): an estimate of the full run's median and a lower bound on its worst (15 min on 2 cores at de00f85).
bench-tournament-sample: $(VENV)/.installed
	mkdir -p results
	$(TOURNAMENT_BENCH) $(TOURNAMENT)/taai2011.txt\#$(TOURNAMENT_SAMPLE) $(TOURNAMENT)/tcga2012.txt\#$(TOURNAMENT_SAMPLE) \
	    --json results/bench_tournament_sample.json || test $$? -eq 1

# FILE#N of each puzzle the full runs left unsolved (with --above S, also each one with a TTS99 above S seconds).
LONG_RUN_PUZZLES = $(BIN)/python -m benchmarks.report --unsolved results/bench_tournament_long*.json
# The puzzles the full runs (results/bench_tournament_long*.json) left unsolved, each given the budget `qpicross anneal
# FILE#N` has with no options (600 s) for as many reads as fit, one puzzle at a time, each read on both cores: 10 min
# a puzzle. A TTS99 within 600 s says that `qpicross anneal` with no options solves it 99 times in 100.
bench-tournament-retry: $(VENV)/.installed
	specs="$$($(LONG_RUN_PUZZLES))" || exit 2; \
	if [ -z "$$specs" ]; then echo "no unsolved puzzle in results/bench_tournament_long*.json"; exit 0; fi; \
	mkdir -p results && $(BENCH) $$specs --workers 1 --reads 1000 --time-limit 600 \
	    --json results/bench_tournament_retry.json || test $$? -eq 1

# The tail of the full runs: each puzzle that results/bench_tournament_long*.json left unsolved or solved with a
# TTS99 above TAIL_S seconds (27 puzzles at cec77b2), with the full runs' reads and budget, one puzzle at a time, each
# read on both cores: the default (pure annealing) and the same with line logic first (--presolve), ~50 min.
TAIL_S := 30
bench-tail: $(VENV)/.installed
	specs="$$($(LONG_RUN_PUZZLES) --above $(TAIL_S))" || exit 2; \
	if [ -z "$$specs" ]; then echo "no puzzle above $(TAIL_S) s in results/bench_tournament_long*.json"; exit 0; fi; \
	mkdir -p results && { $(TOURNAMENT_BENCH) $$specs --json results/tail_default.json || test $$? -eq 1; } && \
	{ $(TOURNAMENT_BENCH) $$specs --presolve --label shift+presolve --json results/tail_presolve.json \
	    || test $$? -eq 1; }

# Parallel restarts of one read: the tail puzzles the annealer issue names, each read's restart streams on 1 and then
# on 2 local worker processes (--option scheduler=local:N, as `qpicross anneal --scheduler local:N`), 6 reads or 300 s
# a puzzle, one puzzle at a time. The report projects more streams from the one-stream reads (~40 min on 2 cores).
PARALLEL_SET := $(TOURNAMENT)/taai2011.txt\#403 $(TOURNAMENT)/tcga2012.txt\#321 $(TOURNAMENT)/tcga2012.txt\#468 \
                $(TOURNAMENT)/tcga2012.txt\#652
PARALLEL_READS  ?= 6
PARALLEL_BUDGET ?= 300
PARALLEL_JSON   ?= results/parallel
PARALLEL_RUN := $(BENCH) $(PARALLEL_SET) --workers 1 --reads $(PARALLEL_READS) --time-limit $(PARALLEL_BUDGET)
bench-parallel: $(VENV)/.installed
	mkdir -p results
	$(PARALLEL_RUN) --option scheduler=local:1 --label shift-1-stream --json $(PARALLEL_JSON)_1.json || test $$? -eq 1
	$(PARALLEL_RUN) --option scheduler=local:2 --label shift-2-streams --json $(PARALLEL_JSON)_2.json || test $$? -eq 1
# The same on taai2011 #403 alone with 40 reads or 1 800 s a configuration (about 20 min on an idle machine: one
# stream's reads take about 20 s each): the one tail puzzle whose reads finish often enough to show a
# distribution.
PARALLEL_403_READS  ?= 40
PARALLEL_403_BUDGET ?= 1800
bench-parallel-403:
	$(MAKE) bench-parallel PARALLEL_SET=$(TOURNAMENT)/taai2011.txt\#403 PARALLEL_READS=$(PARALLEL_403_READS) \
	    PARALLEL_BUDGET=$(PARALLEL_403_BUDGET) PARALLEL_JSON=results/parallel_403
# The same on a second tail puzzle, taai2011 #307 (one stream's reads take about 5 s each), 40 reads or 1 800 s a
# configuration (about 7 min on an idle machine).
bench-parallel-307:
	$(MAKE) bench-parallel PARALLEL_SET=$(TOURNAMENT)/taai2011.txt\#307 PARALLEL_READS=$(PARALLEL_403_READS) \
	    PARALLEL_BUDGET=$(PARALLEL_403_BUDGET) PARALLEL_JSON=results/parallel_307

# Whether the two cores run as fast together as alone (what two streams, or two benchmarks side by side, can show
# here): bench-pure's instances and Bompol puzzles, CORES_READS reads or 30 s a puzzle, one thread a read and the same
# seeds (so the same reads every run: only the clock can differ), first alone on core 0, then the same run on core 0
# and core 1 at once. Writes results/cores_alone.json and results/cores_together_{0,1}.json (about 3 min).
CORES_READS ?= 20
CORES_RUN = $(BIN)/qpicross bench --force --workers 1 $(abspath instances) $(SHARED)/bompol --reads $(CORES_READS) \
    --time-limit 30 --seed 0 --option threads=1
bench-cores: $(VENV)/.installed
	mkdir -p results
	taskset -c 0 $(CORES_RUN) --label shift-alone --json results/cores_alone.json || test $$? -eq 1
	{ taskset -c 0 $(CORES_RUN) --label shift-together-0 --json results/cores_together_0.json || test $$? -eq 1; } & \
	    first=$$!; \
	{ taskset -c 1 $(CORES_RUN) --label shift-together-1 --json results/cores_together_1.json || test $$? -eq 1; } & \
	    second=$$!; \
	wait $$first; first=$$?; wait $$second && test $$first -eq 0

# Plain simulated annealing of the QUBO as written (--sampler sa, dwave-samplers' defaults: 1000 sweeps) on the puzzles
# shipped in instances/, 1000 reads each, one puzzle at a time (~30 s).
bench-core: $(VENV)/.installed
	mkdir -p results
	$(BENCH) instances --workers 1 --sampler sa --reads 1000 --seed 1 --json results/core_sa.json || test $$? -eq 1

# The size guard's estimate against the peak resident memory of the runs it admits: random boards of 60x60 to 150x150,
# the default annealer, presolve, plain SA, both other encodings, tabu (~10 min, up to 5 GiB; exits 1 if a peak
# exceeds its estimate).
bench-memory: $(VENV)/.installed
	mkdir -p results
	$(PIN) $(BIN)/python -m benchmarks.memory --json results/memory.json

# The bad-input campaign (issue 43): a few hundred qpicross command lines with malformed puzzle files, bad option
# values, unreachable schedulers, cloud samplers without tokens, outputs that must not be written, Ctrl-C and a
# closed stdout, each in a fresh process, classified (traceback, hang, leak, unsafe output, silent accept, noisy
# error...); one core (taskset pins it to CPU 0 where it exists), about 11 min: results/campaign.json, every run and
# the counts per class.
CAMPAIGN_PIN := $(shell command -v taskset > /dev/null && echo taskset -c 0)
campaign: $(VENV)/.installed
	mkdir -p results
	$(CAMPAIGN_PIN) $(BIN)/python -m benchmarks.campaign --json results/campaign.json

# The batched sampler's CPU backend (shift-batched-cpu: the profile chain's ladders, all puzzles in one call) beside
# shift on bench-pure's puzzles: the shipped ones, all 17 Bompol and taai2011 #1-20, 4 reads (ladders) a puzzle,
# shift one puzzle at a time on both cores, the batch's 120 s for all its puzzles (~5 min on 2 cores).
bench-batched-cpu: $(VENV)/.installed
	mkdir -p results
	$(BENCH) instances $(SHARED)/bompol $(TOURNAMENT)/taai2011.txt\#1-20 --workers 1 --sampler shift,shift-batched-cpu \
	    --reads 4 --time-limit 120 --json results/batched_cpu.json || test $$? -eq 1

# Puzzles from outside the tournament sets: the black-and-white webpbn puzzles of Jan Wolter's survey that
# ../shared/instances/external holds in a format qpicross reads (17 of 28; which file is which, and the published
# times of the classical solvers: ../shared/instances/external/WOLTER_SURVEY_INDEX.txt), 5x10 to 70x50, one puzzle at
# a time, each read on both cores, 3 reads or 60 s each: the default and the same with --presolve (~15 min).
SURVEY := $(addprefix $(SHARED)/external/,$(addprefix picross-solver/inputs/webpbn/webpbn-, \
            00001-dancer.non 00006-cat.non 00021-skid.non 00027-bucks.non 00023-edge.non 02413-smoke.non \
            00016-knot.non 00529-swing.non 00065-mum.non 00436-petroglyph.non 04645-marilyn.non 06574-forever.non \
            10810-centerpiece.non) \
          number-loom/examples/wolter/webpbn-01611.xml number-loom/examples/wolter/webpbn-00803.xml \
          number-loom/examples/dom/9-dom.xml PixelLogic/webpbn-02712-lion.non)
SURVEY_RUN := $(BENCH) $(SURVEY) --workers 1 --reads 3 --time-limit 60
bench-survey: $(VENV)/.installed
	mkdir -p results
	$(SURVEY_RUN) --json results/survey.json || test $$? -eq 1
	$(SURVEY_RUN) --presolve --label shift+presolve --json results/survey_presolve.json || test $$? -eq 1

# The structured annealer's BQM kernel against its board kernel: replica-sweeps per second, same samples (~3 min).
bench-kernels: $(VENV)/.installed
	mkdir -p results
	$(PIN) $(BIN)/python -m benchmarks.kernels instances/star10.px $(SHARED)/bompol/knife.px $(SHARED)/bompol/panda.px \
	    $(TOURNAMENT)/taai2011.txt\#1-3 $(SHARED)/bompol/kabuki.px $(SHARED)/bompol/phantom.px --sweeps 1000 --reads 2 \
	    --json results/kernels.json

# What each part of the structured annealer buys, and what penalty weights do for plain SA (~10 min).
bench-ablation: $(VENV)/.installed
	mkdir -p results
	$(BENCH) $(ABLATION_SET) --reads 10 --time-limit 60 --label shift --json results/ablation_shift.json || test $$? -eq 1
	$(BENCH) $(ABLATION_SET) --reads 10 --time-limit 60 --option restart_sweeps=250 --label shift-luby-250 \
	    --json results/ablation_shift_luby250.json || test $$? -eq 1
	$(BENCH) $(ABLATION_SET) --reads 10 --time-limit 60 --option block_moves=True --label shift-block-moves \
	    --json results/ablation_shift_block_moves.json || test $$? -eq 1
	$(BENCH) $(ABLATION_SET) --reads 10 --time-limit 60 --option schedule=fixed --option block_moves=True --sweeps 5000 \
	    --label shift-fixed-ladder --json results/ablation_shift_fixed.json || test $$? -eq 1
	$(BENCH) $(ABLATION_SET) --reads 10 --time-limit 60 --option num_replicas=1 --sweeps 5000 --label shift-anneal \
	    --json results/ablation_shift_anneal.json || test $$? -eq 1
	$(BENCH) $(ABLATION_SET) --reads 10 --time-limit 60 --option line_moves=0.0 --label shift-no-line-moves \
	    --json results/ablation_shift_no_line_moves.json || test $$? -eq 1
	$(BENCH) $(ABLATION_SET) --reads 10 --time-limit 60 --presolve --label shift+presolve \
	    --json results/ablation_shift_presolve.json || test $$? -eq 1
	$(BENCH) $(ABLATION_SET) --sampler sa --sweeps 1000,10000 --reads 10 --time-limit 60 --json results/ablation_sa.json || test $$? -eq 1
	$(BENCH) $(ABLATION_SET) --sampler sa --sweeps 1000 --reads 10 --time-limit 60 --weights match=2 --label sa-match2 \
	    --json results/ablation_sa_match2.json || test $$? -eq 1
	$(BENCH) $(ABLATION_SET) --sampler sa --sweeps 1000 --reads 10 --time-limit 60 --encoding domain-wall \
	    --weights one_hot=64 --label sa-domain-wall-64 --json results/ablation_sa_domain_wall.json || test $$? -eq 1

# The batched annealer (shift-batched: the profile chain on the CPU sampler's restart plan, one CUDA thread per ladder)
# on one NVIDIA GPU, against the CPU sampler on every core of the same machine, in one call of under 10 minutes.
# A GPU machine without network: here, `make gpu-wheels` (wheels for its Python 3.12, Linux x86-64, into wheels-gpu/,
# ignored by git) and `make gpu-data` (the puzzles it reads, into gpu-data/, ignored by git); carry both there, then
# `make gpu-site bench-gpu SHARED=gpu-data` there. The carried wheels are installed into GPU_SITE and put on
# PYTHONPATH ahead of the machine's python3 (no venv: on this workplace's GPU image python3 is itself a venv, and
# a venv made from it does not see its packages). GPU_REQS names what to carry: by default what that image lacks
# (it has numba, numba-cuda, numpy, scipy, matplotlib, tqdm and pytest); elsewhere name more, e.g. GPU_REQS="$(GPU_ALL)".
GPU_WHEELS ?= wheels-gpu
GPU_SITE   ?= /tmp/qpicross-site
GPU_PYTHON ?= python3
# numpy below 2.5: that image's numpy 2.5 removed np.row_stack, which numba-cuda 0.30.4's first kernel compile calls
GPU_REQS   ?= 'dimod>=0.12.14' 'dwave-samplers>=1.2' 'numpy<2.5'
GPU_ALL    := $(shell $(PYTHON) -c 'import tomllib; p = tomllib.load(open("pyproject.toml", "rb"))["project"]; \
                print(" ".join(repr(r) for r in p["dependencies"] + p["optional-dependencies"]["gpu"]))')
GPU_PY     := env PYTHONPATH=$(CURDIR):$(GPU_SITE) PYTHONUNBUFFERED=1 $(GPU_PYTHON)
# the hard puzzles: kabuki, phantom and the tail puzzles the issue names (the slowest of the full CPU runs)
GPU_HARD   ?= $(HARD) $(TOURNAMENT)/taai2011.txt\#403 $(TOURNAMENT)/tcga2012.txt\#321 $(TOURNAMENT)/tcga2012.txt\#468 \
              $(TOURNAMENT)/tcga2012.txt\#652
GPU_TAAI   ?= $(TOURNAMENT)/taai2011.txt\#1-1000
GPU_BATCH  := --sampler shift-batched --option target_energy=0 --time-limit 60
GPU_LADDERS_HARD ?= 1024
GPU_LADDERS_TAAI ?= 32
GPU_CPU_READS    ?= 3
# where the results files go (GPU_RESULTS=/tmp/x for a trial run that leaves results/ alone)
GPU_RESULTS ?= results
# each step is cut at its limit (seconds: Ctrl-C first, so that a bench writes what it finished, then a kill 20 s
# later) so that the whole call ends within 10 minutes whatever the GPU does
GPU_STEP   = timeout --preserve-status -s INT -k 20 $(1)

gpu-wheels:
	mkdir -p $(GPU_WHEELS)
	printf '%s\n' $(GPU_REQS) > $(GPU_WHEELS)/requirements.txt
	$(PYTHON) -m pip download --no-deps --dest $(GPU_WHEELS) --only-binary=:all: --python-version 3.12 --implementation cp \
	    --platform manylinux_2_28_x86_64 --platform manylinux_2_27_x86_64 --platform manylinux_2_24_x86_64 \
	    --platform manylinux_2_17_x86_64 --platform manylinux2014_x86_64 -r $(GPU_WHEELS)/requirements.txt

gpu-data:
	mkdir -p gpu-data/bompol gpu-data/external/NonogramRecord/question
	cp $(SHARED)/bompol/kabuki.px $(SHARED)/bompol/phantom.px gpu-data/bompol/
	cp $(TOURNAMENT)/taai2011.txt $(TOURNAMENT)/tcga2012.txt gpu-data/external/NonogramRecord/question/

gpu-site:
	$(GPU_PYTHON) -m pip install --quiet --upgrade --no-index --no-deps --no-compile --target $(GPU_SITE) \
	    $(GPU_WHEELS)/*.whl

# 0. what runs (a hang here shows at once); 1. the CUDA kernel gives the CPU backend's samples on the GPU; 2. the hard
# puzzles, 1024 ladders each, in one call; 3. all 1 000 taai2011 puzzles, 32 ladders each, in one call; 4. `shift` (the
# CPU sampler) on the hard puzzles, one at a time, each read with one restart stream per core; 5. the batched driver's
# ladder-sweeps a second on the GPU and on every core (benchmarks/gpu_throughput.py). bench-gpu-check is steps 0-1,
# bench-gpu-throughput step 5. Results: results/bench_gpu_*.json.
GPU_THROUGHPUT_PLAN ?= cuda:32,cuda:1024,cuda:8192,cpu:16
bench-gpu: bench-gpu-check
	$(call GPU_STEP,110) $(GPU_PY) -m qpicross bench --force $(GPU_HARD) $(GPU_BATCH) --reads $(GPU_LADDERS_HARD) \
	    --json $(GPU_RESULTS)/bench_gpu_hard.json || test $$? -eq 1 -o $$? -eq 130
	$(call GPU_STEP,150) $(GPU_PY) -m qpicross bench --force $(GPU_TAAI) $(GPU_BATCH) --reads $(GPU_LADDERS_TAAI) \
	    --json $(GPU_RESULTS)/bench_gpu_taai2011.json || test $$? -eq 1 -o $$? -eq 130
	$(call GPU_STEP,100) $(GPU_PY) -m qpicross bench --force $(GPU_HARD) --workers 1 --reads $(GPU_CPU_READS) \
	    --time-limit 20 --json $(GPU_RESULTS)/bench_gpu_cpu_hard.json || test $$? -eq 1 -o $$? -eq 130
	$(MAKE) bench-gpu-throughput

bench-gpu-check:
	mkdir -p $(GPU_RESULTS)
	timeout 60 $(GPU_PY) -c 'import os, numba, numpy, dimod; from numba import cuda; \
	    print("numba", numba.__version__, "numpy", numpy.__version__, "dimod", dimod.__version__, \
	          "cores", os.cpu_count(), "cuda", cuda.is_available()); cuda.is_available() and cuda.detect()'
	-$(call GPU_STEP,150) $(GPU_PY) -m pytest -q -p no:cacheprovider tests/samplers/blockshift/test_driver.py -k gpu

bench-gpu-throughput:
	mkdir -p $(GPU_RESULTS)
	$(call GPU_STEP,150) $(GPU_PY) -m benchmarks.gpu_throughput $(TOURNAMENT)/taai2011.txt\#403 \
	    --plan $(GPU_THROUGHPUT_PLAN) --seconds 15 --json $(GPU_RESULTS)/bench_gpu_throughput.json

# No slowdown against earlier code: bench-pure's 42 puzzles, default settings, NOSLOW_READS reads or 60 s a puzzle, one
# puzzle at a time pinned to one core (NOSLOW_CPU: one core a read, and the other core left to whatever else runs),
# same seeds, in one run: this commit (HEAD, checked out in build/head, so that the working tree may change meanwhile)
# and each of BASE_REVS (checked out in build/base-REV), each run from its own tree so that its qpicross is the one
# imported, interleaved puzzle by puzzle (benchmarks/interleave.py: every tree runs a puzzle before the next puzzle,
# so a drift in the machine's speed over the run reaches every tree alike; run one tree after the other, the same
# code measured far apart from one run to the next). The earlier trees' files are restated with today's censored
# TTS99 from their own per-read times (about 20 min in all at 60 reads here); `make readme` then writes the ratios,
# with their puzzle-bootstrap intervals, to the docs. d913297: the code before the block-shift annealer was written once for
# every backend (issue 31); cc7ae6e: the code before the engine was (issue 39). d913297 times its reads without the
# calibration sweeps this tree counts in a read's time, so its ratios lean against this tree.
BASE_REVS   ?= cc7ae6e d913297
NOSLOW_SET  := $(abspath instances $(SHARED)/bompol) $(abspath $(TOURNAMENT))/taai2011.txt\#1-20
NOSLOW_SEED ?= 0
NOSLOW_READS ?= 60
# --time-budget: the earlier trees' name for the run's time limit (where --time-limit was the cloud solvers' own);
# this tree takes it as another name for --time-limit.
NOSLOW_ARGS := --force --workers 1 --reads $(NOSLOW_READS) --time-budget 60 --seed $(NOSLOW_SEED)
NOSLOW_CPU  ?= 0
# NOSLOW_RUN=_2 NOSLOW_SEED=1 writes a second run, on other seeds, to results/noslow_*_2.json
NOSLOW_RUN  ?= _engine
bench-no-slowdown: $(VENV)/.installed
	mkdir -p results build
	test -d build/head || git worktree add --detach build/head HEAD
	git -C build/head checkout --quiet --detach $$(git rev-parse HEAD)
	for rev in $(BASE_REVS); do test -d build/base-$${rev} || git worktree add --detach build/base-$${rev} $${rev}; done
	$(BIN)/python -m benchmarks.interleave $(NOSLOW_SET) --cpu $(NOSLOW_CPU) \
	    --tree head=build/head:results/noslow_head$(NOSLOW_RUN).json \
	    $(foreach rev,$(BASE_REVS),--tree $(rev)=build/base-$(rev):results/noslow_$(rev)$(NOSLOW_RUN).json) \
	    -- $(NOSLOW_ARGS) || test $$? -eq 1
	for rev in $(BASE_REVS); do $(BIN)/python -m benchmarks.restate results/noslow_$${rev}$(NOSLOW_RUN).json || exit 1; done

# Where a tournament puzzle's time goes (issue 41): taai2011 #1-100 solved as the tournament pass solves them, one
# core (NOSLOW_CPU), each puzzle's wall time split into build, the annealer's structure, calibration, restarts,
# Python between them, the sample set, decode (benchmarks/breakdown.py; about a minute a tree). This tree, and each of
# BREAKDOWN_REVS checked out in build/base-REV (the same script, their code): results/breakdown_{head,REV}.json.
BREAKDOWN_PUZZLES ?= 1-100
BREAKDOWN_REVS    ?= eaedf94 53ebd6e
bench-breakdown: $(VENV)/.installed
	mkdir -p results build
	for rev in $(BREAKDOWN_REVS); do test -d build/base-$${rev} || git worktree add --detach build/base-$${rev} $${rev}; done
	taskset -c $(NOSLOW_CPU) $(BIN)/python -m benchmarks.breakdown $(TOURNAMENT)/taai2011.txt\#$(BREAKDOWN_PUZZLES) \
	    --label head --json results/breakdown_head.json
	for rev in $(BREAKDOWN_REVS); do PYTHONPATH=build/base-$${rev} taskset -c $(NOSLOW_CPU) $(BIN)/python \
	    benchmarks/breakdown.py $(TOURNAMENT)/taai2011.txt\#$(BREAKDOWN_PUZZLES) --label $${rev} \
	    --json results/breakdown_$${rev}.json || exit 1; done

# Rewrite the generated tables of the README and the docs' results pages from results/*.json (the tests check that
# they agree), each with a line under it saying which code measured it (commit and code hash of its files).
readme: $(VENV)/.installed
	$(BIN)/python -m benchmarks.report
	$(BIN)/python -m benchmarks.frontier page

# Restate every results file with the censored (Kaplan-Meier) TTS99 from its stored per-read times, in
# place (no re-run; about 10 minutes on the shared 2-core machine; running it again changes nothing), then
# `make readme`.
restate: $(VENV)/.installed
	$(BIN)/python -m benchmarks.restate results/*.json

# The results files the current code did not write: each file's status against the code hash (the whole
# qpicross package, benchmarks/*.py and the versions of dimod, dwave-samplers, numba, numpy, scipy): current,
# stale (also "hashed the old way": sampler modules only), acknowledged in results/STALE.txt (FILE.json RECORDED
# CODE reason, honoured while both hashes match), or "no hash"; exit 1 if one is stale, which nearly every
# commit makes them: re-run what a page quotes. tests/benchmarks/test_provenance.py checks STALE.txt's lines. An
# acknowledgement shows where it began and its last step; `python -m benchmarks.provenance results --full` all of them.
stale-results: $(VENV)/.installed
	$(BIN)/python -m benchmarks.provenance results

# The formulation study (about 15 minutes on 2 cores, 20 on one: `taskset -c 0 make study STUDY_WORKERS=1`): generic
# samplers x encodings, weights tuned on small puzzles, then TTS99 up a ladder of sizes; writes results/study.json and
# figures/study.png, prints the table of the docs' generic-samplers page.
STUDY_WORKERS ?= 2
study: $(VENV)/.installed-test
	mkdir -p results figures
	QPICROSS_SHARED=$(SHARED) $(BIN)/python -m benchmarks.study run --workers $(STUDY_WORKERS) \
	    --json results/study.json --plot figures/study.png

# What fits on a D-Wave QPU: every encoding's BQM minor-embedded by minorminer into the ideal Advantage (Pegasus P16)
# and Advantage2 (Zephyr Z12) graphs, over the shipped puzzles, Bompol, generated ones and taai2011 #1-3, each
# collection smallest first until one does not embed within EMBED_TIMEOUT s; one process (about half an hour).
# Each embedded thermometer model (alone and after line logic) is also annealed with
# its chains by SA on the ideal graph (EMBED_READS reads, beside the same reads on the logical model). Nothing is
# sampled on a QPU. Writes results/embedding.json; `python -m benchmarks.embedding table` prints it.
EMBED_TIMEOUT ?= 30
EMBED_READS   ?= 20
embedding: $(VENV)/.installed-test
	mkdir -p results
	QPICROSS_SHARED=$(SHARED) taskset -c $(or $(CPU),0) $(BIN)/python -m benchmarks.frontier embedding \
	    --timeout $(EMBED_TIMEOUT) --reads $(EMBED_READS) --json results/embedding.json

# A structured embedding (issue 42): the thermometer model laid on Zephyr Z12 as a crossbar, each row bit a run of
# horizontal qubits over its cells, each column bit a vertical one, refined by minorminer (benchmarks/crossbar.py);
# beside minorminer alone with the same time limit (STRUCTURED_TIMEOUT s) and chain-length patience, over
# frontier.STRUCTURED_LADDER, and each crossbar embedding annealed with its chains (EMBED_READS SA reads on the
# ideal graph, beside the logical model). Two processes, one a core: the thermometer alone (results/
# embedding_structured.json, about an hour) and after line logic (..._presolve.json, about half an hour).
STRUCTURED_TIMEOUT ?= 240
embedding-structured: $(VENV)/.installed-test
	mkdir -p results
	QPICROSS_SHARED=$(SHARED) taskset -c 0 $(BIN)/python -m benchmarks.frontier structured --encodings thermometer \
	    --timeout $(STRUCTURED_TIMEOUT) --reads $(EMBED_READS) --json results/embedding_structured.json & whole=$$!; \
	QPICROSS_SHARED=$(SHARED) taskset -c 1 $(BIN)/python -m benchmarks.frontier structured \
	    --encodings thermometer+presolve --timeout $(STRUCTURED_TIMEOUT) --reads $(EMBED_READS) \
	    --json results/embedding_structured_presolve.json; presolved=$$?; \
	wait $$whole && test $$presolved -eq 0

# A fair schedule for plain SA (--sampler sa) on the thermometer encoding (the study's tuned weights): TTS99 against
# sweep count (100 to 30 000) on Bompol puzzles from 10x10 to 20x20 and taai2011 #1, with dwave's default β range,
# with the rule of benchmarks.schedule (from the model's energy gap) and with the rule after line logic
# (--presolve); SCHEDULE_BUDGET s of sampling per cell, one process (about 20 min). Writes results/schedule.json and
# figures/schedule.png.
SCHEDULE_BUDGET ?= 15
schedule: $(VENV)/.installed-test
	mkdir -p results figures
	QPICROSS_SHARED=$(SHARED) $(BIN)/python -m benchmarks.frontier schedule --budget $(SCHEDULE_BUDGET) \
	    --json results/schedule.json --plot figures/schedule.png

# The peers on the same fair schedule (issue 42): OpenJij SA and SQA, simulated bifurcation, dwave-hybrid's parallel
# tempering and tabu search, each over the same sweep counts (its sweeps, steps or sweeps per temperature; tabu takes
# none: one cell at its default) with its own β range, beside plain SA with the rule's, on the ladder of `make
# schedule` (same puzzles, thermometer model and weights), SCHEDULE_BUDGET s of sampling per cell, one process pinned
# to one core (CPU, default 0). Writes results/schedule_peers.json; the frontier page's peers section reads it.
PEERS_ARMS ?= rule,openjij-sa,openjij-sqa,sb,pt,tabu
schedule-peers: $(VENV)/.installed-test
	mkdir -p results
	QPICROSS_SHARED=$(SHARED) taskset -c $(or $(CPU),0) $(BIN)/python -m benchmarks.frontier schedule \
	    --arms $(PEERS_ARMS) --budget $(SCHEDULE_BUDGET) --json results/schedule_peers.json

# Line logic first (--presolve) against the thermometer alone, both with the rule's β range, on taai2011 #1-5 (line
# logic settles every cell of most Bompol puzzles, so the ladder above says little about it): SCHEDULE_BUDGET_PRESOLVE
# s per cell, one process (at most about 7 min). Writes results/schedule_presolve.json.
SCHEDULE_BUDGET_PRESOLVE ?= 10
schedule-presolve: $(VENV)/.installed-test
	mkdir -p results
	$(BIN)/python -m benchmarks.schedule run --budget $(SCHEDULE_BUDGET_PRESOLVE) --arms rule,rule+presolve \
	    --sweeps 1000,3000,10000,30000 $(foreach i,1 2 3 4 5,--puzzle $(TOURNAMENT)/taai2011.txt\#$(i)) \
	    --json results/schedule_presolve.json

# The issue's tournament target with line logic first: plain SA on the thermometer after presolve, the rule's β range,
# taai2011 #1-20 at 10 000 and 30 000 sweeps, 15 s of sampling a cell, one process (at most about 10 min).
# Writes results/schedule_tournament.json.
schedule-tournament: $(VENV)/.installed-test
	mkdir -p results
	$(BIN)/python -m benchmarks.schedule run --budget 15 --arms rule+presolve --sweeps 10000,30000 \
	    $(foreach i,$(shell seq 1 20),--puzzle $(TOURNAMENT)/taai2011.txt\#$(i)) --json results/schedule_tournament.json

# The same without line logic: plain SA on the thermometer encoding alone, the rule's β range, taai2011 #1-20 at
# 10 000 and 30 000 sweeps, 15 s of sampling a cell, one process (at most about 10 min). Writes
# results/schedule_tournament_plain.json.
schedule-tournament-plain: $(VENV)/.installed-test
	mkdir -p results
	$(BIN)/python -m benchmarks.schedule run --budget 15 --arms rule --sweeps 10000,30000 \
	    $(foreach i,$(shell seq 1 20),--puzzle $(TOURNAMENT)/taai2011.txt\#$(i)) --json results/schedule_tournament_plain.json

# Issue 42's size ladder on random boards: RANDOM_LADDER_BOARDS boards of each of RANDOM_LADDER_SIZES (`qpicross generate
# --density 0.55 --seed 1..N`, written to build/random-ladder, not committed), plain SA on the thermometer with the
# rule's β range at 30 000 sweeps, 60 s of sampling a puzzle, alone and after line logic, one arm after the other on
# one core (CPU, default 0; about 40 min at 4 boards a size). Writes results/schedule_random_{plain,presolve}.json;
# the frontier page's size table reads them.
RANDOM_LADDER_SIZES  ?= 15x15 20x20 25x25 30x30 40x40
RANDOM_LADDER_BOARDS ?= 4
RANDOM_LADDER_FILES = $(foreach s,$(RANDOM_LADDER_SIZES),$(foreach i,$(shell seq 1 $(RANDOM_LADDER_BOARDS)),\
    build/random-ladder/random-$(s)-s$(i).px))
RANDOM_LADDER_RUN = taskset -c $(or $(CPU),0) $(BIN)/python -m benchmarks.schedule run --budget 60 --sweeps 30000 \
    $(foreach f,$(RANDOM_LADDER_FILES),--puzzle $(f))
schedule-random: $(VENV)/.installed-test
	mkdir -p results build/random-ladder
	$(foreach s,$(RANDOM_LADDER_SIZES),$(foreach i,$(shell seq 1 $(RANDOM_LADDER_BOARDS)),\
	    $(BIN)/qpicross generate --size $(s) --density 0.55 --seed $(i) --force \
	    -o build/random-ladder/random-$(s)-s$(i).px &&)) true
	$(RANDOM_LADDER_RUN) --arms rule --json results/schedule_random_plain.json
	$(RANDOM_LADDER_RUN) --arms rule+presolve --json results/schedule_random_presolve.json

# Issue 42's sample of the tournament set: SAMPLE_SIZE taai2011 puzzles drawn at random (seed SAMPLE_SEED; the list is
# the results file's meta.planned), plain SA on the thermometer with the rule's beta range at 30 000 sweeps (the
# optimum of most of #1-20 in schedule_tournament_plain.json), SAMPLE_BUDGET s of sampling a puzzle: alone on core 0
# (results/schedule_sample_plain.json) and after line logic on core 1 (results/schedule_sample_presolve.json), side
# by side; each file is written after every puzzle (about 100 min at 100 puzzles and 60 s).
SAMPLE_SIZE   ?= 100
SAMPLE_SEED   ?= 2011
SAMPLE_BUDGET ?= 60
SAMPLE_RUN = $(BIN)/python -m benchmarks.schedule run --budget $(SAMPLE_BUDGET) --sweeps 30000 \
    --puzzle $(TOURNAMENT)/taai2011.txt\#1-1000 --sample $(SAMPLE_SIZE) --sample-seed $(SAMPLE_SEED)
schedule-tournament-sample: $(VENV)/.installed-test
	mkdir -p results
	taskset -c 0 $(SAMPLE_RUN) --arms rule --json results/schedule_sample_plain.json & plain=$$!; \
	taskset -c 1 $(SAMPLE_RUN) --arms rule+presolve --json results/schedule_sample_presolve.json & logic=$$!; \
	wait $$plain; plain=$$?; wait $$logic && test $$plain -eq 0

# The Bompol puzzles up to 20x20 that make schedule leaves out (pikachu 8x8, tardis 20x15), on its sweep ladder and
# both β ranges, 15 s a cell, one process (about 5 min). Writes results/schedule_bompol.json.
schedule-bompol: $(VENV)/.installed-test
	mkdir -p results
	$(BIN)/python -m benchmarks.schedule run --budget 15 --arms default,rule \
	    --puzzle $(SHARED)/bompol/pikachu.px --puzzle $(SHARED)/bompol/tardis.px --json results/schedule_bompol.json

# Rewrite the generated tables of docs/results/formulation-frontier.md from results/embedding.json and
# results/schedule.json (tests/benchmarks/test_frontier.py checks that they agree).
frontier-page: $(VENV)/.installed
	$(BIN)/python -m benchmarks.frontier page docs/results/formulation-frontier.md

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache docs/_build docs/api docs/jupyter_execute
