# Two commands a person needs: `make run` (set up and start the app), `make test` (set up and run
# every test). Both create .venv and install the project from its own files.
VENV ?= .venv
PYTEST_ARGS ?=

.PHONY: run check-display test setup bench lint clean

setup:
	@packaging/bootstrap.sh $(VENV)

run: check-display setup
	$(VENV)/bin/desktop-dedup-gui

# Without a display Qt dies with a misleading "libxcb-cursor0 is needed": say what is wrong first.
check-display:
	@if [ "$$(uname -s)" = Linux ] && [ -z "$$DISPLAY$$WAYLAND_DISPLAY$$QT_QPA_PLATFORM" ]; then \
	  echo "make run: no display (DISPLAY and WAYLAND_DISPLAY are not set), so the app cannot open a window." >&2; \
	  echo "  - run it in a desktop session, or under a virtual display: xvfb-run -a make run" >&2; \
	  echo "    (apt-get install xvfb), or" >&2; \
	  echo "  - use the command line, which needs no display: make setup, then" >&2; \
	  echo "    $(VENV)/bin/desktop-dedup scan FOLDER  (see README, Command line)" >&2; \
	  exit 2; \
	fi

test: setup
	QT_QPA_PLATFORM=offscreen $(VENV)/bin/python -m pytest -q $(PYTEST_ARGS)

bench: setup
	$(VENV)/bin/python -m tests.bench

lint: setup
	$(VENV)/bin/ruff check desktop_dedup tests

clean:
	rm -rf $(VENV) build dist *.egg-info
