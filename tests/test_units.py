"""One size rule (issue 8: "one size formatter"): 1024-based, labelled bytes/KB/MB/GB/TB, one
decimal dropped when zero. The expected texts are worked out by hand beside each case."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from desktop_dedup.core.units import format_size, format_size_over

REPO = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize(
    ("size", "text"),
    [
        (0, "0 bytes"),
        (1, "1 byte"),
        (2, "2 bytes"),
        (1023, "1,023 bytes"),  # the last count in bytes
        (1024, "1 KB"),  # 1,024 bytes are a kilobyte (not 1,000: "1.0 KB" for 1,000 bytes)
        (1000, "1,000 bytes"),
        (1536, "1.5 KB"),
        (20_000, "19.5 KB"),  # 19.53 KiB; 1000-based would be "20 KB"
        (1_048_524, "1,023.9 KB"),  # 1,023.949 KiB
        (1_048_575, "1 MB"),  # 1,023.999 KiB would round to "1,024 KB": the next unit instead
        (64 * 1024**2, "64 MB"),
        (5 * 10**9, "4.7 GB"),  # 4.657 GiB
        (2 * 1024**3, "2 GB"),
        (3 * 1024**4 + 512 * 1024**3, "3.5 TB"),
        (2048 * 1024**4, "2,048 TB"),  # no unit past TB
        (-1536, "-1.5 KB"),
        (1536.0, "1.5 KB"),  # a rate is a float
    ],
)
def test_the_rule(size: float, text: str) -> None:
    assert format_size(size) == text


def test_a_face_writes_its_own_digits_and_labels_but_not_its_own_units() -> None:
    comma = lambda value, decimals: f"{value:.{decimals}f}".replace(".", ",")  # noqa: E731
    assert format_size(1536, number=comma) == "1,5 KB"
    chinese = {"byte": "字节", "bytes": "字节"}
    assert format_size(512, labels=chinese) == "512 字节"
    assert format_size(1, labels=chinese) == "1 字节"
    assert format_size(20_000, labels=chinese) == "19.5 KB"


def test_over_a_limit_the_size_never_reads_as_the_limit() -> None:
    cap = 64 * 1024**2
    assert format_size_over(cap + 1, cap) == "67,108,865 bytes"  # "64 MB" would be the cap
    assert format_size_over(cap + 100 * 1024, cap) == "64.1 MB"
    assert format_size_over(1_200_000, 1024**2) == "1.1 MB"
    assert format_size_over(cap, cap) == "64 MB"  # not over: as it is


def test_no_face_keeps_a_size_formatter_of_its_own() -> None:
    """The four copies of issue 8 (report.human_size, extract._common.human_size,
    cli._human_size, Qt's formattedDataSize) are gone; no module divides by 1024 or 1000 to
    name a unit but core/units.py."""
    offenders = []
    for path in sorted((REPO / "desktop_dedup").rglob("*.py")):
        if path.name == "units.py":
            continue
        source = path.read_text(encoding="utf-8")
        if "formattedDataSize" in source:
            offenders.append(f"{path.name}: Qt's formattedDataSize")
        for node in ast.walk(ast.parse(source)):
            if isinstance(node, ast.FunctionDef) and "human_size" in node.name:
                offenders.append(f"{path.name}: def {node.name}")
            if isinstance(node, ast.Constant) and node.value in ("KiB", "MiB", "GiB", "kB"):
                offenders.append(f"{path.name}: {node.value!r}")
            if isinstance(node, ast.JoinedStr):
                text = "".join(v.value for v in node.values if isinstance(v, ast.Constant))
                if any(u in text for u in (" KiB", " MiB", " GiB", " kB")):
                    offenders.append(f"{path.name}: f-string with {text!r}")
    assert offenders == []
