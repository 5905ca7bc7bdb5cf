# Two commands a person needs: `make run` (set up and start the app), `make test` (set up and run
# every test). Both create .venv and install the project from its own files.
VENV ?= .venv
PYTEST_ARGS ?=

.PHONY: run test setup bench lint clean

setup:
	@packaging/bootstrap.sh $(VENV)

run: setup
	$(VENV)/bin/desktop-dedup-gui

test: setup
	QT_QPA_PLATFORM=offscreen $(VENV)/bin/python -m pytest -q $(PYTEST_ARGS)

bench: setup
	$(VENV)/bin/python -m tests.bench

lint: setup
	$(VENV)/bin/ruff check desktop_dedup tests

clean:
	rm -rf $(VENV) build dist *.egg-info
