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

import difflib
import logging
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from desktop_dedup.core.text import fold_compat

logger = logging.getLogger(__name__)

try:  # rjieba is a Rust port of jieba: same dictionary, same tokens with hmm=False, much faster.
    import rjieba as _rjieba

    def _cut_han(run: str) -> list[str]:
        return _rjieba.cut(run, hmm=False)

except ImportError:  # pragma: no cover - rjieba is a declared dependency; jieba is the fallback
    import jieba as _jieba

    def _cut_han(run: str) -> list[str]:
        return _jieba.lcut(run, HMM=False)


_HAN = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
_HAN_RUN_RE = re.compile(f"([{_HAN}]+)")  # capturing: re.split keeps the runs
# Applied only between Chinese runs, so the word class need not exclude Chinese characters
# (a plain class keeps the regex fast).
_NON_HAN_TOKEN_RE = re.compile(
    r"[^\W\d]+(?:['\u2019][^\W\d]+)*"  # Latin-script word, with don't, it's
    r"|\d+"  # digit run
    r"|\s+"  # whitespace run
    r"|.",  # any other character (punctuation, symbols) on its own
    re.DOTALL,
)
# The word and digit alternatives of _NON_HAN_TOKEN_RE alone: counts the words of a stretch in C.
_WORD_TOKEN_RE = re.compile(r"[^\W\d]+(?:['\u2019][^\W\d]+)*|\d+")
_NOT_WORD_RE = re.compile(r"[\W_]+")
# Sentence ends (Chinese and Western), with closing quotes/brackets and trailing spaces kept.
_SENTENCE_END_RE = re.compile(r"[。！？!?；;.…]+[\"'”’」』）)\]]*\s*")

# A line longer than this (characters) is cut into sentences before the word diff.
_LONG_LINE_CHARS = 200
# Pair lines of a replaced block by similarity only while the block is at most this many pairs;
# beyond it, lines are paired in order (a block that big is a rewrite, not an edit).
_MAX_PAIRING_CELLS = 10_000
# Above this many tokens on both sides together, a changed stretch is shown as one replacement
# instead of being word-diffed (the word diff is quadratic in the worst case).
_MAX_WORD_DIFF_TOKENS = 6_000
# Two lines are paired only if this share of their words is in common.
_PAIR_MIN_SIMILARITY = 0.5

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
    a_words: int
    b_words: int


def tokenize_for_diff(text: str) -> list[str]:
    """Split text into word-level tokens whose concatenation is exactly ``text``.

    Chinese runs are segmented with jieba's dictionary (no HMM, so the same text always gives the
    same words); Latin-script words keep inner apostrophes; digit runs, whitespace runs and each
    punctuation character are tokens of their own, so a diff can highlight just the edited word.
    """
    return _tokenize_counted(text)[0]


def _tokenize_counted(text: str) -> tuple[list[str], int]:
    """Tokens of ``text`` and how many of them are words (what the similarity counts)."""
    tokens: list[str] = []
    words = 0
    # Segment the compatibility-folded text (a PDF's "⽂件" is the word "文件"), then cut the
    # original at the same places: folding is one character for one.
    folded = fold_compat(text)
    # re.split with a capturing group alternates: non-Chinese, Chinese run, non-Chinese, ...
    for k, part in enumerate(_HAN_RUN_RE.split(folded)):
        if not part:
            continue
        if k % 2:
            cut = _cut_han(part)
            tokens.extend(cut)
            words += len(cut)  # every piece of a Chinese run is a word
        else:
            tokens.extend(_NON_HAN_TOKEN_RE.findall(part))
            words += len(_WORD_TOKEN_RE.findall(part))
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


@lru_cache(maxsize=65_536)
def _tokenized(text: str) -> tuple[tuple[str, ...], int]:
    # Cached because every line is counted, equal lines appear on both sides, and a changed line
    # is also tokenised for pairing and diffing.
    tokens, words = _tokenize_counted(text)
    return tuple(tokens), words


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
    # The comparison key of a token: line-ending style and look-alike compatibility characters
    # (text.fold_compat) are not changes.
    token = fold_compat(token)
    return token.replace("\r\n", "\n").replace("\r", "\n") if "\r" in token else token


def _line_key(line: str, ignore_whitespace_punct: bool) -> str:
    line = fold_compat(line)
    if ignore_whitespace_punct:
        return _NOT_WORD_RE.sub("", line)
    return _strip_eol(line)


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
        # No unique keys: a small gap of repeated lines; SequenceMatcher is fine here, and
        # autojunk keeps it linear if the gap is unexpectedly huge.
        size = (ahi - alo) * (bhi - blo)
        matcher = difflib.SequenceMatcher(isjunk, a[alo:ahi], b[blo:bhi], autojunk=size > 4_000_000)
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


def _split_sentences(text: str) -> list[str]:
    pieces: list[str] = []
    pos = 0
    for match in _SENTENCE_END_RE.finditer(text):
        pieces.append(text[pos : match.end()])
        pos = match.end()
    if pos < len(text):
        pieces.append(text[pos:])
    return pieces


def _diff_line_pair(a: str, b: str, ignore_whitespace_punct: bool) -> tuple[list[DiffOp], int, int]:
    """Word diff of one line pair (plus matched word counts, see :func:`_diff_token_lists`);
    long lines are aligned by sentence first so the word diff stays local."""
    if len(a) <= _LONG_LINE_CHARS and len(b) <= _LONG_LINE_CHARS:
        return _diff_token_lists(_tokens(a), _tokens(b), ignore_whitespace_punct)
    a_sent = _split_sentences(a)
    b_sent = _split_sentences(b)
    a_keys = [_line_key(s, ignore_whitespace_punct) for s in a_sent]
    b_keys = [_line_key(s, ignore_whitespace_punct) for s in b_sent]
    ops: list[DiffOp] = []
    matched_a = matched_b = 0
    for tag, i1, i2, j1, j2 in _align(a_keys, b_keys):
        a_text = "".join(a_sent[i1:i2])
        b_text = "".join(b_sent[j1:j2])
        if tag == EQUAL:
            part = [DiffOp(EQUAL, a_text, b_text)]
            matched_a += sum(_line_word_count(x) for x in a_sent[i1:i2])
            matched_b += sum(_line_word_count(x) for x in b_sent[j1:j2])
        else:
            part, part_a, part_b = _diff_token_lists(
                tokenize_for_diff(a_text), tokenize_for_diff(b_text), ignore_whitespace_punct
            )
            matched_a += part_a
            matched_b += part_b
        for op in part:
            if ops and ops[-1].tag == op.tag:
                prev = ops.pop()
                ops.append(DiffOp(op.tag, prev.a_text + op.a_text, prev.b_text + op.b_text))
            else:
                ops.append(op)
    return ops, matched_a, matched_b


def _pair_lines(
    a_lines: Sequence[str], b_lines: Sequence[str]
) -> list[tuple[int | None, int | None]]:
    """Monotone pairing of two blocks of lines that maximises total word overlap.

    Returns (i, j) pairs in display order; ``None`` on one side means an unpaired line. Lines are
    paired only when at least :data:`_PAIR_MIN_SIMILARITY` of their words agree, so a rewritten
    paragraph shows as delete + insert rather than a meaningless word soup.
    """
    n, m = len(a_lines), len(b_lines)
    if n == 1 and m == 1:  # one line became another: show them side by side, whatever they hold
        return [(0, 0)]
    if n * m > _MAX_PAIRING_CELLS:
        pairs: list[tuple[int | None, int | None]] = [(k, k) for k in range(min(n, m))]
        pairs += [(k, None) for k in range(min(n, m), n)]
        pairs += [(None, k) for k in range(min(n, m), m)]
        return pairs

    a_bags = [Counter(t for t in _tokens(x) if not t.isspace()) for x in a_lines]
    b_bags = [Counter(t for t in _tokens(x) if not t.isspace()) for x in b_lines]
    a_sizes = [sum(bag.values()) for bag in a_bags]
    b_sizes = [sum(bag.values()) for bag in b_bags]

    def sim(i: int, j: int) -> float:
        total = a_sizes[i] + b_sizes[j]
        if total == 0:
            return 1.0
        common = sum((a_bags[i] & b_bags[j]).values())
        return 2.0 * common / total

    # score[i][j]: best total similarity pairing a[i:] with b[j:]
    score = [[0.0] * (m + 1) for _ in range(n + 1)]
    choice = [[0] * (m + 1) for _ in range(n + 1)]  # 0 pair, 1 skip a, 2 skip b
    for i in range(n - 1, -1, -1):
        row, below = score[i], score[i + 1]
        for j in range(m - 1, -1, -1):
            best, how = below[j], 1
            if row[j + 1] > best:
                best, how = row[j + 1], 2
            s = sim(i, j)
            if s >= _PAIR_MIN_SIMILARITY and below[j + 1] + s > best:
                best, how = below[j + 1] + s, 0
            row[j], choice[i][j] = best, how
    pairs = []
    i = j = 0
    while i < n and j < m:
        how = choice[i][j]
        if how == 0:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif how == 1:
            pairs.append((i, None))
            i += 1
        else:
            pairs.append((None, j))
            j += 1
    pairs += [(k, None) for k in range(i, n)]
    pairs += [(None, k) for k in range(j, m)]
    return pairs


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
    try:
        return _diff_texts(a, b, ignore_whitespace_punct)
    finally:
        # The token caches only serve one diff (equal lines on both sides, a changed line used
        # for pairing, diffing and counting); dropping them keeps a long-running GUI from
        # holding on to old documents.
        _tokenized.cache_clear()


def _diff_texts(a: str, b: str, ignore_whitespace_punct: bool) -> DiffResult:
    a_lines = a.splitlines(keepends=True)
    b_lines = b.splitlines(keepends=True)
    a_keys = [_line_key(x, ignore_whitespace_punct) for x in a_lines]
    b_keys = [_line_key(x, ignore_whitespace_punct) for x in b_lines]

    rows: list[DiffRow] = []
    matched_a = matched_b = 0
    for tag, i1, i2, j1, j2 in _align(a_keys, b_keys):
        if tag == EQUAL:
            for i, j in zip(range(i1, i2), range(j1, j2), strict=True):
                rows.append(
                    DiffRow(i + 1, j + 1, EQUAL, [(a_lines[i], EQUAL)], [(b_lines[j], EQUAL)])
                )
                matched_a += _line_word_count(a_lines[i])
                matched_b += _line_word_count(b_lines[j])
            continue
        for i, j in (
            _pair_lines(a_lines[i1:i2], b_lines[j1:j2])
            if tag == REPLACE
            else _unpaired(i2 - i1, j2 - j1)
        ):
            if i is not None and j is not None:
                line_a, line_b = a_lines[i1 + i], b_lines[j1 + j]
                ops, pair_a, pair_b = _diff_line_pair(line_a, line_b, ignore_whitespace_punct)
                a_spans, b_spans = _spans(ops, "a"), _spans(ops, "b")
                row_tag = EQUAL if all(op.tag == EQUAL for op in ops) else REPLACE
                rows.append(DiffRow(i1 + i + 1, j1 + j + 1, row_tag, a_spans, b_spans))
                matched_a += pair_a
                matched_b += pair_b
            elif i is not None:
                rows.append(DiffRow(i1 + i + 1, None, DELETE, [(a_lines[i1 + i], DELETE)], []))
            elif j is not None:
                rows.append(DiffRow(None, j1 + j + 1, INSERT, [], [(b_lines[j1 + j], INSERT)]))

    a_words = sum(_line_word_count(x) for x in a_lines)
    b_words = sum(_line_word_count(x) for x in b_lines)
    total = a_words + b_words
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
    return DiffResult(rows, similarity, change_rows, a_words, b_words)


def _unpaired(n: int, m: int) -> list[tuple[int | None, int | None]]:
    return [(k, None) for k in range(n)] + [(None, k) for k in range(m)]


__all__: list[str] = [
    "DiffOp",
    "DiffResult",
    "DiffRow",
    "diff_texts",
    "diff_words",
    "tokenize_for_diff",
]
