"""The external diff tool: which one to use and the command line that opens two files in it.

A command is a template in shell-like words (quoted with ``shlex`` rules, never run through a
shell): ``{a}`` and ``{b}`` stand for the two files (the reference first); without them the two
paths are appended. The default is the first known tool on PATH.
"""

from __future__ import annotations

import re
import shlex
import shutil
import sys
from collections.abc import Callable

_PLACEHOLDER = re.compile(r"\{[ab]\}")

#: Tried in this order for the default: (program, template).
KNOWN_TOOLS: tuple[tuple[str, str], ...] = (
    ("meld", "meld {a} {b}"),
    ("kdiff3", "kdiff3 {a} {b}"),
    ("kompare", "kompare {a} {b}"),
    ("code", "code --wait --diff {a} {b}"),
    ("bcompare", "bcompare {a} {b}"),
    ("WinMergeU", "WinMergeU /u {a} {b}"),
    ("opendiff", "opendiff {a} {b}"),
)


def default_command(which: Callable[[str], str | None] = shutil.which) -> str:
    """The first known diff tool on PATH as a template ("" when there is none)."""
    for program, template in KNOWN_TOOLS:
        if which(program):
            return template
    return ""


def command_argv(template: str, a: str, b: str) -> list[str]:
    """The argument list for ``template`` with the two files. ValueError for an empty or
    badly quoted template."""
    words = shlex.split(template, posix=not sys.platform.startswith("win"))
    if not words:
        raise ValueError("no diff tool command")
    if not any("{a}" in w or "{b}" in w for w in words):
        return [*words, a, b]
    # One pass, so a path that itself holds "{b}" is not substituted again.
    return [_PLACEHOLDER.sub(lambda m: a if m.group() == "{a}" else b, w) for w in words]


__all__ = ["KNOWN_TOOLS", "command_argv", "default_command"]
