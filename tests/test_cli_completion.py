"""Shell completion and the man page (issue 11 item 4), both generated from the parser: a real
bash completes commands, options and choices from the script the CLI prints; zsh and fish
load theirs when installed; the man page renders with man(1), names every command and lists
every exit status."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "desktop_dedup"]
COMMANDS = {"scan", "report", "remove", "diff", "completion"}


def script(shell: str) -> str:
    out = subprocess.run([*CLI, "completion", shell], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return out.stdout


def bash_complete(path: Path, line: str) -> set[str]:
    """What bash offers after ``line`` (its last word being completed)."""
    words = line.split(" ")
    probe = (
        f"source {path}\n"
        f"COMP_LINE={line!r}; COMP_POINT=${{#COMP_LINE}}\n"
        f"COMP_WORDS=({' '.join(repr(w) for w in words)}); COMP_CWORD={len(words) - 1}\n"
        f"_shtab_desktop_dedup desktop-dedup {words[-1]!r} {words[-2]!r}\n"
        'printf "%s\\n" "${COMPREPLY[@]}"\n'
    )
    out = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    return {w for w in out.stdout.split("\n") if w}


@pytest.mark.skipif(not shutil.which("bash"), reason="bash not installed")
def test_bash_completes_commands_options_and_choices(tmp_path: Path):
    path = tmp_path / "desktop-dedup.bash"
    path.write_text(script("bash"), encoding="utf-8")
    assert bash_complete(path, "desktop-dedup re") == {"report", "remove", "restore"}
    assert bash_complete(path, "desktop-dedup remove --k") == {
        "--keep",
        "--keep-in",
        "--keep-structure",
    }
    assert bash_complete(path, "desktop-dedup remove --keep s") == {"smallest", "shortest_path"}
    assert bash_complete(path, "desktop-dedup scan --js") == {"--json"}
    assert bash_complete(path, "desktop-dedup completion f") == {"fish"}
    (tmp_path / "folder").mkdir()
    os.chdir(tmp_path)  # folders are offered for a folder argument
    assert "folder" in {w.rstrip("/") for w in bash_complete(path, "desktop-dedup scan fol")}


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_zsh_and_fish_scripts_load(shell: str, tmp_path: Path):
    text = script(shell)
    for word in COMMANDS | {"--keep-in", "--move-to", "--include-near", "--json"}:
        assert word.lstrip("-") in text, word
    if not shutil.which(shell):
        pytest.skip(f"{shell} not installed")
    path = tmp_path / f"completion.{shell}"
    path.write_text(text, encoding="utf-8")
    out = subprocess.run([shell, "-n", str(path)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    if shell == "fish":
        probe = f"source {path}; complete -C 'desktop-dedup remove --keep-'"
        out = subprocess.run(["fish", "-c", probe], capture_output=True, text=True, timeout=60)
        assert out.returncode == 0, out.stderr
        assert {line.split("\t")[0] for line in out.stdout.splitlines()} == {
            "--keep-in",
            "--keep-structure",
        }


def test_unknown_shell_is_a_usage_error():
    out = subprocess.run([*CLI, "completion", "csh"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "invalid choice" in out.stderr


@pytest.mark.skipif(not shutil.which("man"), reason="man not installed")
def test_man_page_renders_and_lists_every_exit_status(tmp_path: Path):
    page = tmp_path / "desktop-dedup.1"
    made = subprocess.run(
        [sys.executable, str(REPO / "packaging" / "make_manpage.py"), str(page)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert made.returncode == 0, made.stderr
    env = dict(os.environ, MANWIDTH="100", MAN_KEEP_FORMATTING="0", LANG="C.UTF-8")
    shown = subprocess.run(
        ["man", "--warnings", "-l", str(page)], capture_output=True, text=True, env=env
    )
    assert shown.returncode == 0 and not shown.stderr.strip(), shown.stderr
    text = re.sub(".\x08", "", shown.stdout)  # bold and underline are overstruck
    for heading in ("NAME", "SYNOPSIS", "EXIT STATUS", "ENVIRONMENT"):
        assert f"\n{heading}\n" in text, heading
    for command in COMMANDS:
        assert f"desktop-dedup {command}" in text, command
    for option in ("--move-to", "--include-near", "--keep-in", "--json", "--similarity"):
        assert option in text, option
    status = text.split("\nEXIT STATUS\n", 1)[1].split("\nENVIRONMENT\n", 1)[0]
    listed = [line.split()[0] for line in status.splitlines() if line[7:8].isdigit()]
    assert listed == ["0", "1", "2", "3", "130", "0", "1", "2"], status
