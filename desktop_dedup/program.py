"""The program's entry point: ``desktop-dedup`` and ``python -m desktop_dedup``.

What has to happen before the command line's own modules load is done here, in a module that
imports nothing heavy: the re-run in Python's UTF-8 mode, Ctrl-C deferred while the program
loads (interrupts.py), and, for a scan, the fork server forked at once (core/forkserver.py), so
that it loads the readers on the other core while this process loads the command line, the
store and the grouping. Forked from cli.main, once the command line had loaded (argparse, the
models, pathlib), it started later with one core idle meanwhile: in scans of the public
corpora's 1,415 files the fork came at 0.090 s instead of 0.121 s, the first reader at 0.623 s
instead of 0.649 s (medians of 8 scans each, tests/bench/HISTORY.md). What is still imported
before the fork is multiprocessing's, which the fork needs."""

from __future__ import annotations

import gc
import os
import re
import sys
from collections.abc import Sequence

from desktop_dedup import interrupts

# The program's one option before its command that takes no value and changes nothing of
# what it runs; --help and --version end it.
VERBOSE_FLAGS = ("-v", "--verbose")


def command_of(argv: Sequence[str]) -> str | None:
    """The command ``argv`` runs, past the verbose flag (``desktop-dedup -v scan``, ``-vv``,
    ``--verbose``; an abbreviation of it only loses the early start); None when something
    else comes first."""
    for arg in argv:
        if arg == VERBOSE_FLAGS[1] or re.fullmatch("-v+", arg):
            continue
        return arg
    return None


def utf8_mode() -> None:
    """Re-run this command in Python's UTF-8 mode when the locale names another encoding.

    Under a GB18030 (or Latin-1...) locale Python decodes file names with that encoding, so a
    UTF-8 name on disk (what Linux and macOS write) became another string, printed and stored
    as mojibake ("文档" as "鏂囨。"). In UTF-8 mode (PEP 540, the default from Python 3.15) names
    are UTF-8 with undecodable bytes kept (and escaped when shown). The arguments go back to the
    new process as the same bytes. Done before anything else starts: a fork server forked
    first would be left to notice that its program had become another."""
    if (
        os.name == "posix"
        and not sys.flags.utf8_mode
        and sys.getfilesystemencoding().lower().replace("-", "") != "utf8"
        and os.environ.get("PYTHONUTF8") != "1"
    ):
        env = dict(os.environ, PYTHONUTF8="1")
        try:
            os.execve(sys.executable, [sys.executable, *sys.orig_argv[1:]], env)
        except OSError:  # cannot re-run: carry on with the locale's encoding
            pass


def start() -> None:
    """The steps before the command line loads (see the module docstring); cli.main takes
    each again, and each is done once."""
    utf8_mode()
    gc.disable()  # while the program loads: see cli._loaded
    interrupts.defer()  # a Ctrl-C while the program loads is raised once it has
    if command_of(sys.argv[1:]) == "scan":
        # A scan that goes no further (--help, a wrong option) only leaves a server that ends
        # with this process.
        from desktop_dedup.core.forkserver import prestart

        prestart(fork=True)


def main() -> int:
    start()
    from desktop_dedup.cli import main as cli_main

    return cli_main()


if __name__ == "__main__":
    raise SystemExit(main())
