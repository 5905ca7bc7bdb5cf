"""One rule for "is this path inside that folder", in Python and in SQL.

Whole path components are compared (``/data/a`` does not contain ``/data/ab/x.txt``), a folder
contains itself, and the comparison ignores case where the file system usually does (Windows,
macOS). The SQL form is the same rule for the store's queries (marking, removal planning).
"""

from __future__ import annotations

import functools
import inspect
import os
import re
import sys
import threading
import weakref
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
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


def inside_some(
    paths: Iterable[str], folders: Sequence[str], *, case_insensitive: bool | None = None
) -> list[str]:
    """Those of ``paths`` that are inside one of ``folders`` (:func:`is_inside`'s rule), each
    found by looking its own folders up in a set: many paths against many folders (every
    document of a drive against the folders a scan could not list) in linear time."""
    paths = list(paths)
    found = folder_of(paths, folders, case_insensitive=case_insensitive)
    return [p for p in paths if p in found]


def folder_of(
    paths: Iterable[str], folders: Sequence[str], *, case_insensitive: bool | None = None
) -> dict[str, str]:
    """Each of ``paths`` inside one of ``folders`` (:func:`is_inside`'s rule), with the
    innermost of those that holds it: :func:`inside_some`, saying which folder."""
    if not folders:
        return {}
    ci = CASE_INSENSITIVE if case_insensitive is None else case_insensitive
    wanted = {_norm(f, ci): f for f in folders}
    out = {}
    for path in paths:
        p = _norm(path, ci)
        while True:
            if p in wanted:
                out[path] = wanted[p]
                break
            parent = os.path.dirname(p)
            if parent == p:
                break
            p = parent
    return out


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


# --- file names that are not UTF-8 ---------------------------------------------------------------
# A name that is not UTF-8 (a Chinese name in GBK unpacked from a Windows archive, say) is held
# as Python holds it (os.fsdecode: each undecodable byte a lone surrogate, U+DC80-U+DCFF; on
# Windows a name may hold a lone UTF-16 surrogate too), which opens, stats and moves the file,
# but which no database text and no UTF-8 file can hold. Stored, each lone surrogate is ESCAPE
# and its four hex digits, and ESCAPE itself is doubled: the same path always gives the same text
# and back, and since each character is replaced on its own, a folder's stored text is a prefix
# of its files' (inside_sql holds for stored paths).

#: What stands before an escaped character in a stored path: a noncharacter, which no name has
#: in practice (one that has it keeps it, doubled).
ESCAPE = "\uffff"
_TO_ESCAPE = re.compile("[\ud800-\udfff\uffff]")
_ESCAPED = re.compile("\uffff(\uffff|[0-9A-F]{4})")
_SURROGATE = re.compile("[\ud800-\udfff]")
_SPACE = re.compile(r"\s")


def _escape(match: re.Match[str]) -> str:
    ch = match.group()
    return ESCAPE * 2 if ch == ESCAPE else f"{ESCAPE}{ord(ch):04X}"


def _unescape(match: re.Match[str]) -> str:
    code = match.group(1)
    return ESCAPE if code == ESCAPE else chr(int(code, 16))


def stored(path: str) -> str:
    """``path`` as the index keeps it: itself, unless it has bytes that are not UTF-8."""
    if path.isascii() or _TO_ESCAPE.search(path) is None:
        return path
    return _TO_ESCAPE.sub(_escape, path)


def from_stored(text: str) -> str:
    """The path :func:`stored` made ``text`` of."""
    if text.isascii() or ESCAPE not in text:
        return text
    return _ESCAPED.sub(_unescape, text)


def has_undecodable(path: str) -> bool:
    """Whether ``path`` holds a byte that is not UTF-8 (a lone surrogate, os.fsdecode's)."""
    return not path.isascii() and _SURROGATE.search(path) is not None


def escaped(path: str) -> str:
    """``path`` with each byte of its name that is not UTF-8 as a visible escape (\\xd7), and a
    lone UTF-16 surrogate as its code (\\ud83d): the exact name, to tell its bytes."""
    if not has_undecodable(path):
        return path
    try:
        return path.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
    except UnicodeEncodeError:  # a lone UTF-16 surrogate of a Windows name: \ud800
        return path.encode("utf-8", "backslashreplace").decode("utf-8")


#: Around the code page a name that is not UTF-8 was read in, after it: "资料 ⟨GBK⟩".
NAMED_IN = " \u27e8{}\u27e9"


def shown(path: str) -> str:
    """``path`` as people read it (the app, the command line, the CSV and HTML reports): each
    part of it (a folder's name, the file's) that is not UTF-8 as read in the East Asian code
    page it is in, with that code page after the word it read (``资料备份 ⟨GBK⟩``; in a
    message, ``江南春天.txt ⟨GBK⟩ no longer exists``), when its words tell
    which (extract.plaintext.decode_name); else with each such byte as a visible escape
    (:func:`escaped`). The path itself is kept for everything done to the file."""
    if not has_undecodable(path):
        return path
    return "/".join(_shown_part(part) for part in path.split("/"))


def _shown_part(part: str) -> str:
    if not has_undecodable(part):
        return part
    try:
        raw = part.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a lone UTF-16 surrogate: no code page's bytes
        return escaped(part)
    if threading.get_ident() in _waitless and not _names_ready.is_set():
        _start_name_reader()
        return escaped(part)  # until the reader is loaded, on its own thread
    named = _legacy_name(raw)
    if named is None:
        return escaped(part)
    # the code page follows the word that holds the part's last character read in it: the
    # name's end, or in a message ("… 江南春天.txt no longer exists") the name's own word
    text, label = named
    last = max(i for i, ch in enumerate(text) if not ch.isascii())
    space = _SPACE.search(text, last)
    end = len(text) if space is None else space.start()
    return text[:end] + NAMED_IN.format(label) + text[end:]


@functools.lru_cache(maxsize=4096)
def _legacy_name(raw: bytes) -> tuple[str, str] | None:
    from desktop_dedup.core.extract.plaintext import decode_name  # its tables: when needed

    return decode_name(raw)


# Reading a name in a code page needs jieba's IDF table and OpenCC: a tenth of a second to load,
# once. A thread that must never wait that long (the app's window) has them loaded on a thread
# of its own (read_names_off_thread), when the first such name is shown.
_names_ready = threading.Event()
_names_lock = threading.Lock()
_waitless: Counter[int] = Counter()  # the threads that must not wait for it, and how many ask
_reader_started = False
# weakly held, as a window's method is: a window closed meanwhile is not kept
_when_ready: list[Callable[[], Callable[[], None] | None]] = []


def read_names_off_thread(on_ready: Callable[[], None]) -> Callable[[], None]:
    """Until the function returned is called (a window closing), :func:`shown` does not load
    the code-page reader on the calling thread (other threads, a report's export, still wait
    for it): the first part that is not UTF-8 shown here starts loading it on a thread of its
    own, and until it is loaded each such part is shown here by its escapes; ``on_ready`` is
    called, on that thread, once it is (not at all when it already was). A method is held
    weakly: a window closed meanwhile is not kept."""
    held = weakref.WeakMethod(on_ready) if inspect.ismethod(on_ready) else lambda: on_ready
    thread = threading.get_ident()
    with _names_lock:
        if _names_ready.is_set():
            return lambda: None
        _when_ready.append(held)
        _waitless[thread] += 1
    stopped = threading.Event()

    def stop() -> None:
        with _names_lock:
            if not stopped.is_set():
                stopped.set()
                _waitless[thread] -= 1
                if _waitless[thread] <= 0:
                    del _waitless[thread]

    return stop


def load_name_reader() -> None:
    """Load the code-page reader here and now (a tenth of a second, once)."""
    _legacy_name("资料".encode("gbk"))  # the reader, the IDF table, OpenCC
    _names_ready.set()


def _start_name_reader() -> None:
    global _reader_started
    with _names_lock:
        if _reader_started:
            return
        _reader_started = True
    threading.Thread(target=_load_name_reader, name="name reader", daemon=True).start()


def _load_name_reader() -> None:
    try:
        load_name_reader()
    finally:
        with _names_lock:
            _names_ready.set()
            callbacks = list(_when_ready)
            _when_ready.clear()
    for held in callbacks:
        callback = held()
        if callback is not None:
            callback()
