"""Side-by-side, word-level diff as plain data.

The GUI paints :class:`DiffRow` objects into two synchronised panes and the CLI prints them; neither
computes anything. The diff is hierarchical so that a 1 MB document opens in well under a second:

1. lines are aligned first (``difflib.SequenceMatcher`` over line keys), so unchanged text costs
   one hash per line;
2. inside a block of replaced lines, lines are paired by word overlap (a monotone alignment), so
   an edited line sits next to its original;
3. each pair is diffed word by word; a very long line (a paragraph extracted from a PDF, a
   Chinese text without line breaks) is first cut into sentences and the sentences aligned, so the
   word diff only ever runs on the few sentences that really changed.

Every row keeps the full text of both sides: concatenating the ``a_spans`` of all rows gives back
``a`` exactly, and the ``b_spans`` give back ``b``. Line-ending style (``\\n`` vs ``\\r\\n``) is not
treated as a change, because documents copied between systems differ only in that.
"""

from __future__ import annotations

import bisect
import difflib
import itertools
import logging
import re
from collections import Counter
from collections.abc import Callable, Sequence
from contextvars import ContextVar
from dataclasses import dataclass
from functools import cache, lru_cache

from desktop_dedup.core.stopwords import NOT_A_WORD, word_kind
from desktop_dedup.core.text import (
    HAN_RANGES,
    UNSPACED_RANGES,
    bare_words,
    combining_marks,
    fold_compat,
    fold_in_place,
    has_traditional,
    normalize_text,
    normalize_unwrapped,
    segment,
    segmenter,
)

logger = logging.getLogger(__name__)

# What tokens and lines are compared by: look-alike characters and the script folded in place
# (text.fold_in_place), or look-alike characters alone for a diff of two texts without
# Traditional characters (diff_texts sets it for one diff; a context variable, so that diffs
# in two threads do not meet).
_FOLD: ContextVar[Callable[[str], str]] = ContextVar("diff_fold", default=fold_in_place)


def _cut_han(run: str) -> list[str]:
    # The fingerprint's segmenter (rjieba, else jieba; HMM off), loaded on the first diff, not
    # by every program that imports the service.
    return segmenter()(run)


_HAN = HAN_RANGES
_HAN_RUN_RE = re.compile(f"([{_HAN}]+)")  # capturing: re.split keeps the runs
# Above this many tokens on both sides together, a changed stretch is shown as one replacement
# instead of being word-diffed (the word diff is quadratic in the worst case).
_MAX_WORD_DIFF_TOKENS = 6_000

EQUAL, INSERT, DELETE, REPLACE = "equal", "insert", "delete", "replace"


@dataclass(frozen=True)
class DiffOp:
    """One stretch of a word diff: ``a_text`` became ``b_text`` (either may be empty)."""

    tag: str  # "equal" | "insert" | "delete" | "replace"
    a_text: str
    b_text: str


@dataclass(frozen=True)
class DiffRow:
    """One aligned line pair for two synchronised panes; ``None`` line number = no line there."""

    a_lineno: int | None
    b_lineno: int | None
    tag: str  # "equal" | "insert" | "delete" | "replace"
    a_spans: list[tuple[str, str]]  # (text, tag) within the line, line ending included
    b_spans: list[tuple[str, str]]


@dataclass(frozen=True)
class DiffResult:
    rows: list[DiffRow]
    similarity: float  # word level: 2 * matched words / (a_words + b_words), 1.0 for two empties
    change_rows: list[int]  # indexes into rows where a run of changed rows starts
    a_words: int  # words of each side; a Chinese character counts as one word
    b_words: int
    #: The two words a consistent substitution swapped (one repeated in each side, never in
    #: the other: one template, two names), when that is why the two are not the same
    #: document (sketch.substituted); the similarity is then 0.
    swapped: tuple[str, str] | None = None
    #: Whether what the two share is only lines many texts of the index hold (a disclaimer, a
    #: template's lines) and what is left of each is its own text (sketch.shares_only_boilerplate):
    #: why the similarity is 0.
    boilerplate: bool = False


def swapped_words(a: str, b: str, min_count: int) -> tuple[str, str] | None:
    """The most repeated word of ``a`` (at least ``min_count`` times) that ``b`` never has,
    and the same of ``b``, the words and their counts the index's (_index_word_counts), each
    given as its file first writes it: what tells two pages of one template apart ("svnlook"
    in one, "svndumpfilter" in the other). When only one side has such a word, the other's
    may occur once or twice on the first side (a page
    that names its sibling; once for every ``min_count`` times the other side has it) if as
    many occurrences of the two are gone as in a swap both ways (twice ``min_count``), as
    sketch.substituted counts them. Else, when each side names a word at least ``min_count``
    times as often as the other side does, and ``min_count`` times more (two sibling pages
    that name each other), those two; of the two kinds, the pair with more occurrences gone.
    None when there is no such pair."""

    ca, cb = _index_word_counts(a), _index_word_counts(b)

    def most_repeated(own: dict[str, tuple[int, str]], other: dict) -> tuple[int, str] | None:
        only = [(n, len(w), w) for k, (n, w) in own.items() if n >= min_count and k not in other]
        best = max(only, default=None)
        return (best[0], best[2]) if best else None

    def named(absent: tuple[int, str], own: dict, other: dict) -> tuple[int, str] | None:
        # the word of ``own`` the other side holds once or twice, with the most gone
        held = [
            (absent[0] + n - other[k][0], n, w)
            for k, (n, w) in own.items()
            if n >= min_count and 0 < other.get(k, (0,))[0] <= min(2, n // min_count)
        ]
        best = max(held, default=None)
        return (best[1], best[2]) if best and best[0] >= 2 * min_count else None

    def named_less(own: dict, other: dict) -> tuple[int, str] | None:
        # the word of ``own`` it names at least ``min_count`` times as often as ``other`` does
        # (a word ``other`` lacks counted as named once), ``min_count`` or more times more
        # (two sibling pages that name each other, each in its SEE ALSO)
        less = [
            (n - held, len(w), w)
            for k, (n, w) in own.items()
            if n >= min_count * max(held := other.get(k, (0,))[0], 1) and n - held >= min_count
        ]
        best = max(less, default=None)
        return (best[0], best[2]) if best else None

    def gone(pair: tuple[str, str]) -> int:
        x, y = pair
        return ca[x][0] - cb.get(x, (0,))[0] + cb[y][0] - ca.get(y, (0,))[0]

    first, second = most_repeated(ca, cb), most_repeated(cb, ca)
    if first and not second:
        second = named(first, cb, ca)
    elif second and not first:
        first = named(second, ca, cb)
    pairs = [(first[1], second[1])] if first and second else []
    first, second = named_less(ca, cb), named_less(cb, ca)
    pairs += [(first[1], second[1])] if first and second else []
    # the pair with the most occurrences gone: what tells the two apart best
    best = max(pairs, key=gone, default=None)
    return (_as_written(best[0], a), _as_written(best[1], b)) if best else None


def _index_word_counts(text: str) -> dict[str, tuple[int, str]]:
    """How often the index sees each of the words it weighs in ``text``: the tokens of the
    text normalised and cut as fingerprint.py does (script and regional words folded, lower
    case), kept by its rule (stopwords.word_kind: no number, no single Latin letter or hiragana,
    no stop word). Each count with its word (the tuple's second item, as the other counts)."""
    found: dict[str, tuple[int, str]] = {}
    for tok in segment(normalize_text(text)):
        if word_kind(tok) != NOT_A_WORD:
            found[tok] = (found.get(tok, (0,))[0] + 1, tok)
    return found


def _as_written(word: str, text: str) -> str:
    """``word`` (a word of ``text`` as the index normalised it) as ``text`` first writes it:
    its case, its script and its regional form (軟體 where the index reads 软件), found among
    the words of the line that holds it, each cut in place; the normalised word when none is
    (the words of a line cut otherwise than the whole text's)."""
    for line in text.splitlines():
        if word not in normalize_unwrapped(line):
            continue
        folded = fold_in_place(line)
        tokens = segment(folded)
        if "".join(tokens) != folded:  # runs of a script without spaces: overlapping tokens
            continue
        at = 0
        for tok in tokens:
            written = line[at : at + len(tok)]
            at += len(tok)
            if tok.lower() == word or normalize_unwrapped(written) == word:
                return written
    return word


def tokenize_for_diff(text: str) -> list[str]:
    """Split text into word-level tokens whose concatenation is exactly ``text``.

    Chinese runs are segmented with jieba's dictionary (no HMM, so the same text always gives the
    same words); Latin-script words keep inner apostrophes; digit runs, whitespace runs and each
    punctuation character are tokens of their own, so a diff can highlight just the edited word.
    """
    return _tokenize_counted(text)[0]


def _tokenize_counted(text: str, fold: Callable[[str], str] | None = None) -> tuple[list[str], int]:
    """Tokens of ``text`` and how many of them are words (what the similarity counts);
    ``fold``: what the text is segmented by (default: this diff's, _FOLD)."""
    tokens: list[str] = []
    words = 0
    # Segment the folded text (a PDF's "⽂件" is the word "文件", Traditional 軟體 is 软体),
    # then cut the original at the same places: folding is one character for one.
    folded = (fold or _FOLD.get())(text)
    # re.split with a capturing group alternates: non-Chinese, Chinese run, non-Chinese, ...
    for k, part in enumerate(_HAN_RUN_RE.split(folded)):
        if not part:
            continue
        if k % 2:
            cut = _cut_han(part)
            tokens.extend(cut)
            words += len(cut)  # every piece of a Chinese run is a word
        else:
            tokens.extend(_patterns()[0].findall(part))
            words += len(_patterns()[1].findall(part))
    if folded is not text:
        pos = 0
        for i, tok in enumerate(tokens):
            tokens[i] = text[pos : pos + len(tok)]
            pos += len(tok)
    return tokens, words


def _is_word(token: str) -> bool:
    # Tokens come from tokenize_for_diff, so a token is a word iff its first character is one.
    first = token[0]
    return first.isalnum() or first == "_"


def _tokenized(text: str) -> tuple[tuple[str, ...], int]:
    return _tokenized_by(text, _FOLD.get())


@lru_cache(maxsize=65_536)
def _tokenized_by(text: str, fold: Callable[[str], str]) -> tuple[tuple[str, ...], int]:
    # Cached because every line is counted, equal lines appear on both sides, and a changed line
    # is also tokenised for pairing and diffing.
    tokens, words = _tokenize_counted(text, fold)
    return tuple(tokens), words


def _as_is(text: str) -> str:
    return text


def _tokens(text: str) -> tuple[str, ...]:
    return _tokenized(text)[0]


def _line_word_count(line: str) -> int:
    return _tokenized(line)[1]


def _count_words(tokens: Sequence[str]) -> int:
    # Inlined _is_word: this runs over every token of both documents.
    return sum(1 for t in tokens if t[0].isalnum() or t[0] == "_")


def _strip_eol(line: str) -> str:
    return line.rstrip("\r\n")


def _eol_neutral(token: str) -> str:
    # The comparison key of a token: line-ending style, look-alike compatibility characters
    # and the script a character is written in (text.fold_in_place) are not changes.
    token = _FOLD.get()(token)
    return token.replace("\r\n", "\n").replace("\r", "\n") if "\r" in token else token


def _line_key(folded_line: str, ignore_whitespace_punct: bool) -> str:
    """The comparison key of a line, from the line folded (text.fold_in_place)."""
    if ignore_whitespace_punct:
        return bare_words(folded_line)
    return _strip_eol(folded_line)


def diff_words(a: str, b: str, *, ignore_whitespace_punct: bool = False) -> list[DiffOp]:
    """Word-level diff of two short texts (typically one line each).

    With ``ignore_whitespace_punct`` only words are compared; whitespace and punctuation between
    them ride along with the neighbouring stretch, so they are shown but never marked as changed.
    """
    return _diff_token_lists(_tokens(a), _tokens(b), ignore_whitespace_punct)[0]


def _diff_token_lists(
    a_tokens: Sequence[str], b_tokens: Sequence[str], ignore_whitespace_punct: bool
) -> tuple[list[DiffOp], int, int]:
    """Word diff of two token lists; also returns the number of words in equal stretches of a
    and of b, which the similarity needs (counting them here saves tokenising again)."""
    if ignore_whitespace_punct:
        a_idx = [i for i, tok in enumerate(a_tokens) if _is_word(tok)]
        b_idx = [j for j, tok in enumerate(b_tokens) if _is_word(tok)]
    else:
        a_idx = list(range(len(a_tokens)))
        b_idx = list(range(len(b_tokens)))
    # Line-ending style is not a change (same rule as for whole lines).
    a_keys = [_eol_neutral(a_tokens[i]) for i in a_idx]
    b_keys = [_eol_neutral(b_tokens[j]) for j in b_idx]

    if len(a_keys) + len(b_keys) > _MAX_WORD_DIFF_TOKENS:
        opcodes = _cheap_opcodes(a_keys, b_keys)
    else:
        # Same anchored alignment as for lines: plain SequenceMatcher is quadratic in the
        # popular tokens (spaces, "the", "的") of a long line.
        # Whitespace is junk for anchoring inside gaps, for the same reason; matches still
        # absorb equal whitespace next to them.
        opcodes = _align(a_keys, b_keys, isjunk=str.isspace)
    if not opcodes:  # nothing significant on either side (e.g. two punctuation-only lines)
        opcodes = [(EQUAL, 0, 0, 0, 0)]

    def start(index: list[int], k: int, total: int, first: bool) -> int:
        # Insignificant tokens before an op's first compared token belong to the previous op.
        if first:
            return 0
        return index[k] if k < len(index) else total

    ops: list[DiffOp] = []
    matched_a = matched_b = 0
    bounds_a = [start(a_idx, op[1], len(a_tokens), n == 0) for n, op in enumerate(opcodes)]
    bounds_b = [start(b_idx, op[3], len(b_tokens), n == 0) for n, op in enumerate(opcodes)]
    bounds_a.append(len(a_tokens))
    bounds_b.append(len(b_tokens))
    for n, (tag, *_rest) in enumerate(opcodes):
        a_text = "".join(a_tokens[bounds_a[n] : bounds_a[n + 1]])
        b_text = "".join(b_tokens[bounds_b[n] : bounds_b[n + 1]])
        if not a_text and not b_text:
            continue
        if tag == EQUAL:
            matched_a += _count_words(a_tokens[bounds_a[n] : bounds_a[n + 1]])
            matched_b += _count_words(b_tokens[bounds_b[n] : bounds_b[n + 1]])
        else:  # an op may have gained text on the other side from ridealongs
            tag = REPLACE if a_text and b_text else (DELETE if a_text else INSERT)
        if ops and ops[-1].tag == tag:
            prev = ops.pop()
            ops.append(DiffOp(tag, prev.a_text + a_text, prev.b_text + b_text))
        else:
            ops.append(DiffOp(tag, a_text, b_text))
    return ops, matched_a, matched_b


def _common_affixes(a: Sequence[str], b: Sequence[str]) -> tuple[int, int]:
    """Lengths of the common prefix and of the common suffix (not overlapping the prefix)."""
    n = min(len(a), len(b))
    pre = 0
    while pre < n and a[pre] == b[pre]:
        pre += 1
    suf = 0
    while suf < n - pre and a[len(a) - 1 - suf] == b[len(b) - 1 - suf]:
        suf += 1
    return pre, suf


def _cheap_opcodes(a: Sequence[str], b: Sequence[str]) -> list[tuple[str, int, int, int, int]]:
    """Common prefix and suffix kept, the middle one replacement: linear, for huge rewrites."""
    pre, suf = _common_affixes(a, b)
    ops: list[tuple[str, int, int, int, int]] = []
    if pre:
        ops.append((EQUAL, 0, pre, 0, pre))
    mid_a, mid_b = (pre, len(a) - suf), (pre, len(b) - suf)
    if mid_a[0] < mid_a[1] or mid_b[0] < mid_b[1]:
        tag = (
            REPLACE
            if mid_a[0] < mid_a[1] and mid_b[0] < mid_b[1]
            else (DELETE if mid_a[0] < mid_a[1] else INSERT)
        )
        ops.append((tag, mid_a[0], mid_a[1], mid_b[0], mid_b[1]))
    if suf:
        ops.append((EQUAL, len(a) - suf, len(a), len(b) - suf, len(b)))
    return ops


def _unique_anchors(
    a: Sequence[str], b: Sequence[str], alo: int, ahi: int, blo: int, bhi: int
) -> list[tuple[int, int]]:
    """Patience-diff anchors: keys occurring exactly once in each range, kept in the longest
    order-preserving chain (longest increasing subsequence of their b positions)."""
    a_seen: dict[str, int] = {}
    for i in range(alo, ahi):
        a_seen[a[i]] = -1 if a[i] in a_seen else i
    b_seen: dict[str, int] = {}
    for j in range(blo, bhi):
        key = b[j]
        if a_seen.get(key, -1) >= 0:
            b_seen[key] = -1 if key in b_seen else j
    pairs = [(a_seen[k], j) for k, j in b_seen.items() if j >= 0]
    if not pairs:
        return []
    pairs.sort()
    # Longest increasing subsequence on j (patience sorting), O(k log k).
    tails: list[int] = []  # tails[n]: index into pairs of the smallest tail of a chain of n+1
    prev: list[int] = [-1] * len(pairs)
    for idx, (_i, j) in enumerate(pairs):
        pos = _bisect_tails(pairs, tails, j)
        if pos > 0:
            prev[idx] = tails[pos - 1]
        if pos == len(tails):
            tails.append(idx)
        else:
            tails[pos] = idx
    chain: list[tuple[int, int]] = []
    idx = tails[-1]
    while idx >= 0:
        chain.append(pairs[idx])
        idx = prev[idx]
    chain.reverse()
    return chain


# Above this many key pairs (lines of a x lines of b) a gap without unique keys is aligned by
# _resync_blocks instead of SequenceMatcher.
_MAX_MATCHER_SIZE = 4_000_000
# Nor does SequenceMatcher take a gap where the pairs of equal keys, times the keys of its
# shorter side, exceed this: it looks for its longest match once per matching block, each
# time over every pair of equal keys in the range, so a text of one line over and over
# against the same with a line after each (1,111 by 2,104 lines, each pair of the recurring
# line equal: 1.2 million pairs) took 38 s. A gap of real text has few equal pairs.
_MAX_MATCHER_WORK = 2_000_000
# How far (in keys, on each side) _resync_blocks looks for the next pair of equal keys.
_RESYNC_WINDOW = 64


def _resync_blocks(
    a: Sequence[str], b: Sequence[str], alo: int, ahi: int, blo: int, bhi: int
) -> list[tuple[int, int, int]]:
    """Matching blocks of two long ranges in which no key is unique: equal keys are matched in
    step, and after a difference the sides meet again where the fewest keys are skipped on
    both sides together: at the nearest pair of equal keys within ``_RESYNC_WINDOW`` of each
    (a line replaced), or where the one side's next key comes again on the other, however far
    (lines inserted or deleted). Linear in the length for a few edits, a bisection and at most
    ``_RESYNC_WINDOW`` squared comparisons per difference. Not a minimal diff, but every edit
    of a repetitive text stays where it is."""
    where_a: dict[str, list[int]] = {}
    where_b: dict[str, list[int]] = {}
    for k in range(alo, ahi):
        where_a.setdefault(a[k], []).append(k)
    for k in range(blo, bhi):
        where_b.setdefault(b[k], []).append(k)

    def next_at(where: dict[str, list[int]], key: str, start: int) -> int | None:
        places = where.get(key)
        if not places:
            return None
        at = bisect.bisect_left(places, start)
        return places[at] if at < len(places) else None

    blocks: list[tuple[int, int, int]] = []
    i, j = alo, blo
    w = _RESYNC_WINDOW
    while i < ahi and j < bhi:
        if a[i] == b[j]:
            i0, j0 = i, j
            while i < ahi and j < bhi and a[i] == b[j]:
                i, j = i + 1, j + 1
            blocks.append((i0, j0, i - i0))
            continue
        best: tuple[int, int] | None = None
        for skipped in range(1, 2 * w - 1):
            for di in range(max(0, skipped - w + 1), min(skipped, w - 1) + 1):
                dj = skipped - di
                if i + di < ahi and j + dj < bhi and a[i + di] == b[j + dj]:
                    best = (di, dj)
                    break
            if best:
                break
        inserted = next_at(where_b, a[i], j)  # a[i] comes again on b's side: lines inserted
        if inserted is not None and (best is None or inserted - j < sum(best)):
            best = (0, inserted - j)
        deleted = next_at(where_a, b[j], i)  # b[j] comes again on a's side: lines deleted
        if deleted is not None and (best is None or deleted - i < sum(best)):
            best = (deleted - i, 0)
        if best is None:  # nothing in common nearby or later: that much of both is changed
            i, j = min(ahi, i + w), min(bhi, j + w)
        else:
            i, j = i + best[0], j + best[1]
    return blocks


def _matcher_work(
    a: Sequence[str], b: Sequence[str], alo: int, ahi: int, blo: int, bhi: int
) -> int:
    """A bound of SequenceMatcher's work on a gap: its pairs of equal keys, each looked at
    once for every matching block it may find (at most the keys of the shorter side)."""
    in_b = Counter(b[blo:bhi])
    pairs = sum(in_b.get(key, 0) for key in a[alo:ahi])
    return pairs * min(ahi - alo, bhi - blo)


def _bisect_tails(pairs: list[tuple[int, int]], tails: list[int], j: int) -> int:
    lo, hi = 0, len(tails)
    while lo < hi:
        mid = (lo + hi) // 2
        if pairs[tails[mid]][1] < j:
            lo = mid + 1
        else:
            hi = mid
    return lo


def _align(
    a: Sequence[str], b: Sequence[str], isjunk: Callable[[str], bool] | None = None
) -> list[tuple[str, int, int, int, int]]:
    """Opcodes aligning two sequences of hashable keys (lines or sentences), near-linear time.

    ``difflib.SequenceMatcher`` alone goes quadratic on long documents with many small edits (it
    rescans the whole remaining range for every matching block) and on popular lines such as
    blank lines. So: common prefix/suffix off, then patience anchors (keys unique in both
    ranges) split the problem into small gaps, and only those gaps go to SequenceMatcher.
    """
    blocks: list[tuple[int, int, int]] = []  # matching blocks (i, j, size)
    stack = [(0, len(a), 0, len(b))]
    while stack:
        alo, ahi, blo, bhi = stack.pop()
        while alo < ahi and blo < bhi and a[alo] == b[blo]:
            blocks.append((alo, blo, 1))
            alo, blo = alo + 1, blo + 1
        while alo < ahi and blo < bhi and a[ahi - 1] == b[bhi - 1]:
            ahi, bhi = ahi - 1, bhi - 1
            blocks.append((ahi, bhi, 1))
        if alo == ahi or blo == bhi:
            continue
        anchors = _unique_anchors(a, b, alo, ahi, blo, bhi)
        if anchors:
            edges = [(alo - 1, blo - 1), *anchors, (ahi, bhi)]
            for (i0, j0), (i1, j1) in zip(edges, edges[1:], strict=False):
                if (i1, j1) != (ahi, bhi):
                    blocks.append((i1, j1, 1))
                if i0 + 1 < i1 or j0 + 1 < j1:
                    stack.append((i0 + 1, i1, j0 + 1, j1))
            continue
        # No unique keys. A small gap of repeated lines: SequenceMatcher is fine here. A large
        # one (a long form, log or refrain where every line recurs) would be quadratic, and
        # SequenceMatcher's autojunk would junk every line and call the whole text changed.
        if (ahi - alo) * (bhi - blo) > _MAX_MATCHER_SIZE or _matcher_work(
            a, b, alo, ahi, blo, bhi
        ) > _MAX_MATCHER_WORK:
            blocks += _resync_blocks(a, b, alo, ahi, blo, bhi)
            continue
        matcher = difflib.SequenceMatcher(isjunk, a[alo:ahi], b[blo:bhi], autojunk=False)
        for i, j, n in matcher.get_matching_blocks():
            if n:
                blocks.append((alo + i, blo + j, n))
    blocks.sort()
    opcodes: list[tuple[str, int, int, int, int]] = []
    i = j = 0
    for bi, bj, n in [*blocks, (len(a), len(b), 0)]:
        if i < bi and j < bj:
            opcodes.append((REPLACE, i, bi, j, bj))
        elif i < bi:
            opcodes.append((DELETE, i, bi, j, bj))
        elif j < bj:
            opcodes.append((INSERT, i, bi, j, bj))
        if n:
            if opcodes and opcodes[-1][0] == EQUAL and opcodes[-1][2] == bi:
                opcodes[-1] = (EQUAL, opcodes[-1][1], bi + n, opcodes[-1][3], bj + n)
            else:
                opcodes.append((EQUAL, bi, bi + n, bj, bj + n))
        i, j = bi + n, bj + n
    return opcodes


def _spans(ops: Sequence[DiffOp], side: str) -> list[tuple[str, str]]:
    spans: list[tuple[str, str]] = []
    for op in ops:
        text = op.a_text if side == "a" else op.b_text
        if text:
            spans.append((text, op.tag))
    return spans


def diff_texts(a: str, b: str, *, ignore_whitespace_punct: bool = False) -> DiffResult:
    """Align ``a`` and ``b`` line by line and mark word-level changes inside changed lines.

    With ``ignore_whitespace_punct`` differences in whitespace and punctuation alone are not
    changes (the full text is still shown); this is what a reviewer of two conversions of the same
    document wants, since extractors disagree about spacing and quote styles.
    """
    # The script is folded only when one side has Traditional characters: two Simplified texts
    # are spared the conversions (a quarter of a 1 MB diff's time).
    fold = fold_in_place if has_traditional(a) or has_traditional(b) else fold_compat
    reset = _FOLD.set(fold)
    try:
        return _diff_texts(a, b, ignore_whitespace_punct)
    finally:
        _FOLD.reset(reset)
        # The token caches only serve one diff (equal lines on both sides, a changed line used
        # for pairing, diffing and counting); dropping them keeps a long-running GUI from
        # holding on to old documents.
        _tokenized_by.cache_clear()


# --- the whole-text diff -------------------------------------------------------------------------
#
# Line breaks are layout, not text: a PDF or a re-wrapped copy breaks its lines elsewhere, a DOCX
# keeps a paragraph on one line. So two texts are compared as one stream of tokens in which a
# whitespace run is one separator, whatever it holds, and white space beside a Chinese
# character (a wrapped Chinese line, two lines joined by a space, 中文 Linux) is nothing. Chinese
# is compared character by character (a wrapped line may cut a word in two; the highlight is
# widened to whole words afterwards). Rows for the two panes are cut where BOTH sides have a
# line break at the same place in the aligned text, so an unchanged re-wrapped paragraph is one
# equal row and an edited line of two identically wrapped texts is one row, as before.
#
# For speed, equal lines are aligned first (one hash per line; what two versions of one file
# mostly are); only the stretches between them are tokenised, cut into sentences, aligned by
# sentence and then word by word.

_CJK = _HAN + "\u3000-\u303f\uff00-\uffef"
_CJK_CHAR_RE = re.compile(f"[{_CJK}]")
_HAN_CHAR_RE = re.compile(f"[{_HAN}]")


@cache
def _patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(a token, a word) of the diff, built on its first use (the combining marks are read from
    the Unicode database). A token is a Chinese character alone; a letter of a script written
    without spaces (Thai, Lao, Myanmar, Khmer) alone, with the marks written on it; a word of
    another script, with its marks (Devanagari's vowel signs and virama, which the regex's \\w
    does not count as letters) and inner apostrophes (don't, it's); a digit run; a whitespace
    run; or any other character alone. A word is any of those but the last two. A highlight
    then never starts between a letter and its marks (a mark alone is drawn on a dotted
    circle)."""
    marks, unspaced = combining_marks(), UNSPACED_RANGES
    letter = f"[^\\W\\d{_HAN}{unspaced}]"
    word = f"{letter}+(?:[{marks}]+{letter}*)*"
    word = f"[{_HAN}]|(?=[^\\W\\d])[{unspaced}][{marks}]*|{word}(?:['\u2019]{word})*|\\d+"
    return re.compile(f"{word}|\\s+|.", re.DOTALL), re.compile(word)


_SENTENCE_END = frozenset("。！？!?；;.…")
# A stretch without sentence ends is still cut after this many words, so that the alignment of
# sentences never faces one enormous "sentence".
_CHUNK_WORDS = 120
# Characters either side of a change's edge segmented to widen it to whole words.
_SNAP_WINDOW = 12
# How far an inserted or deleted stretch may slide to start and end on line breaks.
_MAX_SLIDE = 64

_WS_KEY = " "


def _line_ends(text: str, offset: int = 0) -> list[int]:
    """Offsets just after each line break of ``text`` (the breaks ``str.splitlines`` knows)."""
    ends = []
    pos = offset
    for piece in text.splitlines(keepends=True):
        pos += len(piece)
        if piece.splitlines() != [piece]:  # ends with a break
            ends.append(pos)
    return ends


@dataclass
class _Side:
    """One side of a stretch being compared: its tokens and their comparison keys."""

    text: str  # the whole document
    folded: str  # the whole document folded in place (what its tokens are compared by)
    start: int  # the stretch, [start, end) in ``text``
    end: int
    sig_start: list[int]  # char offset of each significant token
    sig_end: list[int]
    sig_ws: list[bool]  # the significant token is whitespace
    keys: list[str]
    chunk_bounds: list[int]  # sig indexes where a sentence starts (0 first)
    gaps: dict[int, list[int]]  # gap k (before sig token k) -> line ends inside it
    ignore: bool  # whitespace and punctuation are not compared

    def bound(self, k: int) -> int:
        """Where the text of an op starting at sig token ``k`` begins: after the last line
        break before the token, so rows are cut on line breaks."""
        if k <= 0:
            return self.start
        if k >= len(self.keys):
            return self.end
        ends = self.gaps.get(k)
        return ends[-1] if ends else self.sig_start[k]

    def has_break(self, k: int) -> bool:
        return k <= 0 or k >= len(self.keys) or k in self.gaps


def _compare_side(
    text: str, folded_text: str, start: int, end: int, ignore: bool, edge_ws: tuple[bool, bool]
) -> _Side:
    """``folded_text``: ``text`` folded in place (text.fold_in_place). ``edge_ws``: whether
    whitespace at the (start, end) of the stretch is compared; it is when both sides have some
    there (so that a deleted last line is a line of its own), not when only one does (a missing
    final newline is not a change)."""
    stretch = text[start:end]
    folded = folded_text[start:end]
    sig_start: list[int] = []
    sig_end: list[int] = []
    sig_ws: list[bool] = []
    keys: list[str] = []
    chunk_bounds = [0]
    words_in_chunk = 0
    matches = list(_patterns()[0].finditer(folded))
    last = len(matches) - 1
    # white space beside Chinese is looked for only in a stretch that has some (a stretch of
    # English asked it of every space: a third more of its diff's time)
    cjk = bool(_CJK_CHAR_RE.search(folded) or _CJK_CHAR_RE.search(stretch))
    for n, m in enumerate(matches):
        tok = m.group()
        first = tok[0]
        if first.isspace():
            if ignore or (n == 0 and not edge_ws[0]) or (n == last and not edge_ws[1]):
                continue
            if cjk and _beside_chinese(
                text, folded_text, start + m.start(), start + m.end(), start, end
            ):
                # white space beside Chinese is layout only: a line wrapped, two lines joined
                # by a space, a justified PDF line, 中文 Linux (the fingerprint counts none)
                continue
            key = _WS_KEY
            is_ws = True
        elif first.isalnum() or first == "_":
            key = tok
            is_ws = False
            words_in_chunk += 1
        else:
            if ignore:
                if first in _SENTENCE_END and len(keys) > chunk_bounds[-1]:
                    chunk_bounds.append(len(keys))
                    words_in_chunk = 0
                continue
            key = tok
            is_ws = False
        sig_start.append(start + m.start())
        sig_end.append(start + m.end())
        sig_ws.append(is_ws)
        keys.append(key)
        if (first in _SENTENCE_END and not ignore) or words_in_chunk >= _CHUNK_WORDS:
            chunk_bounds.append(len(keys))
            words_in_chunk = 0
    if chunk_bounds[-1] == len(keys) and len(chunk_bounds) > 1:
        chunk_bounds.pop()
    gaps: dict[int, list[int]] = {}
    for e in _line_ends(stretch, start):
        t = bisect.bisect_left(sig_start, e) - 1
        if t >= 0 and not sig_ws[t] and e < sig_end[t]:
            continue
        gaps.setdefault(t + 1, []).append(e)
    return _Side(
        text, folded_text, start, end, sig_start, sig_end, sig_ws, keys, chunk_bounds, gaps, ignore
    )


def _beside_chinese(
    text: str, folded: str, ws_start: int, ws_end: int, start: int, end: int
) -> bool:
    """Whether the white space ``text[ws_start:ws_end]`` lies beside a CJK character inside the
    stretch ``start:end``: between two (Chinese is written without spaces), or between one and
    a Latin word or a number, where some writers put a space and others do not. A CJK
    character as written or folded (``folded``: the text folded in place, one character for
    one): a PDF writes 无 as the radical ⽆, which folding makes an ideograph, and a
    full-width comma folds to an ASCII one."""
    return (
        ws_start > start
        and ws_end < end
        and (_cjk_at(text, folded, ws_start - 1) or _cjk_at(text, folded, ws_end))
    )


def _cjk_at(text: str, folded: str, at: int) -> bool:
    return bool(_CJK_CHAR_RE.match(text, at) or _CJK_CHAR_RE.match(folded, at))


def _stretch_opcodes(a: _Side, b: _Side) -> list[tuple[str, int, int, int, int]]:
    """Opcodes over the significant tokens of two stretches: sentences aligned first, then
    words inside the sentences that differ."""
    a_chunks = [*a.chunk_bounds, len(a.keys)]
    b_chunks = [*b.chunk_bounds, len(b.keys)]
    a_ckeys = ["\x1f".join(a.keys[x:y]) for x, y in zip(a_chunks, a_chunks[1:], strict=False)]
    b_ckeys = ["\x1f".join(b.keys[x:y]) for x, y in zip(b_chunks, b_chunks[1:], strict=False)]
    ops: list[tuple[str, int, int, int, int]] = []
    for tag, c1, c2, d1, d2 in _align(a_ckeys, b_ckeys):
        i1, i2, j1, j2 = a_chunks[c1], a_chunks[c2], b_chunks[d1], b_chunks[d2]
        if tag == EQUAL:
            ops.append((EQUAL, i1, i2, j1, j2))
            continue
        a_keys, b_keys = a.keys[i1:i2], b.keys[j1:j2]
        if len(a_keys) + len(b_keys) > _MAX_WORD_DIFF_TOKENS:
            inner = _cheap_opcodes(a_keys, b_keys)
        else:
            inner = _align(a_keys, b_keys, isjunk=str.isspace)
        for t, x1, x2, y1, y2 in inner:
            op = (t, i1 + x1, i1 + x2, j1 + y1, j1 + y2)
            ops.append((EQUAL, *op[1:]) if t != EQUAL and _layout_only(a, b, op) else op)
    merged: list[tuple[str, int, int, int, int]] = []
    for op in ops:
        if op[1] == op[2] and op[3] == op[4]:
            continue
        if merged and merged[-1][0] == op[0] == EQUAL and _in_step(merged[-1]) == _in_step(op):
            prev = merged.pop()
            op = (EQUAL, prev[1], op[2], prev[3], op[4])
        elif merged and merged[-1][0] != EQUAL and op[0] != EQUAL:
            prev = merged.pop()
            op = (REPLACE, prev[1], op[2], prev[3], op[4])
        merged.append(op)
    return _slide_to_line_breaks(merged, a, b)


def _in_step(op: tuple[str, int, int, int, int]) -> bool:
    """Whether the two sides of an op have as many tokens, one for one. An equal op made of a
    change of layout alone (_layout_only: a word that `fold` cut in two, "docu", a break,
    "ment", against "document") has not; it is kept apart from the equal ops beside it, so
    that their line breaks still pair up token for token and cut the rows (_stretch_segments).
    Merged, the rows after it were cut a token or two off: "...on the wate" beside "...on the
    water"."""
    return op[2] - op[1] == op[4] - op[3]


# Line breaks (the characters str.splitlines cuts at).
_LINE_BREAK_RE = re.compile("[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]")


def _layout_only(a: _Side, b: _Side, op: tuple[str, int, int, int, int]) -> bool:
    """Whether a change of ``op`` is only where the lines are cut: ``fold -w`` and other
    fixed-width wraps count characters and cut words in two ("docu|ment") or a run of spaces,
    and a break beside a Chinese character is no space either. Such a stretch has the same
    words as the other side (what makes two texts "the same text"), so the diff shows it as
    equal. Each side is compared with the white space around it that was not compared (between
    two Chinese characters), its line breaks taken out: a space put into a word, or an
    apostrophe taken out of one, is still a change."""
    _, i1, i2, j1, j2 = op
    return _unbroken_keys(a, i1, i2) == _unbroken_keys(b, j1, j2)


def _unbroken_keys(side: _Side, i1: int, i2: int) -> list[str]:
    """The comparison keys of tokens ``i1:i2`` of ``side`` and the text between them and their
    neighbours, without line breaks, as _compare_side makes them: a white-space run is one
    separator; only words when whitespace and punctuation are ignored."""
    lo = side.sig_end[i1 - 1] if i1 > 0 else side.start
    hi = side.sig_start[i2] if i2 < len(side.keys) else side.end
    keys = []
    for tok in _patterns()[0].findall(_unbroken(side, lo, hi)):
        if tok[0].isalnum() or tok[0] == "_":
            keys.append(tok)
        elif not side.ignore:
            keys.append(_WS_KEY if tok[0].isspace() else tok)
    return keys


_WHITE_RUN_RE = re.compile(r"\s+")


def _unbroken(side: _Side, lo: int, hi: int) -> str:
    """The folded text ``lo:hi`` of ``side`` without its line breaks, and without the white
    space beside a CJK character (_beside_chinese, judged in the whole stretch, as
    _compare_side judges it)."""
    out = []
    at = lo
    for m in _WHITE_RUN_RE.finditer(side.folded, lo, hi):
        out.append(side.folded[at : m.start()])
        if not _beside_chinese(side.text, side.folded, m.start(), m.end(), side.start, side.end):
            out.append(_LINE_BREAK_RE.sub("", m.group()))
        at = m.end()
    out.append(side.folded[at:hi])
    return "".join(out)


def _slide_to_line_breaks(
    ops: list[tuple[str, int, int, int, int]], a: _Side, b: _Side
) -> list[tuple[str, int, int, int, int]]:
    """An inserted (deleted) stretch between two equal ones can often sit at several places
    ("x\\n" inserted after "x\\n"); put it where it starts and ends on line breaks, so it shows
    as whole lines of its own."""
    ops = list(ops)
    for n in range(1, len(ops) - 1):
        tag, i1, i2, j1, j2 = ops[n]
        if tag not in (INSERT, DELETE) or ops[n - 1][0] != EQUAL or ops[n + 1][0] != EQUAL:
            continue
        # An equal neighbour may shrink to nothing only at the ends of the stretch.
        prev_len = ops[n - 1][2] - ops[n - 1][1] + (1 if n == 1 else 0)
        next_len = ops[n + 1][2] - ops[n + 1][1] + (1 if n == len(ops) - 2 else 0)
        # The side that has the stretch, and the other one (where it is a point).
        if tag == INSERT:
            keys, lo, hi, here, there, other_at = b.keys, j1, j2, b, a, i1
        else:
            keys, lo, hi, here, there, other_at = a.keys, i1, i2, a, b, j1

        best, best_score = 0, _slide_score(0, here, there, lo, hi, other_at)
        s = 0
        while -s < min(prev_len - 1, _MAX_SLIDE) and keys[lo + s - 1] == keys[hi + s - 1]:
            s -= 1
            if (value := _slide_score(s, here, there, lo, hi, other_at)) > best_score:
                best, best_score = s, value
        s = 0
        while s < min(next_len - 1, _MAX_SLIDE) and keys[lo + s] == keys[hi + s]:
            s += 1
            if (value := _slide_score(s, here, there, lo, hi, other_at)) > best_score:
                best, best_score = s, value
        if best:
            p = ops[n - 1]
            q = ops[n + 1]
            ops[n - 1] = (EQUAL, p[1], p[2] + best, p[3], p[4] + best)
            ops[n] = (tag, i1 + best, i2 + best, j1 + best, j2 + best)
            ops[n + 1] = (EQUAL, q[1] + best, q[2], q[3] + best, q[4])
    return [op for op in ops if op[1] < op[2] or op[3] < op[4]]


def _slide_score(s: int, here: _Side, there: _Side, lo: int, hi: int, other_at: int) -> int:
    # 1 point for starting on a line break on both sides, 1 for ending on one.
    other = there.has_break(other_at + s)
    return int(other and here.has_break(lo + s)) + int(other and here.has_break(hi + s))


_Piece = tuple[str, int, int, int, int]  # (tag, a0, a1, b0, b1) in characters


def _pair_breaks(a_ends: list[int], b_ends: list[int]) -> list[tuple[int, int]]:
    # Blank lines on both sides stay blank rows; then the last break of each side.
    pairs = list(zip(a_ends[: len(a_ends) - 1], b_ends[: len(b_ends) - 1], strict=False))
    pairs = pairs[: min(len(a_ends), len(b_ends)) - 1]
    pairs.append((a_ends[-1], b_ends[-1]))
    return pairs


def _stretch_segments(
    sides: tuple[str, str, str, str], a0: int, a1: int, b0: int, b1: int, ignore: bool
) -> list[list[_Piece]]:
    """Rows (as lists of pieces) of a stretch of whole lines of each side; ``sides``: the two
    texts, and each folded in place."""
    text_a, text_b, folded_a, folded_b = sides
    edge_ws = (
        a0 < a1 and b0 < b1 and text_a[a0].isspace() and text_b[b0].isspace(),
        a0 < a1 and b0 < b1 and text_a[a1 - 1].isspace() and text_b[b1 - 1].isspace(),
    )
    a = _compare_side(text_a, folded_a, a0, a1, ignore, edge_ws)
    b = _compare_side(text_b, folded_b, b0, b1, ignore, edge_ws)
    ops = _stretch_opcodes(a, b)
    if not ops:
        ops = [(EQUAL, 0, 0, 0, 0)]
    segments: list[list[_Piece]] = []
    current: list[_Piece] = []
    a_gaps = sorted(a.gaps)
    for n, (tag, i1, i2, j1, j2) in enumerate(ops):
        if n and a.has_break(i1) and b.has_break(j1) and current:
            segments.append(current)
            current = []
        pa, pb = a.bound(i1), b.bound(j1)
        end_a = a.bound(i2) if n < len(ops) - 1 else a.end
        end_b = b.bound(j2) if n < len(ops) - 1 else b.end
        if n == 0:
            pa, pb = a.start, b.start
        if tag == EQUAL and _in_step((tag, i1, i2, j1, j2)):
            lo = bisect.bisect_right(a_gaps, i1)
            for k in a_gaps[lo:]:
                if k >= i2:
                    break
                b_ends = b.gaps.get(j1 + (k - i1))
                if not b_ends:
                    continue
                for qa, qb in _pair_breaks(a.gaps[k], b_ends):
                    current.append((EQUAL, pa, qa, pb, qb))
                    segments.append(current)
                    current = []
                    pa, pb = qa, qb
        current.append((tag, pa, end_a, pb, end_b))
    if current:
        segments.append(current)
    return segments


def _lines_of(text: str, start: int, end: int, tag: str) -> list[tuple[int, int]]:
    pos = start
    out = []
    for piece in text[start:end].splitlines(keepends=True):
        out.append((pos, pos + len(piece)))
        pos += len(piece)
    return out


def _snap_to_words(spans: list[tuple[str, str]], folded: str) -> list[tuple[str, str]]:
    """Widen changed Chinese characters to the whole words (jieba) they are part of.

    Only a few characters around each edge of a change are segmented: enough to find the word
    the edge cuts through, without segmenting a whole paragraph for every change. ``folded``:
    the spans' text already folded in place (its words are where the text's are), segmented
    instead of folding every window again."""
    if not any(tag != EQUAL and _HAN_CHAR_RE.search(t) for t, tag in spans):
        return spans
    text = "".join(t for t, _ in spans)
    if len(folded) != len(text):  # not the spans' text: fold it here
        folded = _FOLD.get()(text)
    intervals: list[list] = []  # [start, end, tag] of each change
    pos = 0
    for t, tag in spans:
        if tag != EQUAL:
            intervals.append([pos, pos + len(t), tag])
        pos += len(t)
    for iv in intervals:
        for edge in (0, 1):
            at = iv[edge]
            if not (0 < at < len(text)) or not (
                _HAN_CHAR_RE.match(text, at - 1) and _HAN_CHAR_RE.match(text, at)
            ):
                continue
            lo, hi = max(0, at - _SNAP_WINDOW), min(len(text), at + _SNAP_WINDOW)
            boundary = lo
            for tok in _tokenized_by(folded[lo:hi], _as_is)[0]:
                nxt = boundary + len(tok)
                if boundary < at < nxt:  # the edge cuts this word: widen to its ends
                    iv[edge] = boundary if edge == 0 else nxt
                    break
                boundary = nxt
    out: list[tuple[str, str]] = []
    pos = 0
    for start, end, tag in intervals:
        start = max(start, pos)
        if end <= start:
            continue
        if start > pos:
            out.append((text[pos:start], EQUAL))
        if out and out[-1][1] == tag:
            out[-1] = (out[-1][0] + text[start:end], tag)
        else:
            out.append((text[start:end], tag))
        pos = end
    if pos < len(text):
        out.append((text[pos:], EQUAL))
    return out


def _spans_of(text: str, pieces: Sequence[tuple[str, int, int]]) -> list[tuple[str, str]]:
    spans: list[tuple[str, str]] = []
    for tag, x0, x1 in pieces:
        if x1 <= x0:
            continue
        if spans and spans[-1][1] == tag:
            spans[-1] = (spans[-1][0] + text[x0:x1], tag)
        else:
            spans.append((text[x0:x1], tag))
    return spans


class _RowBuilder:
    def __init__(self, sides: tuple[str, str, str, str]) -> None:
        """``sides``: the two texts, and each folded in place."""
        self.a, self.b, self.folded_a, self.folded_b = sides
        self.a_ends = _line_ends(self.a)
        self.b_ends = _line_ends(self.b)
        self.rows: list[DiffRow] = []

    def a_line(self, pos: int) -> int:
        return bisect.bisect_right(self.a_ends, pos) + 1

    def b_line(self, pos: int) -> int:
        return bisect.bisect_right(self.b_ends, pos) + 1

    def add_segment(self, seg: list[_Piece]) -> None:
        a0, a1 = seg[0][1], seg[-1][2]
        b0, b1 = seg[0][3], seg[-1][4]
        if a0 >= a1 and b0 >= b1:
            return
        tags = {p[0] for p in seg if p[2] > p[1] or p[4] > p[3]}
        if a0 >= a1 or b0 >= b1:  # whole lines on one side only
            side_text = self.b if a0 >= a1 else self.a
            x0, x1 = (b0, b1) if a0 >= a1 else (a0, a1)
            tag = INSERT if a0 >= a1 else DELETE
            for s, e in _lines_of(side_text, x0, x1, tag):
                if tag == INSERT:
                    self.rows.append(
                        DiffRow(None, self.b_line(s), INSERT, [], [(self.b[s:e], tag)])
                    )
                else:
                    self.rows.append(
                        DiffRow(self.a_line(s), None, DELETE, [(self.a[s:e], tag)], [])
                    )
            return
        if tags == {EQUAL}:
            self.rows.append(
                DiffRow(
                    self.a_line(a0),
                    self.b_line(b0),
                    EQUAL,
                    [(self.a[a0:a1], EQUAL)],
                    [(self.b[b0:b1], EQUAL)],
                )
            )
            return
        if EQUAL not in tags:  # nothing in common: pair the lines side by side
            a_lines = _lines_of(self.a, a0, a1, REPLACE)
            b_lines = _lines_of(self.b, b0, b1, REPLACE)
            if len(a_lines) > 1 or len(b_lines) > 1:
                for k in range(max(len(a_lines), len(b_lines))):
                    la = a_lines[k] if k < len(a_lines) else None
                    lb = b_lines[k] if k < len(b_lines) else None
                    tag = REPLACE if la and lb else (DELETE if la else INSERT)
                    self.rows.append(
                        DiffRow(
                            self.a_line(la[0]) if la else None,
                            self.b_line(lb[0]) if lb else None,
                            tag,
                            [(self.a[la[0] : la[1]], tag)] if la else [],
                            [(self.b[lb[0] : lb[1]], tag)] if lb else [],
                        )
                    )
                return
        a_spans = _snap_to_words(
            _spans_of(self.a, [(p[0], p[1], p[2]) for p in seg]), self.folded_a[a0:a1]
        )
        b_spans = _snap_to_words(
            _spans_of(self.b, [(p[0], p[3], p[4]) for p in seg]), self.folded_b[b0:b1]
        )
        self.rows.append(DiffRow(self.a_line(a0), self.b_line(b0), REPLACE, a_spans, b_spans))


def _diff_texts(a: str, b: str, ignore_whitespace_punct: bool) -> DiffResult:
    a_lines = a.splitlines(keepends=True)
    b_lines = b.splitlines(keepends=True)
    a_pos = [0, *itertools.accumulate(map(len, a_lines))]
    b_pos = [0, *itertools.accumulate(map(len, b_lines))]
    # Each text folded once, whole (one character for one, so its lines are where the text's
    # are): what lines and stretches are compared by.
    fold = _FOLD.get()
    sides = (a, b, fold(a), fold(b))
    a_keys = [
        _line_key(sides[2][x:y], ignore_whitespace_punct) for x, y in itertools.pairwise(a_pos)
    ]
    b_keys = [
        _line_key(sides[3][x:y], ignore_whitespace_punct) for x, y in itertools.pairwise(b_pos)
    ]

    builder = _RowBuilder(sides)
    matched_a = matched_b = 0
    for tag, i1, i2, j1, j2 in _blank_lines_joined(_align(a_keys, b_keys), a_keys):
        if tag == EQUAL:
            for i, j in zip(range(i1, i2), range(j1, j2), strict=True):
                builder.rows.append(
                    DiffRow(i + 1, j + 1, EQUAL, [(a_lines[i], EQUAL)], [(b_lines[j], EQUAL)])
                )
                matched_a += _unit_count(a_lines[i])
                matched_b += _unit_count(b_lines[j])
            continue
        if (i1 == i2 or j1 == j2) and not any(k.strip() for k in [*a_keys[i1:i2], *b_keys[j1:j2]]):
            # Blank lines that one side has and the other has not (a DOCX's paragraphs have
            # spacing, not blank lines between them): layout, shown as equal rows that the
            # other side has no line in.
            for i in range(i1, i2):
                builder.rows.append(DiffRow(i + 1, None, EQUAL, [(a_lines[i], EQUAL)], []))
            for j in range(j1, j2):
                builder.rows.append(DiffRow(None, j + 1, EQUAL, [], [(b_lines[j], EQUAL)]))
            continue
        for seg in _stretch_segments(
            sides, a_pos[i1], a_pos[i2], b_pos[j1], b_pos[j2], ignore_whitespace_punct
        ):
            for tag_, x0, x1, y0, y1 in seg:
                if tag_ == EQUAL:
                    matched_a += _unit_count(a[x0:x1])
                    matched_b += _unit_count(b[y0:y1])
            builder.add_segment(seg)

    rows = builder.rows
    total = _unit_count(a) + _unit_count(b)
    similarity = 1.0 if total == 0 else min(1.0, (matched_a + matched_b) / total)
    change_rows = [
        k for k, row in enumerate(rows) if row.tag != EQUAL and (k == 0 or rows[k - 1].tag == EQUAL)
    ]
    logger.debug(
        "diff: %d/%d lines, %d rows, %d changes, similarity %.3f",
        len(a_lines),
        len(b_lines),
        len(rows),
        len(change_rows),
        similarity,
    )
    return DiffResult(rows, similarity, change_rows, _unit_count(a), _unit_count(b))


def _blank_lines_joined(
    opcodes: list[tuple[str, int, int, int, int]], a_keys: Sequence[str]
) -> list[tuple[str, int, int, int, int]]:
    """The line alignment with every run of equal blank lines that lies between two changed
    stretches taken into one changed stretch with them. Blank lines are layout, as the other
    line breaks are: a copy laid out otherwise (one blank line between paragraphs where the
    other has two, each paragraph on one line) has no other line equal, and the blank lines
    alone, matched as equal lines, set one side's paragraph against the other's next one, so
    every paragraph showed as changed. Compared as one stream of words, the stretch is cut into
    rows again where both sides break their lines at the same place."""
    out: list[tuple[str, int, int, int, int]] = []
    for n, op in enumerate(opcodes):
        tag, i1, i2, j1, j2 = op
        blank_between = (
            tag == EQUAL
            and 0 < n < len(opcodes) - 1
            and opcodes[n + 1][0] != EQUAL
            and out[-1][0] != EQUAL
            and not any(key.strip() for key in a_keys[i1:i2])
        )
        if out and out[-1][0] != EQUAL and (tag != EQUAL or blank_between):
            prev = out.pop()
            op = (REPLACE, prev[1], i2, prev[3], j2)
        out.append(op)
    return out


def _unit_count(text: str) -> int:
    """Words for the similarity: a Chinese character counts as one, as do a word and a number."""
    return len(_patterns()[1].findall(text))


__all__: list[str] = [
    "DiffOp",
    "DiffResult",
    "DiffRow",
    "diff_texts",
    "diff_words",
    "tokenize_for_diff",
]
