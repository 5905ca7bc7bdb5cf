"""The terminal progress bar (issue 11 item 2) in a real pseudo-terminal of a fixed width: with
Chinese file names (two columns a character) no drawn line is wider than the terminal, so it
never wraps and leaves stale lines; NO_COLOR turns colour off; a pipe gets no bar at all.

Widths are measured here with the standard library's East Asian Width table, independently of
the library that draws the bar."""

from __future__ import annotations

import fcntl
import os
import pty
import re
import select
import signal
import struct
import subprocess
import sys
import termios
import unicodedata
from pathlib import Path

import docgen
import pytest

COLUMNS = 60
CLI = [sys.executable, "-m", "desktop_dedup"]
CSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
COLOUR = re.compile(r"\x1b\[(?:[0-9;]*;)?(?:3[0-9]|4[0-9]|9[0-7]|10[0-7])(?:;[0-9;]*)?m")
NAME = "江南水乡的古老石桥与流水人家第{:02d}篇.txt"  # 16 wide characters: 32 columns and more


def columns(text: str) -> int:
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("progress") / "文档"
    for k in range(40):
        docgen.write_txt(root / NAME.format(k), docgen.SAMPLE_ZH + f"\n第{k}段。" * (k + 1))
    return root


def run_in_pty(args: list[str], env: dict[str, str]) -> tuple[int, str, str]:
    """Run the CLI with stderr on a pseudo-terminal COLUMNS wide; (exit code, terminal, stdout)."""
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, COLUMNS, 0, 0))
    proc = subprocess.Popen(
        [*CLI, *args], stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=slave, env=env
    )
    os.close(slave)
    chunks = []
    while True:
        ready, _, _ = select.select([master], [], [], 0.2)
        if ready:
            try:
                data = os.read(master, 65536)
            except OSError:  # EIO: the other side closed
                break
            if not data:
                break
            chunks.append(data)
        elif proc.poll() is not None:
            break
    os.close(master)
    out = proc.stdout.read().decode("utf-8")
    proc.stdout.close()
    return proc.wait(timeout=120), b"".join(chunks).decode("utf-8", "replace"), out


def _env(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES", "NO_COLOR")}
    # Files are read 30 ms more slowly each (a slow disk): forty small files are otherwise read
    # between two redraws of the bar, which would never show a name.
    support = str(Path(__file__).parent / "support")
    env.update(
        TERM="xterm-256color",
        PYTHONPATH=os.pathsep.join(p for p in (support, env.get("PYTHONPATH", "")) if p),
        _DESKTOP_DEDUP_TEST_READER="hostile_readers:read_slowly",
        **extra,
    )
    return env


def drawn_lines(terminal: str) -> list[str]:
    """Each line as the terminal shows it between carriage returns, line feeds and the cursor
    movements a redraw uses."""
    text = CSI.sub("\n", terminal)
    return [line for line in re.split(r"[\r\n]", text) if line.strip()]


def test_bar_fits_the_terminal_with_chinese_names(corpus: Path, tmp_path: Path):
    code, terminal, out = run_in_pty(
        ["scan", str(corpus), "--db", str(tmp_path / "db.sqlite"), "--workers", "1"],
        _env(tmp_path, FORCE_COLOR="1"),
    )
    assert code == 0, terminal + out
    lines = drawn_lines(terminal)
    bars = [line for line in lines if "江南" in line]
    assert bars, f"no progress line with a file name was drawn: {terminal!r}"
    too_wide = [line for line in lines if columns(line) > COLUMNS]
    assert not too_wide, [(columns(line), line) for line in too_wide]
    assert "Scanned 40 files" in out  # the summary goes to stdout, not into the bar


def test_no_color_means_no_colour(corpus: Path, tmp_path: Path):
    env = _env(tmp_path)
    code, coloured, _ = run_in_pty(
        ["scan", str(corpus), "--db", str(tmp_path / "a.sqlite"), "--workers", "1"], env
    )
    assert code == 0 and COLOUR.search(coloured), "the bar is coloured by default"
    code, plain, _ = run_in_pty(
        ["scan", str(corpus), "--db", str(tmp_path / "b.sqlite"), "--workers", "1"],
        dict(env, NO_COLOR="1"),
    )
    assert code == 0 and "江南" in plain
    assert not COLOUR.search(plain), COLOUR.search(plain)


def test_no_bar_when_stderr_is_not_a_terminal(corpus: Path, tmp_path: Path):
    proc = subprocess.run(
        [*CLI, "scan", str(corpus), "--db", str(tmp_path / "db.sqlite"), "--workers", "1"],
        capture_output=True,
        text=True,
        env=_env(tmp_path),
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr == "" and "\r" not in proc.stdout and "\x1b" not in proc.stdout


def test_interrupted_scan_says_how_much_it_read(tmp_path: Path):
    """Ctrl-C while reading: exit 130, and the summary counts what was read, not what was
    listed ("Scanned 2800 files" after reading 252 was the complaint)."""
    root = tmp_path / "many"
    for k in range(600):
        docgen.write_txt(root / f"{k:03d}.txt", f"第{k}篇。" + docgen.SAMPLE_ZH[k % 50 :] * 3)
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
    proc = subprocess.Popen(
        [*CLI, "scan", str(root), "--db", str(tmp_path / "db.sqlite"), "--workers", "1"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=slave,
        env=_env(tmp_path),
    )
    os.close(slave)
    seen = b""
    while not re.search(rb"reading.*\b([1-9][0-9]*)/600", seen):
        ready, _, _ = select.select([master], [], [], 30)
        assert ready, f"no reading progress: {seen[-300:]!r}"
        seen += os.read(master, 65536)
    proc.send_signal(signal.SIGINT)
    try:
        while os.read(master, 65536):
            pass
    except OSError:
        pass
    os.close(master)
    out = proc.stdout.read().decode("utf-8")
    assert proc.wait(timeout=120) == 130, out
    match = re.search(r"Scan interrupted after [0-9.]+ s: (\d+) of (\d+) files read", out)
    assert match, out
    read, listed = int(match.group(1)), int(match.group(2))
    assert listed == 600 and 0 < read < 600, out
    assert "Scanned 600 files" not in out


def _diff_on_a_terminal(a: Path, b: Path, env: dict[str, str]) -> str:
    master, slave = pty.openpty()
    proc = subprocess.Popen(
        [*CLI, "diff", str(a), str(b)], stdin=subprocess.DEVNULL, stdout=slave, env=env
    )
    os.close(slave)
    chunks = []
    try:
        while data := os.read(master, 65536):
            chunks.append(data)
    except OSError:
        pass
    os.close(master)
    assert proc.wait(timeout=120) == 1
    return b"".join(chunks).decode("utf-8", "replace")


def test_diff_colours_on_a_terminal_unless_no_color(tmp_path: Path):
    a = docgen.write_txt(tmp_path / "a.txt", docgen.SAMPLE_EN)
    b = docgen.write_txt(tmp_path / "b.txt", docgen.SAMPLE_EN.replace("bridge", "tower"))
    assert COLOUR.search(_diff_on_a_terminal(a, b, _env(tmp_path)))
    plain = _diff_on_a_terminal(a, b, _env(tmp_path, NO_COLOR="1"))
    assert "{+tower+}" in plain and "\x1b" not in plain
