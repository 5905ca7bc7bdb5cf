"""The external diff tool's command (issue 9 item 6): the default is the first known tool on
PATH, and a template becomes an argument list with the two files, never a shell line."""

from __future__ import annotations

import pytest

from desktop_dedup.core.external_diff import command_argv, default_command


def test_default_is_the_first_known_tool_on_path():
    on_path = {"kdiff3", "code"}
    assert default_command(lambda p: f"/usr/bin/{p}" if p in on_path else None) == (
        "kdiff3 {a} {b}"
    )
    assert default_command(lambda p: "/x/code" if p == "code" else None) == (
        "code --wait --diff {a} {b}"
    )
    assert default_command(lambda p: None) == ""


def test_template_words_and_placeholders():
    a, b = "/docs/年报 2023.txt", "/docs/copy {b} $(rm -rf ~).txt"
    assert command_argv("meld {a} {b}", a, b) == ["meld", a, b]
    assert command_argv('"/opt/My Tool/bin/tool" --left={a} --right={b}', a, b) == [
        "/opt/My Tool/bin/tool",
        f"--left={a}",
        f"--right={b}",
    ]
    assert command_argv("kdiff3", a, b) == ["kdiff3", a, b]  # no placeholders: appended
    with pytest.raises(ValueError):
        command_argv("   ", a, b)
    with pytest.raises(ValueError):
        command_argv('meld "unclosed', a, b)
