"""The core's reasons and action names in the interface language.

The core writes reasons in English (the log, the CLI, the reports keep them so); each fixed
reason is its own code here, and the reasons made of a lead phrase and a detail (``corrupt PDF:
...``) are translated by their lead phrase, the detail (a library's message, a file name) kept
as it is. A reason not known here is shown as the core wrote it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from PySide6.QtCore import QCoreApplication

_LINKED = "a folder on its path is a symbolic link now (changed since the scan)"
_KEPT_CHANGED = "the copy to keep is gone or changed since the scan; scan again first"
# core/ocr.py's reasons (spelled out: lupdate reads literal strings only)
_OCR_OFF = "scanned, no text layer; OCR can read it: turn OCR on in the settings (or scan --ocr)"
_OCR_OFF_NOT_INSTALLED = (
    "scanned, no text layer; OCR could read it: install Tesseract (with chi_sim and eng) and "
    "turn OCR on in the settings (or scan --ocr)"
)
_OCR_NOT_INSTALLED = (
    "scanned, no text layer; OCR is on but Tesseract (with chi_sim or eng) was not found"
)
_NEAR = "holds text the kept copy does not (a near duplicate); include near copies to remove it"


def _exact() -> dict[str, str]:
    # Literal strings so that pyside6-lupdate finds them; test_reasons checks this table
    # against every REASON_ constant of core.actions.
    return {
        "file no longer exists": QCoreApplication.translate(
            "Reasons",
            "file no longer exists",
        ),
        "permission denied": QCoreApplication.translate(
            "Reasons",
            "permission denied",
        ),
        "is in a reference folder": QCoreApplication.translate(
            "Reasons",
            "is in a reference folder",
        ),
        "changed since the scan (size differs)": QCoreApplication.translate(
            "Reasons",
            "changed since the scan (size differs)",
        ),
        "changed since the scan (modification time differs)": QCoreApplication.translate(
            "Reasons",
            "changed since the scan (modification time differs)",
        ),
        "changed since the scan (content differs)": QCoreApplication.translate(
            "Reasons",
            "changed since the scan (content differs)",
        ),
        "is a symbolic link now (changed since the scan)": QCoreApplication.translate(
            "Reasons",
            "is a symbolic link now (changed since the scan)",
        ),
        "is a directory": QCoreApplication.translate(
            "Reasons",
            "is a directory",
        ),
        "is not a regular file": QCoreApplication.translate(
            "Reasons",
            "is not a regular file",
        ),
        "no content hash was recorded, so it cannot be verified": QCoreApplication.translate(
            "Reasons",
            "no content hash was recorded, so it cannot be verified",
        ),
        "cancelled before this file": QCoreApplication.translate(
            "Reasons",
            "cancelled before this file",
        ),
        "is already in the target folder": QCoreApplication.translate(
            "Reasons",
            "is already in the target folder",
        ),
        "still exists after sending it to the trash": QCoreApplication.translate(
            "Reasons",
            "still exists after sending it to the trash",
        ),
        "no trash folder can be used on this drive": QCoreApplication.translate(
            "Reasons",
            "no trash folder can be used on this drive",
        ),
        _LINKED: QCoreApplication.translate(
            "Reasons",
            "a folder on its path is a symbolic link now (changed since the scan)",
        ),
        _KEPT_CHANGED: QCoreApplication.translate(
            "Reasons",
            "the copy to keep is gone or changed since the scan; scan again first",
        ),
        "is not in a duplicate group any more": QCoreApplication.translate(
            "Reasons",
            "is not in a duplicate group any more",
        ),
        "the file it is closest to is being removed too; keep that one first": (
            QCoreApplication.translate(
                "Reasons",
                "the file it is closest to is being removed too; keep that one first",
            )
        ),
        _NEAR: QCoreApplication.translate(
            "Reasons",
            "holds text the kept copy does not (a near duplicate); include near copies to "
            "remove it",
        ),
        "empty file (0 bytes)": QCoreApplication.translate(
            "Reasons",
            "empty file (0 bytes)",
        ),
        "scanned, no text layer": QCoreApplication.translate(
            "Reasons",
            "scanned, no text layer",
        ),
        _OCR_OFF: QCoreApplication.translate(
            "Reasons",
            "scanned, no text layer; OCR can read it: turn OCR on in the settings (or scan --ocr)",
        ),
        _OCR_OFF_NOT_INSTALLED: QCoreApplication.translate(
            "Reasons",
            "scanned, no text layer; OCR could read it: install Tesseract (with chi_sim and eng) "
            "and turn OCR on in the settings (or scan --ocr)",
        ),
        _OCR_NOT_INSTALLED: QCoreApplication.translate(
            "Reasons",
            "scanned, no text layer; OCR is on but Tesseract (with chi_sim or eng) was not found",
        ),
        "scanned, OCR found no text": QCoreApplication.translate(
            "Reasons",
            "scanned, OCR found no text",
        ),
        "permission denied (folder)": QCoreApplication.translate(
            "Reasons",
            "permission denied (folder)",
        ),
        "folder vanished during scan": QCoreApplication.translate(
            "Reasons",
            "folder vanished during scan",
        ),
        "folder not found": QCoreApplication.translate(
            "Reasons",
            "folder not found",
        ),
        "its folder is not there (a drive unplugged, or a share not mounted?)": (
            QCoreApplication.translate(
                "Reasons",
                "its folder is not there (a drive unplugged, or a share not mounted?)",
            )
        ),
        (
            "the copy to keep is in a folder that is not there (a drive unplugged, or a share "
            "not mounted?)"
        ): QCoreApplication.translate(
            "Reasons",
            "the copy to keep is in a folder that is not there (a drive unplugged, or a share "
            "not mounted?)",
        ),
        (
            "folder is empty (a drive or share not mounted?): its files are kept as last scanned"
        ): QCoreApplication.translate(
            "Reasons",
            "folder is empty (a drive or share not mounted?): its files are kept as last scanned",
        ),
        (
            "nothing is mounted here now (a drive or share was at the last scan): its files are "
            "kept as last scanned"
        ): QCoreApplication.translate(
            "Reasons",
            "nothing is mounted here now (a drive or share was at the last scan): its files are "
            "kept as last scanned",
        ),
        "no file extension": QCoreApplication.translate(
            "Reasons",
            "no file extension",
        ),
        # hard links and restore (issue 9 item 6)
        (
            "no kept copy holds the same bytes; only identical copies "
            "can be replaced by a hard link"
        ): QCoreApplication.translate(
            "Reasons",
            "no kept copy holds the same bytes; only identical copies "
            "can be replaced by a hard link",
        ),
        (
            "is on another file system than the kept copy; a hard link cannot cross it"
        ): QCoreApplication.translate(
            "Reasons",
            "is on another file system than the kept copy; a hard link cannot cross it",
        ),
        "is already a hard link to the kept copy": QCoreApplication.translate(
            "Reasons",
            "is already a hard link to the kept copy",
        ),
        "this file system does not support hard links": QCoreApplication.translate(
            "Reasons",
            "this file system does not support hard links",
        ),
        (
            "the original name is taken by another file; nothing was overwritten"
        ): QCoreApplication.translate(
            "Reasons",
            "the original name is taken by another file; nothing was overwritten",
        ),
        "not found in the trash (emptied, or restored already)": QCoreApplication.translate(
            "Reasons",
            "not found in the trash (emptied, or restored already)",
        ),
        (
            "the file in the trash is not the one that was removed (content differs)"
        ): QCoreApplication.translate(
            "Reasons",
            "the file in the trash is not the one that was removed (content differs)",
        ),
        "no longer at the folder it was moved to": QCoreApplication.translate(
            "Reasons",
            "no longer at the folder it was moved to",
        ),
        "the moved file changed since it was moved (content differs)": QCoreApplication.translate(
            "Reasons",
            "the moved file changed since it was moved (content differs)",
        ),
        "no content hash was recorded, so the file cannot be verified": QCoreApplication.translate(
            "Reasons",
            "no content hash was recorded, so the file cannot be verified",
        ),
        "only files moved to the trash or to a folder can be restored": QCoreApplication.translate(
            "Reasons",
            "only files moved to the trash or to a folder can be restored",
        ),
        "this removal did not happen, so there is nothing to restore": QCoreApplication.translate(
            "Reasons",
            "this removal did not happen, so there is nothing to restore",
        ),
        "restored already": QCoreApplication.translate(
            "Reasons",
            "restored already",
        ),
        "cannot be found from here: restore it from the Recycle Bin": QCoreApplication.translate(
            "Reasons",
            "cannot be found from here: restore it from the Recycle Bin",
        ),
        (
            "cannot be found from here: restore it from the Trash in the Finder"
        ): QCoreApplication.translate(
            "Reasons",
            "cannot be found from here: restore it from the Trash in the Finder",
        ),
        "no such journal entry": QCoreApplication.translate(
            "Reasons",
            "no such journal entry",
        ),
        # core/workers.py and core/pipeline.py: what a reader's budget says of a file
        "the reader crashed on this file; skipped": QCoreApplication.translate(
            "Reasons",
            "the reader crashed on this file; skipped",
        ),
        "out of memory while reading this file; skipped": QCoreApplication.translate(
            "Reasons",
            "out of memory while reading this file; skipped",
        ),
        # core/extract/* and core/scanning.py: what a reader or the walk says of a file
        "not an FB2 e-book (no FictionBook element)": QCoreApplication.translate(
            "Reasons",
            "not an FB2 e-book (no FictionBook element)",
        ),
        "EML is encrypted (S/MIME or PGP)": QCoreApplication.translate(
            "Reasons",
            "EML is encrypted (S/MIME or PGP)",
        ),
        "not an e-mail message (no headers)": QCoreApplication.translate(
            "Reasons",
            "not an e-mail message (no headers)",
        ),
        "PDF is encrypted": QCoreApplication.translate(
            "Reasons",
            "PDF is encrypted",
        ),
        "PDF uses an unsupported security handler": QCoreApplication.translate(
            "Reasons",
            "PDF uses an unsupported security handler",
        ),
        "changed during the scan; it will be read again next time": QCoreApplication.translate(
            "Reasons",
            "changed during the scan; it will be read again next time",
        ),
        "file vanished during scan": QCoreApplication.translate(
            "Reasons",
            "file vanished during scan",
        ),
        "binary data, not text": QCoreApplication.translate(
            "Reasons",
            "binary data, not text",
        ),
        "only zero bytes, no text": QCoreApplication.translate(
            "Reasons",
            "only zero bytes, no text",
        ),
        "not an RTF document (missing {\\rtf header)": QCoreApplication.translate(
            "Reasons",
            "not an RTF document (missing {\\rtf header)",
        ),
        # no scan gives it since the fiftieth session (such names are read); an index scanned
        # before still lists it until its next scan
        (
            "file name is not valid in the file system's encoding (UTF-8); rename it to include it"
        ): QCoreApplication.translate(
            "Reasons",
            "file name is not valid in the file system's encoding (UTF-8); rename it to include it",
        ),
    }


def _patterns() -> list[tuple[re.Pattern[str], str]]:
    return [
        (
            re.compile(r"truncated or corrupt (?P<label>[^:]+?)(?:: (?P<detail>.*))?$", re.S),
            QCoreApplication.translate(
                "Reasons",
                "truncated or corrupt {label}: {detail}",
            ),
        ),
        (
            re.compile(r"corrupt (?P<label>[^:]+): (?P<detail>.*)$", re.S),
            QCoreApplication.translate(
                "Reasons",
                "corrupt {label}: {detail}",
            ),
        ),
        (
            re.compile(r"(?P<label>.+) is password-protected$", re.S),
            QCoreApplication.translate(
                "Reasons",
                "{label} is password-protected",
            ),
        ),
        (
            re.compile(r"(?P<label>.+) is DRM-protected(?P<detail>.*)$", re.S),
            QCoreApplication.translate(
                "Reasons",
                "{label} is DRM-protected{detail}",
            ),
        ),
        (
            re.compile(r"unsupported file type: (?P<detail>.*)$", re.S),
            QCoreApplication.translate(
                "Reasons",
                "unsupported file type: {detail}",
            ),
        ),
        (
            re.compile(r"cannot read: (?P<detail>.*)$", re.S),
            QCoreApplication.translate(
                "Reasons",
                "cannot read: {detail}",
            ),
        ),
        (  # core/service.py: why the review cannot open a document of the index
            re.compile(
                r"(?P<label>.+) cannot be opened: its folder (?P<detail>.+) is not there \(a "
                r"drive unplugged, or a share not mounted\?\)$",
                re.S,
            ),
            QCoreApplication.translate(
                "Reasons",
                "{label} cannot be opened: its folder {detail} is not there (a drive unplugged, "
                "or a share not mounted?)",
            ),
        ),
        (
            re.compile(
                r"(?P<label>.+) no longer exists \(moved or deleted since the scan\)$", re.S
            ),
            QCoreApplication.translate(
                "Reasons",
                "{label} no longer exists (moved or deleted since the scan)",
            ),
        ),
        (
            re.compile(r"cannot open (?P<label>.+): (?P<detail>[^:]*)$", re.S),
            QCoreApplication.translate(
                "Reasons",
                "cannot open {label}: {detail}",
            ),
        ),
        (
            re.compile(r"cannot stat: (?P<detail>.*)$", re.S),
            QCoreApplication.translate(
                "Reasons",
                "cannot stat: {detail}",
            ),
        ),
        (
            re.compile(r"cannot list folder: (?P<detail>.*)$", re.S),
            QCoreApplication.translate(
                "Reasons",
                "cannot list folder: {detail}",
            ),
        ),
        (
            re.compile(r"too large: (?P<detail>.*)$", re.S),
            QCoreApplication.translate(
                "Reasons",
                "too large: {detail}",
            ),
        ),
        (
            re.compile(r"zip bomb: (?P<detail>.*)$", re.S),
            QCoreApplication.translate(
                "Reasons",
                "zip bomb: {detail}",
            ),
        ),
        (  # core/extract/*, core/scanning.py, core/pipeline.py: readers and the walk
            re.compile(
                r"(?P<label>.+) is in the Word 6/95 format, which is not supported "
                r"\(save it in a newer format\)$",
                re.S,
            ),
            QCoreApplication.translate(
                "Reasons",
                "{label} is in the Word 6/95 format, which is not supported (save it in a newer "
                "format)",
            ),
        ),
        (
            re.compile(
                r"(?P<label>.+) is a Print Replica \(PDF pages\), not a text e-book$",
                re.S,
            ),
            QCoreApplication.translate(
                "Reasons",
                "{label} is a Print Replica (PDF pages), not a text e-book",
            ),
        ),
        (
            re.compile(
                r"not an? (?P<label>.+) e-book \(no Mobipocket header\)$",
                re.S,
            ),
            QCoreApplication.translate(
                "Reasons",
                "not a {label} e-book (no Mobipocket header)",
            ),
        ),
        (
            re.compile(
                r"not an? (?P<label>[^:]+): content\.xml holds (?P<detail>.*)$",
                re.S,
            ),
            QCoreApplication.translate(
                "Reasons",
                "not a {label}: content.xml holds {detail}",
            ),
        ),
        (
            re.compile(
                r"Microsoft Works document, not a Kingsoft WPS one: (?P<label>.+) from Works is "
                r"not supported$",
                re.S,
            ),
            QCoreApplication.translate(
                "Reasons",
                "Microsoft Works document, not a Kingsoft WPS one: {label} from Works is not "
                "supported",
            ),
        ),
        (
            re.compile(
                r"not an? (?P<label>.+) \(no compound-file header\)$",
                re.S,
            ),
            QCoreApplication.translate(
                "Reasons",
                "not a {label} (no compound-file header)",
            ),
        ),
        (
            re.compile(
                r"not an? (?P<label>[^:]+): a zip \(Office Open XML\) file with an? "
                r"(?P<name>.+) name$",
                re.S,
            ),
            QCoreApplication.translate(
                "Reasons",
                "not a {label}: a zip (Office Open XML) file with a {name} name",
            ),
        ),
        (
            re.compile(
                r"not an? (?P<label>[^:]+): legacy binary Office document \(OLE\) with an? "
                r"(?P<name>.+) name$",
                re.S,
            ),
            QCoreApplication.translate(
                "Reasons",
                "not a {label}: legacy binary Office document (OLE) with a {name} name",
            ),
        ),
        (
            re.compile(
                r"not an? (?P<label>[^:]+): the compound file holds (?P<detail>.*)$",
                re.S,
            ),
            QCoreApplication.translate(
                "Reasons",
                "not a {label}: the compound file holds {detail}",
            ),
        ),
        (
            re.compile(
                r"unexpected error: (?P<detail>.*)$",
                re.S,
            ),
            QCoreApplication.translate(
                "Reasons",
                "unexpected error: {detail}",
            ),
        ),
        (
            re.compile(
                r"not read: (?P<kind>.+) \(\.(?P<ext>[^)]*)\) is a type this app cannot read$",
                re.S,
            ),
            QCoreApplication.translate(
                "Reasons",
                "not read: {kind} (.{ext}) is a type this app cannot read",
            ),
        ),
        (
            re.compile(
                r"OCR failed: (?P<detail>.*)$",
                re.S,
            ),
            QCoreApplication.translate(
                "Reasons",
                "OCR failed: {detail}",
            ),
        ),
        (  # core/workers.py, core/pipeline.py and core/scanning.py: a reader's budget
            re.compile(
                r"took longer than (?P<limit>.+?) to read its (?P<pages>[\d,]+) pages; "
                r"skipped$",
                re.S,
            ),
            QCoreApplication.translate(
                "Reasons",
                "took longer than {limit} to read its {pages} pages; skipped",
            ),
        ),
        (
            re.compile(r"took longer than (?P<limit>.+?) to read; skipped$", re.S),
            QCoreApplication.translate(
                "Reasons",
                "took longer than {limit} to read; skipped",
            ),
        ),
        (
            re.compile(r"needs more than (?P<limit>.+?) to read; skipped$", re.S),
            QCoreApplication.translate(
                "Reasons",
                "needs more than {limit} to read; skipped",
            ),
        ),
        (
            re.compile(r"larger than the (?P<limit>.+?) limit \((?P<size>.+?)\); skipped$", re.S),
            QCoreApplication.translate(
                "Reasons",
                "larger than the {limit} limit ({size}); skipped",
            ),
        ),
        (  # core/ocr.py and core/workers.py: OCR of scanned PDF pages
            re.compile(r"OCR failed on page (?P<page>\d+): (?P<detail>.*)$", re.S),
            QCoreApplication.translate(
                "Reasons",
                "OCR failed on page {page}: {detail}",
            ),
        ),
        (
            re.compile(r"OCR took longer than (?P<limit>.+?) on page (?P<page>\d+)\b.*$", re.S),
            QCoreApplication.translate(
                "Reasons",
                "OCR took longer than {limit} on page {page}; skipped (the pages read so far "
                "are kept for the next scan)",
            ),
        ),
        (
            re.compile(r"OCR took longer than (?P<limit>.+?) in all\b.*$", re.S),
            QCoreApplication.translate(
                "Reasons",
                "OCR took longer than {limit} in all; skipped (the pages read so far are kept "
                "for the next scan)",
            ),
        ),
    ]


def reason_translator() -> Callable[[str], str]:
    """:func:`translate_reason` with the interface language's text looked up now: a function
    of plain Python, which another thread may call (the report is written off the GUI thread)."""
    exact, patterns = _exact(), _patterns()

    def translate(reason: str) -> str:
        if not reason:
            return reason
        found = exact.get(reason)
        if found is not None:
            return found
        for pattern, template in patterns:
            match = pattern.match(reason)
            if match:
                parts = {k: v or "" for k, v in match.groupdict().items()}
                parts.setdefault("detail", "")
                parts.setdefault("label", "")
                text = template.format(**parts)
                return text[:-2] if text.endswith(": ") else text
        return reason

    return translate


def translate_reason(reason: str) -> str:
    """``reason`` (as the core wrote it) in the interface language."""
    return reason_translator()(reason)


def action_label(action: str) -> str:
    """A journal action ("trash", "move") as a word of the interface language."""
    labels = {
        "trash": QCoreApplication.translate(
            "Reasons",
            "moved to the trash",
        ),
        "move": QCoreApplication.translate(
            "Reasons",
            "moved to a folder",
        ),
        "hardlink": QCoreApplication.translate(
            "Reasons",
            "replaced by a hard link",
        ),
        "restore": QCoreApplication.translate(
            "Reasons",
            "restored",
        ),
    }
    return labels.get(action, action)
