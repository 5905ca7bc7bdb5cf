"""Scan workers exit when the process that started them is killed (issue 7 case 11): a SIGKILL
of the CLI during a scan leaves no worker behind (they stayed >= 60 s at ~170 MB each)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import docgen
import pytest
from support.processes import alive, descendants_of


def cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def scan_processes(proc: subprocess.Popen[bytes], wanted: int) -> list[int]:
    """The processes a running ``desktop-dedup scan`` started (fork server, readers), once
    ``wanted`` of them run."""
    seen: list[int] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(seen) < wanted and proc.poll() is None:
        seen = [c for c in descendants_of(proc.pid) if alive(c)]
        time.sleep(0.02)
    return seen


def start_scan(
    tmp_path: Path, *extra: str, before: tuple[str, ...] = ()
) -> subprocess.Popen[bytes]:
    """``desktop-dedup [before] scan`` of 400 files, ``extra`` after its arguments."""
    root = tmp_path / "docs"
    for i in range(400):
        docgen.write_txt(root / f"d{i:03d}.txt", (docgen.SAMPLE_ZH + f"\n{i}\n") * 20)
    return subprocess.Popen(
        [sys.executable, "-m", "desktop_dedup", *before, "scan", str(root), "--workers", "2",
         "--quiet", "--db", str(tmp_path / "db.sqlite"), *extra],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip


def wait_gone(pids: list[int], seconds: float = 10) -> list[int]:
    """Those of ``pids`` still running after ``seconds`` (killed, so none is left behind)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(alive(p) for p in pids):
        time.sleep(0.1)
    left = [p for p in pids if alive(p)]
    for p in left:
        os.kill(p, signal.SIGKILL)
    return left


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_workers_exit_when_the_cli_is_killed(tmp_path: Path):
    proc = start_scan(tmp_path)
    # the fork server and two readers
    workers = scan_processes(proc, 3)
    assert len(workers) >= 3, "no worker processes seen"
    # The fork server was forked from the command (core/forkserver.py, _fork_server), not
    # started as a new interpreter: it and the readers it forks run the command's own line.
    lines = [cmdline(w) for w in workers]
    assert lines.count(cmdline(proc.pid)) >= 3, lines
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    assert not wait_gone(workers), "worker processes outlived the killed scan"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("before", [("-v",), ("--verbose",), ("-vv",)])
def test_a_scan_after_a_global_option_forks_its_fork_server_from_itself(
    tmp_path: Path, before: tuple[str, ...]
):
    """``desktop-dedup -v scan`` is a scan too: its fork server is forked from the command as
    soon as it starts, as for ``desktop-dedup scan``. It was started as a new interpreter once
    the command had loaded, one core idle meanwhile: a scan of the public corpora took 3.0-3.6
    s with -v, 2.5-3.1 s without."""
    proc = start_scan(tmp_path, before=before)
    try:
        workers = scan_processes(proc, 3)
        assert len(workers) >= 3, "no worker processes seen"
        lines = [cmdline(w) for w in workers]
        assert lines.count(cmdline(proc.pid)) >= 3, lines
    finally:
        proc.kill()
        proc.wait()
        wait_gone(descendants_of(proc.pid))


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_scan_starts_no_resource_tracker(tmp_path: Path):
    """The scan's processes share nothing but pipes: multiprocessing's resource tracker (a
    new interpreter, 0.05 s of a core) had nothing to clean up, and held the command's
    standard error open until it ended, after the command (core/forkserver.py,
    _without_resource_tracker)."""
    proc = start_scan(tmp_path)
    lines: set[bytes] = set()
    while proc.poll() is None:
        lines.update(cmdline(c) for c in descendants_of(proc.pid))
        time.sleep(0.01)
    assert proc.returncode == 0
    assert any(b"desktop_dedup" in line for line in lines), "no reader seen"
    assert not [line for line in lines if b"resource_tracker" in line], lines


# Runs a command as a child subreaper (PR_SET_CHILD_SUBREAPER): a process the command leaves
# behind becomes this one's child instead of init's, so that none escapes the count, however
# soon the command ends. Prints how many were still running 10 s after it ended.
SUBREAPER = """
import ctypes, os, subprocess, sys, time
sys.path.insert(0, sys.argv.pop(1))
from support.processes import children_of
ctypes.CDLL(None).prctl(36, 1, 0, 0, 0)
code = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
def left():
    while True:
        try:
            if os.waitpid(-1, os.WNOHANG)[0] == 0:
                break
        except ChildProcessError:
            return 0
    return len(children_of(os.getpid()))
deadline = time.monotonic() + 10
while left() and time.monotonic() < deadline:
    time.sleep(0.05)
print(code, left())
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("extra", [(), ("--no-such-option",)], ids=["done", "wrong-option"])
def test_no_process_of_a_scan_outlives_it(tmp_path: Path, extra: tuple[str, ...]):
    """A scan that ends, and one that ends on a wrong option after its fork server was
    forked (the CLI starts the server before it parses its options), leave nothing running."""
    root = tmp_path / "docs"
    for i in range(20):
        docgen.write_txt(root / f"d{i:03d}.txt", (docgen.SAMPLE_ZH + f"\n{i}\n") * 5)
    cmd = [sys.executable, "-m", "desktop_dedup", "scan", str(root), "--quiet",
           "--db", str(tmp_path / "db.sqlite"), *extra]  # fmt: skip
    out = subprocess.run(
        [sys.executable, "-c", SUBREAPER, str(Path(__file__).parent), *cmd],
        capture_output=True,
        text=True,
        timeout=120,
    )
    code, left = map(int, out.stdout.split())
    assert (code == 0) == (not extra), out
    assert left == 0, f"{left} processes outlived the scan"


@pytest.mark.parametrize(
    ("before", "extra"), [((), ()), (("-v",), ()), ((), ("--no-such-option",))]
)
def test_a_scan_leaves_nothing_in_the_temporary_folder(
    tmp_path: Path, before: tuple[str, ...], extra: tuple[str, ...]
):
    """The fork server listens on a socket in a folder multiprocessing makes in the temporary
    folder, which its exit handler removes when an interpreter exits. The command ends with
    os._exit (cli._exit_now), past every exit handler: each scan left a ``pymp-*`` folder
    behind in /tmp, 2,575 of them on one development machine. A scan that stops at a wrong
    option, its fork server already forked, leaves nothing either."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    root = tmp_path / "docs"
    for i in range(3):
        docgen.write_txt(root / f"d{i}.txt", (docgen.SAMPLE_ZH + f"\n{i}\n") * 5)
    out = subprocess.run(
        [sys.executable, "-m", "desktop_dedup", *before, "scan", str(root), "--quiet",
         "--db", str(tmp_path / "db.sqlite"), *extra],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "TMPDIR": str(temp)},
    )  # fmt: skip
    if extra:  # stopped at its options, after the fork server was forked
        assert out.returncode == 2 and "--no-such-option" in out.stderr, out.stderr
    else:
        assert out.returncode == 0, out.stderr
        assert out.stdout.startswith("Scanned 3 files"), out.stdout
    assert sorted(p.name for p in temp.iterdir()) == []


def test_the_fork_server_keeps_what_it_loaded_out_of_collections():
    """The fork server freezes what it loaded (core/_worker_preload.py): the collections of its
    shutdown, which a caller reading the CLI's output through a pipe waits for, and those of
    its workers, do not walk the readers' tables (tens of thousands of objects)."""
    code = "import gc, desktop_dedup.core._worker_preload; print(gc.get_freeze_count())"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert int(out.stdout) > 10_000


def test_a_fork_server_of_another_protocol_is_started_as_multiprocessing_starts_it(
    monkeypatch: pytest.MonkeyPatch,
):
    """The command forks its fork server only where the server's entry point is the one it
    knows (Python 3.11-3.13); another (3.14's takes an authentication key its clients then ask
    for), or a process with a second thread, is left to multiprocessing: nothing is forked."""
    from multiprocessing import forkserver as mp_forkserver

    from desktop_dedup.core import forkserver

    assert forkserver._known_server(mp_forkserver) == (sys.version_info < (3, 14))

    def main(listener_fd, alive_r, preload, main_path=None, sys_path=None, *, authkey_r=None):
        raise AssertionError("not to be run")

    monkeypatch.setattr(mp_forkserver, "main", main)
    assert not forkserver._known_server(mp_forkserver)
    before = mp_forkserver._forkserver._forkserver_pid
    assert forkserver._fork_server() is False
    assert mp_forkserver._forkserver._forkserver_pid == before
    monkeypatch.undo()

    import threading

    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert forkserver._fork_server() is False  # two threads: never forked
    finally:
        stop.set()
        other.join()
    assert mp_forkserver._forkserver._forkserver_pid == before
