"""Document fingerprints: TF-IDF weighted 64-bit Charikar simhash over jieba tokens.

Pipeline for one document (see text.py for the first two steps)::

    raw text -> normalize_text -> segment (jieba, HMM off) -> features -> minus edge lines
             -> weights -> simhash

Edge lines
    Copies of a document that travelled (reposted pages, conversions to PDF/DOCX/Markdown) gain
    lines at their two ends: a title (often the file name), an advertising banner, a disclaimer
    or a "follow us" footer. In a short document such a line moves the fingerprint more than a
    typical edit does, so the first and last lines are *peeled* while they look like such an
    addition, and their tokens do not take part. A line is peelable when it is

    * short: at most ``EDGE_SHORT_TOKENS`` content tokens (a title, a heading, a page number), or
    * foreign: at most ``EDGE_MAX_SHARED`` of its content tokens occur anywhere else in the
      document, not counting other copies of the same line (a banner is about something else
      than the text it was glued to, and is often glued to both ends).

    Peeling stops at the first line that is neither, at a line of more than
    ``EDGE_MAX_LINE_TOKENS`` tokens (a paragraph of the text itself, whatever its vocabulary),
    after ``EDGE_MAX_LINES`` lines with content, and before the tokens peeled at that end would
    exceed ``EDGE_MAX_SHARE`` of the document. Each end has its own budget, so a banner added at
    the top cannot change what is peeled at the bottom.
    Because it stops at the first *real* line, two copies that differ only by an added title or
    banner peel down to the same place, so the rule is symmetric; a real opening heading is peeled
    from both copies alike. Lines are those of the extracted text after undoing fixed-width hard
    wraps (text.py), and every limit is in tokens, so that the same text in another format peels
    alike. Measured on the public corpus (mean over 8 xxhash seeds, so that the numbers are not
    one hash's luck): pair recall at k = 3 went from 0.93 to 0.98, on the English and Chinese
    halves and on either half of the article ids alike, with no false pair.

Features
    Tokens that contain a letter or an ideograph. Dropped: white space, punctuation, tokens
    containing a digit (numbers, dates, versions and counters change between copies of the same
    document and say nothing about what it is), single Latin letters, single hiragana (the
    segmenter gives each kana of a Japanese particle or ending on its own: as words, they made
    every line of a Japanese text share most of its words with every other, so no banner could
    be told from the text, and they filled the word pairs), and stop words (stopwords.py).

Weights  ``w(t) = tf(t)^TF_EXPONENT * idf(t)``, then capped at ``MAX_FEATURE_SHARE`` of the total
    * IDF: jieba's table (``jieba/analyse/idf.txt``) for words it knows; unknown Chinese words
      get the table's median, as jieba.analyse does. The table has no Latin words at all, so every
      Latin word gets that median too (:func:`latin_idf`); English stop words are removed instead
      of relying on IDF. (Other constants, and IDF^2 or IDF^0.5, measured no better.)
    * Term frequency is squared: a near-duplicate keeps its repeated topic words (their counts
      move by one or two), while edits, a reposting banner or a footer add words that occur once.
      Squaring concentrates the weight on what both copies share, which is what keeps their
      fingerprints within a few bits. Linear TF (the seeds' recipe) lets the once-only words
      decide too many bits. Measured: TF^1 0.87, TF^1.5 0.90, TF^2 0.93, TF^3 0.90 recall before
      edge peeling; log and BM25-style saturation 0.76-0.78.
    * No single feature may hold more than ``MAX_FEATURE_SHARE`` of the total weight, measured
      after capping (:func:`share_cap`): otherwise a document dominated by one word (a command
      name repeated 40 times) takes that word's hash as its fingerprint and collides with every
      other document about the same word. The cap also makes a title or heading that adds one
      more occurrence of the top word cost nothing.
    * All features take part (no top-N cut): a top-N boundary makes features flip in and out of
      the set under small edits, which costs more bits than the tail's tiny weights.

Simhash
    Each feature is hashed to 64 bits with xxh64; bit i of the fingerprint is 1 when the weighted
    sum of +w (hash bit 1) and -w (hash bit 0) is positive. Stored as a signed 64-bit integer.

Documents with fewer than ``MIN_FEATURES`` distinct features are *short*: their simhash is too
noisy to mean anything, so they are matched only as identical bytes or the same text.
"""

from __future__ import annotations

import json
import logging
import operator
import re
import statistics
import sys
import threading
from array import array
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from itertools import compress, repeat
from pathlib import Path

import numpy as np
import xxhash

from desktop_dedup.core import stopwords
from desktop_dedup.core import text as text_mod
from desktop_dedup.core.cache import cached_path, content_key, shipped_table, write_whole
from desktop_dedup.core.rows import FINGERPRINT_VERSION
from desktop_dedup.core.sketch import (
    EDGE_LINES_TAGGED,
    SKETCH_SIZE,
    distinct_line_ids,
    make_sketch,
)
from desktop_dedup.core.text import (
    has_chinese,
    jieba_folder,
    normalize_lines,
    normalize_unwrapped,
    segment,
    text_hash,
    unwrap_fixed_width,
)

log = logging.getLogger(__name__)

# A change below that changes the fingerprint of some text bumps rows.FINGERPRINT_VERSION.
TF_EXPONENT = 2.0
MAX_FEATURE_SHARE = 0.10
MIN_FEATURES = 8
# Edge-line peeling (see the module docstring).
EDGE_SHORT_TOKENS = 3
EDGE_MAX_SHARED = 0.2
EDGE_MAX_LINES = 3
EDGE_MAX_SHARE = 0.2  # per end
EDGE_MAX_LINE_TOKENS = 20  # a banner is one sentence; a longer line is the text itself
EDGE_SCAN_LINES = 12  # lines looked at per end when checking for a repeated banner
# A document's head: its first HEAD_WORDS words, as a reader meets them; the words of a web
# address there (a read-me's badges, which change from release to release) are read past, not
# kept. A page of one template names itself there (a manual page's header and NAME, a command
# reference's title), where a revision keeps its title when it renames a word throughout
# (sketch.substituted).
HEAD_WORDS = 20
_HEAD_TOKENS = 300  # tokens looked at, at most: spaces, marks, a badge's address among them

_LETTER = re.compile(r"[^\W\d_]")
_CJK = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f]")


@dataclass(frozen=True, slots=True)
class Fingerprint:
    simhash: int | None  # signed 64-bit; None for short documents
    text_hash: str  # words-only hash of the normalised text (same-text matching)
    token_count: int  # content tokens (after filtering), for display and the short rule
    feature_count: int  # distinct content tokens
    sketch: bytes = b""  # sketch.TextSketch of the body's word shingles, serialised
    shingle_count: int = 0  # distinct shingles of the body (what makes a document "short")
    # a short document's lines (sketch.line_ids, distinct, no zeros): the store indexes them,
    # and they are made here, in the readers, not in the process that writes the rows
    lines: tuple[int, ...] = ()


def _hash(word: str) -> int:
    """A word's 64-bit hash: a feature's in the simhash and the sketch, and the key of its IDF."""
    return xxhash.xxh64_intdigest(word.encode("utf-8", "surrogatepass"))


@dataclass(frozen=True)
class IdfTable:
    """jieba's IDF table as two arrays, the sorted 64-bit hashes of its words (xxh64, as the
    features are hashed) and their IDFs, plus its median: the arrays load from the cache in
    milliseconds, where a dict of its 270,000 words took a tenth of a second of every scan's
    start-up (and parsing the file a quarter). ``exact`` holds the words whose hashes collide,
    if any ever do (none in jieba's table)."""

    hashes: np.ndarray
    values: np.ndarray
    median: float
    exact: dict[str, float]

    def idfs(self, words: list[str], hashes: list[int], listed: list[bool]) -> list[float]:
        """:meth:`idf` of each of ``words`` (``hashes`` their xxh64) where ``listed`` says it
        may be in the table (a word of Chinese characters), else the median; all at once."""
        if not len(self.hashes):
            pairs = zip(words, listed, strict=True)
            return [self.exact.get(w, self.median) if ok else self.median for w, ok in pairs]
        at, found = self._lookup(np.array(hashes, dtype=np.uint64))
        found &= np.array(listed, dtype=bool)
        values = np.where(found, self.values[at], self.median).tolist()
        if self.exact:
            for k, word in enumerate(words):
                if listed[k] and word in self.exact:
                    values[k] = self.exact[word]
        return values

    def holds(self, words: list[str]) -> list[bool]:
        """Whether each of ``words`` is listed in the table."""
        if not words:
            return []
        if not len(self.hashes):
            return [w in self.exact for w in words]
        _, found = self._lookup(np.fromiter(map(_hash, words), dtype=np.uint64, count=len(words)))
        return [ok or w in self.exact for ok, w in zip(found.tolist(), words, strict=True)]

    def _lookup(self, hashes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Where each of ``hashes`` is in the sorted table, and whether it is there."""
        at = np.minimum(self.hashes.searchsorted(hashes), len(self.hashes) - 1)
        return at, self.hashes[at] == hashes

    def idf(self, word: str, word_hash: int) -> float:
        """The IDF of ``word`` (``word_hash`` its xxh64), or the median when it is not listed."""
        return self.idfs([word], [word_hash], [True])[0]

    @classmethod
    def from_words(cls, words: list[str], values: list[float]) -> IdfTable:
        hashes = np.fromiter(map(_hash, words), dtype=np.uint64, count=len(words))
        idf = np.asarray(values, dtype=np.float64)
        order = np.argsort(hashes, kind="stable")
        hashes, idf = hashes[order], idf[order]
        repeated = np.flatnonzero(hashes[1:] == hashes[:-1])
        exact: dict[str, float] = {}
        if len(repeated):  # a collision: those words are looked up by name
            clash = set(hashes[repeated].tolist())
            exact = {w: v for w, v in zip(words, values, strict=True) if _hash(w) in clash}
            keep = ~np.isin(hashes, np.fromiter(clash, dtype=np.uint64))
            hashes, idf = hashes[keep], idf[keep]
        return cls(hashes, idf, statistics.median(values) if values else 0.0, exact)

    _MAGIC = b"DDIDF1\0\0"

    def to_bytes(self) -> bytes:
        extra = json.dumps(self.exact, ensure_ascii=False).encode("utf-8")
        head = np.array([self.median], dtype=np.float64).tobytes()
        sizes = np.array([len(self.hashes), len(extra)], dtype=np.uint64).tobytes()
        return b"".join(
            (self._MAGIC, head, sizes, self.hashes.tobytes(), self.values.tobytes(), extra)
        )

    @classmethod
    def from_bytes(cls, data: bytes) -> IdfTable:
        """Raises ValueError unless ``data`` is a whole table written by :meth:`to_bytes`."""
        start = len(cls._MAGIC) + 24
        if len(data) < start or not data.startswith(cls._MAGIC):
            raise ValueError("not an IDF table")
        median = float(np.frombuffer(data, np.float64, 1, len(cls._MAGIC))[0])
        n, n_extra = (int(x) for x in np.frombuffer(data, np.uint64, 2, len(cls._MAGIC) + 8))
        if n == 0 or len(data) != start + 16 * n + n_extra:
            raise ValueError("IDF table cut short")
        hashes = np.frombuffer(data, np.uint64, n, start)
        values = np.frombuffer(data, np.float64, n, start + 8 * n)
        exact = json.loads(data[start + 16 * n :].decode("utf-8"))
        return cls(hashes, values, median, exact)


class _Idf:
    _lock = threading.Lock()
    table: IdfTable | None = None

    @classmethod
    def get(cls) -> IdfTable:
        if cls.table is None:
            with cls._lock:
                if cls.table is None:
                    cls.table = _load_idf(_idf_path())
        return cls.table


IDF_KIND = "idf"  # its name in the cache and among the shipped tables


def _load_idf(path: Path) -> IdfTable:
    """jieba's IDF file as an :class:`IdfTable`, from this user's cache when it holds the
    table of this very file (parsing it costs 0.2 s, loading the cached arrays milliseconds);
    a cache that is missing, cut short or foreign is written again, from the table the build
    made when it was made from the same file (cache.shipped_table), else by parsing."""
    try:
        cached = cached_path(IDF_KIND, ".bin", path)
    except OSError:  # the IDF file itself is unreadable: parsing it says why
        return _parse_idf(path)
    try:
        return IdfTable.from_bytes(cached.read_bytes())
    except (OSError, ValueError, UnicodeDecodeError):  # absent, partly written or foreign
        pass
    table = _shipped_idf(path)
    if table is None:
        table = _parse_idf(path)
    write_whole(cached, table.to_bytes())
    return table


def idf_key(path: Path) -> str:
    """What an IDF table made from ``path`` depends on: the file's bytes, the arrays' format
    and this machine's byte order (cache.content_key)."""
    return content_key(path, extra=f"{IdfTable._MAGIC!r} {sys.byteorder}")


def _shipped_idf(path: Path) -> IdfTable | None:
    try:
        data = shipped_table(IDF_KIND, ".bin", idf_key(path))
        return None if data is None else IdfTable.from_bytes(data)
    except (OSError, ValueError, UnicodeDecodeError):  # unreadable, or cut short
        return None


def _parse_idf(path: Path) -> IdfTable:
    # Read as one string and split once: parsing 270,000 lines one by one cost every scan
    # worker about 0.3 s at start-up.
    with path.open(encoding="utf-8") as f:
        fields = f.read().split()
    return IdfTable.from_words(fields[0::2], list(map(float, fields[1::2])))


def _idf_path() -> Path:
    """jieba's IDF table."""
    return jieba_folder() / "analyse" / "idf.txt"


def idf_table() -> IdfTable:
    """jieba's IDF table (loaded once per process)."""
    return _Idf.get()


# Latin words are not in jieba's table; they all get this IDF (the table's median, the value
# jieba gives any unknown word). Stop words are removed before weighting.
def latin_idf() -> float:
    return idf_table().median


# What a token contributes, computed once per process: an id into the arrays of IDFs and 64-bit
# hashes below, or -1 when the token is not a feature. A collection's vocabulary repeats from
# document to document, so this replaces per-token regexes, an IDF lookup and a hash call with
# one dict lookup in a list comprehension, and lets numpy gather IDFs and hashes (the per-token
# Python work was most of the fingerprinting time). Bounded: reset when it grows too large.
_TOKEN_ID: dict[str, int] = {}
_TOKEN_IDF: array[float] = array("d")
_TOKEN_HASH: array[int] = array("Q")
_TOKEN_STR: list[str] = []  # each feature's token, by id
_TOKEN_ID_MAX = 2_000_000
# a token's kind (stopwords.word_kind), kept as its id until it is a feature: no feature yet
# (its id is looked up, given one when it is a feature), no feature, an identifier with digits
_UNKNOWN = stopwords.WORD
_NOT_FEATURE = stopwords.NOT_A_WORD
_IDENT = stopwords.NAME_WITH_DIGITS  # not a feature, but an identifier (see fingerprint_text)
_kind = stopwords.word_kind


def _add_tokens(new: Iterable[str]) -> None:
    """Give each of these tokens, none of them in the tables yet, its id: a feature's IDF and
    hash join the tables, all the new features' IDFs looked up at once."""
    features = []
    for tok in new:
        kind = _TOKEN_ID[tok] = _kind(tok)
        if kind == _UNKNOWN:
            features.append(tok)
    if not features:
        return
    hashes = list(map(_hash, features))
    first = len(_TOKEN_IDF)
    chinese = list(map(bool, map(_CJK.search, features)))  # only those can be in the table
    _TOKEN_IDF.extend(idf_table().idfs(features, hashes, chinese))
    _TOKEN_HASH.extend(hashes)
    _TOKEN_STR.extend(features)
    _TOKEN_ID.update(zip(features, range(first, first + len(features)), strict=True))


def _reset_if_full() -> None:
    """Empty the token tables when they grew too large: only between documents, never while
    one is fingerprinted (its ids would then point into the emptied tables)."""
    if len(_TOKEN_ID) > _TOKEN_ID_MAX:
        _TOKEN_ID.clear()
        del _TOKEN_IDF[:], _TOKEN_HASH[:], _TOKEN_STR[:]


def _token_ids(tokens: Iterable[str]) -> list[int]:
    tokens = list(tokens)
    # map() over the bound dict.get runs the loop in C (a list comprehension runs bytecode).
    ids = list(map(_TOKEN_ID.get, tokens, repeat(_UNKNOWN, len(tokens))))
    if _UNKNOWN in ids:
        _add_tokens(dict.fromkeys(compress(tokens, map(operator.eq, ids, repeat(_UNKNOWN)))))
        ids = list(map(_TOKEN_ID.__getitem__, tokens))
    return ids


def content_counts(tokens: list[str]) -> Counter[str]:
    """Count the tokens that take part in the fingerprint (see the module docstring)."""
    every = Counter(tokens)
    # Most tokens of a line are spaces and punctuation: building the counts of the rest is
    # cheaper than deleting those from a copy.
    counts: Counter[str] = Counter()
    dict.update(counts, compress(every.items(), [i >= 0 for i in _token_ids(every)]))
    return counts


# The content counts and width of the lines edge peeling has segmented, kept across the
# documents one process reads, by line and how it was read (script folded or not, segmenter):
# a line's counts depend on the line alone (_Lines.prefetch). Titles, banners, signatures and
# the lines of a copy's short notes recur: in the public corpora, read by two processes, 40 %
# of the lines peeling segmented had been segmented before in the same process. The counters
# are shared, so nothing may change them (peeling only reads them). Bounded: emptied when
# full, and a line longer than a paragraph is not kept.
_LINE_MEMO: dict[tuple[str, tuple[bool | None, bool]], tuple[Counter[str], int]] = {}
_LINE_MEMO_MAX = 20_000
_LINE_MEMO_CHARS = 1_000


class _Lines:
    """A document's lines as edge peeling sees them: the stripped lines with text of its
    unwrapped text, and each line's content counts, computed once per distinct line however
    many peels ask (a short document is peeled three ways)."""

    __slots__ = (
        "lines", "near_ends", "_counts", "_widths", "_prefer_rjieba", "_chinese", "_occurrences"
    )  # fmt: skip

    def __init__(self, unwrapped: str, prefer_rjieba: bool, chinese: bool | None) -> None:
        # filter/map run in C: a long document has thousands of lines, and edge peeling
        # needs their count and both ends.
        self.lines = list(filter(None, map(str.strip, unwrapped.splitlines())))
        self.near_ends = Counter(self.lines[:EDGE_SCAN_LINES] + self.lines[-EDGE_SCAN_LINES:])
        self._counts: dict[str, Counter[str]] = {}
        self._widths: dict[str, int] = {}  # characters other than spaces, normalised
        self._prefer_rjieba = prefer_rjieba
        self._chinese = chinese
        self._occurrences: Counter[str] | None = None

    def occurrences(self, line: str) -> int:
        """How many times ``line`` occurs in the document: counted once for all its lines,
        the first time a line near both ends is asked about. Peeling walks every line without
        words at an end (10,000 empty rows of a CSV export), and counting the line anew for
        each took 4-5 s."""
        if self._occurrences is None:
            self._occurrences = Counter(self.lines)
        return self._occurrences[line]

    def counts(self, i: int) -> Counter[str]:
        found = self._counts.get(self.lines[i])
        if found is None:
            self.prefetch([i])
            found = self._counts[self.lines[i]]
        return found

    def prefetch(self, indexes: Iterable[int]) -> None:
        """Compute the counts of these lines together: one normalisation and one segmentation
        of them all, split at the line breaks (text.normalize_lines; jieba never joins tokens
        across a line break), instead of one of each per line. A line this process has seen
        before, in this document or another, is not computed again (_LINE_MEMO)."""
        todo = list(dict.fromkeys(self.lines[i] for i in indexes))
        todo = [line for line in todo if line not in self._counts]
        if not todo:
            return
        how = (self._chinese, self._prefer_rjieba)
        left = []
        for line in todo:
            known = _LINE_MEMO.get((line, how))
            if known is None:
                left.append(line)
            else:
                self._counts[line], self._widths[line] = known
        if left:
            self._compute(left)
            if len(_LINE_MEMO) + len(left) > _LINE_MEMO_MAX:
                _LINE_MEMO.clear()
            for line in left:
                if len(line) <= _LINE_MEMO_CHARS:
                    _LINE_MEMO[(line, how)] = (self._counts[line], self._widths[line])

    def _compute(self, todo: list[str]) -> None:
        normalized = normalize_lines(todo, fold=self._chinese)
        for line, text in zip(todo, normalized, strict=True):
            self._widths[line] = len(text) - text.count(" ")
        tokens = segment("\n".join(normalized), self._prefer_rjieba)
        if tokens.count("\n") != len(todo) - 1:  # a segmenter that kept a break in a token
            for line, text in zip(todo, normalized, strict=True):
                self._counts[line] = content_counts(segment(text, self._prefer_rjieba))
            return
        ids = _token_ids(tokens)
        at = 0
        counts: Counter[str] = Counter()
        for tok, i in zip(tokens, ids, strict=True):
            if tok == "\n":
                self._counts[todo[at]] = counts
                at += 1
                counts = Counter()
            elif i >= 0:
                counts[tok] += 1
        self._counts[todo[at]] = counts

    def line_of_tokens(self, starts: np.ndarray) -> np.ndarray:
        """The line (among the lines with content) each of the whole text's content tokens
        begins in, from where it begins (``starts``, counted in characters other than spaces
        of the normalised text, as _segmented gives them). Counting each line's tokens instead
        went wrong after a word the whole text joins across a line break (ディレクトリ at a
        line's end, スタック at the next one's start: one word of the text, two of its
        lines): every later line took a token of the next, and a footer below a note was not
        the same line under another note. A token of a line without content goes with the
        line with content before it."""
        n = len(self.lines)
        if n == 0:
            return np.zeros(len(starts), dtype=np.int64)
        ends = np.cumsum([self._widths[line] for line in self.lines], dtype=np.int64)
        has = np.fromiter((bool(self.counts(i)) for i in range(n)), dtype=bool, count=n)
        line = np.minimum(np.searchsorted(ends, starts, side="right"), n - 1)
        among = np.cumsum(has) - 1  # each line's place among those with content
        return np.maximum(among[line], 0)

    def copies(self, i: int) -> int:
        """How many times line ``i`` occurs, when it occurs twice near the ends (a banner glued
        above and below), else 1."""
        line = self.lines[i]
        return self.occurrences(line) if self.near_ends[line] > 1 else 1


def _is_peelable(line: Counter[str], doc: Counter[str], copies: int) -> bool:
    """Short, or foreign: few of its tokens occur in ``doc`` outside the ``copies`` of the line."""
    size = sum(line.values())
    if size <= EDGE_SHORT_TOKENS:
        return True
    shared = sum(n for tok, n in line.items() if doc[tok] > n * copies)
    return shared <= EDGE_MAX_SHARED * size


def edge_counts(raw_text: str, doc: Counter[str], prefer_rjieba: bool = True) -> Counter[str]:
    """Content tokens of the titles/banners/footers peeled from both ends of ``raw_text``.

    ``doc`` holds the content counts of the whole document. Each end is peeled line by line
    (blank lines skipped), stopping at the first line that is neither short nor foreign, so that
    the result does not depend on what was added before it. "Elsewhere" for a line means the
    document without every copy of that line: a banner glued to both ends must not vouch for
    itself.
    """
    lines = _Lines(unwrap_fixed_width(raw_text), prefer_rjieba, None)
    peeled = _peel_edges(lines, doc)
    assert peeled is not None  # with a budget there is always an answer
    return peeled[0]


def _peel_edges(
    doc_lines: _Lines, doc: Counter[str], *, max_share: float | None = EDGE_MAX_SHARE
) -> tuple[Counter[str], int, int] | None:
    """:func:`edge_counts`, plus how many content tokens were peeled at the head and the tail
    (the sketch drops that many tokens from each end of the document's token sequence).

    ``max_share`` is each end's budget; ``None`` peels every peelable edge line whatever its
    share (a short document's *core*), and returns None unless peeling stops at a line of the
    text itself at both ends."""
    lines = doc_lines.lines
    counts_of = doc_lines.counts
    budget = float("inf") if max_share is None else max_share * sum(doc.values())
    peeled: Counter[str] = Counter()

    def first_with_content(indexes: range) -> int:
        return next((i for i in indexes if sum(counts_of(i).values())), -1)

    head_lines = set(lines[:EDGE_SCAN_LINES])
    tail_lines = set(lines[-EDGE_SCAN_LINES:])

    def peel(indexes: range, keep: int, wrappers_only: bool = False) -> tuple[int, int, bool]:
        """Lines and tokens peeled, and whether peeling stopped at a line of the text itself.
        ``wrappers_only``: only lines found near both ends (a banner glued above and below)."""
        used = 0  # each end has its own budget: what one end peels must not change the other
        taken = with_content = 0
        for i in indexes:
            counts = counts_of(i)
            size = sum(counts.values())
            if i == keep:
                return taken, used, False
            if with_content >= EDGE_MAX_LINES or size > EDGE_MAX_LINE_TOKENS:
                return taken, used, True
            if used + size > budget:
                break
            if wrappers_only and not (
                lines[i] in head_lines
                and lines[i] in tail_lines
                and doc_lines.occurrences(lines[i]) > 1
            ):
                return taken, used, True
            if not _is_peelable(counts, doc, doc_lines.copies(i)):
                return taken, used, True
            peeled.update(counts)
            used += size
            taken += 1
            with_content += size > 0
        return taken, used, False

    if max_share is not None:
        head, head_tokens, _ = peel(range(len(lines)), -1)
        _, tail_tokens, _ = peel(range(len(lines) - 1, head - 1, -1), -1)
        return peeled, head_tokens, tail_tokens
    # The core: both ends must stop at a line of the text, or there is no core (a note that is
    # all title, banner and signature has nothing left that is its own).
    keep = first_with_content(range(len(lines) - 1, -1, -1))
    head, head_tokens, head_stopped = peel(range(len(lines)), keep)
    keep = first_with_content(range(head, len(lines)))
    _, tail_tokens, tail_stopped = peel(range(len(lines) - 1, head - 1, -1), keep)
    if head_stopped and tail_stopped:
        return peeled, head_tokens, tail_tokens
    # What is left is all title and signature; a banner glued to both ends still is not its own.
    peeled.clear()
    keep = first_with_content(range(len(lines) - 1, -1, -1))
    head, head_tokens, head_stopped = peel(range(len(lines)), keep, wrappers_only=True)
    keep = first_with_content(range(head, len(lines)))
    _, tail_tokens, tail_stopped = peel(range(len(lines) - 1, head - 1, -1), keep, True)
    if head_stopped and tail_stopped and head_tokens and tail_tokens:
        return peeled, head_tokens, tail_tokens
    return None


def _edge_lines(doc_lines: _Lines, doc: Counter[str]) -> tuple[list[int], int, int]:
    """The content tokens of every line with content, and how many of the first and of the
    last lines are peelable (at most EDGE_LINES_TAGGED at each end, budget or not): the lines
    a comparison may leave out when the other document lacks them (sketch.trimmed_similarity).
    The two runs may meet or overlap: which side of a two-line note is the note and which the
    banner only the other document can tell."""
    counts = [doc_lines.counts(i) for i in range(len(doc_lines.lines))]
    content = [i for i, c in enumerate(counts) if c]

    def run(indexes: list[int]) -> int:
        taken = 0
        for i in indexes[:EDGE_LINES_TAGGED]:
            size = sum(counts[i].values())
            if size > EDGE_MAX_LINE_TOKENS or not _is_peelable(counts[i], doc, doc_lines.copies(i)):
                break
            taken += 1
        return taken

    sizes = [sum(counts[i].values()) for i in content]
    return sizes, run(content), run(content[::-1])


def _feature_weights(ids: np.ndarray, tf: np.ndarray) -> np.ndarray:
    """Capped TF-IDF weights of the features with token ids ``ids``, counted ``tf`` times."""
    idf = np.frombuffer(_TOKEN_IDF, dtype=np.float64)[ids]
    return capped_weights((tf.astype(np.float64) ** TF_EXPONENT) * idf, MAX_FEATURE_SHARE)


# Far more than the relative difference between two sums of the same positive floats added in
# other orders (at most n times the float epsilon, n < 10^6).
_SUM_SLACK = 1e-6


def capped_weights(weights: np.ndarray, share: float) -> np.ndarray:
    """``weights`` capped at :func:`share_cap`. Most documents need no cap: their largest
    weight is within its share of the total by more than any difference between numpy's sum
    and share_cap's, and share_cap's sort and loop in Python (a fifth of the simhash's time)
    are skipped, with the same answer."""
    if len(weights) and weights.max() <= share * weights.sum() * (1 - _SUM_SLACK):
        return weights
    return np.minimum(weights, share_cap(weights.tolist(), share))


def share_cap(values: list[float], share: float) -> float:
    """The largest cap ``c`` such that, after ``min(w, c)``, no value exceeds ``share`` of the sum.

    The cap is measured against the *capped* total: measured against the raw total, a word
    repeated a hundred times would still own most of the weight after capping, because its own
    excess counts in the total it is capped against. With n values the cap is solved exactly:
    capping the top m values at c gives c = share * rest / (1 - m * share), where rest is the sum
    of the others; the right m is the one whose c falls between the m-th and (m+1)-th value.
    When share * len(values) <= 1 no cap can do it, and all values become equal (the smallest).
    """
    ordered = sorted(values, reverse=True)
    if not ordered:
        return 0.0
    rest = sum(ordered)
    if ordered[0] <= share * rest:
        return ordered[0]
    for m in range(1, len(ordered)):
        rest -= ordered[m - 1]
        room = 1.0 - m * share
        if room <= 0:
            break
        cap = share * rest / room
        if cap >= ordered[m]:
            return cap
    return ordered[-1]


# Features weighed per step of the simhash: a table of 64 floats per feature, 4 MB a step.
_SIMHASH_STEP = 8192


def _simhash_arrays(w: np.ndarray, hashes: np.ndarray) -> int:
    # Sum of +w (hash bit 1) and -w (hash bit 0) per bit position, as 2 * (weight on 1s) - all.
    # A plain numpy reduction, not a matrix product: BLAS would run it on threads that spin on
    # the other core (in a scan each worker process's threads then fight the other worker's),
    # and its summation order depends on the thread count, so a fingerprint could differ from
    # one machine to another. A reduction down the rows of a table adds them one after the
    # other, so a long document's features are weighed _SIMHASH_STEP at a time, each step's
    # rows added to the sums so far: the same sums, in bounded memory (all 350,000 words of a
    # word list at once took 350 MB, past a reader's budget).
    on = None
    for at in range(0, len(w), _SIMHASH_STEP):
        weighed = _hash_bits(hashes[at : at + _SIMHASH_STEP]) * w[at : at + _SIMHASH_STEP, None]
        if on is not None:
            weighed = np.concatenate([on[None, :], weighed])
        on = weighed.sum(axis=0)
    totals = 2.0 * (on if on is not None else np.zeros(64)) - w.sum()
    # bit i set where totals[i] > 0, read as a signed 64-bit integer (what SQLite stores)
    return int(np.packbits(totals > 0, bitorder="little").view("<i8")[0])


# Where a piece of a long text (text.LONG_TEXT_CHARS, segmented a piece at a time) may end:
# after a space or a Chinese or Japanese stop, comma, enumeration comma, colon, semicolon,
# exclamation or question mark. jieba cuts at each (none is part of a word, and each is a
# token of its own), as does every other tokenizer segment() uses, so the pieces' tokens are
# the whole text's.
_PIECE_END = re.compile("[ \u3001\u3002\uff01\uff0c\uff1a\uff1b\uff1f]")


def _ids_of(tokens: list[str]) -> np.ndarray:
    """The token id of each of ``tokens``, a new token given one: a plain lookup each, straight
    into an array (32-bit: the tables hold at most _TOKEN_ID_MAX tokens, and a novel has
    millions)."""
    n = len(tokens)
    ids = np.fromiter(map(_TOKEN_ID.get, tokens, repeat(_UNKNOWN, n)), dtype=np.int32, count=n)
    unknown = np.flatnonzero(ids == _UNKNOWN).tolist()
    if unknown:
        new = list(map(tokens.__getitem__, unknown))
        _add_tokens(dict.fromkeys(new))
        ids[unknown] = np.fromiter(map(_TOKEN_ID.__getitem__, new), dtype=np.int32, count=len(new))
    return ids


def _first_counts(sequence: np.ndarray) -> tuple[Counter[str], np.ndarray]:
    """The count of each content token of ``sequence`` (their ids, in reading order), keyed by
    the token, in the order each first occurs; and their ids, in that order. Counted by id,
    content tokens only: a count of the tokens themselves would take spaces and punctuation
    too, and a second lookup of each token for its id."""
    by_id = Counter(sequence.tolist())
    counts: Counter[str] = Counter()
    dict.update(counts, zip(map(_TOKEN_STR.__getitem__, by_id), by_id.values(), strict=True))
    return counts, np.fromiter(by_id, dtype=np.int64, count=len(by_id))


def _segmented(
    normalized: str, prefer_rjieba: bool, first: list[str] | None = None
) -> tuple[Counter[str], np.ndarray, dict[str, int], np.ndarray, Callable[[], np.ndarray] | None]:
    """The count of each content token of ``normalized`` (in the order each first occurs) and
    their ids (in that order); the count of each identifier with digits (_IDENT, in the order
    each first occurs); the ids of its content tokens in reading order (the sequence the
    sketch's shingles are made of); and, for a short text (at most SKETCH_SIZE + 1 content
    tokens), where each of those begins (_content_starts), when asked.

    A long text (a novel of ten million characters: four million tokens, 240 MB as strings,
    past a reader's memory budget) is segmented a piece at a time, each piece's tokens turned
    into ids before the next is cut: the same counts and the same sequence in a tenth of the
    memory. ``first``, when given, receives its first _HEAD_TOKENS tokens (_head_hash)."""
    idents: Counter[str] = Counter()
    parts = []
    # a short text in pieces (a long one of punctuation): where its content tokens begin, a
    # piece at a time (its tokens are not kept); None once it has too many to be short
    starts: list[np.ndarray] | None = []
    width = n_content = 0
    at = 0
    tokens: list[str] = []
    ids = np.zeros(0, dtype=np.int32)
    while at < len(normalized):
        end = len(normalized)
        if end - at > text_mod.LONG_TEXT_CHARS:
            cut = _PIECE_END.search(normalized, at + text_mod.LONG_TEXT_CHARS)
            end = cut.end() if cut is not None else end
        tokens = segment(normalized[at:end], prefer_rjieba)  # the text itself when whole
        if first is not None and len(first) < _HEAD_TOKENS:  # (the pieces' tokens are the text's)
            first += tokens[: _HEAD_TOKENS - len(first)]
        ids = _ids_of(tokens)
        named = ids == _IDENT
        if named.any():
            idents.update(compress(tokens, named.tolist()))
        parts.append(ids[ids >= 0])
        n_content += len(parts[-1])
        whole = at == 0 and end == len(normalized)
        if n_content > SKETCH_SIZE + 1:
            starts = None
        elif starts is not None and not whole:
            found, piece_width = _content_starts(tokens, ids)
            starts.append(found + width)
            width += piece_width
        at = end
    sequence = parts[0] if len(parts) == 1 else np.concatenate(parts or [np.zeros(0, np.int32)])
    counts, content_ids = _first_counts(sequence)
    if starts is None:
        return counts, content_ids, idents, sequence, None
    if len(parts) == 1:
        return counts, content_ids, idents, sequence, partial(_first_starts, tokens, ids)
    found = np.concatenate(starts or [np.zeros(0, np.int64)])
    return counts, content_ids, idents, sequence, lambda: found


def _address_counts(addresses: list[str], prefer_rjieba: bool) -> tuple[Counter[str], Counter[str]]:
    """How often each content token and each identifier with digits occurs in ``addresses``."""
    tokens = segment(" ".join(addresses), prefer_rjieba)
    ids = _ids_of(tokens)
    return (
        Counter(compress(tokens, (ids >= 0).tolist())),
        Counter(compress(tokens, (ids == _IDENT).tolist())),
    )


def _first_starts(tokens: list[str], ids: np.ndarray) -> np.ndarray:
    return _content_starts(tokens, ids)[0]


def _content_starts(tokens: list[str], ids: np.ndarray) -> tuple[np.ndarray, int]:
    """Where each content token (id >= 0) of ``tokens`` begins, in characters other than
    spaces of the text they make (its only white space: normalised, it is single spaces), and
    how many such characters that text has."""
    n = len(tokens)
    widths = np.fromiter(map(len, tokens), dtype=np.int64, count=n)
    widths -= np.fromiter(map(str.count, tokens, repeat(" ", n)), dtype=np.int64, count=n)
    ends = np.cumsum(widths)
    return (ends - widths)[ids >= 0], int(ends[-1]) if n else 0


def _hash_bits(hashes: np.ndarray) -> np.ndarray:
    """Bit i of each hash in column i, as floats: the hashes' little-endian bytes, unpacked low
    bit first."""
    return np.unpackbits(
        hashes.astype("<u8").view(np.uint8).reshape(-1, 8), axis=1, bitorder="little"
    ).astype(np.float64)


def _head_hash(tokens: list[str], normalized: str) -> int:
    """A hash of the document's head (HEAD_WORDS): the same for two documents whose first
    words are the same words, whatever else differs; 0 when it has none. Its words are every
    token of two characters or more with a letter, stop words and names with digits too
    (``md5sum``: a manual page's name); a word inside a web address is read past and not
    kept. ``tokens``: the first tokens of ``normalized``, the document's normalised text.
    A site's menu of twenty words or more at the top of a page hides its title: pages of one
    template saved with it begin alike (README, template instances)."""
    text = normalized[: sum(map(len, tokens))]
    ends, at = [], 0  # where each address begins and ends
    for address in text_mod.web_addresses(text):
        begin = text.find(address, at)
        if begin >= 0:
            at = begin + len(address)
            ends.append((begin, at))
    head: dict[str, None] = {}
    read = at = 0
    for token in tokens:  # they make up the text
        begin, at = at, at + len(token)
        if len(token) > 1 and _LETTER.search(token):
            if not ends or not any(b <= begin < e for b, e in ends):
                head[token] = None
            read += 1
            if read == HEAD_WORDS:
                break
    if not head:
        return 0
    return xxhash.xxh64_intdigest("\n".join(sorted(head)).encode("utf-8", "surrogatepass")) or 1


def fingerprint_text(raw_text: str, *, prefer_rjieba: bool = True) -> Fingerprint:
    """Fingerprint one document's extracted text: its simhash (the index) and the sketch of its
    word shingles (the verification, see sketch.py)."""
    _reset_if_full()
    chinese = has_chinese(raw_text)  # checked once, for the text and its edge lines
    unwrapped = unwrap_fixed_width(raw_text)
    normalized = normalize_unwrapped(unwrapped, fold=chinese)
    addresses = text_mod.web_addresses(normalized)
    doc_lines = _Lines(unwrapped, prefer_rjieba, chinese)
    del unwrapped  # a long text's copy is not kept while it is segmented
    first: list[str] = []
    counts, id_arr, idents, sequence, where = _segmented(normalized, prefer_rjieba, first)
    # (before the token tables are viewed below: segmenting the addresses may add words)
    in_words, in_idents = _address_counts(addresses, prefer_rjieba) if addresses else ({}, {})
    # Peeled tokens are subtracted in place (keys kept, so ``ids`` stay aligned); counts that
    # drop to zero or below leave with the mask ``positive`` below, as Counter subtraction
    # would drop them. A peeled token that the whole-text segmentation split differently (at a
    # line join) simply has nothing to remove.
    counts_before_peeling = counts.copy()
    short = len(sequence) <= SKETCH_SIZE + 1
    if short:  # every line is read below: all in one pass
        doc_lines.prefetch(range(len(doc_lines.lines)))
    edges = _peel_edges(doc_lines, counts)
    assert edges is not None  # with a budget there is always an answer
    peeled, head, tail = edges
    for tok, n in peeled.items():
        if tok in counts:
            counts[tok] -= n
    thash = text_hash(normalized)
    # The body: the sequence minus as many tokens as were peeled at each end.
    body = (head, len(sequence) - tail) if head + tail < len(sequence) else (0, len(sequence))
    core_span = None
    edge_lines: tuple[list[int], int, int] = ([], 0, 0)
    token_lines = None
    if short:
        # A short document keeps every shingle, tagged by the edge line it comes from, and its
        # core (sketch.trimmed_similarity, sketch._core_similarity): a banner glued to a note
        # can be longer than the note, and no budget can peel it. Computed before the token
        # tables are viewed below: segmenting the lines may add words to them.
        core_peel = _peel_edges(doc_lines, counts_before_peeling, max_share=None)
        if core_peel is not None and (core_peel[1], len(sequence) - core_peel[2]) != body:
            core_span = (core_peel[1], len(sequence) - core_peel[2])
        edge_lines = _edge_lines(doc_lines, counts_before_peeling)
        if where is not None and len(edge_lines[0]) > 1:  # else all on its one line
            token_lines = doc_lines.line_of_tokens(where())
    all_hashes = np.frombuffer(_TOKEN_HASH, dtype=np.uint64)
    tf = np.fromiter(counts.values(), dtype=np.int64, count=len(id_arr))
    positive = tf > 0  # the features: tokens left with a count once the edges are peeled
    present, present_tf = id_arr[positive], tf[positive]
    rare = np.frombuffer(_TOKEN_IDF, dtype=np.float64)[present] >= idf_table().median
    # Identifiers with digits (sha256sum, GPLv3) are no features, so that changed numbers cost
    # nothing, but they name things: they join the vocabulary the substitution check sees.
    feature_hashes = word_hashes = all_hashes[present]
    # How often each word occurs in the whole text, titles and footers included: a word that
    # names the document (``cache`` in pip's page of ``pip cache``: in its title, its last
    # lines and twice in its text) is what tells it from a sibling made from one template,
    # however short the text left once the short lines at its ends are peeled. A word only
    # in the peeled lines (a reposting banner's) stays out: it is not the text's own.
    whole = np.fromiter(counts_before_peeling.values(), dtype=np.int64, count=len(id_arr))
    word_counts = whole[positive]
    named = None
    if addresses:
        # A word only the text's web addresses hold names nothing: a branch in its badges'
        # addresses ("master" in one release, "develop" in the next), a version in its
        # download links, a project's name in every link of a release whose text no longer
        # says it. It is held as often as it occurs (the rule asks how often the other page
        # holds a page's name), but it is no name of its own. A word the text also holds
        # outside its addresses counts wherever it occurs: a manual page's own address names
        # its command (".../coreutils/md5sum").
        only_there = [
            _TOKEN_ID[word]
            for word, n in in_words.items()
            if counts_before_peeling.get(word, 0) <= n
        ]
        named = np.ones(len(present), bool)
        if only_there:  # a handful of ids: np.isin cost 0.1 ms a document, sorting both
            there = set(only_there).__contains__
            named = ~np.fromiter(map(there, present.tolist()), bool, len(present))
    if idents:
        ident_hashes = np.fromiter(
            map(_hash, idents),
            dtype=np.uint64,
            count=len(idents),
        )
        word_hashes = np.concatenate([word_hashes, ident_hashes])
        word_counts = np.concatenate([word_counts, np.fromiter(idents.values(), dtype=np.int64)])
        rare = np.concatenate([rare, np.ones(len(idents), dtype=bool)])
        if named is not None:
            own = [n > in_idents.get(word, 0) for word, n in idents.items()]
            named = np.concatenate([named, np.array(own, dtype=bool)])
    sketch = make_sketch(
        all_hashes[sequence],
        word_hashes,
        word_counts,
        rare,
        named=named,
        body=body,
        core=core_span,
        edge_lines=edge_lines,
        token_lines=token_lines,
        head=_head_hash(first, normalized),
    )
    simhash = (
        None
        if len(present) < MIN_FEATURES
        else _simhash_arrays(_feature_weights(present, present_tf), feature_hashes)
    )
    lines = tuple(distinct_line_ids(sketch))
    return Fingerprint(
        simhash,
        thash,
        int(present_tf.sum()),
        len(present),
        sketch.to_bytes(),
        sketch.shingle_count,
        lines,
    )


def parameters() -> dict[str, object]:
    """What the fingerprint depends on; stored with the index so a change triggers a refresh."""
    return {
        "version": FINGERPRINT_VERSION,
        "tf_exponent": TF_EXPONENT,
        "max_feature_share": MAX_FEATURE_SHARE,
        "min_features": MIN_FEATURES,
        "edge_short_tokens": EDGE_SHORT_TOKENS,
        "edge_max_shared": EDGE_MAX_SHARED,
        "edge_max_lines": EDGE_MAX_LINES,
        "edge_max_share": EDGE_MAX_SHARE,
        "edge_max_line_tokens": EDGE_MAX_LINE_TOKENS,
        "hard_wrap_undone": True,
    }
