# Two commands for a newcomer: `make run` serves the game, `make test` runs every test.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
PORT ?= 5000

.PHONY: run check test engine screenshots fuzz memory soak costs busy heads friends mutate lint format bench stats tournament strength tune load scale scale-up capacity lighthouse chromium haproxy redis zbar book clean

run: $(VENV)/.installed engine
	$(BIN)/flask --app webapp run --debug --no-debugger --host 127.0.0.1 --port $(PORT)

# The fast tier: lint, types and every test that needs no server process and no browser (tests/tiers.py), on
# every core, test by test, the properties with fewer examples (tests/conftest.py). A test that starts a server or
# leaves a process running fails: it belongs to `make test`.
check: $(VENV)/.installed-test lint
	HYPOTHESIS_PROFILE=check $(BIN)/python -m pytest --fast -n auto --dist load -p no:cacheprovider -p no:playwright

# One pytest worker per core; --dist loadfile keeps each module on one worker, so a module's servers
# (the production tests' gunicorn, the browser's live server) start once per worker, not once per test.
test: $(VENV)/.installed-test chromium haproxy redis zbar lint engine
	$(BIN)/python -m pytest -n auto --dist loadfile

# The browser tests again, saving a screenshot of each main state to artifacts/screenshots/ to look at.
screenshots: $(VENV)/.installed-test chromium zbar
	SCREENSHOTS=1 $(BIN)/python -m pytest -n auto --dist loadfile tests/e2e

# The property-based fuzz tests with many more examples than `make test` gives them.
fuzz: $(VENV)/.installed-test
	HYPOTHESIS_PROFILE=fuzz $(BIN)/python -m pytest tests/web/test_fuzz.py

# Worker memory before and after 1,500 distinct bad requests to the production server.
memory: $(VENV)/.installed
	$(BIN)/python scripts/bad_input_memory.py

# Worker memory, and answers, over a long mixed load of every kind of request (20,000; about a quarter of an
# hour): the goal is every worker under 150 MB and no 5xx. Narrow it with SOAK_REQUESTS.
SOAK_REQUESTS ?= 20000
soak: $(VENV)/.installed
	$(BIN)/python scripts/soak.py --requests $(SOAK_REQUESTS)

# The CPU time of each costly kind of request (a move at every level, move values, a hint, the tree, a review)
# on random positions of every board: the goal is every request at most 1 s (docs/serving.md).
costs: $(VENV)/.installed
	$(BIN)/python scripts/request_costs.py

# Attackers sending 15×15 moves and trees as fast as they are answered, in six phases (searches on new boards from
# one address, after a burst, from their own addresses; then one remembered move, one remembered tree, and a burst
# from the player's own address among mixed attackers), while an honest player plays 15×15 against Hard
# (docs/serving.md): the goal is 90 % of its moves within 3 s in each phase. About nine minutes.
busy: $(VENV)/.installed
	$(BIN)/python scripts/busy.py

# Clients that never finish their requests, one attack after another while /healthz is probed and the workers'
# memory sampled: 600 heads of 700 KB, 9,000 heads stalled just under the 16 KB cap, 6,000 bodies of 60 KB that
# trickle (docs/serving.md). The goal is every probe under 1 s and every worker under 150 MB, held and 10 s after.
heads: $(VENV)/.installed
	$(BIN)/python scripts/slow_clients.py

# One server with 2 workers holding 500 pairs of friends waiting on each other's moves (docs/serving.md): the time
# from a move to the friend's screen (median and p99), /healthz's, each worker's memory and the CPU per relayed move,
# with the SQLite store; then a flood of 10,000 streams from one address, 2,000 watchers of one game, and a stop with
# 1,000 pages open, each on a fresh server (FRIENDS_ARGS='--phase flood' runs one); FRIENDS_ARGS='--store redis'
# for Redis (scripts/ensure-redis installs it when missing).
FRIENDS_ARGS ?=
friends: $(VENV)/.installed redis
	$(BIN)/python scripts/friends.py $(FRIENDS_ARGS)

# Mutation testing of the engine, the table and the saved game ([tool.mutmut] only_mutate) against the fast
# tests, then the score of each module (docs/mutation.md). Slow, so not part of `make test`. Results are kept
# in mutants/: a plain `make mutate` goes on where the last run stopped, running only the mutants with no
# result yet; named ones run again, with or without a result, as in `make mutate MUTANTS='webapp.web.state*'`.
MUTANTS ?=
mutate: $(VENV)/.installed-mutate
	$(BIN)/mutmut run --max-children 2 $(foreach m,$(MUTANTS),'$(m)')
	$(BIN)/python scripts/mutation_score.py

# The big boards' hot modules compiled by mypyc into build/engine/ when their sources changed (the same files run as
# Python without it, more slowly): docs/engine.md, *Compiled*.
engine: $(VENV)/.installed
	$(BIN)/python scripts/build_engine.py

lint: $(VENV)/.installed-test
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

format: $(VENV)/.installed-test
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

bench: $(VENV)/.installed
	$(BIN)/python -m tools.bench

# The 5×5 book shipped in webapp/engine/exact/book5x5.bin: the exact value of every position with six marks or
# fewer, the 443,850 with six solved by the exact search (about 45 minutes of CPU), the rest worked out from
# them. Values already in the file (or in a .partial file an interrupted build left) are kept;
# `make book BOOK_ARGS=--fresh` solves them all again.
book: $(VENV)/.installed
	$(BIN)/python -m webapp.engine.exact.book $(BOOK_ARGS)

stats: $(VENV)/.installed
	$(BIN)/python -m webapp stats

tournament: $(VENV)/.installed
	$(BIN)/python -m webapp tournament --games 100

# Hard from every opening of the strength suite (tools/data/), once as X and once as O, against Rapfi (when RAPFI
# names its binary), ThreatSpace, OpenSpiel's MCTS, Medium and Easy, two games at a time; writes
# webapp/learn/data/strength.json and the table in docs/benchmarks.md. About an hour on 2 cores, so never part of
# `make test`. For one half or one opponent: python -m tools.strength --half dev --opponent rapfi (prints only).
# scripts/build-rapfi builds Rapfi from source folders you name.
strength: $(VENV)/.installed-strength
	$(BIN)/python -m tools.strength

# Hard's evaluation fitted to the tuning games (tools/data/tune-games-dev.jsonl.gz: Rapfi against itself from the
# strength suite's dev openings, played by `python -m tools.tune_games`, which needs RAPFI): logistic regression of
# each position's result on its line patterns, written to webapp/engine/big/weights.json. The same games and seed
# give the same file; a few minutes of CPU.
tune: $(VENV)/.installed-tune
	$(BIN)/python -m tools.tune

# wrk drives the load; scripts/ensure-wrk installs Debian's package when it is missing.
load: $(VENV)/.installed
	@scripts/ensure-wrk
	$(BIN)/python scripts/load.py

# Three copies of the Procfile server sharing one key behind Debian's HAProxy (scripts/ensure-haproxy installs
# it when missing), all on 127.0.0.1 and none needing root: `make scale` measures wrk through the proxy, one
# instance killed mid-game and rolling restarts under load (docs/deploy.md); `make scale-up` keeps them
# running for a person to play at http://127.0.0.1:8080/ until Ctrl-C.
scale: $(VENV)/.installed haproxy
	@scripts/ensure-wrk
	$(BIN)/python scripts/scale_out.py measure

scale-up: $(VENV)/.installed haproxy
	$(BIN)/python scripts/scale_out.py up

# CPU milliseconds per move, moves a second per core and players per core, for each board and level, from the
# production server's own CPU time (docs/deploy.md). A measurement, so not part of `make test`.
capacity: $(VENV)/.installed
	$(BIN)/python scripts/capacity.py

# Lighthouse (installed from npm into .lighthouse/ when missing) on the four pages, mobile and desktop,
# against the production server: the 32 scores (docs/audits.md). Slow, so not part of `make test`.
lighthouse: $(VENV)/.installed chromium
	$(BIN)/python scripts/lighthouse.py

chromium:
	@scripts/ensure-chromium

haproxy:
	@scripts/ensure-haproxy

redis:
	@scripts/ensure-redis

# The browser tests read the friend game's QR code back with it.
zbar:
	@scripts/ensure-zbar

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# Each stamp is rebuilt when pyproject.toml changes.
$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e .
	touch $@

$(VENV)/.installed-strength: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[strength]'
	touch $@ $(VENV)/.installed

$(VENV)/.installed-tune: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[tune]'
	touch $@ $(VENV)/.installed

$(VENV)/.installed-mutate: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test,mutate]'
	touch $@ $(VENV)/.installed-test $(VENV)/.installed

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[test]'
	touch $@ $(VENV)/.installed

clean:
	rm -rf $(VENV) build .lighthouse instance artifacts mutants .pytest_cache .ruff_cache .mypy_cache .hypothesis *.egg-info
