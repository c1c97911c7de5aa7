# Two entry points that work on a fresh machine with only Python 3.11+:
#   make demo   simulate a game and print it as a narrative
#   make test   ruff, mypy --strict, pytest, the conformance suite (in process,
#               through the protocol adapter, and from every replay start):
#               all of it as pytest tests that share every core
#               (tests/test_static_checks.py runs the other tools)
PYTHON ?= python3
# Python's bytecode caches are written even where the environment says not
# to: otherwise every process the checks start (our adapter, the command
# line, each pytest worker) compiles the package from source again, about
# twice the start-up time of a process
unexport PYTHONDONTWRITEBYTECODE
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-long lint typecheck pytest conformance docs bench clean verify-deep mutation soak differential fast-differential

$(STAMP): pyproject.toml constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,fast,ray,openspiel,pettingzoo]' -c constraints.txt
	touch $(STAMP)

demo: $(STAMP)
	$(BIN)/loveletter demo --ruleset 2019 --players 4 --seed 7

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest -n auto --dist loadgroup

conformance: $(STAMP)
	$(BIN)/loveletter conformance run --quiet
	$(BIN)/loveletter conformance run --quiet --impl "$(BIN)/python -m loveletter.conformance.adapter"
	$(BIN)/loveletter conformance run --quiet --starts replay

# The site: rules pages generated from spec/ and conformance/, warnings are
# errors, references nitpicky. (make test builds it too: tests/test_docs_site.py)
docs: $(STAMP)
	$(BIN)/sphinx-build -j auto -W -n --keep-going -q -b html docs docs/_build/html
	@echo "Open docs/_build/html/index.html"

# Every check, the searching ones at the everyday budget (tests/budget.py:
# about four minutes on two idle cores)
test: pytest

# The checks that search (Hypothesis properties, state machines, CrossHair,
# the differential) again with four times the budget; CI runs it after
# make test
test-long: $(STAMP)
	LOVELETTER_BUDGET=long $(BIN)/pytest -n auto --dist loadgroup -m budgeted

# Every speed figure of issue 21 in one run (about 3 minutes): each edition
# and player count through push, step and the floor (benchmarks/floor.py),
# the fast simulator, per-call costs, memory per state, replay per event.
# One workload: benchmarks/random_rounds.py --ruleset R --players P --engine E
bench: $(STAMP)
	$(BIN)/python benchmarks/random_rounds.py

# Verification in depth (verification/README.md). make test runs the short
# versions of each; these are the long runs, not part of CI.
#   verify-deep   CrossHair on every contract with a long per-condition budget
#   mutation      mutmut over the rules code, then the score and the survivors
#   soak          100,000 random games per ruleset, illegal commands mixed in,
#                 both engine paths, invariants after every step
#   differential  thousands of random games per ruleset, in process and
#                 through the protocol adapter
verify-deep: $(STAMP)
	$(BIN)/python verification/crosshair_check.py --deep

mutation: $(STAMP)
	$(BIN)/python verification/mutation.py

soak: $(STAMP)
	$(BIN)/python verification/soak.py

differential: $(STAMP)
	$(BIN)/python verification/differential.py

# The fast simulator against the reference: 100,000 random games per edition,
# the legal actions compared before and the whole state after every command
# (make test runs a short version in tests/fast).
fast-differential: $(STAMP)
	for r in 2019-classic 2019 premium online; do \
	  $(BIN)/python -m loveletter.fast.differential --ruleset $$r --games 100000 || exit 1; \
	done

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache .hypothesis docs/_build mutants

# Replay starts (conformance/replays): for every position case, a stacked
# round-1 deal and the commands that reach it through the rules; names every
# position no play reaches (exit 1). `--check` only verifies the files.
.PHONY: replays
replays: $(STAMP)
	$(BIN)/python -m loveletter.conformance.reach
