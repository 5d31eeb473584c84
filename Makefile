# Every target does its own set-up: a fresh clone needs only Python 3.10+.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.PHONY: run test playout bench bench-bw bench-leros clean check-qt leros-playout bundle bundle-check wheel-check archive

$(PY):
	$(PYTHON) -m venv $(VENV)

$(STAMP): pyproject.toml | $(PY)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test,bench]'
	touch $(STAMP)

check-qt: $(STAMP)
	@$(PY) -m gui.common.qtcheck

run: $(STAMP) check-qt
	$(VENV)/bin/sandtable $(ARGS)

test: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q -n 2 $(PYTEST_ARGS)

# 200 seeded random games per ruleset family to the end, each saved, reloaded and replayed to its hash
playout: $(STAMP)
	PLAYOUT_GAMES=200 QT_QPA_PLATFORM=offscreen $(PY) -m pytest -q -n 2 tests/test_playout_random.py $(PYTEST_ARGS)

bench: $(STAMP)
	$(PY) -m engine bench load --json
	$(PY) -m engine bench los --json
	$(PY) -m engine bench moves --json
	$(PY) -m engine bench game --json
	$(PY) -m engine bench bots --json
	$(PY) -m engine bench scw --json
	$(PY) -m engine bench tcs --json
	$(PY) -m engine bench import --json
	QT_QPA_PLATFORM=offscreen $(PY) -m gui.bench --json

# Random-bot games of every Leros scenario (SEEDS seeds each; replay checked by the play command's hash).
SEEDS ?= 50
LEROS ?= leros-2-drop-zone leros-3-night-melee leros-1-curtain-rises leros-1a-night-landings leros-4-big-show leros-5-curtain-falls
leros-playout: $(STAMP)
	for s in $(LEROS); do for n in $$(seq 1 $(SEEDS)); do \
	  $(PY) -m engine play scenarios/$$s.toml --seed $$n --bot random --json || exit 1; done; done

# The desktop bundle (PyInstaller, one folder; packaging/README.md), rebuilt when a source or content file changes
BUNDLE_STAMP := $(VENV)/.bundle-tools
BUNDLE       := build/dist/Sandtable/sandtable
SOURCES      := $(shell git ls-files engine gui maps scenarios assets docs packaging README.md 2>/dev/null | grep -v '^docs/screenshots/')

$(BUNDLE_STAMP): $(STAMP)
	$(PY) -m pip install --quiet 'pyinstaller>=6.10'
	touch $(BUNDLE_STAMP)

$(BUNDLE): $(BUNDLE_STAMP) $(SOURCES)
	$(VENV)/bin/pyinstaller --noconfirm --log-level ERROR --distpath build/dist --workpath build/pyinstaller packaging/sandtable.spec

bundle: $(BUNDLE)

archive: $(BUNDLE)
	$(PY) packaging/archive.py build/dist/Sandtable build/archive

# the bundled executable (not the venv's) run offscreen outside the checkout, then the Linux archive and its size
bundle-check: $(BUNDLE)
	$(PY) packaging/check.py bundle build/dist/Sandtable
	$(PY) packaging/archive.py build/dist/Sandtable build/archive

# the wheel installed in a fresh virtual environment outside the checkout, run offscreen
wheel-check: $(STAMP)
	rm -rf build/wheel
	$(PY) -m pip wheel --quiet --no-deps -w build/wheel .
	$(PY) packaging/check.py wheel build/wheel

clean:
	rm -rf $(VENV) build *.egg-info

# Black Wednesday and Leros: 50 random-bot games of every scenario, each replayed to its hash (docs/playouts.md)
bench-bw: $(STAMP)
	$(PY) -m engine bench bw --repeat 50 --json

bench-leros: $(STAMP)
	$(PY) -m engine bench leros --repeat 50 --json
