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
    (``svnlook`` three times in one page, ``svndumpfilter`` three times in the other). Edits,
    cuts, banners and reordering never do this both ways; a real revision rarely does. Only
    *rare* words count (IDF at least the table's median: names, technical terms, every Latin
    word, and identifiers with digits such as ``sha256sum``, which are no shingles so that
    changed numbers cost nothing): a copy in the other Chinese script may consistently use
    another common word (OpenCC's s2twp writes 預設 for 默认, and 打开 becomes 開啟),
    which is not another document. Numbers changed in a copy are changed one by one, so a copy
    never holds a *new* identifier three times. So each sketch also keeps its document's most
    repeated rare words (``salient``, up to ``SALIENT_SIZE``) and a Bloom filter of its whole
    vocabulary (``VOCAB_BITS`` bits, 3 probes: "absent" is certain, "present" may be wrong,
    which can only let a pair through, never split one). A pair
    with a substitution both ways is not verified, whatever its share of common text.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from functools import cached_property

import numpy as np

SKETCH_SIZE = 128
# Candidate keys (see candidate_keys): how many of a sketch's smallest values, and up to what size
# a document is keyed.
CANDIDATE_KEYS = 16
KEYED_MAX_SHINGLES = 1024
SALIENT_SIZE = 24
SALIENT_MIN_COUNT = 3
VOCAB_BITS = 4096
_HEADER = struct.Struct("<BIHH")  # format version, shingle count, sketch size, salient size
_FORMAT = 1
SKETCH_FORMAT = _FORMAT

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_EMPTY = np.empty(0, dtype=np.uint64)


def _mix64(x: np.ndarray) -> np.ndarray:
    """splitmix64's finaliser: every input bit affects every output bit."""
    x = x ^ (x >> np.uint64(30))
    x = x * _MIX1
    x = x ^ (x >> np.uint64(27))
    x = x * _MIX2
    return x ^ (x >> np.uint64(31))


def shingle_hashes(token_hashes: np.ndarray) -> np.ndarray:
    """Distinct 64-bit hashes of the word bigrams of a token sequence, sorted ascending.

    ``token_hashes`` are the tokens' own 64-bit hashes in reading order."""
    h = np.asarray(token_hashes, dtype=np.uint64)
    if len(h) == 0:
        return _EMPTY
    with np.errstate(over="ignore"):
        if len(h) == 1:
            return _mix64(h.copy())
        # (a, b) and (b, a) differ: the first token is multiplied, the second added.
        return np.unique(_mix64(h[:-1] * _GOLDEN + h[1:]))


def bottom_k(shingles: np.ndarray, k: int = SKETCH_SIZE) -> np.ndarray:
    """The ``k`` smallest of a sorted array of distinct shingle hashes."""
    return np.ascontiguousarray(shingles[:k], dtype=np.uint64)


@dataclass(frozen=True)
class TextSketch:
    """What verification knows about one document (module docstring)."""

    values: np.ndarray  # bottom-k shingle hashes, sorted uint64
    shingle_count: int
    salient: np.ndarray  # 64-bit hashes of the most repeated words
    vocab: np.ndarray  # Bloom filter of every word, VOCAB_BITS bits as uint8

    @property
    def complete(self) -> bool:
        return len(self.values) >= self.shingle_count

    def to_bytes(self) -> bytes:
        return b"".join(
            (
                _HEADER.pack(_FORMAT, self.shingle_count, len(self.values), len(self.salient)),
                self.values.astype("<u8").tobytes(),
                self.salient.astype("<u8").tobytes(),
                self.vocab.tobytes(),
            )
        )

    @classmethod
    def from_bytes(cls, raw: bytes | None) -> TextSketch:
        if not raw or len(raw) < _HEADER.size:
            return EMPTY_SKETCH
        fmt, count, n_values, n_salient = _HEADER.unpack_from(raw)
        if fmt != _FORMAT:
            return EMPTY_SKETCH
        at = _HEADER.size
        values = np.frombuffer(raw, dtype="<u8", count=n_values, offset=at).astype(np.uint64)
        at += 8 * n_values
        salient = np.frombuffer(raw, dtype="<u8", count=n_salient, offset=at).astype(np.uint64)
        at += 8 * n_salient
        vocab = np.frombuffer(raw, dtype=np.uint8, offset=at)
        return cls(values, count, salient, vocab)

    @cached_property
    def _vocab_bits(self) -> int:
        # bit i of the filter is bit i of this integer (byte i // 8, bit i % 8, little-endian)
        return int.from_bytes(self.vocab.tobytes(), "little") if self.has_vocab else -1

    @property
    def has_vocab(self) -> bool:
        return len(self.vocab) * 8 == VOCAB_BITS

    @cached_property
    def salient_masks(self) -> tuple[int, ...]:
        """Each salient word's Bloom bits as one integer mask."""
        if len(self.salient) == 0:
            return ()
        idx = _bloom_indexes(self.salient)
        return tuple(
            (1 << int(i0)) | (1 << int(i1)) | (1 << int(i2))
            for i0, i1, i2 in zip(*(x.tolist() for x in idx), strict=True)
        )

    def lacks_one_of(self, masks: tuple[int, ...]) -> bool:
        """True when one of the words (given as Bloom masks) is certainly not in this document."""
        bits = self._vocab_bits
        return any(bits & m != m for m in masks)


EMPTY_SKETCH = TextSketch(_EMPTY, 0, _EMPTY, np.zeros(0, dtype=np.uint8))


def _bloom_indexes(token_hashes: np.ndarray) -> list[np.ndarray]:
    h = _mix64(np.asarray(token_hashes, dtype=np.uint64))
    mask = np.uint64(VOCAB_BITS - 1)
    return [((h >> np.uint64(shift)) & mask).astype(np.int64) for shift in (0, 21, 42)]


def make_sketch(
    body_token_hashes: np.ndarray,
    word_hashes: np.ndarray,
    word_counts: np.ndarray,
    rare: np.ndarray | None = None,
) -> TextSketch:
    """The sketch of one document: ``body_token_hashes`` are its body's content tokens in reading
    order; ``word_hashes``/``word_counts`` its distinct content words and how often each occurs;
    ``rare`` marks the words that may be salient (default: all)."""
    shingles = shingle_hashes(body_token_hashes)
    vocab = np.zeros(VOCAB_BITS // 8, dtype=np.uint8)
    words = np.asarray(word_hashes, dtype=np.uint64)
    for idx in _bloom_indexes(words):
        np.bitwise_or.at(vocab, idx >> 3, (np.uint8(1) << (idx & 7).astype(np.uint8)))
    counts = np.asarray(word_counts)
    eligible = counts >= SALIENT_MIN_COUNT
    if rare is not None:
        eligible &= np.asarray(rare, dtype=bool)
    repeated = np.flatnonzero(eligible)
    # most repeated first; ties by hash, so the choice does not depend on reading order
    top = repeated[np.lexsort((words[repeated], -counts[repeated]))][:SALIENT_SIZE]
    return TextSketch(bottom_k(shingles), len(shingles), np.sort(words[top]), vocab)


def substituted(a: TextSketch, b: TextSketch) -> bool:
    """A word repeated in ``a`` is absent from ``b`` and one repeated in ``b`` absent from ``a``."""
    if not a.salient_masks or not b.salient_masks or not (a.has_vocab and b.has_vocab):
        return False
    return b.lacks_one_of(a.salient_masks) and a.lacks_one_of(b.salient_masks)


def candidate_keys(sketch: TextSketch) -> np.ndarray:
    """The values through which a document is also proposed as a candidate, besides its simhash.

    The simhash of a text of a few hundred words or fewer is noisy: a DOCX copy of a poem lands
    9 bits from its TXT, 3 % of the words of a 300-word article changed 15 bits. Such documents
    (up to ``KEYED_MAX_SHINGLES`` shingles) are also keyed by their sketch's ``CANDIDATE_KEYS``
    smallest values: two documents sharing a Jaccard index J have the same smallest shingle of
    their union with probability J, so a pair at the 80 % threshold (J = 2/3) shares none of
    its first 16 values with probability about (1/3)^16. The same keys serve the in-memory
    grouping and the indexed SQL lookup, so both propose the same candidates."""
    if sketch.shingle_count == 0 or sketch.shingle_count > KEYED_MAX_SHINGLES:
        return _EMPTY
    return sketch.values[:CANDIDATE_KEYS]


# What grouping needs of every document up front: the header and the candidate keys; the rest of
# a sketch is read only for documents that turn out to be someone's candidate.
KEYS_PREFIX_BYTES = _HEADER.size + 8 * CANDIDATE_KEYS


def raw_candidate_keys(raw: bytes | None) -> list[int]:
    """:func:`candidate_keys` of a stored sketch, read straight from its bytes (no decoding of
    the rest: grouping a million documents reads every document's keys but few sketches)."""
    if not raw or len(raw) < _HEADER.size:
        return []
    fmt, count, n_values, _ = _HEADER.unpack_from(raw)
    if fmt != _FORMAT or count == 0 or count > KEYED_MAX_SHINGLES:
        return []
    n = min(n_values, CANDIDATE_KEYS, (len(raw) - _HEADER.size) // 8)
    return list(struct.unpack_from(f"<{n}Q", raw, _HEADER.size))


def decode(sketch: bytes | None) -> TextSketch:
    return TextSketch.from_bytes(sketch)


def verified_similarity(a: TextSketch, b: TextSketch, threshold: float = 0.0) -> float:
    """The share of common text of two documents, 0 when their repeated words were swapped
    (checked only when the share reaches ``threshold``: below it the pair fails anyway)."""
    share = similarity(a.values, a.shingle_count, b.values, b.shingle_count)
    if share >= threshold and substituted(a, b):
        return 0.0
    return share


def similarity(a: np.ndarray, n_a: int, b: np.ndarray, n_b: int) -> float:
    """Estimated share of common text (module docstring) of two documents' sketches.

    ``a`` and ``b`` are decoded sketches (sorted uint64), ``n_a`` and ``n_b`` the numbers of
    distinct shingles they were drawn from."""
    if n_a <= 0 or n_b <= 0 or len(a) == 0 or len(b) == 0:
        return 0.0
    complete_a, complete_b = len(a) >= n_a, len(b) >= n_b
    if complete_a and complete_b:
        common = len(np.intersect1d(a, b, assume_unique=True))
        return float(2.0 * common / (n_a + n_b))
    limits = [int(s[-1]) for s, done in ((a, complete_a), (b, complete_b)) if not done]
    tau = np.uint64(min(limits))
    a_low = a[: int(np.searchsorted(a, tau, side="right"))]
    b_low = b[: int(np.searchsorted(b, tau, side="right"))]
    both = len(np.intersect1d(a_low, b_low, assume_unique=True))
    union = len(a_low) + len(b_low) - both
    if union == 0:
        return 0.0
    j = both / union
    return float(2.0 * j / (1.0 + j))
