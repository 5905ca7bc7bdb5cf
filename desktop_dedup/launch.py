"""The program's entry point (``desktop-dedup``, ``python -m desktop_dedup``): what happens
before the command loads anything.

``desktop-dedup scan`` forks the readers' fork server here, first thing (core/forkserver.py):
the server starts loading the readers, the segmenter and the IDF table on the other core
while this process loads the command (its parser, its log, the store), instead of after the
command's module and what that imports (18-35 ms later). Only what the fork needs is loaded
before it."""

from __future__ import annotations

import gc
import os
import sys


def utf8_mode() -> None:
    """Re-run this command in Python's UTF-8 mode when the locale names another encoding.

    Under a GB18030 (or Latin-1...) locale Python decodes file names with that encoding, so a
    UTF-8 name on disk (what Linux and macOS write) became another string, printed and stored
    as mojibake ("文档" as "鏂囨。"). In UTF-8 mode (PEP 540, the default from Python 3.15) names
    are UTF-8 with undecodable bytes kept (and escaped when shown). The arguments go back to the
    new process as the same bytes."""
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


def main() -> int:
    utf8_mode()  # before the fork: a re-run would leave the server to a process that is gone
    gc.disable()  # while the command loads: see cli._loaded
    if sys.argv[1:2] == ["scan"]:
        # A scan that goes no further (--help, a wrong option) only leaves a server that ends
        # with this process.
        from desktop_dedup.core.forkserver import prestart

        prestart(fork=True)
    from desktop_dedup.cli import main as command

    return command()
