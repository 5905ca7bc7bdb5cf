"""The second, independent estimate of how much text two documents share: bottom-k sketches.

The simhash (fingerprint.py) is the *index*: it proposes candidate pairs cheaply through its four
16-bit blocks. It cannot be the judge: a 64-bit summary of a weighted bag of words puts two
different documents that share a licence or a template within a few bits once the shared words
dominate, and on a few dozen words it is noise. Every candidate is therefore *verified* by
comparing what the two texts actually share, estimated from a small sketch stored with each
document at scan time.

Shingles
    Word bigrams over the document's *body*: its content tokens (the same tokens the simhash
    weighs: words, with numbers, punctuation and stop words left out) in reading order, minus the
    title/banner/footer lines peeled at either end (fingerprint.py's edge peeling). Bigrams keep
    word order, so two texts made of the same vocabulary in another order (chapters of one
    novel, issues of one newsletter) do not look alike, while one edited word costs only the two
    bigrams it belongs to. A document of one content token has that token as its only shingle.

Sketch
    Each shingle is a 64-bit hash (the tokens' xxh64 hashes, combined and mixed); the sketch is
    the ``SKETCH_SIZE`` smallest distinct values, stored with the number of distinct shingles
    (bottom-k, after Broder 1997 and Cohen & Kaplan 2007). A document with fewer shingles keeps
    all of them, so short texts are compared exactly.

Similarity ("share of common text")
    ``2 |A ∩ B| / (|A| + |B|)`` over the two shingle sets (the Dice coefficient): the share of
    the two documents' text that they have in common. 1.0 for the same text in another format or
    with other numbers, about 0.9 for 5 % of the words edited or 5 % cut, low for documents that
    only share a template, a licence or a topic. It is what the user's threshold ("at least 75 %
    the same") and every similarity figure the app shows mean.

    Why Dice and bigrams: measured on the labelled corpora (tests/bench/bench_matching.py) against
    ``|A ∩ B| / max(|A|, |B|)``, Jaccard, containment and word 1- and 3-grams, Dice on bigrams
    kept 5 % edits, cuts and reordered paragraphs above the threshold while template families
    stayed below it; containment (``|A ∩ B| / min``) calls a short text "the same" as any longer
    one that quotes it.

    Estimated from two sketches: below ``tau`` (the smaller of the largest values of the two
    sketches that are not complete) both sketches hold *every* shingle of their document, so the
    values below ``tau`` are a uniform random sample of the union, in which the Jaccard index
    ``J`` is counted; Dice is ``2 J / (1 + J)``. Exact when both sketches are complete. With 128
    values the standard error of ``J`` is about ``sqrt(J (1 - J) / 128)`` (0.04 at J = 0.6, the
    Jaccard index of 75 % Dice).

Names that differ (documents made from one template)
    Two instances of a template (man pages of sibling commands, form letters to two people,
    contracts with two parties) can share 90 % of their bigrams. What tells a person they are
    different documents is a *consistent substitution*: a word that recurs in one (at least
    ``SALIENT_MIN_COUNT`` times) never occurs in the other, *and* the other way round
    (``svnlook`` three times in one page, ``svndumpfilter`` three times in the other); or, the
    other way round, occurs there once or twice: a page may name its sibling, in a reference to
    it (GNU coreutils' md5sum page recommends sha224sum in its BUGS section, and names itself
    throughout; the Google Cloud CLI's page of ``service-accounts disable`` names ``enable``
    twice). Then the sibling names itself at least ``SALIENT_MIN_COUNT`` times for each time the
    page names it (a revision may use a word four times where it had it twice), and as many
    occurrences of the two words must be gone from the other page as in a swap both ways
    (``SWAP_MIN_GONE``, six): a copy cut short and another copy with 5 % of its words edited can
    lose a word of three to the cut and keep one of three of another through the edits
    (public2's networkctl page: five gone), where md5sum's page names itself four times (and
    sha224sum's page three times, once in md5sum's: six). Two siblings may also name each other
    (each in its SEE ALSO): then each page must name its own word at least
    ``SALIENT_MIN_COUNT`` times as often as the other page does, and that many times more
    (GNU coreutils' ``expand`` and ``unexpand``, four times and once each way; man-db's
    ``whatis`` page names itself 13 times and ``apropos`` once, ``apropos``'s page itself 8
    times and ``whatis`` 4). Edits, cuts, banners and reordering
    never do this both ways (a cut copy holds no word more often than its original); a real
    revision rarely does. Only *rare* words count (IDF at least the table's median: names,
    technical terms, every Latin word, and identifiers with digits such as ``sha256sum``, which
    are no shingles so that changed numbers cost nothing): a copy in the other Chinese script
    may consistently use another common word (OpenCC's s2twp writes 預設 for 默认, and 打开 becomes
    開啟), which is not another document. Numbers changed in a copy are changed one by one, so a
    copy never holds a *new* identifier three times. So each sketch also keeps its document's
    most repeated rare words (``salient``, up to ``SALIENT_SIZE``) with how often it holds each
    (``counts``), a Bloom filter of its whole vocabulary (``VOCAB_BITS`` bits, 3 probes:
    "absent" is certain, "present" may be wrong, which can only let a pair through, never split
    one), and two of the rare words it holds twice or more and three times or more
    (``TWICE_BITS`` bits each: "held once at most" and "held twice at most" are certain). A pair
    with such a substitution is not verified, whatever its share of common text.
"""

from __future__ import annotations

import functools
import operator
import struct
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np

SKETCH_SIZE = 128
# Candidate keys (see candidate_keys): how many of a sketch's smallest values, for a document up
# to what size (a short or medium text, whose simhash is noisy), and for a longer one.
CANDIDATE_KEYS = 16
KEYED_MAX_SHINGLES = 1024
LONG_CANDIDATE_KEYS = 8
SALIENT_SIZE = 24
SALIENT_MIN_COUNT = 3
# A swap one way round (a page that names its sibling once or twice, substituted) needs as
# many occurrences of its two words gone from the other page as a swap both ways: this many.
SWAP_MIN_GONE = 2 * SALIENT_MIN_COUNT
VOCAB_BITS = 4096
TWICE_BITS = 1024
# format version, the body's shingle count, stored values, salient words, candidate keys, flags
_HEADER = struct.Struct("<BIHHBH")
_WORDS_HEADER = struct.Struct("<HB")  # a short document's words: how many, on how many lines
_HEAD = struct.Struct("<Q")
_FORMAT = 2
SKETCH_FORMAT = _FORMAT
HEADER_BYTES = _HEADER.size
N_KEYS_OFFSET = struct.calcsize("<BIHH")  # where the header says how many keys follow it
_HAS_CORE, _HAS_TAGS, _HAS_WORDS, _HAS_TWICE, _HAS_COUNTS = 1, 2, 1 << 9, 1 << 10, 1 << 11
# The salient words' counts are two bytes each (a sketch made before holds one byte each, 255
# for any count above it; see TextSketch.counts).
_WIDE_COUNTS = 1 << 12
_HAS_HEAD = 1 << 13  # the hash of the document's first words (8 bytes)
_MAX_COUNT = 0xFFFF
# A short document's core (see TextSketch.core) is kept when it has at least this many shingles:
# fewer (one or two word pairs) say too little to call two documents the same.
MIN_CORE_SHINGLES = 3
_CORE_MASK_BYTES = SKETCH_SIZE // 8
# Tags of a short document's shingles (TextSketch.tags, 16 bits each): bits 0..5 name the edge
# lines the shingle occurs in (the first and last EDGE_LINES_TAGGED lines that are peelable,
# numbered from the top; the flags byte says how many at each end), IN_BODY that it occurs
# outside the lines the fingerprint peels (the body), INTERIOR that it occurs outside every
# tagged line, JUNCTION that it spans the boundary of a tagged line (it goes with either line).
EDGE_LINES_TAGGED = 3
_LINE_BITS = 0x3F
IN_BODY = np.uint16(0x40)
INTERIOR = np.uint16(0x80)
JUNCTION = np.uint16(0x100)
# What a short document must share with another once its own extra edge lines are left out
# (trimmed_similarity), when the other has text of its own too: stricter than the threshold,
# because the trimmed side loses what it does not share by construction. Two different notes
# under one long banner keep the banner and lose their own text; they reach this only when the
# banner is over four times longer than a note. When the other document has no text of its own
# (the note with one word edited, against the note under a banner), the threshold applies.
TRIMMED_MIN_SHARE = 0.9
# ... and the other document's text outside its edge lines (all of it when its lines cannot be
# told apart) is its own unless this share of its word pairs occurs in the trimmed one: one
# edited word costs two word pairs, so a rest of ten pairs or more keeps 80 % (a line too long
# to be an edge line has over EDGE_MAX_LINE_TOKENS words: 90 %). Another note under the same
# banner, quoting it, reaches 80 % only when the banner is four times as long as the note.
INNER_MIN_SHARED = 0.8
# Two short documents each with lines of its own, a banner above one and a footer below the
# other (two_sided_similarity), are compared without them when those lines are at most this
# share of each document's word pairs: the note is at least twice as long as what was added to
# it. Two different notes, the banner above one and below the other, each keep the banner and
# leave their note out: this holds only for notes half as long as the banner, a few words.
TWO_SIDED_MAX_ADDED = 1 / 3
# ... unless the index says which lines are the additions: a line is *common* when it occurs in
# at least COMMON_LINE_MIN different texts of the index, and at least COMMON_LINE_FACTOR times
# as many as any line the two documents keep (line_ids). A reposting banner or a "sent from my
# phone" footer sits in every note it was glued to; a note's own line sits only in its copies
# (with a title, a banner or a footer: a few), and a line glued below one note and above
# another is in both: it passes for what they share only when each note is in twice as many
# texts as that line.
COMMON_LINE_MIN = 3
COMMON_LINE_FACTOR = 2
# Two short documents that share lines held by many texts of the index, a company's
# disclaimer or a newsletter's header, and each hold a line the other lacks, are compared
# without those lines too (shares_only_boilerplate): a line both hold is boilerplate when at
# least BOILERPLATE_MIN_TEXTS different texts hold it, and COMMON_LINE_FACTOR times as many as
# any line only one of the two holds. A text saved in a few copies, with a title, a banner, a
# footer or as a PDF, puts its own lines in a few texts (in the public corpora none of a
# document's own lines is in more than 5), a mail's disclaimer is in every mail: with each
# side's words outside the boilerplate MIN_NEAR_WORDS or more, the two are two documents when
# those words share under BOILERPLATE_LEFT_SHARE of the smaller side's, in order. Two notes
# under a disclaimer four times their length otherwise verify as the same (754 of the 759
# pairs of 150 sentences under a disclaimer of 50 words were grouped); a note and its copy
# with one word edited keep all but that word; a form letter's own words are its
# addressee's name, fewer than MIN_NEAR_WORDS, or the same words with other numbers.
BOILERPLATE_MIN_TEXTS = 10
BOILERPLATE_LEFT_SHARE = 0.5
# How a comparison asks the index: line ids -> how many of its different texts hold each.
LineCounts = Callable[[list[int]], Mapping[int, int]]
# Short documents that differ by light edits are also compared word by word (word_similarity):
# by the corpus definition of "the same document", up to about 5 % of the words edited, and
# one word of a note of a few words.
LIGHT_EDIT_SHARE = 0.05
# ... where one edit may be up to this many tokens for one (a word we cut in two, _light_edits).
EDIT_RUN_TOKENS = 2
# Bump when verified_similarity's answer changes for some pair (2: short texts also compared
# whole; 3: and word by word, word_similarity; 4: a two-sided comparison asks the index which
# lines are common; 5: a line of one word meets the other document through the pairs joining
# it to its neighbours; 6: a light edit may be two tokens for one; 7: a swap may be a name
# the other page holds once, substituted; 8: or twice, when as many occurrences of the two
# words are gone as in a swap both ways, SWAP_MIN_GONE; 9: not an answer of its own, but more
# pairs to give one: long documents are keyed too, candidate_keys; 10: a swap may be two
# pages naming each other, each its own word three times as often, _named_less_both_ways; 11:
# a text of fewer than MIN_NEAR_WORDS content words is a near duplicate of nothing; 12: two
# short documents that share only lines many texts of the index hold are two,
# shares_only_boilerplate; 13: a short document and the same with lines glued to it that
# many texts of the index hold are compared without them, left_out_boilerplate_similarity;
# 14: and so are two that are one text with such lines of their own each, one disclaimer on
# each copy; 15: two documents whose first words are the same words are no swap of names,
# substituted): an index grouped by another version is regrouped once from its stored sketches
# (service._matching_key), no file read again.
VERIFICATION_VERSION = 15
# The fewest content words a text needs to be a near duplicate of another (with fewer, only
# of its own bytes or text: grouping's classes). Among three words or fewer any difference,
# a word or a number (which is no content word: a changed number costs a longer text
# nothing), is a quarter of the text or more, which the corpus's definition of the same
# document calls different documents ("Chapter 1" and "Chapter 2"; "Meeting with the design
# team at 3pm" and "... at 5pm"; 15-25 % of the words edited is gray, 5 % the same).
MIN_NEAR_WORDS = 4
_MAX_KEYS = 2 * CANDIDATE_KEYS
# A short document's edge lines alone are keyed too (edge_keys): at most this many of their
# smallest values that are none of its candidate keys, stored after those (the flags say so).
EDGE_KEYS = 8
_HAS_EDGE_KEYS = 1 << 14

# The hashes below multiply and add arrays of 64-bit unsigned integers, which wrap around
# (numpy never checks integer arrays for overflow, so no np.errstate is needed around them: one
# costs more than the arithmetic on a short text's hundred values).
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_EMPTY = np.empty(0, dtype=np.uint64)
# Word pairs hashed per step of shingle_hashes (8 MB of them a step).
_SHINGLE_STEP = 1 << 20


def _mix64(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: every input bit affects every output bit. A new array; the steps
    after the first work in it (a long document's shingles: one array of them, not five)."""
    x = x ^ (x >> np.uint64(30))
    x *= _MIX1
    x ^= x >> np.uint64(27)
    x *= _MIX2
    x ^= x >> np.uint64(31)
    return x


def sorted_unique(values: np.ndarray) -> np.ndarray:
    """``np.unique`` by sorting: numpy 2.3+ finds unique values of a plain call through a hash
    table, about a hundred times slower on a million integers than sorting them."""
    return _unique_of_sorted(np.sort(values))


def _unique_of_sorted(out: np.ndarray) -> np.ndarray:
    """The distinct values of a sorted array."""
    return out[_run_starts(out)] if len(out) > 1 else out


def _run_starts(values: np.ndarray) -> np.ndarray:
    """Where each run of equal values begins, as a mask (``np.r_[True, v[1:] != v[:-1]]``:
    np.r_ costs more than the rest on a short text, and a grouping verifies thousands)."""
    starts = np.empty(len(values), dtype=bool)
    if len(values):
        starts[0] = True
        np.not_equal(values[1:], values[:-1], out=starts[1:])
    return starts


def in_sorted(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Which values of ``a`` occur in ``b``, a sorted array (``np.isin`` for the sorted arrays
    of sketches: three vector operations instead of ``isin``'s dozens, which cost more than
    the work on a short document's hundred values, and a grouping verifies thousands of pairs)."""
    if len(b) == 0:
        return np.zeros(len(a), dtype=bool)
    at = b.searchsorted(a)
    np.minimum(at, len(b) - 1, out=at)  # past the end: compared with the last, not found
    return b[at] == a


def shingle_hashes(token_hashes: np.ndarray) -> np.ndarray:
    """Distinct 64-bit hashes of the word bigrams of a token sequence, sorted ascending.

    ``token_hashes`` are the tokens' own 64-bit hashes in reading order."""
    h = np.asarray(token_hashes, dtype=np.uint64)
    if len(h) == 0:
        return _EMPTY
    if len(h) == 1:
        return _mix64(h.copy())
    # (a, b) and (b, a) differ: the first token is multiplied, the second added. Made
    # _SHINGLE_STEP at a time into one array, sorted in place: a novel's six million shingles
    # took five arrays of them at once.
    n = len(h) - 1
    out = np.empty(n, dtype=np.uint64)
    for at in range(0, n, _SHINGLE_STEP):
        stop = min(at + _SHINGLE_STEP, n)
        pairs = h[at:stop] * _GOLDEN
        pairs += h[at + 1 : stop + 1]
        out[at:stop] = _mix64(pairs)
    out.sort()
    return _unique_of_sorted(out)


def bottom_k(shingles: np.ndarray, k: int = SKETCH_SIZE) -> np.ndarray:
    """The ``k`` smallest of a sorted array of distinct shingle hashes."""
    return np.ascontiguousarray(shingles[:k], dtype=np.uint64)


@dataclass(frozen=True)
class TextSketch:
    """What verification knows about one document (module docstring)."""

    # Sorted uint64 shingle hashes: the bottom-k of the body's shingles, or, for a short document
    # (``tags`` not empty), every shingle of its whole text, tagged.
    values: np.ndarray
    shingle_count: int  # distinct shingles of the body
    salient: np.ndarray  # 64-bit hashes of the most repeated words
    vocab: np.ndarray  # Bloom filter of every word, VOCAB_BITS bits as uint8
    # Which of ``values`` belong to the document's core (its body without every peelable edge
    # line, whatever their share: see fingerprint.py); empty when there is none.
    core_mask: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=bool))
    # A short document's tags, one per value (IN_BODY, INTERIOR and the edge-line bits), so that
    # a comparison can leave out the lines the other document lacks (trimmed_similarity).
    tags: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.uint16))
    head_lines: int = 0  # tagged peelable lines at the top (bits 0, 1, ...)
    tail_lines: int = 0  # ... and at the bottom (the highest bits, from the last line up)
    tagged_lines: int = 0  # lines tagged in all (a line may be in both runs)
    # A short document's content words in reading order (their 32-bit hashes), the line with
    # content each is on, and how many such lines it has (word_similarity); empty for a long one.
    words: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.uint32))
    word_lines: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.uint8))
    n_lines: int = 0
    # Bloom filter of the rare words the document holds at least twice (TWICE_BITS bits as
    # uint8; empty in a sketch made before it): what tells a word named once (a page's
    # reference to a sibling) from one the document is about (substituted).
    twice: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.uint8))
    # How often the document holds each of ``salient`` (uint16, at most 65,535; uint8 and at
    # most 255 in a sketch made before fingerprint version 35: a long page of one template that
    # names itself 1,670 times, among 24 words it repeats 140 times or more, then said 255,
    # under three times as often as its sibling may hold it), and a Bloom filter of the rare
    # words it holds three times or more (as ``twice``); both empty in a sketch made before
    # them. What weighs a swap (substituted). An older sketch against a newer one needs no
    # care: its counts are at most the true ones, and a swap both ways needs each page to name
    # its word three times as often as the other holds it, which a capped count never does
    # against a copy's whole one.
    counts: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.uint8))
    thrice: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=np.uint8))
    # A hash of its first words (fingerprint.HEAD_WORDS: a title, a manual page's name), 0 when
    # unknown (a sketch made before fingerprint version 36) or none: two pages that begin alike
    # are no two pages of one template, each named in its first words (substituted).
    head: int = 0

    @cached_property
    def body(self) -> np.ndarray:
        """The body's shingles (its bottom-k, or all of them for a short document)."""
        if len(self.tags) == 0:
            return self.values
        return self.values[(self.tags & IN_BODY) != 0]

    @cached_property
    def word_keys(self) -> np.ndarray:
        return _word_keys(self.words)

    @cached_property
    def line_id_array(self) -> np.ndarray:
        """:func:`line_ids`, kept: a grouping asks them of a document once for each pair."""
        return line_ids(self)

    @cached_property
    def line_id_set(self) -> frozenset[int]:
        """The ids of its lines with content (:func:`line_ids`; 0, a line whose words went to
        the next one, left out)."""
        return frozenset(self.line_id_array.tolist()) - {0}

    @cached_property
    def end_line_ids(self) -> tuple[int, ...]:
        """The ids of its first and its last line with content (one for a text of one line,
        none for a long document): where a banner, a title or a footer would be."""
        ids = [i for i in self.line_id_array.tolist() if i]
        return tuple(dict.fromkeys(ids[:1] + ids[-1:]))

    @cached_property
    def word_set(self) -> frozenset[int]:
        return frozenset(self.words.tolist())

    @cached_property
    def word_pairs(self) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """A short document's pairs of neighbouring content words as (first << 32 | second)
        keys, every one sorted and distinct, then those within a line with the line of each
        (:func:`left_out_boilerplate_similarity`)."""
        return _pair_keys(self.words, self.word_lines)

    @cached_property
    def line_parts(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, int]:
        """Which values are a line's own word pairs and which join two lines, each value's
        line bits, and the tagged lines that have no pair of their own (a line of one word,
        "Options:" or a name), as a mask of line bits: what _dropped_ends reads of every pair
        of this document that it is asked about."""
        own = (self.tags & JUNCTION) == 0
        line_tags = self.tags & np.uint16(_LINE_BITS)
        with_pairs = int(np.bitwise_or.reduce(line_tags, where=own, initial=0))
        return own, ~own, line_tags, _LINE_BITS & ~with_pairs

    @property
    def holds_whole_text(self) -> bool:
        """Whether ``values`` are every word pair of the document's text: a short document's
        (tagged), or a complete sketch's (nothing was peeled from a short text without tags)."""
        return len(self.tags) > 0 or 0 < len(self.values) >= self.shingle_count

    @property
    def complete(self) -> bool:
        return len(self.body) >= self.shingle_count

    @cached_property
    def core(self) -> np.ndarray:
        """The core's shingles (all of them: a core exists only for short documents)."""
        if len(self.core_mask) == 0:
            return _EMPTY
        return self.values[self.core_mask[: len(self.values)]]

    def to_bytes(self) -> bytes:
        core = self.core
        # a long document's keys are its first values (candidate_keys): not written twice
        keys = _EMPTY if self.shingle_count > KEYED_MAX_SHINGLES else candidate_keys(self)
        keys = keys[:_MAX_KEYS]
        edge = edge_keys(self, keys)
        if len(edge):  # always EDGE_KEYS of them, the last repeated (read as one)
            keys = np.concatenate([keys, edge, np.repeat(edge[-1:], EDGE_KEYS - len(edge))])
        flags = (
            (_HAS_CORE if len(core) else 0)
            | (_HAS_TAGS if len(self.tags) else 0)
            | (self.head_lines << 2)
            | (self.tail_lines << 4)
            | (self.tagged_lines << 6)
            | (_HAS_WORDS if len(self.words) else 0)
            | (_HAS_TWICE if len(self.twice) else 0)
            | (_HAS_COUNTS if self.has_counts else 0)
            | (_WIDE_COUNTS if self.counts.dtype == np.uint16 else 0)
            | (_HAS_HEAD if self.head else 0)
            | (_HAS_EDGE_KEYS if len(edge) else 0)
        )
        mask = (
            np.packbits(np.resize(self.core_mask, SKETCH_SIZE), bitorder="little").tobytes()
            if len(core)
            else b""
        )
        return b"".join(
            (
                _HEADER.pack(
                    _FORMAT,
                    self.shingle_count,
                    len(self.values),
                    len(self.salient),
                    len(keys),
                    flags,
                ),
                keys.astype("<u8").tobytes(),
                self.values.astype("<u8").tobytes(),
                self.salient.astype("<u8").tobytes(),
                mask,
                self.tags.astype("<u2").tobytes(),
                (
                    _WORDS_HEADER.pack(len(self.words), self.n_lines)
                    + self.words.astype("<u4").tobytes()
                    + self.word_lines.astype(np.uint8).tobytes()
                    if len(self.words)
                    else b""
                ),
                self.twice.tobytes(),
                (self._stored_counts() + self.thrice.tobytes()) if self.has_counts else b"",
                _HEAD.pack(self.head) if self.head else b"",
                self.vocab.tobytes(),
            )
        )

    def _stored_counts(self) -> bytes:
        """The counts as stored: two bytes each, little-endian (one each from an older sketch,
        kept as it was)."""
        return self.counts.astype("<u2" if self.counts.dtype == np.uint16 else np.uint8).tobytes()

    @classmethod
    def from_bytes(cls, raw: bytes | None) -> TextSketch:
        """The sketch ``raw`` holds; the empty sketch (a near duplicate of nothing) when it is
        none, of another format, or cut short (a damaged row: it must not stop a grouping)."""
        if not raw or len(raw) < _HEADER.size:
            return EMPTY_SKETCH
        try:
            return cls._parse(raw)
        except (ValueError, struct.error):
            return EMPTY_SKETCH

    @classmethod
    def _parse(cls, raw: bytes) -> TextSketch:
        fmt, count, n_values, n_salient, n_keys, flags = _HEADER.unpack_from(raw)
        if fmt != _FORMAT:
            return EMPTY_SKETCH
        at = _HEADER.size + 8 * n_keys
        values = np.frombuffer(raw, dtype="<u8", count=n_values, offset=at).astype(np.uint64)
        at += 8 * n_values
        salient = np.frombuffer(raw, dtype="<u8", count=n_salient, offset=at).astype(np.uint64)
        at += 8 * n_salient
        core_mask = np.zeros(0, dtype=bool)
        if flags & _HAS_CORE:
            packed = np.frombuffer(raw, dtype=np.uint8, count=_CORE_MASK_BYTES, offset=at)
            core_mask = np.unpackbits(packed, bitorder="little").astype(bool)[:n_values]
            at += _CORE_MASK_BYTES
        tags = np.zeros(0, dtype=np.uint16)
        if flags & _HAS_TAGS:
            tags = np.frombuffer(raw, dtype="<u2", count=n_values, offset=at).astype(np.uint16)
            at += 2 * n_values
        words, word_lines, n_lines = np.zeros(0, dtype=np.uint32), np.zeros(0, np.uint8), 0
        if flags & _HAS_WORDS:
            n_words, n_lines = _WORDS_HEADER.unpack_from(raw, at)
            at += _WORDS_HEADER.size
            words = np.frombuffer(raw, dtype="<u4", count=n_words, offset=at).astype(np.uint32)
            at += 4 * n_words
            word_lines = np.frombuffer(raw, dtype=np.uint8, count=n_words, offset=at)
            at += n_words
        twice = np.zeros(0, dtype=np.uint8)
        if flags & _HAS_TWICE:
            twice = np.frombuffer(raw, dtype=np.uint8, count=TWICE_BITS // 8, offset=at)
            at += TWICE_BITS // 8
        counts = thrice = np.zeros(0, dtype=np.uint8)
        if flags & _HAS_COUNTS:
            wide = bool(flags & _WIDE_COUNTS)
            counts = np.frombuffer(
                raw, dtype="<u2" if wide else np.uint8, count=n_salient, offset=at
            )
            counts = counts.astype(np.uint16) if wide else counts
            at += counts.nbytes
            thrice = np.frombuffer(raw, dtype=np.uint8, count=TWICE_BITS // 8, offset=at)
            at += TWICE_BITS // 8
        head = 0
        if flags & _HAS_HEAD:
            (head,) = _HEAD.unpack_from(raw, at)
            at += _HEAD.size
        vocab = np.frombuffer(raw, dtype=np.uint8, offset=at)
        return cls(
            values,
            count,
            salient,
            vocab,
            core_mask,
            tags,
            (flags >> 2) & 3,
            (flags >> 4) & 3,
            (flags >> 6) & 7,
            words,
            word_lines,
            n_lines,
            twice,
            counts,
            thrice,
            head,
        )

    @cached_property
    def _vocab_bits(self) -> int:
        return _filter_bits(self.vocab, VOCAB_BITS)

    @property
    def has_vocab(self) -> bool:
        return len(self.vocab) * 8 == VOCAB_BITS

    @cached_property
    def salient_masks(self) -> tuple[int, ...]:
        """Each salient word's Bloom bits (of ``vocab``) as one integer mask."""
        return _masks(self.salient, VOCAB_BITS)

    @cached_property
    def salient_twice_masks(self) -> tuple[int, ...]:
        """Each salient word's Bloom bits of ``twice`` (and of ``thrice``: the same probes) as
        one integer mask."""
        return _masks(self.salient, TWICE_BITS)

    @cached_property
    def salient_counts(self) -> dict[int, int]:
        """Each salient word's count, by its hash (none in a sketch made before the counts)."""
        return dict(zip(self.salient.tolist(), self.counts.tolist(), strict=False))

    @cached_property
    def salient_profile(self) -> tuple[bytes, bytes]:
        """Its salient words, most repeated first, and how often it holds each: two documents
        with the same profile hold each other's repeated words, as often (each one's words
        are in its own vocabulary), so neither lost one to a swap (:func:`substituted`)."""
        return self.salient.tobytes(), self.counts.tobytes()

    @cached_property
    def salient_by_word(self) -> tuple[bytes, tuple[int, ...], tuple[int, ...]]:
        """Its salient words in the order of their hashes, its count of each in that order,
        and for each the count another document needs to name it less (:func:`_named_less`:
        SALIENT_MIN_COUNT times as often, and SALIENT_MIN_COUNT times more): two documents
        with the same salient words hold each other's exactly as often as these say
        (:func:`_named_less_both_ways`)."""
        order = np.argsort(self.salient, kind="stable")
        counts = self.counts[order].tolist()
        named_less = [max(SALIENT_MIN_COUNT * n, n + SALIENT_MIN_COUNT) for n in counts]
        return self.salient[order].tobytes(), tuple(counts), tuple(named_less)

    @property
    def has_counts(self) -> bool:
        return len(self.counts) == len(self.salient) > 0 and len(self.thrice) * 8 == TWICE_BITS

    def lacks_one_of(self, masks: tuple[int, ...]) -> bool:
        """True when one of the words (given as Bloom masks) is certainly not in this document."""
        return _misses_one_of(self._vocab_bits, functools.reduce(operator.or_, masks, 0))

    @cached_property
    def salient_union(self) -> int:
        """The Bloom bits of its salient words together (their masks' union)."""
        return functools.reduce(operator.or_, self.salient_masks, 0)

    def lacks_salient_of(self, other: TextSketch) -> bool:
        """True when one of ``other``'s salient words is certainly not in this document."""
        return _misses_one_of(self._vocab_bits, other.salient_union)

    @cached_property
    def _twice_bits(self) -> int:
        return _filter_bits(self.twice, TWICE_BITS)

    @cached_property
    def _thrice_bits(self) -> int:
        return _filter_bits(self.thrice, TWICE_BITS)

    def at_most(self, mask: int) -> int | None:
        """How often this document holds a word (its Bloom mask of ``twice``) at most, when it
        is certainly twice or less: 1 or 2; None when it may be more, or the filters are
        missing (a sketch made before them)."""
        if self._twice_bits & mask != mask:
            return 1
        if self._thrice_bits & mask != mask:
            return 2
        return None


EMPTY_SKETCH = TextSketch(_EMPTY, 0, _EMPTY, np.zeros(0, dtype=np.uint8))


_PROBE_SHIFTS = np.array([0, 21, 42], dtype=np.uint64)  # a word's 3 probes, from its mixed hash


def _bloom_indexes(token_hashes: np.ndarray, size: int = VOCAB_BITS) -> list[np.ndarray]:
    h = _mix64(np.asarray(token_hashes, dtype=np.uint64))
    mask = np.uint64(size - 1)
    return [((h >> shift) & mask).astype(np.int64) for shift in _PROBE_SHIFTS]


def _blooms(
    mixed: np.ndarray, twice: np.ndarray, thrice: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The three Bloom filters of a document, as bytes (bit i is bit i % 8 of byte i // 8),
    with the probes of _bloom_indexes: of its words (``mixed``: their hashes, mixed by _mix64;
    VOCAB_BITS bits), of those ``twice`` marks and of those ``thrice`` marks (TWICE_BITS bits
    each). In one array, every probe set at once: a document has a hundred words or so, and
    each numpy call costs more than its work (a probe at a time, a filter at a time, took
    30-45 µs more a document)."""
    probes = (mixed >> _PROBE_SHIFTS[:, None]).astype(np.intp)
    bits = np.zeros(VOCAB_BITS + 2 * TWICE_BITS, dtype=bool)
    vocab = (probes & (VOCAB_BITS - 1)).ravel()
    held = VOCAB_BITS + (probes[:, twice] & (TWICE_BITS - 1)).ravel()
    held3 = VOCAB_BITS + TWICE_BITS + (probes[:, thrice] & (TWICE_BITS - 1)).ravel()
    bits[np.concatenate([vocab, held, held3])] = True
    packed = np.packbits(bits, bitorder="little")
    v, t = VOCAB_BITS // 8, TWICE_BITS // 8
    return packed[:v], packed[v : v + t], packed[v + t :]


def _filter_bits(packed: np.ndarray, size: int) -> int:
    """A Bloom filter of ``size`` bits as one integer: bit i of the filter (byte i // 8, bit
    i % 8) is bit i of it; all bits set (nothing certainly absent) when there is none."""
    return int.from_bytes(packed.tobytes(), "little") if len(packed) * 8 == size else -1


def _misses_one_of(bits: int, union: int) -> bool:
    """Whether the filter ``bits`` certainly lacks one of some words, given their masks'
    ``union``: it holds every one of them only when it holds every bit of every mask, which is
    every bit of their union (one test, not one a word)."""
    return bits & union != union


def _masks(token_hashes: np.ndarray, size: int) -> tuple[int, ...]:
    """Each word's bits in a Bloom filter of ``size`` bits, as one integer mask."""
    if len(token_hashes) == 0:
        return ()
    idx = _bloom_indexes(token_hashes, size)
    return tuple(
        (1 << int(i0)) | (1 << int(i1)) | (1 << int(i2))
        for i0, i1, i2 in zip(*(x.tolist() for x in idx), strict=True)
    )


def make_sketch(
    token_hashes: np.ndarray,
    word_hashes: np.ndarray,
    word_counts: np.ndarray,
    rare: np.ndarray | None = None,
    *,
    named: np.ndarray | None = None,
    body: tuple[int, int] | None = None,
    core: tuple[int, int] | None = None,
    edge_lines: tuple[list[int], int, int] = ([], 0, 0),
    token_lines: np.ndarray | None = None,
    head: int = 0,
) -> TextSketch:
    """The sketch of one document.

    ``token_hashes`` are its content tokens in reading order; ``body`` the (start, end) of its
    body among them (default: all); ``word_hashes``/``word_counts`` its distinct content words
    and how often each occurs; ``rare`` marks the words that may be salient (default: all),
    ``named`` those of them that may name the document (default: all; the others are only
    counted, as held once, twice or three times); ``core`` the (start, end) of its core, when
    it has one; ``edge_lines`` the number of tokens of each of its lines with content, and how
    many lines at the top and at the bottom are peelable; ``token_lines`` the line (among
    those with content) each token begins in, where the caller knows it (else counted from the
    lines' sizes, :func:`_line_of_tokens`); ``head`` the hash of its first words
    (fingerprint._head_hash; 0: unknown)."""
    tokens = np.asarray(token_hashes, dtype=np.uint64)
    start, end = body if body is not None else (0, len(tokens))
    shingles = shingle_hashes(tokens[start:end])
    values, tags, core_mask = bottom_k(shingles), np.zeros(0, dtype=np.uint16), None
    line_sizes, head_lines, tail_lines = edge_lines
    # Each token's line: read only of a short text (below), so a novel's millions of tokens
    # get no array of lines.
    line_of = np.zeros(0, dtype=np.int64)
    if len(tokens) <= SKETCH_SIZE + 1:
        line_of = (
            _line_of_tokens(len(tokens), line_sizes)
            if token_lines is None
            else np.asarray(token_lines, dtype=np.int64)
        )
    if (
        2 <= end - start
        and len(tokens) - 1 <= SKETCH_SIZE
        and (head_lines or tail_lines or core is not None or (start, end) != (0, len(tokens)))
    ):
        values, tags = _tagged_shingles(
            tokens, start, end, line_of, len(line_sizes), head_lines, tail_lines
        )
        tagged_lines = len(_tagged_lines(len(line_sizes), head_lines, tail_lines))
    else:
        head_lines = tail_lines = tagged_lines = 0
        if core is not None:
            core_shingles = shingle_hashes(tokens[core[0] : core[1]])
            if MIN_CORE_SHINGLES <= len(core_shingles) < len(shingles):
                core_mask = in_sorted(values, core_shingles)
    words = np.asarray(word_hashes, dtype=np.uint64)
    counts = np.asarray(word_counts)
    may_be_salient = np.ones(len(words), dtype=bool) if rare is None else np.asarray(rare, bool)
    vocab, twice, thrice = _blooms(
        _mix64(words), may_be_salient & (counts >= 2), may_be_salient & (counts >= 3)
    )
    eligible = may_be_salient & (counts >= SALIENT_MIN_COUNT)
    if named is not None:
        eligible &= np.asarray(named, dtype=bool)
    repeated = np.flatnonzero(eligible)
    # most repeated first; ties by hash, so the choice does not depend on reading order
    if len(repeated) > 1:
        repeated = repeated[np.lexsort((words[repeated], -counts[repeated]))]
    top = repeated[:SALIENT_SIZE]
    in_order, word_lines, n_lines = np.zeros(0, dtype=np.uint32), np.zeros(0, np.uint8), 0
    if 0 < len(tokens) <= SKETCH_SIZE + 1:  # every word pair is in ``values``: a short text
        in_order = (tokens & np.uint64(0xFFFFFFFF)).astype(np.uint32)
        n_lines = min(max(len(line_sizes), 1), 255)
        word_lines = np.minimum(line_of, 254).astype(np.uint8)
    return TextSketch(
        values,
        len(shingles),
        words[top],
        vocab,
        core_mask if core_mask is not None and core_mask.any() else np.zeros(0, dtype=bool),
        tags,
        head_lines,
        tail_lines,
        tagged_lines,
        in_order,
        word_lines,
        n_lines,
        twice,
        np.minimum(counts[top], _MAX_COUNT).astype(np.uint16),
        thrice,
        head,
    )


def _tagged_lines(n_lines: int, head_lines: int, tail_lines: int) -> list[int]:
    return sorted(
        set(range(min(head_lines, n_lines))) | set(range(max(n_lines - tail_lines, 0), n_lines))
    )


def _line_of_tokens(n_tokens: int, line_sizes: list[int]) -> np.ndarray:
    """The line (among the lines with content) of each of a document's content tokens, by the
    number of tokens of each line; segmenting a line alone may give a token more or less than
    the whole text did (a word joined across a line break): the last line absorbs the
    difference, and every line after the join is off by it. Only where the caller cannot tell
    where each token begins (make_sketch's ``token_lines``)."""
    line_of = np.repeat(np.arange(len(line_sizes)), line_sizes)[:n_tokens]
    if len(line_of) < n_tokens:
        line_of = np.concatenate(
            [line_of, np.full(n_tokens - len(line_of), max(len(line_sizes) - 1, 0))]
        )
    return line_of


def _tagged_shingles(
    tokens: np.ndarray,
    start: int,
    end: int,
    line_of: np.ndarray,
    n_lines: int,
    head_lines: int,
    tail_lines: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Every distinct bigram hash of ``tokens`` with its tags (TextSketch.tags); ``line_of``:
    the line (of ``n_lines`` with content) of each token."""
    per_position = _mix64(tokens[:-1] * _GOLDEN + tokens[1:])
    # np.unique(per_position, return_inverse=True), by one sort (np.unique's own steps cost
    # more than the work on a short text)
    order = np.argsort(per_position, kind="stable")
    ordered = per_position[order]
    first = _run_starts(ordered)
    values = ordered[first]
    inverse = np.empty(len(order), dtype=np.intp)
    inverse[order] = np.cumsum(first) - 1
    n = len(per_position)
    tagged = _tagged_lines(n_lines, head_lines, tail_lines)
    bit_of = np.zeros(max(n_lines, 1), dtype=np.uint16)
    for bit, line in enumerate(tagged):
        bit_of[line] = 1 << bit
    first, second = bit_of[line_of[:-1]], bit_of[line_of[1:]]
    lines_tag = first | second
    tag = np.where(lines_tag == 0, INTERIOR, lines_tag).astype(np.uint16)
    tag |= np.where((line_of[:-1] != line_of[1:]) & (lines_tag != 0), JUNCTION, 0).astype(np.uint16)
    # a junction with an untagged line also touches the interior, but goes with its edge line
    tag[start : max(start, end - 1)] |= IN_BODY  # both tokens of the bigram in the body
    tags = np.zeros(len(values), dtype=np.uint16)
    np.bitwise_or.at(tags, inverse.ravel(), tag[:n])
    return values, tags


def substituted(a: TextSketch, b: TextSketch) -> bool:
    """A word repeated in ``a`` is absent from ``b`` and one repeated in ``b`` absent from ``a``;
    or, one way round, occurs there once or twice (a page that names its sibling, in a
    reference to it, while each page names itself throughout), when as many occurrences of
    the two words are gone as in a swap both ways (SWAP_MIN_GONE); or each page names its own
    word far more often than the other page does (two siblings naming each other:
    :func:`_named_less_both_ways`). Never when the two begin alike (their first words are the
    same words, ``head``)."""
    if not a.salient_masks or not b.salient_masks or not (a.has_vocab and b.has_vocab):
        return False
    if a.head and a.head == b.head:
        # Two pages whose first words are the same words are one page revised, whatever word
        # it renamed throughout (a function renamed in a read-me, a misspelling mended): pages
        # of one template name themselves there (a manual page's header and NAME, a command
        # reference's title). Of 50 pairs of read-me releases sharing 80 % of their word
        # trigrams that this rule refused, 25 begin alike; of the 119 pairs of different pages
        # it refused (51 manual pages, 14 sections of info manuals, 54 of public2), none.
        return False
    if a.salient_profile == b.salient_profile:
        # Nothing to look up: neither lacks or names less a word the other repeats (a fifth
        # of the pairs of copies of a long page that each name their own client, where these
        # checks were two thirds of a verification).
        return False
    a_only, b_only = b.lacks_salient_of(a), a.lacks_salient_of(b)
    return (
        (a_only and b_only)
        or (a_only and _refers(a, b))
        or (b_only and _refers(b, a))
        or _named_less_both_ways(a, b)
    )


def _held(doc: TextSketch, word: int, twice_mask: int) -> int | None:
    """How often ``doc`` holds a rare word at most: exactly, when it is among its salient
    words; else 1 or 2 (its filters; 1 also when it lacks the word); else, when its salient
    words are as many as a sketch keeps (the most repeated first), as often as the least
    repeated of them; None when it may be more."""
    found = doc.salient_counts.get(word)
    if found is not None:
        return found
    held = doc.at_most(twice_mask)
    if held is None and len(doc.counts) == SALIENT_SIZE:
        # (a count kept as 255 by an older sketch may stand for more; then no count, kept in a
        # byte too, is three times as much, and a whole one of a copy is no less)
        return int(doc.counts.min())
    return held


def _named_less(a: TextSketch, b: TextSketch) -> bool:
    """``a`` holds a repeated word at least SALIENT_MIN_COUNT times as often as ``b`` does
    (a word ``b`` lacks counted as held once), SALIENT_MIN_COUNT or more times more."""
    words, counts = a.salient.tolist(), a.counts.tolist()
    for word, n, mask in zip(words, counts, a.salient_twice_masks, strict=True):
        held = _held(b, word, mask)
        if held is not None and n >= SALIENT_MIN_COUNT * held and n - held >= SALIENT_MIN_COUNT:
            return True
    return False


def _named_less_both_ways(a: TextSketch, b: TextSketch) -> bool:
    """Each page names its own word at least three times as often as the other page does, and
    three times more (so six or more occurrences are gone in all, SWAP_MIN_GONE): sibling
    pages that name each other (GNU coreutils' ``expand`` and ``unexpand`` pages, each naming
    itself four times and the other once, in SEE ALSO; man-db's Chinese ``apropos`` page, 8
    and 4 times, and ``whatis``'s, 13 and once). Copies of one text never do this both ways:
    a copy never names a word three times as often as its original, and two copies would each
    have to lose most of a different word; a word held three times against once in both
    directions (a cut copy against an edited copy of a short text) is two occurrences, not
    three, each way."""
    if not (a.has_counts and b.has_counts):
        return False
    words_a, counts_a, less_a = a.salient_by_word
    words_b, counts_b, less_b = b.salient_by_word
    if words_a == words_b:
        # The same salient words (most pairs of copies): each one's count in the other is
        # its exact count there, side by side, compared in C without a lookup a word (_held).
        return any(map(operator.ge, counts_a, less_b)) and any(map(operator.ge, counts_b, less_a))
    return _named_less(a, b) and _named_less(b, a)


def _refers(a: TextSketch, b: TextSketch) -> bool:
    """``a`` holds a repeated word ``b`` lacks, and names one ``b`` repeats, at most twice and
    at most once for every SALIENT_MIN_COUNT times ``b`` does: the occurrences of the first
    in ``a`` and those of the second ``b`` holds beyond ``a``'s at least SWAP_MIN_GONE."""
    if not (a.has_counts and b.has_counts):
        return False
    gone = max(
        (int(n) for n, w in zip(a.counts, a.salient_masks, strict=True) if b.lacks_one_of((w,))),
        default=0,
    )
    for m, mask in zip(b.counts, b.salient_twice_masks, strict=True):
        if gone + int(m) - 1 < SWAP_MIN_GONE:
            break  # most repeated first: no later word of ``b`` reaches it either
        held = a.at_most(mask)
        # and ``b`` names itself at least SALIENT_MIN_COUNT times for each time ``a`` names it
        # (a revision may use a word four times where it had it twice: Rust's page of the
        # wasm32-wali-linux target, "unknown" 2 -> 4 times, with "config" dropped)
        if (
            held is not None
            and gone + int(m) - held >= SWAP_MIN_GONE
            and int(m) >= held * SALIENT_MIN_COUNT
        ):
            return True
    return False


def candidate_keys(sketch: TextSketch) -> np.ndarray:
    """The values through which a document is also proposed as a candidate, besides its simhash.

    The simhash of a text of a few hundred words or fewer is noisy: a DOCX copy of a poem lands
    9 bits from its TXT, 3 % of the words of a 300-word article changed 15 bits. Such documents
    (up to ``KEYED_MAX_SHINGLES`` shingles) are also keyed by their sketch's ``CANDIDATE_KEYS``
    smallest values: two documents sharing a Jaccard index J have the same smallest shingle of
    their union with probability J, so a pair at the 80 % threshold (J = 2/3) shares none of
    its first 16 values with probability about (1/3)^16. The same keys serve the in-memory
    grouping and the indexed SQL lookup, so both propose the same candidates.

    A short document with a core or with edge lines is keyed by those views too (the smallest
    values of its core and of its text without any edge line), so that a note is proposed with
    its copy under a banner longer than itself; at most twice ``CANDIDATE_KEYS`` keys.

    A longer document's simhash is steady under edits spread through it, but not under edits
    that all fall on one of its features: a revision that renames one term everywhere (档案 for
    文件, at most 5 % of the words) moved a long text's simhash 11-19 bits in 10 of 24 of the
    public corpora's long texts, past the candidate radius, while verification found 0.91-0.97
    of their text the same. So a long document is keyed too, by its ``LONG_CANDIDATE_KEYS``
    smallest values: at the threshold (J = 0.6), a pair shares two of them or more with
    probability 0.999 (simulated); half the keys of a short one, because most documents of a
    large archive are long and its simhash proposes nearly all of their pairs already. They are
    the first values its sketch stores, so they are not stored again (:func:`raw_candidate_keys`
    reads them): a sketch written before long documents were keyed has them too."""
    if sketch.shingle_count == 0:
        return _EMPTY
    if sketch.shingle_count > KEYED_MAX_SHINGLES:
        return sketch.body[:LONG_CANDIDATE_KEYS]
    keys = sketch.body[:CANDIDATE_KEYS]
    views = [sketch.core[:CANDIDATE_KEYS]]
    if len(sketch.tags):
        views.append(
            sketch.values[(sketch.tags & (INTERIOR | JUNCTION)) == INTERIOR][:CANDIDATE_KEYS]
        )
    others = sorted_unique(np.concatenate(views))
    extra = others[~in_sorted(others, keys)]
    if len(extra) == 0:
        return keys
    return np.concatenate([keys, extra[: _MAX_KEYS - len(keys)]])


def edge_keys(sketch: TextSketch, keys: np.ndarray | None = None) -> np.ndarray:
    """The values through which a short document's edge lines alone are proposed: the
    smallest EDGE_KEYS values of its tagged lines' own word pairs (junctions aside) that are
    none of its candidate keys (``keys``, when the caller has them).

    A note of eight words above a disclaimer of fifty, as a mail: the mail's smallest values
    are the disclaimer's, and so are those of its text without its edge lines, so the mail
    shared one candidate key or none with the note alone, or with the note above another
    company's disclaimer, and a pair needs two (grouping.MIN_SHARED_KEYS). Its edge lines alone
    are the note. But they are also a signature, which every mail of one sender ends with: an
    edge key proposes pairs only while few documents hold it (grouping.EDGE_KEY_POSTINGS), so
    a sender's mails are not all candidates of each other through their signature."""
    if (
        len(sketch.tags) == 0
        or sketch.shingle_count == 0
        or sketch.shingle_count > KEYED_MAX_SHINGLES
    ):
        return _EMPTY
    keys = candidate_keys(sketch) if keys is None else keys
    edges = ((sketch.tags & _LINE_BITS) != 0) & ((sketch.tags & JUNCTION) == 0)
    view = sketch.values[edges]
    return view[~in_sorted(view, np.sort(keys))][:EDGE_KEYS]


# What grouping needs of every document up front: the header and the candidate keys stored
# right after it (and its edge keys after those); the rest of a sketch is read only for
# documents that turn out to be someone's candidate.
KEYS_PREFIX_BYTES = _HEADER.size + 8 * (_MAX_KEYS + EDGE_KEYS)
# ... and of a long document, whose keys are its first values
LONG_KEYS_PREFIX_BYTES = _HEADER.size + 8 * LONG_CANDIDATE_KEYS


def edge_key_slots(flags: Any) -> Any:
    """How many of the keys a stored sketch holds after its header are edge keys (the last
    ones), by the header's flags (a number or an array of them)."""
    return np.where(np.asarray(flags) & _HAS_EDGE_KEYS, EDGE_KEYS, 0)


def key_count(count: Any, n_values: Any, n_keys: Any) -> Any:
    """How many candidate keys a stored sketch holds right after its header, by the header's
    shingle count, number of values and number of stored keys (numbers or arrays of them): a
    long document's are its first values (:func:`candidate_keys`), none are stored for it."""
    return np.where(count > KEYED_MAX_SHINGLES, np.minimum(n_values, LONG_CANDIDATE_KEYS), n_keys)


def raw_candidate_keys(
    raw: bytes | None, *, signed: bool = False, long_keys: bool = True
) -> list[int]:
    """:func:`candidate_keys` and :func:`edge_keys` of a stored sketch, read straight from its
    bytes (no decoding of the rest: grouping a million documents reads every document's keys
    but few sketches); ``signed``: each as the signed 64-bit number with its bits, as the
    store holds it; without ``long_keys``, none of a long document (an index too large for
    them, grouping.long_keys_used)."""
    if not raw or len(raw) < _HEADER.size:
        return []
    fmt, count, n_values, _, n_keys, _ = _HEADER.unpack_from(raw)
    if fmt != _FORMAT or (not long_keys and count > KEYED_MAX_SHINGLES):
        return []
    n = min(int(key_count(count, n_values, n_keys)), (len(raw) - _HEADER.size) // 8)
    # (an edge key repeated to fill its slots is one key)
    return list(
        dict.fromkeys(struct.unpack_from(f"<{n}{'q' if signed else 'Q'}", raw, _HEADER.size))
    )


def distinct_line_ids(s: TextSketch) -> list[int]:
    """:func:`line_ids` without their zeros and repeats: what the store keeps of a document
    (how many texts hold a line is asked of the index, Store.line_counts)."""
    return sorted(s.line_id_set)


def raw_line_ids(raw: bytes | None) -> list[int]:
    """:func:`distinct_line_ids` of a stored sketch."""
    if not raw or len(raw) < _HEADER.size or not _HEADER.unpack_from(raw)[5] & _HAS_WORDS:
        return []
    return distinct_line_ids(decode(raw))


def decode(sketch: bytes | None) -> TextSketch:
    return TextSketch.from_bytes(sketch)


def verified_similarity(
    a: TextSketch,
    b: TextSketch,
    threshold: float = 0.0,
    common: LineCounts | None = None,
    *,
    veto: bool = True,
) -> float:
    """The share of common text of two documents, 0 when their repeated words were swapped
    (checked only when the share reaches ``threshold``: below it the pair fails anyway).
    ``common``: when they are in an index, how many of its different texts hold each of some
    lines (by :func:`line_ids`; the two-sided comparison asks for the two documents').
    With ``common``, 0 too when the two share only boilerplate (:func:`shares_only_boilerplate`).
    ``veto=False``: the share whatever was swapped or shared (what the diff says either cost)."""
    if _too_few_words(a) or _too_few_words(b):
        return 0.0
    share = similarity(a.body, a.shingle_count, b.body, b.shingle_count)
    meeting = _Meeting(a, b)  # what the views below share of the two, computed once
    if (len(a.tags) or len(b.tags)) and a.holds_whole_text and b.holds_whole_text:
        # A short document's body leaves out short first and last lines (what a title or a
        # signature would be); a copy wrapped at another width has those words inside its
        # lines, or one line of it all. The whole texts, compared exactly, are then the view
        # that sees the copy.
        share = max(share, meeting.whole_similarity())
    if len(a.core) or len(b.core):
        share = max(share, _core_similarity(a, b))
    if share < TRIMMED_MIN_SHARE and (len(a.tags) or len(b.tags)):
        share = max(
            share,
            trimmed_similarity(a, b, threshold, meeting),
            trimmed_similarity(b, a, threshold, meeting.flipped()),
            two_sided_similarity(a, b, threshold, common, meeting),
        )
    if len(a.words) and len(b.words) and share < 1.0:
        share = max(share, word_similarity(a, b, max(share, threshold), meeting))
        if common is not None and share < 1.0:
            share = max(
                share,
                left_out_boilerplate_similarity(a, b, max(share, threshold), common),
            )
    if veto and share >= threshold:
        if substituted(a, b) or (common is not None and shares_only_boilerplate(a, b, common)):
            return 0.0
    return share


def _too_few_words(sk: TextSketch) -> bool:
    """Whether ``sk`` is a text of fewer than MIN_NEAR_WORDS content words (a short text's
    sketch holds each of its content words, in order: ``words``)."""
    return 0 < len(sk.words) < MIN_NEAR_WORDS


def word_similarity(
    a: TextSketch, b: TextSketch, floor: float = 0.0, meeting: _Meeting | None = None
) -> float:
    """The share of common words of two short documents that differ by light edits only:
    ``2 L / (n_a + n_b)`` for ``L`` words in the longest common subsequence of their content
    words, whole, or with one side's edge lines that share no word pair with the other left out
    (as :func:`trimmed_similarity` leaves them out); 0.0 when either side has more words
    outside the common ones than LIGHT_EDIT_SHARE of its words, or one, unless the two differ
    in that many places at most, each up to EDIT_RUN_TOKENS tokens for one (:func:`_light_edits`:
    a word we cut in two).

    Word pairs are the measure of a text of some length, but a note of a few words has few:
    one word replaced in a note of seven content words takes two of its six pairs (67 %), while
    a person sees six words of seven unchanged (86 %), "the same note with one word changed".
    Counting words instead would also let two different notes built on one template ("this
    package contains the data for …") or under one footer look alike, since what differs there
    is a run of words, which word pairs weigh fairly. So words are counted only between texts
    that differ by a word here and there. ``floor``: answers below it may come back as 0.0.
    ``meeting``: the pair's :class:`_Meeting`, when the caller has one."""
    if len(a.words) == 0 or len(b.words) == 0:
        return 0.0
    # The words the two have in common in any order, counted with their repeats, bound those
    # in order, whole or with lines left out: most pairs end here.
    shared = int(np.count_nonzero(in_sorted(a.word_keys, b.word_keys)))
    if shared == 0:
        return 0.0
    best = _word_share(a.words, b.words, floor, shared)
    if best < 1.0 and (len(a.tags) or len(b.tags)):
        meeting = meeting or _Meeting(a, b)
        best = max(
            best,
            _trimmed_words(meeting, floor, shared),
            _trimmed_words(meeting.flipped(), floor, shared),
        )
    return best


def _word_share(words: np.ndarray, other: np.ndarray, floor: float, shared: int) -> float:
    """word_similarity of the content words ``words`` and ``other``, whole; ``shared``: at
    least the words the two have in common in any order."""
    total = len(words) + len(other)
    need = max(_words_needed(len(words)), _words_needed(len(other)))
    edits = min(_edits_allowed(len(words)), _edits_allowed(len(other)))
    loose = _fewest_common(max(len(words), len(other)), edits)
    shared = min(shared, len(words))
    if shared < max(min(need, loose), 1) or 2.0 * shared / total <= floor:
        return 0.0
    common = _lcs_length(words, other)
    if common >= need or (common >= loose and _light_edits(words, other, edits)):
        return 2.0 * common / total
    return 0.0


def _edits_allowed(n: int) -> int:
    """How many light edits a text of ``n`` words may differ by: LIGHT_EDIT_SHARE of its
    words, or one."""
    return max(1, int(LIGHT_EDIT_SHARE * n))


def _fewest_common(n: int, edits: int) -> int:
    """The fewest of a text's ``n`` words that ``edits`` light edits leave in common with the
    other text, one edit taking up to EDIT_RUN_TOKENS of them (:func:`_light_edits`)."""
    return n - EDIT_RUN_TOKENS * edits


def _light_edits(a: np.ndarray, b: np.ndarray, edits: int) -> bool:
    """Whether ``a`` and ``b`` are the same words in the same order but for at most ``edits``
    places where they differ, each a token inserted, deleted or replaced, or one token
    replaced by up to EDIT_RUN_TOKENS (a word we cut in two, either way round).

    A word of the text is sometimes two of our tokens: a Japanese compound of Chinese
    characters jieba does not know comes out as its characters (圧縮 -> 圧 / 縮), a hyphenated
    word is two. So "one word replaced" may be two tokens for one, and counting tokens made such
    a note two edits apart. Two words for two are two edits still (in a note of ten words, a
    fifth of it), and so are two inserted: a note of two words under a banner is another note,
    not the banner with an edit. Found in reading order over the pairs of equal tokens, each
    at most EDIT_RUN_TOKENS + 1 positions after the pair before it, keeping the fewest edits
    that reach each pair (a short text: a few hundred pairs)."""
    xs, ys = a.tolist(), b.tolist()
    n, m = len(xs), len(ys)
    run = EDIT_RUN_TOKENS

    def one_edit(gap_a: int, gap_b: int) -> bool:
        # a token inserted, deleted or replaced, or one replaced by up to ``run``
        return max(gap_a, gap_b) <= 1 or (min(gap_a, gap_b) == 1 and max(gap_a, gap_b) <= run)

    # reached[i + 1]: {j: the fewest edits with xs[i] == ys[j] the last tokens matched}; the
    # start is a match before the first tokens of both
    reached: list[dict[int, int]] = [{} for _ in range(n + 1)]
    reached[0][-1] = 0
    for i in range(-1, n):
        for j, cost in reached[i + 1].items():
            rest_a, rest_b = n - i - 1, m - j - 1
            if one_edit(rest_a, rest_b) and cost + (rest_a + rest_b > 0) <= edits:
                return True
            for ni in range(i + 1, min(i + run + 1, n - 1) + 1):
                x, row = xs[ni], reached[ni + 1]
                for nj in range(j + 1, min(j + run + 1, m - 1) + 1):
                    gap_a, gap_b = ni - i - 1, nj - j - 1
                    if ys[nj] == x and one_edit(gap_a, gap_b):
                        c = cost + (gap_a + gap_b > 0)
                        if c <= edits and row.get(nj, edits + 1) > c:
                            row[nj] = c
    return False


def _words_needed(n: int) -> int:
    """How many of a text's ``n`` words must be common to the other for the two to differ by
    light edits: all but LIGHT_EDIT_SHARE of them, or all but one."""
    return n - _edits_allowed(n)


def _trimmed_words(meeting: _Meeting, floor: float, shared: int) -> float:
    """word_similarity of ``a`` without its edge lines that share no word pair with ``b`` (a
    banner, a title), against ``b`` whole (``meeting``: of ``a``, the side trimmed, and ``b``;
    ``shared``: the words all of ``a`` has in common with ``b``, in any order). Another note
    under the same banner keeps the banner and adds its own words: more than light edits."""
    a, b = meeting.a, meeting.b
    if len(a.tags) == 0 or shared < _fewest_common(len(b.words), _edits_allowed(len(b.words))):
        return 0.0
    dropped = meeting.dropped_lines()
    if not dropped:
        return 0.0
    gone = np.zeros(a.n_lines + 1, dtype=bool)
    for bit, line in enumerate(_tagged_lines(a.n_lines, a.head_lines, a.tail_lines)):
        gone[line] = bool(dropped >> bit & 1)
    kept = a.words[~gone[np.minimum(a.word_lines, a.n_lines)]]
    return _word_share(kept, b.words, floor, shared)


def _word_keys(words: np.ndarray) -> np.ndarray:
    """``words`` as a sorted set of (word, how many times it came before) keys: the words
    counted with their repeats, for a bound of what two texts share in any order (a plain
    loop: a short text has a few dozen words, where numpy's calls cost more)."""
    keys = []
    previous, seen = -1, 0
    for word in sorted(words.tolist()):
        seen = seen + 1 if word == previous else 0
        previous = word
        keys.append(word << 8 | min(seen, 255))
    return np.array(keys, dtype=np.uint64)


def _lcs_length(a: np.ndarray, b: np.ndarray) -> int:
    """Length of the longest common subsequence of two short sequences, bit-parallel (one
    step of integer arithmetic per element of ``b``; Hyyrö 2004)."""
    masks: dict[int, int] = {}
    for i, x in enumerate(a.tolist()):
        masks[x] = masks.get(x, 0) | (1 << i)
    full = (1 << len(a)) - 1
    v = full
    get = masks.get
    for y in b.tolist():
        u = v & get(y, 0)
        v = ((v + u) | (v - u)) & full
    return len(a) - v.bit_count()


def trimmed_similarity(
    a: TextSketch, b: TextSketch, floor: float = 0.0, meeting: _Meeting | None = None
) -> float:
    """The share of common text of ``a`` without its edge lines that share nothing with ``b``.

    One document is the other plus a title, a banner or a signature, however long: left out
    from the outside in, while a line has no word pair in common with the other document, what
    remains is compared whole, with the other's body or its whole text. Only one side is trimmed
    (two different notes under one banner would otherwise each lose their own text and keep the
    banner), and both must be short documents, compared exactly. When ``b`` holds text of its
    own too (:func:`_adds_own_text`: an edge line that shares no word pair with ``a``, as
    another note under the same banner has, or a rest mostly not in ``a``), the remainder must
    reach TRIMMED_MIN_SHARE, or the answer is 0.0; otherwise ``b`` adds nothing to what ``a``
    holds but edits, and the remainder's share is the answer, judged at the threshold like any
    other (so the note with one word edited is a copy of the note under a banner).
    ``floor``: shares below it may come back as 0.0 (the threshold the caller judges by).
    ``meeting``: the pair's :class:`_Meeting` (``a`` first), when the caller has one."""
    if len(a.tags) == 0 or (len(b.tags) == 0 and not b.complete):
        return 0.0
    meeting = meeting or _Meeting(a, b)
    in_b = meeting.in_b()
    # The most it could reach: what remains holds at least the word pairs it shares with ``b``
    # (at most ``shared``), and the smaller view of ``b`` is its body, so the share is at most
    # 2 * shared / (shared + len(body)). Most candidate pairs of two notes end here, before
    # their lines are looked at (that took most of a grouping's verification).
    shared = int(np.count_nonzero(in_b))
    bound = 2.0 * shared / (shared + len(b.body)) if shared else 0.0
    if shared == 0 or bound < floor:
        return 0.0
    best = _trimmed_share(meeting)
    if best >= TRIMMED_MIN_SHARE:
        return best
    # Below 90 % only when ``b`` adds nothing of its own, asked last: most pairs end before.
    if best == 0.0 or best < floor or _adds_own_text(meeting.flipped()):
        return 0.0
    return best


def _adds_own_text(meeting: _Meeting) -> bool:
    """Whether ``b`` holds text of its own beside what ``a`` holds: an edge line that shares no
    word pair with ``a`` (``b`` could be trimmed too: another note under the same banner), or a
    rest of which less than INNER_MIN_SHARED of the word pairs occur in ``a``. The rest is the
    text outside the tagged lines (a title that is no edge line because it shares a word with
    the signature), or the whole text when its lines cannot be told apart. ``meeting``: of
    ``b`` (first) and ``a``."""
    b = meeting.a
    in_a = meeting.in_b()
    inner = (
        (b.tags & (INTERIOR | JUNCTION)) == INTERIOR
        if len(b.tags)
        else np.ones(len(b.values), dtype=bool)
    )
    n = int(np.count_nonzero(inner))
    if n and int(np.count_nonzero(in_a[inner])) < INNER_MIN_SHARED * n - 1e-9:
        return True
    return len(b.tags) > 0 and bool(meeting.dropped_lines())


def _trimmed_share(meeting: _Meeting) -> float:
    """:func:`trimmed_similarity` the long way, whatever it comes to (``meeting``: of ``a``,
    the side trimmed, and ``b``)."""
    a, b = meeting.a, meeting.b
    dropped = meeting.dropped_lines()
    if not dropped:
        return 0.0
    kept = _kept(a, dropped)
    n_kept = int(kept.sum())
    if n_kept == 0:
        return 0.0
    best = 0.0
    for view in (b.values, b.body):
        common = int(np.count_nonzero(in_sorted(a.values[kept], view)))
        best = max(best, 2.0 * common / (n_kept + len(view)))
    return float(best)


def _kept(a: TextSketch, dropped: int) -> np.ndarray:
    """Which of ``a``'s values remain once the tagged lines in ``dropped`` are left out (a word
    pair across the boundary of a dropped line goes with the line that stays)."""
    line_bits = a.tags & np.uint16(_LINE_BITS)
    inside = (a.tags & JUNCTION) == 0
    hit = (line_bits & np.uint16(dropped)) != 0
    junction_kept = ~inside & ~hit
    inner_kept = inside & ((line_bits & np.uint16(_LINE_BITS & ~dropped)) != 0)
    return ((a.tags & INTERIOR) != 0) | junction_kept | inner_kept


def two_sided_similarity(
    a: TextSketch,
    b: TextSketch,
    floor: float = 0.0,
    common: LineCounts | None = None,
    meeting: _Meeting | None = None,
) -> float:
    """The share of common text of two short documents each without its own edge lines at
    opposite ends: a note under a banner and its copy above a footer ("sent from my phone").

    Each side leaves out, from the outside in, its edge lines that share no word pair with
    the other; what remains of the two is compared. Only when one side left lines out at its
    top only and the other at its bottom only, and those lines are at most
    TWO_SIDED_MAX_ADDED of each document's word pairs: two different notes under one banner
    (or above one signature) leave out their own text at the same end and keep the banner, and
    with the banner above one and below the other they would keep less than twice what they
    leave out, unless each note is a few words (then nothing tells the banner from the note).

    Within an index (``common``: how many different texts hold each line), lines left out that
    are more than that share are enough when they are *common* and what the two keep is not
    (COMMON_LINE_MIN, COMMON_LINE_FACTOR): then the index has told the banner from the note.
    ``meeting``: the pair's :class:`_Meeting` (``a`` first), when the caller has one."""
    if len(a.tags) == 0 or len(b.tags) == 0:
        return 0.0
    meeting = meeting or _Meeting(a, b)
    in_b = meeting.in_b()
    # The most it could reach: every shared word pair kept, each side keeping the least it may
    # (a share of 1 - TWO_SIDED_MAX_ADDED, or only what it shares when the index may tell);
    # most candidate pairs of two notes end here.
    shared = int(np.count_nonzero(in_b))
    least = (1 - TWO_SIDED_MAX_ADDED) * (len(a.values) + len(b.values)) if common is None else 0
    if shared == 0 or 2.0 * shared < floor * least:
        return 0.0
    head_a, tail_a = meeting.dropped_ends()
    if bool(head_a) == bool(tail_a):  # nothing to leave out, or lines at both ends
        return 0.0
    head_b, tail_b = meeting.flipped().dropped_ends()
    if not (head_a and tail_b and not head_b) and not (tail_a and head_b and not tail_b):
        return 0.0
    kept_a, kept_b = _kept(a, head_a | tail_a), _kept(b, head_b | tail_b)
    n_a, n_b = int(kept_a.sum()), int(kept_b.sum())
    if (
        n_a < (1 - TWO_SIDED_MAX_ADDED) * len(a.values) - 1e-9
        or n_b < (1 - TWO_SIDED_MAX_ADDED) * len(b.values) - 1e-9
    ) and not (
        common is not None
        and n_a
        and n_b
        and _added_lines_common(a, head_a | tail_a, b, head_b | tail_b, common)
    ):
        return 0.0
    both = int(np.count_nonzero(in_sorted(a.values[kept_a], b.values[kept_b])))
    return 2.0 * both / (n_a + n_b)


def line_ids(s: TextSketch) -> np.ndarray:
    """One 64-bit id for each line with content of a short document (its words' hashes, each
    mixed with its place in the line, summed, and mixed with the line's length; 0 for a line
    whose words the segmenter gave to the next one), in order; empty for a long document. Two
    texts holding one line hold the same id, whatever their format or what surrounds it."""
    if len(s.words) == 0:
        return np.zeros(0, dtype=np.uint64)
    lines = s.word_lines.astype(np.int64)
    starts = np.flatnonzero(_run_starts(lines))
    sizes = np.empty(len(starts), dtype=np.int64)
    np.subtract(starts[1:], starts[:-1], out=sizes[:-1])
    sizes[-1] = len(lines) - starts[-1]
    place = np.arange(len(lines)) - np.repeat(starts, sizes)
    per_word = _mix64(s.words.astype(np.uint64) * _GOLDEN + place.astype(np.uint64))
    found = _mix64(np.add.reduceat(per_word, starts) ^ sizes.astype(np.uint64))
    ids = np.zeros(max(int(lines[-1]) + 1, s.n_lines), dtype=np.uint64)
    ids[lines[starts]] = found
    return ids


def _added_lines_common(
    a: TextSketch, dropped_a: int, b: TextSketch, dropped_b: int, common: LineCounts
) -> bool:
    """Whether every line the two documents leave out (tag bits ``dropped_a``, ``dropped_b``)
    is common in the index and what they keep is not (two_sided_similarity)."""
    sides = []
    for s, dropped in ((a, dropped_a), (b, dropped_b)):
        tagged = _tagged_lines(s.n_lines, s.head_lines, s.tail_lines)
        out = {tagged[k] for k in range(len(tagged)) if dropped & (1 << k)}
        sides.append((s.line_id_array.tolist(), out))
    counts = common(sorted({i for ids, _ in sides for i in ids} - {0}))
    left_out, kept = [], []
    for ids, out in sides:
        for line, line_id in enumerate(ids):
            if line_id:
                (left_out if line in out else kept).append(counts.get(line_id, 0))
    rarest = min(left_out, default=0)
    return rarest >= COMMON_LINE_MIN and rarest >= COMMON_LINE_FACTOR * max(kept, default=0)


def _pair_keys(
    words: np.ndarray, word_lines: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """TextSketch.word_pairs of these content words and their lines."""
    keys = _neighbours(words)
    within = word_lines[1:] == word_lines[:-1]
    return sorted_unique(keys), keys[within], word_lines[:-1][within].astype(np.int64)


def _neighbours(words: np.ndarray) -> np.ndarray:
    """Each pair of neighbouring words as one key (first << 32 | second), in order."""
    w = words.astype(np.uint64)
    return (w[:-1] << np.uint64(32)) | w[1:]


def _foreign_lines(s: TextSketch, other: TextSketch, other_ids: frozenset[int]) -> list[int]:
    """The lines of ``s`` (their places among its lines) that hold text ``other`` lacks: a
    line ``other`` does not hold whole, of whose own word pairs under half are among
    ``other``'s (a line of one word: whose word ``other`` does not hold). A line of ``s``
    edited in ``other`` keeps most of its pairs; a banner, a footer or another note keeps
    none."""
    ids = s.line_id_array.tolist()
    own_sided = [k for k, i in enumerate(ids) if i and i not in other_ids]
    if not own_sided:
        return []
    _, own, own_lines = s.word_pairs
    held = in_sorted(own, other.word_pairs[0])
    pairs = np.bincount(own_lines, minlength=len(ids)).tolist()
    met = np.bincount(own_lines, weights=held, minlength=len(ids)).tolist()
    foreign = []
    for k in own_sided:
        if pairs[k]:
            if 2 * met[k] < pairs[k]:
                foreign.append(k)
        else:  # a line of one word
            first = int(np.searchsorted(s.word_lines, k))
            if first >= len(s.words) or int(s.words[first]) not in other.word_set:
                foreign.append(k)
    return foreign


def left_out_boilerplate_similarity(
    a: TextSketch,
    b: TextSketch,
    floor: float,
    common: LineCounts,
) -> float:
    """The share of common text of two short documents when one is the other with lines glued
    to it that many texts of the index hold, or each is the same text with such lines of its
    own: a note alone, and the note with a company's disclaimer or a newsletter's footer below
    or above it, however long; the note under two companies' disclaimers.

    The lines of each that the other lacks (their own word pairs mostly not among the other's:
    not a line of the note edited) are left out only when they are at its top or bottom, as a
    banner or a footer is, and each is held by at least BOILERPLATE_MIN_TEXTS different texts
    of the index, and COMMON_LINE_FACTOR times as many as any line the two keep. A line many
    texts hold inside a text is its text: a changelog entry's "New upstream release." bullet
    between its heading and its signature. What is left of the two, MIN_NEAR_WORDS content
    words or more each, is compared by its word pairs and, when the two differ by light
    edits, word by word (:func:`word_similarity`). Two different notes, under one disclaimer
    or two, each leave out their own text, which few texts hold: never the same this way.
    ``floor``: answers below it may come back as 0.0. The index is asked first about the
    first and last lines the other lacks, and about every line of the two only when what is
    left reaches ``floor``."""
    lines_a, lines_b = a.line_id_set, b.line_id_set
    if lines_a == lines_b or len(a.words) == 0 or len(b.words) == 0:
        return 0.0  # no line of one that the other lacks
    # Lines left out are lines only one of them holds, at its top or bottom, each held by
    # BOILERPLATE_MIN_TEXTS texts or more: the first or the last line of one of them is such a
    # line, or there is nothing to leave out. Most pairs end here.
    ends = [i for i in a.end_line_ids if i not in lines_b]
    ends += [i for i in b.end_line_ids if i not in lines_a]
    if not ends or max(common(sorted(ends)).values(), default=0) < BOILERPLATE_MIN_TEXTS:
        return 0.0
    out_a, out_b = _foreign_lines(a, b, lines_b), _foreign_lines(b, a, lines_a)
    if not (out_a or out_b):
        return 0.0
    kept = []
    for s, out in ((a, out_a), (b, out_b)):
        if out and not _at_the_ends(s.line_id_array, out):
            return 0.0
        kept.append(_kept_words(s, out))
    kept_a, kept_b = kept
    if min(len(kept_a), len(kept_b)) < MIN_NEAR_WORDS:
        return 0.0
    pairs_a = sorted_unique(_neighbours(kept_a)) if out_a else a.word_pairs[0]
    pairs_b = sorted_unique(_neighbours(kept_b)) if out_b else b.word_pairs[0]
    both = int(np.count_nonzero(in_sorted(pairs_a, pairs_b)))
    n = len(pairs_a) + len(pairs_b)
    share = 2.0 * both / n if n else 0.0
    if share < 1.0:
        keys_a = _word_keys(kept_a) if out_a else a.word_keys
        keys_b = _word_keys(kept_b) if out_b else b.word_keys
        in_common = int(np.count_nonzero(in_sorted(keys_a, keys_b)))
        share = max(share, _word_share(kept_a, kept_b, max(share, floor), in_common))
    if share == 0.0 or share < floor:
        return 0.0
    counts = common(sorted(lines_a | lines_b))
    left_out, kept_lines = [], []
    for s, out in ((a, out_a), (b, out_b)):
        for k, line_id in enumerate(s.line_id_array.tolist()):
            if line_id:
                (left_out if k in out else kept_lines).append(counts.get(line_id, 0))
    rarest = min(left_out)
    if rarest < BOILERPLATE_MIN_TEXTS or rarest < COMMON_LINE_FACTOR * max(kept_lines, default=0):
        return 0.0
    return share


def _at_the_ends(ids: np.ndarray, lines: list[int]) -> bool:
    """Whether ``lines`` (places among a document's lines, ``ids``: its :func:`line_ids`) are
    lines at its top and at its bottom, with none of its other lines with content above or
    below them: a banner, a title, a footer or a disclaimer, not a line inside the text (a
    changelog entry's bullet that many entries hold)."""
    out = set(lines)
    kept = [k for k, i in enumerate(ids.tolist()) if i and k not in out]
    return not kept or not any(kept[0] < k < kept[-1] for k in out)


def _kept_words(s: TextSketch, out: list[int]) -> np.ndarray:
    """The content words of ``s``, in order, but for those of its lines ``out`` (places among
    its lines; a word goes with the line it begins in)."""
    if not out:
        return s.words
    left = np.zeros(len(s.line_id_array), dtype=bool)
    left[out] = True
    return s.words[~left[np.minimum(s.word_lines.astype(np.int64), len(left) - 1)]]


def least_kept_words(
    s: TextSketch, counts: Mapping[int, int], kept: frozenset[int] = frozenset()
) -> np.ndarray:
    """The content words of ``s`` (in order) that :func:`left_out_boilerplate_similarity`
    keeps of it against any other document: all but the runs of lines at its top and at its
    bottom that it might leave out, lines held by BOILERPLATE_MIN_TEXTS texts or more
    (``counts``, the index's) and COMMON_LINE_FACTOR times as many as every line kept.
    ``kept``: lines it keeps whatever the other (the lines every other document holds: only
    a line the other lacks is left out). What a bound of that view's share counts on
    (grouping._share_bounds)."""
    ids = s.line_id_array.tolist()
    if len(s.words) == 0 or not ids:
        return s.words
    # the most texts a kept line is in; it only grows, so the runs only shrink
    most = max((counts.get(i, 0) for i in ids if i in kept), default=0)
    while True:
        least = max(BOILERPLATE_MIN_TEXTS, COMMON_LINE_FACTOR * most)
        # a line with no words of its own (0) goes along
        goes = [i == 0 or (i not in kept and counts.get(i, 0) >= least) for i in ids]
        top = 0
        while top < len(ids) and goes[top]:
            top += 1
        bottom = len(ids)
        while bottom > top and goes[bottom - 1]:
            bottom -= 1
        inside = max((counts.get(i, 0) for i in ids[top:bottom] if i), default=0)
        if inside <= most:
            break
        most = inside
    return _kept_words(s, [*range(top), *range(bottom, len(ids))])


def shares_only_boilerplate(a: TextSketch, b: TextSketch, common: LineCounts) -> bool:
    """Whether two short documents are two documents under boilerplate of the index
    (BOILERPLATE_MIN_TEXTS): each holds a line the other lacks, and once the lines both hold
    that are boilerplate are left out, each has MIN_NEAR_WORDS content words or more and what
    is left of the two shares under BOILERPLATE_LEFT_SHARE of the smaller side's, in order.
    ``common``: how many different texts of the index hold each line (:func:`line_ids`)."""
    left = _left_of_boilerplate(a, b, common)
    return left is not None and _left_apart(*left)


def _left_of_boilerplate(
    a: TextSketch, b: TextSketch, common: LineCounts
) -> tuple[np.ndarray, np.ndarray] | None:
    """The content words of ``a`` and of ``b`` outside the boilerplate lines they share
    (:func:`shares_only_boilerplate`), or None when they share none or one holds every line
    of the other (asked of ``common`` only then)."""
    if len(a.words) == 0 or len(b.words) == 0:
        return None
    ids_a, ids_b = a.line_id_array, b.line_id_array
    lines_a, lines_b = a.line_id_set, b.line_id_set
    both = lines_a & lines_b
    if not both or lines_a <= lines_b or lines_b <= lines_a:
        return None
    counts = common(sorted(lines_a | lines_b))
    top = max(counts.get(i, 0) for i in lines_a ^ lines_b)
    least = max(BOILERPLATE_MIN_TEXTS, COMMON_LINE_FACTOR * top)
    boilerplate = [i for i in both if counts.get(i, 0) >= least]
    if not boilerplate:
        return None
    return _words_outside(a, ids_a, boilerplate), _words_outside(b, ids_b, boilerplate)


def _words_outside(s: TextSketch, ids: np.ndarray, lines: list[int]) -> np.ndarray:
    """The content words of ``s`` (in order) outside the lines whose ids are ``lines`` (``ids``:
    :func:`line_ids` of ``s``; a word goes with the line it begins in)."""
    out_line = np.isin(ids, np.array(lines, dtype=np.uint64))
    return s.words[~out_line[np.minimum(s.word_lines.astype(np.int64), len(ids) - 1)]]


def _left_apart(left_a: np.ndarray, left_b: np.ndarray) -> bool:
    """Whether what is left of two documents once their boilerplate is left out is two texts:
    each has MIN_NEAR_WORDS content words or more (fewer are a name or a date, a form letter's,
    judged with the whole text), sharing under BOILERPLATE_LEFT_SHARE of the smaller's words
    in order."""
    smaller = min(len(left_a), len(left_b))
    if smaller < MIN_NEAR_WORDS:
        return False
    return _lcs_length(left_a, left_b) < BOILERPLATE_LEFT_SHARE * smaller


# The most pairs of documents that none_share_only_boilerplate compares one by one (beyond, a
# family is verified pair by pair)
_BOILERPLATE_PAIRS_COMPARED = 2000


def none_share_only_boilerplate(sks: list[TextSketch], common: LineCounts) -> bool:
    """Whether no pair of ``sks`` can be two documents under boilerplate
    (:func:`shares_only_boilerplate`), shown without comparing every pair; False when that
    cannot be shown (a family of alike documents is then verified pair by pair,
    grouping._certified_family).

    A pair leaves out the lines both hold that BOILERPLATE_MIN_TEXTS texts or more hold and
    COMMON_LINE_FACTOR times as many as the most held line only one of them holds. When no
    document holds such a line, no pair is refused. Otherwise the core, the lines every
    document holds that are held so often that no line only some hold can outweigh them, is
    left out of every pair; a pair leaves out more only when it shares a line of its own held
    that often (a mail merge's letters on one street, the address line):

    * a pair that leaves out the core alone compares what is left of each outside it: one
      sequence of words they all hold in order, as long as half of the second longest of
      them, shows every such pair at once (letters under one library's text: "dear", the
      address's words);
    * a pair that also leaves out a line L: what is left of each lacks L's words, and every
      line either holds COMMON_LINE_FACTOR times less often than L is held by both; only the
      pairs of documents so alike, with MIN_NEAR_WORDS words or more left, are compared one by
      one (two letters on one street keep only a name).
    """
    short = [s for s in sks if len(s.words)]
    if len(short) < 2:
        return True
    ids = [s.line_id_array for s in short]
    lines = [s.line_id_set for s in short]
    counts = common(sorted(set().union(*lines)))

    def held(i: int) -> int:
        return counts.get(i, 0)

    if all(held(i) < BOILERPLATE_MIN_TEXTS for own in lines for i in own):
        return True
    every = frozenset.intersection(*lines)
    most = max((held(i) for own in lines for i in own - every), default=0)
    least = max(BOILERPLATE_MIN_TEXTS, COMMON_LINE_FACTOR * most)
    core = sorted(i for i in every if held(i) >= least)
    left = [_words_outside(s, x, core) for s, x in zip(short, ids, strict=True)]
    if not _held_in_order(left):
        n = len(short)
        if n * (n - 1) // 2 > _BOILERPLATE_PAIRS_COMPARED:
            return False
        pairs = {(i, j) for i in range(n) for j in range(i + 1, n)}
    else:
        found = _pairs_leaving_out_more(short, ids, lines, left, set(core), held)
        if found is None:
            return False
        pairs = found
    return not any(shares_only_boilerplate(short[i], short[j], common) for i, j in pairs)


def _held_in_order(left: list[np.ndarray]) -> bool:
    """Whether every two of ``left`` with MIN_NEAR_WORDS words or more each share at least
    BOILERPLATE_LEFT_SHARE of the smaller's words in order, shown by one sequence all of them
    hold (:func:`_common_in_order`), as long as that share of the second longest."""
    distinct = list({w.tobytes(): w for w in left if len(w) >= MIN_NEAR_WORDS}.values())
    if len(distinct) < 2:
        return True  # two the same share all their words
    second = sorted(len(w) for w in distinct)[-2]
    return len(_common_in_order(distinct)) >= BOILERPLATE_LEFT_SHARE * second


def _pairs_leaving_out_more(
    short: list[TextSketch],
    ids: list[np.ndarray],
    lines: list[frozenset[int]],
    left: list[np.ndarray],
    core: set[int],
    held: Callable[[int], int],
) -> set[tuple[int, int]] | None:
    """The pairs of ``short`` (places) that may leave out a line beyond the ``core`` and keep
    MIN_NEAR_WORDS words or more each (:func:`none_share_only_boilerplate`); None when there
    are more than _BOILERPLATE_PAIRS_COMPARED. ``left``: each one's words outside the core."""
    by_line: dict[int, list[int]] = {}
    for k, own in enumerate(lines):
        for i in own - core:
            if held(i) >= BOILERPLATE_MIN_TEXTS:
                by_line.setdefault(i, []).append(k)
    pairs: set[tuple[int, int]] = set()
    for line, docs in by_line.items():
        times = held(line)
        alike: dict[frozenset[int], list[int]] = {}
        for k in docs:
            word_lines = ids[k][np.minimum(short[k].word_lines.astype(np.int64), len(ids[k]) - 1)]
            if len(left[k]) - int(np.count_nonzero(word_lines == line)) < MIN_NEAR_WORDS:
                continue
            # the lines of k held too often to be only one side's, were ``line`` left out
            key = frozenset(i for i in lines[k] if COMMON_LINE_FACTOR * held(i) > times)
            alike.setdefault(key, []).append(k)
        for group in alike.values():
            if len(pairs) + len(group) * (len(group) - 1) // 2 > _BOILERPLATE_PAIRS_COMPARED:
                return None
            pairs.update((a, b) for x, a in enumerate(group) for b in group[x + 1 :])
    return pairs


def _common_in_order(seqs: list[np.ndarray]) -> list[int]:
    """A sequence of words every one of ``seqs`` holds in order (the longest common to the
    first two, then to it and each next one: not always the longest common to all)."""
    held = seqs[0].tolist()
    for seq in seqs[1:]:
        if not held:
            break
        held = _lcs(held, seq.tolist())
    return held


def _lcs(a: list[int], b: list[int]) -> list[int]:
    """A longest common subsequence of two short sequences (dynamic programming)."""
    n, m = len(a), len(b)
    table = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        row, below = table[i], table[i + 1]
        for j in range(m - 1, -1, -1):
            row[j] = below[j + 1] + 1 if a[i] == b[j] else max(below[j], row[j + 1])
    out, i, j = [], 0, 0
    while i < n and j < m:
        if a[i] == b[j]:
            out.append(a[i])
            i, j = i + 1, j + 1
        elif table[i + 1][j] >= table[i][j + 1]:
            i += 1
        else:
            j += 1
    return out


class _Meeting:
    """What two documents' sketches share, computed once however many views of a pair ask
    (verified_similarity compares two short documents whole, each trimmed, both trimmed and
    word by word: each asked which of one's word pairs the other holds, and which edge lines
    that leaves out). ``flipped()`` is the same pair from ``b``'s side, with the same memory:
    each answer is kept under the side that asked (``id`` of its sketch; a document compared
    with itself gets the same answers from both sides)."""

    __slots__ = ("a", "b", "_memo")

    def __init__(self, a: TextSketch, b: TextSketch, memo: dict[Any, Any] | None = None):
        self.a, self.b = a, b
        self._memo: dict[Any, Any] = {} if memo is None else memo

    def flipped(self) -> _Meeting:
        return _Meeting(self.b, self.a, self._memo)

    def in_b(self) -> np.ndarray:
        """Which of ``a``'s values ``b`` holds."""
        key = ("in", id(self.a))
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = in_sorted(self.a.values, self.b.values)
        return found

    def whole_similarity(self) -> float:
        """:func:`similarity` of the two whole texts, every word pair of each (exact)."""
        n_a, n_b = len(self.a.values), len(self.b.values)
        if n_a == 0 or n_b == 0:
            return 0.0
        return float(2.0 * int(np.count_nonzero(self.in_b())) / (n_a + n_b))

    def dropped_ends(self) -> tuple[int, int]:
        """:func:`_dropped_ends` of ``a`` against ``b``."""
        key = ("ends", id(self.a))
        found = self._memo.get(key)
        if found is None:
            found = self._memo[key] = _dropped_ends(self.a, self.in_b())
        return found

    def dropped_lines(self) -> int:
        """The tagged edge lines of ``a`` that share no word pair (junctions aside; a line of
        one word, which has none of its own, by the pairs joining it to its neighbours) with
        ``b``, from the outside in at each end, as a mask of line bits."""
        head, tail = self.dropped_ends()
        return head | tail


def _dropped_ends(a: TextSketch, in_b: np.ndarray) -> tuple[int, int]:
    """:meth:`_Meeting.dropped_lines`, those left out at the top and those at the bottom
    (``in_b``: which of ``a``'s values the other holds)."""
    n_tagged = a.tagged_lines
    own, joins, line_tags, alone = a.line_parts
    # the lines whose own word pairs (junctions aside) meet the other, as one mask of bits
    met_bits = int(np.bitwise_or.reduce(line_tags, where=in_b & own, initial=0))
    if alone:  # they meet the other when a pair joining them to a neighbour does
        met_bits |= alone & int(np.bitwise_or.reduce(line_tags, where=in_b & joins, initial=0))

    def shares(bit: int) -> bool:
        return bool(met_bits & bit)

    head = tail = 0
    for k in range(a.head_lines):
        if shares(1 << k):
            break
        head |= 1 << k
    for k in range(min(a.tail_lines, n_tagged)):
        bit = 1 << (n_tagged - 1 - k)
        if bit & head:
            continue
        if shares(bit):
            break
        tail |= bit
    return head, tail


def _core_similarity(a: TextSketch, b: TextSketch) -> float:
    """The share of common text when a short document's added edge lines are left out.

    A banner, a "reposted from" notice or a title glued to a note of a few dozen words can be as
    long as the note: its own budget (a fifth of the words at each end) cannot peel it. The
    core (the body without every peelable edge line, fingerprint.py) can: compared core to core,
    or core to the other's body, a note and its copy with a banner are the same text. Two
    different notes that share a line do not meet this way: what is left of each is its own
    text."""
    views_a = [(a.body, a.shingle_count)] + ([(a.core, len(a.core))] if len(a.core) else [])
    views_b = [(b.body, b.shingle_count)] + ([(b.core, len(b.core))] if len(b.core) else [])
    return max(
        similarity(va, na, vb, nb)
        for k, (va, na) in enumerate(views_a)
        for m, (vb, nb) in enumerate(views_b)
        if k or m
    )


def similarity(a: np.ndarray, n_a: int, b: np.ndarray, n_b: int) -> float:
    """Estimated share of common text (module docstring) of two documents' sketches.

    ``a`` and ``b`` are decoded sketches (sorted uint64), ``n_a`` and ``n_b`` the numbers of
    distinct shingles they were drawn from."""
    if n_a <= 0 or n_b <= 0 or len(a) == 0 or len(b) == 0:
        return 0.0
    complete_a, complete_b = len(a) >= n_a, len(b) >= n_b
    if complete_a and complete_b:
        common = int(np.count_nonzero(in_sorted(a, b)))
        return float(2.0 * common / (n_a + n_b))
    # the smaller of the largest values of the sketches that are not complete
    tau = b[-1] if complete_a else a[-1] if complete_b else min(a[-1], b[-1])
    a_low = a[: a.searchsorted(tau, side="right")]
    b_low = b[: b.searchsorted(tau, side="right")]
    both = int(np.count_nonzero(in_sorted(a_low, b_low)))
    union = len(a_low) + len(b_low) - both
    if union == 0:
        return 0.0
    j = both / union
    return float(2.0 * j / (1.0 + j))
