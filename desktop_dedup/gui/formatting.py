"""Display text for sizes, times, kinds and progress figures, localised through Qt."""

from __future__ import annotations

import os
from datetime import datetime

from PySide6.QtCore import QCoreApplication, QDateTime, QLocale, QTimeZone

from desktop_dedup.core import units


def format_size(size: float) -> str:
    """A size by the core's one rule (core/units.py: "1.5 KB", "64 MB", "512 bytes"), its digits
    in the interface language's locale and "bytes" translated ("512 字节")."""
    locale = QLocale()
    labels = {
        "byte": QCoreApplication.translate("Formatting", "byte"),
        "bytes": QCoreApplication.translate("Formatting", "bytes"),
    }
    return units.format_size(
        size, number=lambda value, decimals: locale.toString(value, "f", decimals), labels=labels
    )


def format_datetime(value: datetime | None) -> str:
    """Local, short, locale-formatted date and time; an empty string for "never"."""
    if value is None:
        return ""
    qdt = QDateTime.fromSecsSinceEpoch(int(value.timestamp()), QTimeZone.systemTimeZone())
    locale = QLocale()
    if locale.language() == QLocale.Language.C:
        # The POSIX locale's short format is cryptic ("22 11 2026"); ISO reads everywhere.
        return qdt.toString("yyyy-MM-dd HH:mm")
    return locale.toString(qdt, QLocale.FormatType.ShortFormat)


def format_duration(seconds: float) -> str:
    """ETA text such as "2 min 05 s"; hours only when needed."""
    seconds = max(0, int(round(seconds)))
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return QCoreApplication.translate("Formatting", "{h} h {m:02d} min").format(
            h=hours, m=minutes
        )
    if minutes:
        return QCoreApplication.translate("Formatting", "{m} min {s:02d} s").format(
            m=minutes, s=secs
        )
    return QCoreApplication.translate("Formatting", "{s} s").format(s=secs)


def kind_label(kind: str) -> str:
    """Plain words for a group kind (the enum values are for machines)."""
    labels = {
        "identical": QCoreApplication.translate("Formatting", "Identical"),
        "same_text": QCoreApplication.translate("Formatting", "Same text"),
        "near": QCoreApplication.translate("Formatting", "Near duplicate"),
    }
    return labels.get(str(kind), str(kind))


def kind_explanation(kind: str) -> str:
    explanations = {
        "identical": QCoreApplication.translate(
            "Formatting", "Every file has exactly the same bytes."
        ),
        "same_text": QCoreApplication.translate(
            "Formatting", "Same text, possibly in different formats."
        ),
        "near": QCoreApplication.translate(
            "Formatting", "Almost the same text: small edits between the files."
        ),
    }
    return explanations.get(str(kind), "")


def stage_label(stage: str) -> str:
    labels = {
        "listing": QCoreApplication.translate("Formatting", "Listing files"),
        "reading": QCoreApplication.translate("Formatting", "Reading"),
        "fingerprinting": QCoreApplication.translate("Formatting", "Fingerprinting"),
        "grouping": QCoreApplication.translate("Formatting", "Grouping"),
        "removing": QCoreApplication.translate("Formatting", "Removing"),
        "done": QCoreApplication.translate("Formatting", "Done"),
    }
    return labels.get(stage, stage)


def split_path(path: str) -> tuple[str, str]:
    """(folder, file name) for display columns."""
    folder, name = os.path.split(path)
    return folder, name


def format_similarity(similarity: float) -> str:
    return QCoreApplication.translate("Formatting", "{pct}%").format(
        pct=QLocale().toString(similarity * 100, "f", 1)
    )


def plural(translated: str, n: int) -> str:
    """English plural forms for a counted string written once as ``self.tr("%n file(s)", "", n)``.

    A translation gives its language its own forms (Chinese needs one); with no translation
    (English, the source language) Qt leaves "(s)" in place, and this makes it "1 file" /
    "2 files" (units.plural, the command line's rule too).
    """
    return units.plural(translated, n)
