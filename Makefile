# Everything the project needs is installed by these targets into .venv.
PYTHON ?= python3
VENV   ?= .venv
BIN    := $(VENV)/bin

.PHONY: demo test install figures clean bench bench-ablation study

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# Re-install when pyproject.toml changes.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

# torch (for the 'sb' extra) goes in first as its CPU build, so the test install never pulls the
# CUDA packages (several GB) that an unpinned torch brings; pip finds the wheel through this machine's
# find-links. Elsewhere, set TORCH_CPU to a CPU torch your index offers.
TORCH_CPU ?= torch==2.13.0+cpu
$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet '$(TORCH_CPU)'
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed

demo: $(VENV)/.installed
	$(BIN)/qpicross anneal instances/5x5.px
	$(BIN)/qpicross anneal instances/5x5.px --sampler sa --reads 1000

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest

# The README's figures (about a minute and a half on 2 cores). The scaling plot reads results/bench_*.json
# where `make bench` wrote them (else measures instances/); FIGURE_ARGS="--results FILE..." names others.
figures: $(VENV)/.installed-test
	$(BIN)/python -m qpicross.experiments.figures figures $(FIGURE_ARGS)

# Annealing benchmarks behind the README's "Results: annealing at scale" (about 30 minutes
# on 2 cores). They read the puzzle collections from SHARED, never copied into the repository.
SHARED       ?= ../shared/instances
TOURNAMENT   := $(SHARED)/external/NonogramRecord/question
BENCH_PURE   := instances $(foreach p,pikachu clock layton bird knife ratz tardis panda,$(SHARED)/bompol/$(p).px) \
                $(TOURNAMENT)/taai2011.txt\#1-20
BENCH_HYBRID := $(SHARED)/bompol $(foreach f,taai2011 tcga2012 icga2016 icga2018 icga2023,$(TOURNAMENT)/$(f).txt\#1-100)
SHIFT        := --sampler shift --option target_energy=0 --sweeps 5000

# Each bench line: exit 1 says some configuration never solved some puzzle (a result, not a failure);
# any other status (2 bad input, 130 interrupted) stops make.
bench: $(VENV)/.installed
	mkdir -p results
	$(BIN)/qpicross bench --force $(BENCH_PURE) $(SHIFT) --baseline --reads 100 --time-budget 15 --workers 2 \
	    --csv results/bench_pure.csv --json results/bench_pure.json --plot figures/bench_pure.png || test $$? -eq 1
	$(BIN)/qpicross bench --force $(SHARED)/bompol/phantom.px $(SHIFT) --reads 2 --label shift-stretch \
	    --csv results/bench_phantom.csv --json results/bench_phantom.json || test $$? -eq 1
	$(BIN)/qpicross bench --force $(SHARED)/bompol/phantom.px --sampler shift --option target_energy=0 \
	    --option num_replicas=8 --option "beta_range=(1,5)" --sweeps 20000 --reads 2 --time-budget 300 --label shift-R8-stretch \
	    --csv results/bench_phantom_r8.csv --json results/bench_phantom_r8.json || test $$? -eq 1
	$(BIN)/qpicross bench --force $(BENCH_HYBRID) $(SHIFT) --presolve --reads 3 --time-budget 60 --workers 2 \
	    --csv results/bench_hybrid.csv --json results/bench_hybrid.json --plot figures/bench_hybrid.png || test $$? -eq 1
	$(BIN)/qpicross bench --force $(SHARED)/bompol/kabuki.px $(SHARED)/bompol/phantom.px --presolve --sampler shift \
	    --option target_energy=0 --option num_replicas=8 --option "beta_range=(1,5)" --sweeps 20000 --reads 3 \
	    --time-budget 120 --label shift-R8+presolve --csv results/bench_large.csv --json results/bench_large.json || test $$? -eq 1
	$(BIN)/qpicross bench --force $(TOURNAMENT)/taai2011.txt\#71 $(TOURNAMENT)/icga2023.txt\#87 $(TOURNAMENT)/icga2018.txt\#48 \
	    $(TOURNAMENT)/tcga2012.txt\#79 $(TOURNAMENT)/icga2016.txt\#61 --presolve --sampler shift --option target_energy=0 \
	    --option num_replicas=8 --option "beta_range=(1,5)" --sweeps 20000 --reads 3 --time-budget 120 --workers 2 \
	    --label shift-R8+presolve --csv results/bench_tail.csv --json results/bench_tail.json || test $$? -eq 1

# What was tried and what paid, on one small set (about 10 minutes on 2 cores).
ABLATION_SET := $(foreach p,bird knife ratz panda,$(SHARED)/bompol/$(p).px) $(TOURNAMENT)/taai2011.txt\#1-3
bench-ablation: $(VENV)/.installed
	mkdir -p results
	$(BIN)/qpicross bench --force $(ABLATION_SET) $(SHIFT) --reads 5 --label shift --csv results/ablation_shift.csv || test $$? -eq 1
	$(BIN)/qpicross bench --force $(ABLATION_SET) $(SHIFT) --reads 5 --option num_replicas=1 --label shift-anneal \
	    --csv results/ablation_shift_anneal.csv || test $$? -eq 1
	$(BIN)/qpicross bench --force $(ABLATION_SET) $(SHIFT) --reads 5 --option line_moves=0.0 --label shift-no-line-moves \
	    --csv results/ablation_shift_no_line_moves.csv || test $$? -eq 1
	$(BIN)/qpicross bench --force $(ABLATION_SET) $(SHIFT) --reads 5 --weights at_most_one=0 --label shift-no-at-most-one \
	    --csv results/ablation_shift_no_at_most_one.csv || test $$? -eq 1
	$(BIN)/qpicross bench --force $(ABLATION_SET) $(SHIFT) --reads 5 --weights order=2 --label shift-order2 \
	    --csv results/ablation_shift_order2.csv || test $$? -eq 1
	$(BIN)/qpicross bench --force $(ABLATION_SET) --sampler sa --sweeps 1000,10000 --reads 10 --csv results/ablation_sa.csv || test $$? -eq 1
	$(BIN)/qpicross bench --force $(ABLATION_SET) --sampler sa --sweeps 1000 --reads 10 --weights match=2 --label sa-match2 \
	    --csv results/ablation_sa_match2.csv || test $$? -eq 1
	$(BIN)/qpicross bench --force $(ABLATION_SET) --sampler sa --sweeps 1000 --reads 10 --weights one_hot=2,order=2 \
	    --label sa-onehot2-order2 --csv results/ablation_sa_onehot2_order2.csv || test $$? -eq 1
	$(BIN)/qpicross bench --force $(ABLATION_SET) --sampler sa --sweeps 1000 --reads 10 --weights at_most_one=0 \
	    --label sa-no-at-most-one --csv results/ablation_sa_no_at_most_one.csv || test $$? -eq 1
	$(BIN)/qpicross bench --force $(ABLATION_SET) --sampler sa --sweeps 1000 --reads 10 --encoding domain-wall \
	    --weights one_hot=16 --label sa-domain-wall-16 --csv results/ablation_sa_domain_wall_16.csv || test $$? -eq 1
	$(BIN)/qpicross bench --force $(ABLATION_SET) --sampler sa --sweeps 1000 --reads 10 --encoding domain-wall \
	    --weights one_hot=64 --label sa-domain-wall-64 --csv results/ablation_sa_domain_wall_64.csv || test $$? -eq 1

# The formulation study (about 15 minutes on 2 cores): generic samplers x encodings, weights tuned on small
# puzzles, then TTS99 up a ladder of sizes; writes results/study.json and figures/study.png, prints the README table.
study: $(VENV)/.installed-test
	mkdir -p results figures
	QPICROSS_SHARED=$(SHARED) $(BIN)/python -m qpicross.experiments.study run --workers 2 \
	    --json results/study.json --plot figures/study.png

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
