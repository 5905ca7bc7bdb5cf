"""Plain data that crosses layers (store <-> service <-> GUI/CLI). No behaviour, no Qt."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum

# Extensions scanned by default, lower case without the dot.
DEFAULT_EXTENSIONS: tuple[str, ...] = (
    "txt",
    "text",
    "md",
    "markdown",
    "rst",
    "html",
    "htm",
    "xhtml",
    "docx",
    "odt",
    "rtf",
    "epub",
    "pdf",
    "doc",
    "wps",
    "odp",
    "xlsx",
    "xlsm",
    "xlsb",
    "xls",
    "et",
    "ods",
    "ppt",
    "dps",
    "pptx",
    "pptm",
    "mobi",
    "azw",
    "prc",
    "azw3",
    "fb2",
    "eml",
    "mht",
    "mhtml",
)

# Document types no reader handles yet. A scan records each such file as a problem instead of
# passing over it in silence, so a person knows which part of an archive was not compared.
# (Extensions shared with common non-documents, such as .key and .pub for keys, are left out.)
UNREAD_DOCUMENT_TYPES: dict[str, str] = {
    "msg": "Outlook message",
    "hwp": "Hangul document",
    "hwpx": "Hangul document",
    "pages": "Apple Pages document",
    "numbers": "Apple Numbers spreadsheet",
    "xps": "XPS document",
    "oxps": "XPS document",
    "djvu": "DjVu document",
    "chm": "compiled HTML help",
    "wpd": "WordPerfect document",
    "caj": "CNKI CAJ document",
    "kdh": "CNKI document",
    "vsd": "Visio drawing",
    "vsdx": "Visio drawing",
    "one": "OneNote section",
    "ps": "PostScript document",
    "lit": "Microsoft Reader e-book",
    "kfx": "Kindle KFX e-book",
    "sxw": "OpenOffice.org 1 text document",
    "wri": "Windows Write document",
}

# Glob patterns (fnmatch, matched against each path component's name) skipped while walking.
DEFAULT_EXCLUDES: tuple[str, ...] = (
    ".git",
    ".hg",
    ".svn",
    "node_modules",
    "__pycache__",
    ".venv",
    "venv",
    ".tox",
    ".Trash",
    ".Trash-*",
    "$RECYCLE.BIN",
    "System Volume Information",
    ".cache",
    "~$*",  # Office lock files
    ".~lock.*#",  # LibreOffice lock files
)

# Matching (grouping.py): candidates come from the simhash index within this many bits, and a
# pair is a near duplicate when the verified share of common text (sketch.py) reaches the
# user's threshold.
DEFAULT_CANDIDATE_DISTANCE = 10
MAX_SUPPORTED_DISTANCE = 12
DEFAULT_MIN_SIMILARITY = 0.75
MIN_SUPPORTED_SIMILARITY = 0.5


def check_similarity(value: float) -> float:
    """The one validation of a similarity threshold: a share in [0.5, 1] (percent / 100)."""
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"similarity threshold {value!r} is not a number") from None
    if not MIN_SUPPORTED_SIMILARITY <= v <= 1.0:
        raise ValueError(
            f"similarity threshold must be between {MIN_SUPPORTED_SIMILARITY:.0%} and 100%"
        )
    return v


class GroupKind(StrEnum):
    IDENTICAL = "identical"  # every member has the same bytes
    SAME_TEXT = "same_text"  # every member has the same normalised text (formats may differ)
    NEAR = "near"  # every member shares at least the threshold's share of text with every other


class DocStatus(StrEnum):
    OK = "ok"  # fingerprinted
    SHORT = "short"  # text too short for a meaningful simhash: matched only as identical/same text
    PROBLEM = "problem"  # skipped; see error reason


@dataclass(frozen=True, slots=True)
class ScanOptions:
    roots: tuple[str, ...]
    reference_roots: tuple[str, ...] = ()
    extensions: tuple[str, ...] = DEFAULT_EXTENSIONS
    exclude_globs: tuple[str, ...] = DEFAULT_EXCLUDES
    min_size: int = 1
    max_size: int = 2 * 1024**3
    follow_symlinks: bool = False
    # More extensions read as plain text (issue 9 item 7): "log", "nfo", ...
    text_extensions: tuple[str, ...] = ()
    max_distance: int = DEFAULT_CANDIDATE_DISTANCE
    min_similarity: float = DEFAULT_MIN_SIMILARITY
    workers: int | None = None  # None: one per core


@dataclass(frozen=True, slots=True)
class FileEntry:
    """A candidate file found by walking the roots (no content read yet)."""

    path: str  # absolute, resolved
    size: int
    mtime_ns: int
    ext: str  # lower case, no dot
    # Content hashes this scan already read from files of this size and extension: a file whose
    # bytes hash to one of them is a copy, and is not extracted again (set as it is sent to a
    # reader, see DedupService._read_files).
    read_copies: tuple[str, ...] = ()


@dataclass
class FilterCounts:
    """What the scan's filters passed over, counted so that nothing is skipped silently."""

    by_extension: dict[str, int] = field(default_factory=dict)  # a type not scanned: ext -> files
    excluded_files: int = 0  # the name matches an exclude pattern
    excluded_folders: int = 0  # (their files are not counted: they are not listed at all)
    too_small: int = 0  # under the minimum size (empty files are listed as problems)
    not_text: int = 0  # without an extension, and not text
    scripts: int = 0  # without an extension, a program (#!): as a .sh or .py file is
    hard_links: int = 0  # another name of a file already listed

    @property
    def other_types(self) -> int:
        return sum(self.by_extension.values())

    @property
    def total(self) -> int:
        return (
            self.other_types
            + self.excluded_files
            + self.too_small
            + self.not_text
            + self.scripts
            + self.hard_links
        )

    def as_dict(self) -> dict:
        return {
            "other_types": self.other_types,
            "by_extension": dict(sorted(self.by_extension.items(), key=lambda kv: -kv[1])),
            "excluded_files": self.excluded_files,
            "excluded_folders": self.excluded_folders,
            "too_small": self.too_small,
            "not_text": self.not_text,
            "scripts": self.scripts,
            "hard_links": self.hard_links,
        }


@dataclass(frozen=True, slots=True)
class Problem:
    path: str
    reason: str


@dataclass(frozen=True, slots=True)
class KeptFolder:
    """A folder (or a path) the last scan could not read, whose files the index keeps as that
    scan found them: why, and how many."""

    path: str
    files: int
    reason: str


@dataclass(slots=True)
class Member:
    doc_id: int
    path: str
    size: int
    modified: datetime  # aware, UTC
    format: str
    is_reference: bool
    distance: int  # simhash bits to the reference (0 for the same text; -1: not compared by bits)
    similarity: float  # verified share of common text with the reference, in [0, 1]
    content_hash: str = ""  # xxh3-128 hex of the bytes
    in_reference_folder: bool = False
    # in a listed folder the last scan could not read (a drive unplugged): kept as last scanned
    in_unread_folder: bool = False


@dataclass(slots=True)
class CloseDocument:
    """A document in no group that is verified the same as one member of a group but not as
    every member (the rule against chaining keeps it out): shown with that group, never
    counted or marked as one of its duplicates."""

    doc_id: int
    path: str
    size: int
    modified: datetime  # aware, UTC
    format: str
    member_id: int  # the member it is closest to
    member_path: str
    similarity: float  # its verified share of common text with that member, in [0, 1]
    in_reference_folder: bool = False  # never marked, as a member there (marking.is_markable)


@dataclass(slots=True)
class Group:
    id: int
    kind: GroupKind
    members: list[Member] = field(default_factory=list)
    close: list[CloseDocument] = field(default_factory=list)  # closest first

    @property
    def reference(self) -> Member:
        return next(m for m in self.members if m.is_reference)

    @property
    def reclaimable_size(self) -> int:
        return sum(m.size for m in self.members if not m.is_reference)


@dataclass(slots=True)
class ScanSummary:
    files_seen: int = 0
    files_fingerprinted: int = 0  # newly read this scan
    files_reused: int = 0  # unchanged (size+mtime) or moved (same content hash)
    # Of files_fingerprinted: unchanged, read again because their stored fingerprint was made
    # by another version (an update that reads or fingerprints files differently).
    files_read_again: int = 0
    files_removed: int = 0  # gone from disk, dropped from the index
    # In folders this scan could not read (not found, not listable, a mount point left empty):
    # kept as the last scan left them, since nothing says they are gone (DedupService.scan).
    files_kept: int = 0
    bytes_read: int = 0
    text_bytes: int = 0
    groups: int = 0
    duplicate_documents: int = 0
    reclaimable_size: int = 0  # of the groups this scan counted (grouped by its settings)
    close_documents: int = 0  # in no group, close to one (Group.close)
    problems: list[Problem] = field(default_factory=list)
    cancelled: bool = False
    seconds: float = 0.0
    # Marked files whose content changed since they were marked: their marks were dropped.
    marks_dropped: list[str] = field(default_factory=list)
    # What the filters (types, exclude patterns, sizes) passed over: counted, not listed.
    filtered: FilterCounts = field(default_factory=FilterCounts)
