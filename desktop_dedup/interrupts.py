"""Ctrl-C while a command starts: noted, and raised once the command has loaded.

Python raises a Ctrl-C as KeyboardInterrupt wherever the interpreter next checks for signals.
While a command loads, that can be inside a callback whose exceptions Python reports as
"Exception ignored" and drops: the one it runs after a fork (logging's lock release, as the
scan forks its fork server) or a weakref's (as a module loads). The Ctrl-C was then lost: the
scan ran to its end and exited 0 (tests/test_faults_scan.py). While deferred, a Ctrl-C only
sets a flag; :func:`resume` raises it in the command's own code, where the command handles
it (exit 130, one line). Imports nothing but ``signal``: the program defers before it loads
anything else."""

from __future__ import annotations

import signal
import threading

_noted = False


def _note(signum: int, frame: object) -> None:
    global _noted
    _noted = True


def defer() -> None:
    """From now until :func:`resume`, a Ctrl-C is noted, not raised (main thread only)."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, _note)


def resume() -> None:
    """A Ctrl-C raises KeyboardInterrupt again; one noted since :func:`defer` is raised now."""
    global _noted
    if signal.getsignal(signal.SIGINT) is _note:
        signal.signal(signal.SIGINT, signal.default_int_handler)
    if _noted:
        _noted = False
        raise KeyboardInterrupt
