"""Ctrl-C while a command starts: noted, and raised once the command has loaded.

Python raises a Ctrl-C as KeyboardInterrupt wherever the interpreter next checks for signals.
While a command loads, that can be inside a callback whose exceptions Python reports as
"Exception ignored" and drops: the one it runs after a fork (logging's lock release, as the
scan forks its fork server) or a weakref's (as a module loads). The Ctrl-C was then lost: the
scan ran to its end and exited 0 (tests/test_faults_scan.py). While deferred, a Ctrl-C only
sets a flag; :func:`resume` raises it in the command's own code, where the command handles
it (exit 130, one line). Imports nothing but ``signal``, ``sys`` and ``threading``: the
program defers before it loads anything else.

Once loaded, a Ctrl-C can still be raised inside such a callback in the steps where no handler
of the command's own runs (a scan's summary, after its reading): Python then hands it to
``sys.unraisablehook``, which :func:`resume` sets to note it instead of printing "Exception
ignored" and a traceback, and the command, which went on, ends as interrupted all the same
(:func:`dropped`; cli.main)."""

from __future__ import annotations

import signal
import sys
import threading

_noted = False  # a Ctrl-C while deferred, not raised yet
_dropped = False  # a Ctrl-C raised where Python could only report it, and did not


def _note(signum: int, frame: object) -> None:
    global _noted
    _noted = True


def defer() -> None:
    """From now until :func:`resume`, a Ctrl-C is noted, not raised (main thread only)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, _note)


def resume() -> None:
    """A Ctrl-C raises KeyboardInterrupt again; one noted since :func:`defer` is raised now.
    From now on, one that Python drops is noted (:func:`dropped`)."""
    global _noted, _report
    if signal.getsignal(signal.SIGINT) is _note:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if sys.unraisablehook is not _unraisable:
        _report = sys.unraisablehook
        sys.unraisablehook = _unraisable
    if _noted:
        _noted = False
        raise KeyboardInterrupt


_report = sys.__unraisablehook__


def _unraisable(unraisable: object) -> None:
    """A Ctrl-C raised in a callback, a destructor or another place whose exceptions Python
    drops is noted for :func:`dropped`; any other such exception is reported as before."""
    global _dropped
    if isinstance(getattr(unraisable, "exc_value", None), KeyboardInterrupt):
        _dropped = True
        return
    _report(unraisable)


def dropped() -> bool:
    """Whether a Ctrl-C since :func:`resume` was raised where Python drops exceptions (the
    command went on as if it had not been pressed)."""
    return _dropped
