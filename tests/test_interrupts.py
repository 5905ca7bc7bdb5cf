"""desktop_dedup.interrupts: what Python drops is noted only when it is a Ctrl-C.

The whole program's behaviour (exit 130 with one line) is tested through the real command in
test_faults_scan.py; here, that the hook it installs hands every other dropped exception to the
hook it replaced (Python's, which prints it), and notes a Ctrl-C in a weakref's callback
without handing it on."""

from __future__ import annotations

import signal
import sys
import weakref
from collections.abc import Iterator

import pytest

from desktop_dedup import interrupts


@pytest.fixture
def resumed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[BaseException]]:
    """interrupts.resume() as the program calls it, over a hook that records what it is
    given (in place of Python's, which prints it); undone after the test."""
    reported: list[BaseException] = []
    monkeypatch.setattr(sys, "unraisablehook", lambda u: reported.append(u.exc_value))
    monkeypatch.setattr(interrupts, "_dropped", False)
    monkeypatch.setattr(interrupts, "_report", interrupts._report)
    previous = signal.getsignal(signal.SIGINT)
    try:
        interrupts.resume()
        yield reported
    finally:
        signal.signal(signal.SIGINT, previous)


class _Thing:
    pass


def _dropped_in_callback(exc: BaseException) -> None:
    """``exc`` raised inside a weakref's callback, which Python reports and drops."""

    def callback(_: object) -> None:
        raise exc

    thing = _Thing()
    ref = weakref.ref(thing, callback)  # noqa: F841 - kept alive until ``thing`` goes
    del thing


def test_a_ctrl_c_python_drops_is_noted_without_a_traceback(
    resumed: list[BaseException],
) -> None:
    assert not interrupts.dropped()
    _dropped_in_callback(KeyboardInterrupt())
    assert interrupts.dropped()
    assert resumed == []  # not printed


def test_any_other_exception_python_drops_is_reported_as_before(
    resumed: list[BaseException],
) -> None:
    bug = ValueError("a bug in a callback")
    _dropped_in_callback(bug)
    assert resumed == [bug]
    assert not interrupts.dropped()


def test_resume_twice_installs_the_hook_once(resumed: list[BaseException]) -> None:
    """The hook it replaced is the one other exceptions go to: installing it over itself would
    send them round in a loop."""
    hook = sys.unraisablehook
    interrupts.resume()
    assert sys.unraisablehook is hook
    assert interrupts._report is not interrupts._unraisable
