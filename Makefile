# Western Roses. `make run` serves the app on the embedded default (SQLite, eager Celery) with
# demo data; `make test` runs the whole suite against real PostgreSQL and Redis.
SHELL := /bin/bash
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
PY := $(BIN)/python
HOST ?= 127.0.0.1
PORT ?= 8000
TEST_DATABASE_URL ?= $(or $(DATABASE_URL),postgres://postgres@127.0.0.1:5432/test)
TEST_REDIS_URL ?= $(or $(REDIS_URL),redis://127.0.0.1:6379/0)
PROJECT_PACKAGES := accounts apibase battles campaign characters config decks gmtools minigames notifications spellcards tables threads westernroses wiki

.PHONY: run run-full messages test screenshots soak presets ladder bot-ratings test-fast lint format typecheck bench loadtest loadtest-cluster pgbouncer venv deps dev-deps browser services-check native demo clean

$(BIN)/activate:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

venv: $(BIN)/activate

$(VENV)/.deps: requirements.txt | $(BIN)/activate
	$(BIN)/pip install --quiet -r requirements.txt
	touch $@

$(VENV)/.dev-deps: requirements.txt requirements-dev.txt | $(BIN)/activate
	$(BIN)/pip install --quiet -r requirements-dev.txt
	touch $@ $(VENV)/.deps

# axe-core, which the browser tests inject into every page of the visual sweep (package.json,
# pinned by package-lock.json). npm comes from Debian when it is missing and we are root.
node_modules/.package-lock.json: package.json package-lock.json
	@if ! command -v npm >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq npm >/dev/null; \
	  else \
	    echo "ERROR: npm is missing; install it with: sudo apt-get install npm" >&2; exit 1; \
	  fi; \
	fi
	npm ci --no-audit --no-fund --silent

deps: $(VENV)/.deps
dev-deps: $(VENV)/.dev-deps node_modules/.package-lock.json

## messages: compile the message catalogs (locale/*/LC_MESSAGES/*.po into .mo, build output;
## gettext's msgfmt from Debian when it is missing and we are root; docs/i18n.md)
messages: deps
	@if ! command -v msgfmt >/dev/null; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext >/dev/null; \
	  else \
	    echo "ERROR: msgfmt is missing; install it with: sudo apt-get install gettext" >&2; exit 1; \
	  fi; \
	fi
	env -u DATABASE_URL -u REDIS_URL $(PY) manage.py compilemessages --ignore=.venv --ignore=node_modules --ignore=build -v0

## run: set up and serve the app on SQLite with demo data at http://$(HOST):$(PORT)
run: deps messages
	env -u DATABASE_URL -u REDIS_URL $(PY) manage.py migrate --noinput
	env -u DATABASE_URL -u REDIS_URL $(PY) manage.py seed_demo --base-url http://$(HOST):$(PORT)
	env -u DATABASE_URL -u REDIS_URL $(PY) manage.py runserver $(HOST):$(PORT)

## run-full: PostgreSQL + Redis + a Celery worker and beat (DATABASE_URL/REDIS_URL or the local defaults)
run-full: deps messages
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) $(PY) manage.py migrate --noinput
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) $(PY) manage.py seed_demo --base-url http://$(HOST):$(PORT)
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) $(PY) -m config.run_full --host $(HOST) --port $(PORT)

## browser: Debian's chromium and its headless shell for the browser tests (tests/chromium.py),
## and the fonts its pages need in Japanese and Chinese (Noto CJK) and for emoji (Noto Color
## Emoji); installed when missing and we are root
browser:
	@missing=""; \
	[ -x /usr/bin/chromium ] || missing="chromium"; \
	[ -x /usr/lib/chromium/chromium-headless-shell ] || missing="$$missing chromium-headless-shell"; \
	for pkg in fonts-noto-cjk fonts-noto-color-emoji; do \
	  dpkg -s $$pkg >/dev/null 2>&1 || missing="$$missing $$pkg"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing for the browser tests:$$missing"; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
	  else \
	    echo "ERROR: missing for the browser tests:$$missing; install with: sudo apt-get install$$missing" >&2; exit 1; \
	  fi; \
	fi

## services-check: fail loudly when PostgreSQL or Redis cannot be reached
services-check: dev-deps
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) $(PY) -m config.services_check

## native: compile the battle engine with mypyc into build/native/ (skipped when fresh;
## westernroses/native.py, docs/native.md). Without it the engine runs interpreted.
native: dev-deps
	$(PY) -c 'from westernroses import native; native.main()'

## test: install test dependencies and run the whole suite against PostgreSQL and Redis
## (three workers on two cores: two play the browser tests' lanes, docs/test-suite.md)
## Bytecode is compiled once, before the workers start, and kept: a machine that sets
## PYTHONDONTWRITEBYTECODE would otherwise have every worker and every Celery worker the tests
## start compile the whole project again (17 CPU-seconds a worker here; docs/test-suite.md).
## The suite runs the compiled engine (WR_NATIVE_REQUIRED: tests/engine/test_native.py checks it).
## --durations=60: every run's log names its slowest tests.
test: dev-deps browser services-check native messages
	$(PY) -m compileall -q -j 0 $(PROJECT_PACKAGES) tests manage.py >/dev/null
	env -u PYTHONDONTWRITEBYTECODE WR_NATIVE_REQUIRED=1 DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) $(BIN)/pytest -n 3 --dist loadgroup --durations=60 $(PYTEST_ARGS)

## screenshots: the visual sweep alone: every main page as GM and as player, 1280 and 390 px,
## light and dark, into test-artifacts/visual/ (the pictures the docs show; never committed)
screenshots: dev-deps browser services-check messages
	VISUAL_SHOTS=1 DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) $(BIN)/pytest -n 2 tests/browser/test_visual.py -q $(PYTEST_ARGS)

## soak: the engines' many-game properties and hypothesis tests at ten times the suite's size
## (thousands of games per engine, the same checks), then schemathesis with every case as both
## roles and ten times the random cases (run before a release: docs/test-suite.md)
soak: dev-deps services-check native browser messages
	HYPOTHESIS_PROFILE=soak WR_NO_SERVICES=1 $(BIN)/pytest tests/engine -n 2 -q $(PYTEST_ARGS)
	HYPOTHESIS_PROFILE=soak DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) $(BIN)/pytest tests/api_fuzz/test_schemathesis.py -n 2 -q $(PYTEST_ARGS)

## presets: the RSO and DBS preset decks' matrices, heuristic against heuristic, 134 games a
## pairing (about a CPU minute; docs/bots.md, "The preset decks' balance")
presets: dev-deps
	$(PY) -m minigames.bots.presets --game rso
	$(PY) -m minigames.bots.presets --game dbs

## ladder: every game's bot ladder, 200 games a rung (CPU hours; docs/bots.md, "The ladder")
ladder: dev-deps
	for game in raigo spirit_war rso dbs; do nice $(PY) -m minigames.bots.ladder --game $$game || exit 1; done

## bot-ratings: rated bot-against-bot games seeding the bots' ratings (docs/bots.md, "Ratings")
bot-ratings:
	nice $(PY) manage.py rate_bots --games 30

## test-fast: the engine tests only (no database needed)
test-fast: dev-deps
	WR_NO_SERVICES=1 $(BIN)/pytest tests/engine -q $(PYTEST_ARGS)

lint: dev-deps
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

format: dev-deps
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

## typecheck: mypy, strict, over the engines and every app (Django, DRF and Celery stubs)
typecheck: dev-deps
	$(BIN)/mypy westernroses minigames apibase accounts campaign notifications gmtools wiki tables battles characters spellcards decks threads config

## bench: benchmarks, each printing a ratio against a baseline measured in the same run;
## docs/performance.md is written from the run's summary (tests/bench/doc.py)
bench: dev-deps services-check native
	DATABASE_URL=$(TEST_DATABASE_URL) REDIS_URL=$(TEST_REDIS_URL) $(PY) -m tests.bench
	$(PY) -m tests.bench.doc

## loadtest: gunicorn + PostgreSQL + Redis + a Celery worker under 200 locust users (tests/load/run.py)
loadtest: dev-deps services-check
	DATABASE_URL=$(TEST_DATABASE_URL) $(PY) -m tests.load.run

## loadtest-cluster: two gunicorn web processes on one loopback port (SO_REUSEPORT), two Celery
## workers and beat, played against (concurrent moves, pushes across processes, a worker killed
## mid-task, a web process restarted under load), then 1,000 locust users for LOADTEST_SECONDS
## (300); report in test-artifacts/bench/loadtest-cluster.json (tests/load/cluster.py)
## PostgreSQL is reached through PgBouncer (Debian's, installed when missing and we are root;
## CLUSTER_PGBOUNCER=0 connects straight to it).
loadtest-cluster: dev-deps services-check pgbouncer
	DATABASE_URL=$(TEST_DATABASE_URL) nice $(PY) -m tests.load.cluster

pgbouncer:
	@if [ ! -x /usr/sbin/pgbouncer ] && [ "$${CLUSTER_PGBOUNCER:-1}" = 1 ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "Installing Debian's pgbouncer for the cluster load test..."; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pgbouncer >/dev/null; \
	  else \
	    echo "ERROR: /usr/sbin/pgbouncer is missing; install it with: sudo apt-get install pgbouncer" >&2; exit 1; \
	  fi; \
	fi

demo: deps
	$(PY) manage.py seed_demo

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache staticfiles build
