"""One rule for "is this path inside that folder", in Python and in SQL.

Whole path components are compared (``/data/a`` does not contain ``/data/ab/x.txt``), a folder
contains itself, and the comparison ignores case where the file system usually does (Windows,
macOS). The SQL form is the same rule for the store's queries (marking, removal planning).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence
from typing import Any

#: Whether paths compare without regard to case on this platform's usual file systems.
CASE_INSENSITIVE = os.name == "nt" or sys.platform == "darwin"


def _norm(path: str, case_insensitive: bool) -> str:
    if "://" in path:  # a location in a shared index (file://MACHINE/..., nfs://...)
        path = path.rstrip("/") if not path.endswith("://") else path
    else:  # normpath would fold the location's "//" too
        path = os.path.normpath(path)
    return path.lower() if case_insensitive else path


def is_inside(path: str, folder: str, *, case_insensitive: bool | None = None) -> bool:
    """True when ``path`` is ``folder`` or lies below it."""
    ci = CASE_INSENSITIVE if case_insensitive is None else case_insensitive
    p, f = _norm(path, ci), _norm(folder, ci)
    if p == f:
        return True
    prefix = f if f.endswith(os.sep) else f + os.sep
    return p.startswith(prefix)


def is_inside_any(
    path: str, folders: Sequence[str], *, case_insensitive: bool | None = None
) -> bool:
    return any(is_inside(path, f, case_insensitive=case_insensitive) for f in folders)


def inside_sql(column: Any, folders: Sequence[str], *, case_insensitive: bool | None = None) -> Any:
    """A SQLAlchemy condition: ``column`` (a path) is inside one of ``folders`` (false for
    none). Compares a prefix with ``substr`` rather than LIKE, so ``%`` and ``_`` in folder
    names need no escaping."""
    from sqlalchemy import false, func, or_

    ci = CASE_INSENSITIVE if case_insensitive is None else case_insensitive
    col = func.lower(column) if ci else column
    terms = []
    for folder in folders:
        f = _norm(folder, ci)
        prefix = f if f.endswith(os.sep) else f + os.sep
        terms.append(col == f)
        terms.append(func.substr(col, 1, len(prefix)) == prefix)
    return or_(*terms) if terms else false()
