"""How a size is written for people: the one rule of the CLI, the reports, the readers' messages
and the app (issue 8: "one size formatter").

The rule: 1024-based, as Windows Explorer and Qt's traditional format count, with the labels
that go with those powers (JEDEC's KB, MB, GB, TB: "KB" is 1,024 bytes; the SI "kB" would be
1,000). Under 1,024 bytes the exact count ("512 bytes", "1 byte"); above, one decimal, left out
when it is zero ("1.5 KB", "64 MB"). A value that would round to 1,024 of a unit is written in
the next one ("1 MB", not "1024 KB"). A cap of 64 MiB is thus "the 64 MB cap", in the same unit
as the size beside it.

A face may write the number its own way (the app: the interface language's digits and decimal
separator, through Qt) and put the unit labels in its language ("字节" for bytes), but the
choice of unit, the thresholds and the rounding are made here. No Qt: the core never imports it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

#: The base: a kilobyte is 1,024 bytes.
STEP = 1024
#: The labels, smallest first; "bytes" (and "byte" for exactly one) below :data:`STEP`.
UNITS: tuple[str, ...] = ("bytes", "KB", "MB", "GB", "TB")

#: ``number(value, decimals)`` -> the digits of an already rounded value.
NumberFormatter = Callable[[float, int], str]


def plain_number(value: float, decimals: int) -> str:
    """Digits as the CLI and the reports write them: thousands grouped with commas, ``.``."""
    return f"{value:,.{decimals}f}"


def size_parts(size: float) -> tuple[float, str, int]:
    """(rounded value, unit label, decimals) for ``size`` bytes: the rule, once."""
    magnitude = abs(float(size))
    last = len(UNITS) - 1
    for index in range(len(UNITS)):
        decimals = 0 if index == 0 else 1
        shown = round(magnitude / STEP**index, decimals)
        if shown < STEP or index == last:
            break
    unit = UNITS[index]
    if decimals and shown == int(shown):
        decimals = 0
    if unit == "bytes" and shown == 1:
        unit = "byte"
    return (-shown if size < 0 else shown), unit, decimals


def format_size(
    size: float,
    *,
    number: NumberFormatter = plain_number,
    labels: Mapping[str, str] | None = None,
) -> str:
    """``size`` bytes for people: "512 bytes", "1.5 KB", "64 MB" (see the module's rule).

    ``number`` writes the digits (default :func:`plain_number`); ``labels`` maps the English
    labels ("byte", "bytes", "KB", ...) to a language's (missing ones stay as they are)."""
    value, unit, decimals = size_parts(size)
    label = (labels or {}).get(unit, unit)
    return f"{number(value, decimals)} {label}"


def format_size_over(
    size: float,
    limit: float,
    *,
    number: NumberFormatter = plain_number,
    labels: Mapping[str, str] | None = None,
) -> str:
    """``size`` for a message saying it is over ``limit``: as :func:`format_size` writes it, or
    as the exact count of bytes when that would read as the limit itself ("64 MB of text exceeds
    the 64 MB cap" would not say why it was refused; "67,108,865 bytes ..." does)."""
    text = format_size(size, number=number, labels=labels)
    if size > limit and text == format_size(limit, number=number, labels=labels):
        label = (labels or {}).get("bytes", "bytes")
        return f"{number(float(int(size)), 0)} {label}"
    return text


def plural(text: str, n: int) -> str:
    """English plural forms of a counted string written once with "(s)": "%n file(s)" (the
    app's source strings, which a translation replaces with its language's forms), or "1
    file(s)": "1 file", "2 files". The one rule of the CLI and the app."""
    return text.replace("(s)", "" if n == 1 else "s")
