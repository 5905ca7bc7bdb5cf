"""Exceptions for the caller's mistakes and real faults.

Per-file trouble during a scan is *data* (a :class:`~desktop_dedup.core.models.Problem`), not an
exception; :class:`ExtractionError` exists only to carry a reason from an extractor to the scan
loop, which records it and moves on.
"""

from __future__ import annotations


class DedupError(Exception):
    """Base class for every error desktop_dedup raises on purpose."""


class ExtractionError(DedupError):
    """A file's text could not be extracted; ``reason`` is shown to the user as is."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class DatabaseError(DedupError):
    """The database cannot be used (corrupt, unwritable, ...)."""


class DatabaseTooNewError(DatabaseError):
    """The database was written by a newer desktop_dedup whose schema this one does not know."""


class ScanCancelled(DedupError):
    """Raised inside long work when its :class:`CancelToken` was set."""


class ActionError(DedupError):
    """A removal or move was refused as a whole (e.g. the target folder does not exist)."""


class HelperGone(Exception):
    """A helper process (workers.Helper) ended or its function failed: what it was asked is
    not answered, and the caller does that work itself. Not a DedupError: never shown."""
