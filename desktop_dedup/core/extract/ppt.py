"""PowerPoint 97-2003 ``.ppt`` and Kingsoft WPS ``.dps``: slide text through the record tree.

Kingsoft WPS Presentation stores ``.dps`` in the PowerPoint binary format. The layout follows
Microsoft's [MS-PPT]: the "Current User" stream points at the last UserEditAtom of the
"PowerPoint Document" stream; its persist directory maps persist ids to record offsets (older
edits fill in what newer ones do not change); the DocumentContainer's slide list names the
slides in order, with the text of their placeholders; each Slide container holds its shapes,
whose text boxes either carry their text or refer to a placeholder text of the slide list.

Masters, notes and handouts are never visited, so template prompts ("Click to edit the title
text format") and speaker notes stay out, as they do for .pptx and .odp.
"""

from __future__ import annotations

import os
import struct
from collections.abc import Iterator

from desktop_dedup.core.errors import ExtractionError
from desktop_dedup.core.extract._common import MAX_TEXT_BYTES, too_large
from desktop_dedup.core.extract.ole import (
    KIND_POWERPOINT,
    classify,
    open_compound,
    read_stream,
    wrong_kind,
)

_RT_DOCUMENT = 0x03E8
_RT_SLIDE = 0x03EE
_RT_SLIDE_PERSIST_ATOM = 0x03F3
_RT_OUTLINE_TEXT_REF = 0x0F9E
_RT_TEXT_HEADER = 0x0F9F
_RT_TEXT_CHARS = 0x0FA0
_RT_TEXT_BYTES = 0x0FA8
_RT_SLIDE_LIST_WITH_TEXT = 0x0FF0
_RT_USER_EDIT = 0x0FF5
_RT_CRYPT_SESSION = 0x2F14
_RT_PERSIST_DIRECTORY = 0x1772
_HEADER_TOKEN_PLAIN = 0xE391C05F
_HEADER_TOKEN_ENCRYPTED = 0xF3D1C4DF
#: Most edits followed back through offsetLastEdit (each fast save adds one).
_MAX_EDITS = 10_000


class _Corrupt(Exception):
    """Internal: the record structure is broken; becomes ExtractionError with the label."""


def _header(data: bytes, pos: int, end: int) -> tuple[int, int, int, int]:
    """(version, instance, type, length) of the record at ``pos``, checked to fit in ``end``."""
    if pos + 8 > end:
        raise _Corrupt("record header runs past its container")
    ver_inst, rtype, length = struct.unpack_from("<HHI", data, pos)
    if pos + 8 + length > end:
        raise _Corrupt(f"record 0x{rtype:04X} claims {length:,} bytes, past its container")
    return ver_inst & 0xF, ver_inst >> 4, rtype, length


def _children(data: bytes, pos: int) -> Iterator[tuple[int, int, int, int, int]]:
    """(offset, version, instance, type, length) of each child of the container at ``pos``."""
    _, _, _, length = _header(data, pos, len(data))
    child, end = pos + 8, pos + 8 + length
    while child < end:
        ver, inst, rtype, clen = _header(data, child, end)
        yield child, ver, inst, rtype, clen
        child += 8 + clen


def _atom_text(data: bytes, pos: int, rtype: int, length: int) -> str:
    body = data[pos + 8 : pos + 8 + length]
    # TextBytesAtom holds UTF-16 code units whose high byte is zero, one byte each.
    text = (
        body.decode("utf-16-le", "replace") if rtype == _RT_TEXT_CHARS else body.decode("latin-1")
    )
    return text.replace("\r", "\n").replace("\x0b", "\n")


def _persist_directory(data: bytes, current_edit: int) -> tuple[dict[int, int], int]:
    """persist id -> stream offset, newest edit first; and the document's persist id."""
    offsets: dict[int, int] = {}
    doc_ref = None
    seen: set[int] = set()
    edit = current_edit
    while edit:
        if edit in seen or len(seen) > _MAX_EDITS:
            raise _Corrupt("the chain of edits loops")
        seen.add(edit)
        _, _, rtype, length = _header(data, edit, len(data))
        if rtype != _RT_USER_EDIT or length < 28:
            raise _Corrupt("no edit record where the current user points")
        last_edit, persist_at, doc_persist = struct.unpack_from("<III", data, edit + 16)
        if doc_ref is None:
            doc_ref = doc_persist
        _, _, rtype, length = _header(data, persist_at, len(data))
        if rtype != _RT_PERSIST_DIRECTORY:
            raise _Corrupt("no persist directory where the edit points")
        pos, end = persist_at + 8, persist_at + 8 + length
        while pos + 4 <= end:
            (entry,) = struct.unpack_from("<I", data, pos)
            first, count = entry & 0xFFFFF, entry >> 20
            pos += 4
            if pos + 4 * count > end:
                raise _Corrupt("persist directory entry runs past its record")
            for i, offset in enumerate(struct.unpack_from(f"<{count}I", data, pos)):
                offsets.setdefault(first + i, offset)  # a newer edit wins
            pos += 4 * count
        edit = last_edit
    if doc_ref is None:
        raise _Corrupt("no edit record")
    return offsets, doc_ref


def _slide_list(data: bytes, document: int) -> list[tuple[int, list[str]]]:
    """The slides in order: (persist id, placeholder texts) from the slide list."""
    slides: list[tuple[int, list[str]]] = []
    for pos, _, inst, rtype, _ in _children(data, document):
        if rtype != _RT_SLIDE_LIST_WITH_TEXT or inst != 0:
            continue  # instance 1 lists masters, 2 notes
        for child, _, _, ctype, clen in _children(data, pos):
            if ctype == _RT_SLIDE_PERSIST_ATOM and clen >= 4:
                slides.append((struct.unpack_from("<I", data, child + 8)[0], []))
            elif ctype in (_RT_TEXT_CHARS, _RT_TEXT_BYTES) and slides:
                slides[-1][1].append(_atom_text(data, child, ctype, clen))
    return slides


def _slide_texts(data: bytes, slide: int, placeholders: list[str]) -> Iterator[str]:
    """Texts of one slide in shape order; placeholder texts where the shapes refer to them."""
    used: set[int] = set()
    stack = [iter(list(_children(data, slide)))]
    while stack:
        item = next(stack[-1], None)
        if item is None:
            stack.pop()
            continue
        pos, ver, _, rtype, length = item
        if ver == 0xF:
            stack.append(iter(list(_children(data, pos))))
        elif rtype in (_RT_TEXT_CHARS, _RT_TEXT_BYTES):
            yield _atom_text(data, pos, rtype, length)
        elif rtype == _RT_OUTLINE_TEXT_REF and length >= 4:
            (index,) = struct.unpack_from("<I", data, pos + 8)
            if index < len(placeholders) and index not in used:
                used.add(index)
                yield placeholders[index]
    for index, text in enumerate(placeholders):  # placeholders no shape referred to
        if index not in used:
            yield text


def _presentation_text(ole, label: str) -> str:
    if ole.exists("EncryptedSummary"):
        raise ExtractionError(f"{label} is password-protected")
    user = read_stream(ole, "Current User", label)
    if len(user) < 20:
        raise ExtractionError(f"corrupt {label}: the Current User stream is truncated")
    token, current_edit = struct.unpack_from("<II", user, 12)
    if token == _HEADER_TOKEN_ENCRYPTED:
        raise ExtractionError(f"{label} is password-protected")
    data = read_stream(ole, "PowerPoint Document", label)
    try:
        offsets, doc_ref = _persist_directory(data, current_edit)
        document = offsets.get(doc_ref)
        if document is None or _header(data, document, len(data))[2] != _RT_DOCUMENT:
            raise _Corrupt("the document record is missing")
        if any(rtype == _RT_CRYPT_SESSION for _, _, _, rtype, _ in _children(data, document)):
            raise ExtractionError(f"{label} is password-protected")
        parts: list[str] = []
        total = 0
        for persist_id, placeholders in _slide_list(data, document):
            slide = offsets.get(persist_id)
            if slide is None or _header(data, slide, len(data))[2] != _RT_SLIDE:
                texts: Iterator[str] | list[str] = placeholders
            else:
                texts = _slide_texts(data, slide, placeholders)
            for text in texts:
                total += len(text) + 1
                if total > MAX_TEXT_BYTES:
                    raise too_large(total)
                parts.append(text)
    except _Corrupt as exc:
        raise ExtractionError(f"corrupt {label}: {exc}") from exc
    except struct.error as exc:
        raise ExtractionError(f"corrupt {label}: truncated record") from exc
    if token != _HEADER_TOKEN_PLAIN and not parts:
        raise ExtractionError(f"corrupt {label}: unknown Current User header")
    return "\n".join(parts)


def _extract(path: str | os.PathLike[str], label: str) -> str:
    ole = open_compound(path, label)
    try:
        kind = classify(ole)
        if kind != KIND_POWERPOINT:
            raise wrong_kind(kind, label)
        return _presentation_text(ole, label)
    finally:
        ole.close()


def extract_ppt(path: str | os.PathLike[str]) -> str:
    return _extract(path, "PPT")


def extract_dps(path: str | os.PathLike[str]) -> str:
    return _extract(path, "DPS")
