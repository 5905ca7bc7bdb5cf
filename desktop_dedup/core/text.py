"""Text normalisation and tokenisation, shared by fingerprinting and same-text detection.

Why each step:

* **NFKC** folds compatibility characters: full-width Latin letters, digits and punctuation become
  their ASCII forms, and the CJK radical code points that PDF text layers often use for ordinary
  ideographs (U+2F00 Kangxi radicals, e.g. ``⼴`` for ``广``) become the ideographs themselves.
* **Case**: Latin letters are lower-cased (``str.lower``; Chinese has no case).
* **Whitespace**: every run of white space becomes one space, so re-wrapped lines, CRLF vs LF and
  indentation do not matter.
* White space *between two CJK characters* is dropped: Chinese does not separate words with
  spaces, so a space or line break there is layout (a PDF's or a re-wrapped file's line end) and
  would otherwise split a word and change its segmentation.
* Soft hyphens and zero-width characters are dropped; they are invisible in every viewer.
* **Traditional Chinese is folded to Simplified, and regional words to one form.** Characters
  are folded one by one (OpenCC's ``t2s``: standard, Taiwan and Hong Kong forms), then the
  words that Taiwan and the mainland write differently (参数/引數, 文件/檔案, 字符/字元,
  默认/預設) take one form, in every Chinese text, Simplified included
  (:func:`regional_words_config`): a word's form is where OpenCC sends it through Taiwan's
  phrasing and back (``s2twp`` then ``tw2sp``), and a Taiwan form written in Simplified
  characters (引数) goes where its word goes. Both sides of a pair must be folded alike: a
  copy converted character by character (``s2t``) keeps the mainland's 文件, which Taiwan's
  phrasing reads as "document" (文档), while a copy with Taiwan's phrasing (``s2twp``) writes
  檔案 for it. So a text and its copy are the same document however the copy was made, and
  weigh their words through the same (Simplified) IDF table. The script is folded after white
  space is removed, so a phrase split by a line break converts like the rest.
  Measured on 60 texts of the labelled corpora converted with s2t, s2tw, s2hk and s2twp in turn
  (tests/test_chinese_scripts.py): 60 found, none mixed up. Folding only the Traditional copy
  with Taiwan's phrasing (``tw2sp``), the previous rule: 56 (a manual page and its ``s2t``
  copy 80 % the same, one pair refused as two documents whose repeated words differ);
  character tables alone: 52 (``s2twp`` copies 74 % the same). It costs 15 ms per MB of
  Chinese text, once per document. The diff shows the original characters.
* **Hard-wrapped text is unwrapped** (:func:`unwrap_fixed_width`): a file cut into lines of
  exactly N characters (``fold -w N``, fixed-width exports, some mail and terminal tools) breaks
  words in the middle (``gen`` / ``erating``). When nearly every long line has exactly the same
  length and words are cut in two at those breaks, the breaks were inserted, not typed, and are
  removed without a space; ragged, word-wrapped text is left alone (and a break between two
  Chinese characters needs no undoing: normalisation drops white space there).

Tokens come from jieba's dictionary segmentation with the HMM off (``HMM=False``): the HMM guesses
new words from character statistics and is the one part of jieba whose output other
implementations do not reproduce exactly. With it off, `rjieba` (the jieba-rs binding) gives the
very same tokens, several times faster, so it is used when installed and jieba otherwise
(tests check both agree).
"""

from __future__ import annotations

import contextlib
import functools
import importlib.util
import json
import logging
import math
import re
import tempfile
import threading
import unicodedata
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np
import xxhash

from desktop_dedup.core.cache import cached_path, content_key, shipped_table, write_whole

log = logging.getLogger(__name__)

# Dropped before comparison: invisible characters (soft hyphen, zero-width space and joiners,
# word joiner, byte order mark), and the marks Arabic and Hebrew writers mostly leave out: the
# Arabic vowel marks (harakat, shadda, sukun, superscript alef), the tatweel that only stretches
# a word, Quranic annotation signs, Hebrew vowel points (niqqud) and cantillation, Syriac vowel
# points. A copy with its vowels written, or stripped, is the same text.
OPTIONAL_MARKS = (
    "\u0591-\u05bd\u05bf\u05c1\u05c2\u05c4\u05c5\u05c7"
    "\u064b-\u065f\u0670\u06d6-\u06dc\u06df-\u06e4\u06e7\u06e8\u06ea-\u06ed"
    "\u0730-\u074a"
)
_INVISIBLE = re.compile(f"[\u00ad\u200b\u200c\u200d\u2060\ufeff\u0640{OPTIONAL_MARKS}]")
# str.translate with a mapping looks up every character in Python; a regex finds the rare text
# that needs it at C speed first (measured: a third of normalisation time on Chinese text).
_RADICALS_PRESENT = re.compile("[\u2e80-\u2eff]")
# CJK Radicals Supplement code points that stand for whole ideographs (PDF text layers emit them
# for simplified characters such as 页 and 见). NFKC folds the Kangxi radicals block but not this
# one; the targets follow Unicode's EquivalentUnifiedIdeograph.txt.
_RADICAL_SUPPLEMENT = str.maketrans(
    "⺜⺝⺠⺩⺶⺷⺼⻁⻂⻃⻄⻅⻆⻈⻉⻊⻋⻌⻍⻏⻐⻑⻓⻔⻖⻗⻘⻙⻚⻛⻜⻝⻟⻠⻢⻣⻤⻥⻦⻧⻨⻩⻪⻫⻬⻭⻮⻯⻰⻱⻲",
    "日月民王羊羊月虎衤覀西见角讠贝足车辶辶阝钅長长门阝雨青韦页风飞食飠饣马骨鬼鱼鸟卤麦黄黾斉齐歯齿竜龙龜亀",
)
_CJK = "\u2e80-\u2fff\u3000-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
_CJK_PRESENT = re.compile(f"[{_CJK}]")
# One space (white space is collapsed first) between two CJK characters; never a line break.
# The space first, then the character before it: a pattern that starts with a look-behind is
# tried at every character of the text (the public corpora's Chinese texts: 68 ms, now 24).
_SPACE_BETWEEN_CJK = re.compile(rf" (?<=[{_CJK}] )(?=[{_CJK}])")


# A document is hard-wrapped at width W (the most common length of its lines, at least
# _MIN_WRAP_WIDTH) when nearly all of its lines that are about W long are exactly W long, and
# they are a good part of the text. Ragged, word-wrapped text spreads its long lines over a dozen
# lengths; a cut at a fixed width makes them equal. Not the longest line: a copy edited after it
# was wrapped (numbers changed, a word replaced) has a few lines longer or shorter than the rest.
# Paragraph ends need not be followed by a blank line (a DOCX has one paragraph per line), so
# every line counts, not only the ones that continue a paragraph.
_WRAP_SHARE = 0.6
_MIN_WRAP_WIDTH = 20
_MIN_WRAPPED_LINES = 3
_MIN_WRAPPED_PART = 0.25
# ... and when the cut falls inside a word (a letter or digit on both sides) at a good part of them.
_CUT_WORD = re.compile(r"[A-Za-z0-9\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff]{2}")
_MIN_CUT_WORDS = 2
_MIN_CUT_SHARE = 0.2
# A run of letters (a word without its digits and marks: the readers' and _cut_by_counting's);
# a letter ending a word and one starting the next.
LETTER_RUN = re.compile(r"[^\W\d_]+")
_ACROSS_SPACE = re.compile(r"([^\W\d_])\s+(?=([^\W\d_]))")
# How many lines it reads its evidence from.
_EVIDENCE_LINES = 2_000
# The alphabet size the letter statistics are smoothed over (a Latin, Greek or Cyrillic one).
_LETTERS = 30
# Log likelihood ratios of a break between words against one inside a word: the piece after a
# break begins with a capital after a small letter (between words: a sentence or a name begins,
# about one line in six of prose; inside a word: almost never), and a piece is one letter that
# is no word elsewhere (inside a word: a cut before a word's last letter or after its first,
# two places in a word's five or six; between words: a one-letter word, rare).
_CAPITAL_AFTER_BREAK = 2.0
_LONE_LETTER_PIECE = 2.0
# ... and a piece is a word found elsewhere in the text, or not: 28 % of the pieces at a word
# wrap's breaks against 7 % at a cut's, in real paragraphs of 20-60 words (the manual pages of
# tests/data/languages, wrapped and cut at 30, 40 and 60 columns).
_PIECE_IS_A_WORD = math.log(0.28 / 0.07)
_PIECE_IS_NO_WORD = math.log(0.72 / 0.93)


def _wrap_slack(width: int) -> int:
    """How much longer than the wrap width a wrapped line may be (what an edit made after the
    wrap adds); a line more than two characters shorter ends a paragraph."""
    return max(2, width // 6)


def unwrap_fixed_width(text: str) -> str:
    """Undo a hard wrap at a fixed character width; other text is returned unchanged."""
    if text.count("\n") < 2:
        return text
    lines = text.splitlines()
    by_length = Counter(filter(_MIN_WRAP_WIDTH.__le__, map(len, lines)))  # in C
    if not by_length:
        return text
    width, full = by_length.most_common(1)[0]
    if full < _MIN_WRAPPED_LINES:  # the cheap test first: most texts stop here
        return text
    slack = _wrap_slack(width)
    near = sum(c for n, c in by_length.items() if width - slack <= n <= width + slack)
    if full < _WRAP_SHARE * near:
        return text
    with_text = sum(1 for line in lines if line.strip())
    if full < _MIN_WRAPPED_PART * with_text:
        return text
    # A cut made by counting characters lands inside words; a person or a word-wrapping editor
    # breaks between them (and between any two Chinese characters, where a break is nothing
    # anyway: normalisation drops white space there). Without words cut in two, leave the lines.
    cut = sum(
        1
        for line, following in zip(lines, lines[1:], strict=False)
        if len(line) == width and _CUT_WORD.match(line[-1] + following[:1])
    )
    if cut < _MIN_CUT_WORDS or cut < _MIN_CUT_SHARE * full:
        return text
    if not _cut_by_counting(lines, width):
        return text
    out: list[str] = []
    for line, following in zip(lines, lines[1:], strict=False):
        out.append(line)
        if not (width - 2 <= len(line) <= width + slack and following.strip()):
            out.append("\n")
    out.append(lines[-1])
    return "".join(out)


def _cut_by_counting(lines: list[str], width: int) -> bool:
    """Whether the breaks after the lines ``width`` long were made by counting characters,
    inside words, rather than by a word wrap whose lines happen to be equally long (three of
    four lines at 29 characters in a note wrapped at 30, or a poem's lines): gluing the lines
    of those would glue words (``use`` / ``the`` → ``usethe``).

    A cut made by counting falls where it falls: now and then beside a space, which then ends
    the line or starts the next one (a word wrap leaves no space at a break, or keeps the same
    indentation on every line); and a word cut in two is often whole elsewhere in the text.
    Without either sign (a short text, few breaks), the text's own letters decide: which
    letters end its words and which begin them, which pairs of letters meet inside a word and
    which across a space, whether the piece after the break begins with a capital, and whether
    each piece is a word elsewhere or a single letter that is not. Summed over the breaks with
    a letter on both sides as a log likelihood ratio of a break between words against a break
    inside one. The evidence is read from the first _EVIDENCE_LINES lines: enough for any
    text, and a bounded cost on a long one (a 20 MB block of base64 lines)."""
    window = lines[: _EVIDENCE_LINES + 1]
    breaks = [
        (line, following)
        for line, following in zip(window, window[1:], strict=False)
        if len(line) == width and following.strip()
    ]
    for line, following in breaks:
        if line[-1].isspace() or (
            following[0].isspace() and not following[1:2].isspace() and not line[0].isspace()
        ):
            return True
    letter_runs = Counter(run.lower() for run in LETTER_RUN.findall("\n".join(window)))
    pieces = []
    for line, following in breaks:
        pair = line[-1] + following[0]
        if not _CUT_WORD.match(pair) or not pair.isalpha():  # a cut word of the cut scripts
            continue
        before, after = LETTER_RUN.findall(line[-40:]), LETTER_RUN.findall(following[:40])
        if letter_runs[(before[-1] + after[0]).lower()]:
            return True  # the word cut in two is whole elsewhere
        pieces.append((before[-1], after[0]))
    if not pieces:
        return True  # digits cut in two: nothing here says otherwise
    ends, middles, starts, rests = Counter(), Counter(), Counter(), Counter()
    inside, across = Counter(), Counter()
    for line in window:
        lowered = line.lower()
        for word in LETTER_RUN.findall(lowered)[1:-1]:  # the words no break may have cut
            ends[word[-1]] += 1
            starts[word[0]] += 1
            middles.update(word[:-1])
            rests.update(word[1:])
            inside.update(word[i : i + 2] for i in range(len(word) - 1))
        across.update(a + b for a, b in _ACROSS_SPACE.findall(lowered))

    def ratio(hits: Counter[str], key: str, others: Counter[str], size: int) -> float:
        # log P(key | between words) / P(key | inside a word), add-half smoothed over ``size``
        return math.log((hits[key] + 0.5) / (hits.total() + size / 2)) - math.log(
            (others[key] + 0.5) / (others.total() + size / 2)
        )

    score = 0.0
    for before, after in pieces:
        a, b = before[-1].lower(), after[0].lower()
        score += ratio(ends, a, middles, _LETTERS) + ratio(starts, b, rests, _LETTERS)
        score += ratio(across, a + b, inside, _LETTERS * _LETTERS)
        if after[0].isupper() and before[-1].islower():
            score += _CAPITAL_AFTER_BREAK
        for piece in (before, after):
            elsewhere = letter_runs[piece.lower()] > 1
            score += _PIECE_IS_A_WORD if elsewhere else _PIECE_IS_NO_WORD
            if len(piece) == 1 and not elsewhere:
                score -= _LONE_LETTER_PIECE
    return score <= 0


def _build_compat_fold() -> dict[int, str]:
    table: dict[int, str] = {}
    ranges = [(0x2F00, 0x2FE0), (0xFF01, 0xFF5F), (0x3000, 0x3001)]
    for lo, hi in ranges:
        for cp in range(lo, hi):
            folded = unicodedata.normalize("NFKC", chr(cp))
            if len(folded) == 1 and folded != chr(cp):
                table[cp] = folded
    for cp, target in _RADICAL_SUPPLEMENT.items():
        table[cp] = target if isinstance(target, str) else chr(target)
    # Typographic quotes and apostrophes, as word processors write them while you type.
    table.update(dict.fromkeys(range(0x2018, 0x201C), "'"))
    table.update(dict.fromkeys(range(0x201C, 0x2020), '"'))
    return table


_COMPAT_FOLD = _build_compat_fold()
_COMPAT_PRESENT = re.compile("[\u2018-\u201f\u2e80-\u2fdf\u3000\uff01-\uff5e]")


def fold_compat(text: str) -> str:
    """Fold look-alike compatibility characters, one character for one: CJK radical code points
    (as PDF text layers emit them) to ideographs, full-width ASCII to ASCII, the ideographic
    space to a space, typographic quotes and apostrophes (“ ” ‘ ’) to straight ones.
    Length-preserving, so positions in the folded text are positions in the original: the
    diff compares folded tokens and still shows the text as written."""
    # Only the matches are looked up: str.translate looks up every character (ten times
    # slower on Chinese text, where these are the full-width punctuation marks).
    return _COMPAT_PRESENT.sub(_compat_char, text)


def _compat_char(match: re.Match[str]) -> str:
    char = match.group()
    return _COMPAT_FOLD.get(ord(char), char)


# NFKC costs more than anything else in normalisation (~45 ms per MB of Chinese), yet in most
# Chinese text the only characters it changes are full-width ASCII forms ("，：（）"), the
# ideographic space and the ellipsis. Those are mapped first (one regex pass, each to its own
# compatibility decomposition, so the final NFKC is unchanged), and NFKC itself runs only when the
# fast quick-check still finds something to do.
_COMMON_COMPAT = re.compile("[\uff01-\uff5e\u3000\u2026]")
_COMMON_COMPAT_MAP = {chr(c): unicodedata.normalize("NFKC", chr(c)) for c in range(0xFF01, 0xFF5F)}
_COMMON_COMPAT_MAP["\u3000"] = " "
_COMMON_COMPAT_MAP["\u2026"] = "..."


def _common_compat(match: re.Match[str]) -> str:
    return _COMMON_COMPAT_MAP[match.group()]


def _nfkc(text: str) -> str:
    text = _COMMON_COMPAT.sub(_common_compat, text)
    if unicodedata.is_normalized("NFKC", text):
        return text
    return unicodedata.normalize("NFKC", text)


_HAN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_script_lock = threading.Lock()
_t2s: Callable[[str], str] | None = None
_regional: Callable[[str], str] | None = None


def _t2s_converter() -> Callable[[str], str]:
    """OpenCC's conversion to Simplified characters (``t2s``)."""
    global _t2s
    if _t2s is None:
        with _script_lock:
            if _t2s is None:
                import opencc

                _t2s = opencc.OpenCC("t2s").convert
    return _t2s


def _converters() -> tuple[Callable[[str], str], Callable[[str], str]]:
    """OpenCC's character table to Simplified (``t2s``), and the regional-words table
    (:func:`regional_words_config`) as a converter."""
    global _regional
    t2s = _t2s_converter()
    if _regional is None:
        with _script_lock:
            if _regional is None:
                _regional = _load_regional()
    return t2s, _regional


def _load_regional() -> Callable[[str], str]:
    import opencc

    config = regional_words_config()
    try:
        return opencc.OpenCC(str(config)).convert
    except Exception:  # noqa: BLE001 - OpenCC's own errors: a cached table damaged since
        log.warning("the table of regional words %s is damaged; making it again", config)
        for path in (config, config.with_suffix(".txt")):
            with contextlib.suppress(OSError):
                path.unlink()
        return opencc.OpenCC(str(regional_words_config())).convert


def has_chinese(text: str) -> bool:
    """Whether ``text`` holds Chinese characters: only then can :func:`fold_script` change it."""
    return not text.isascii() and _HAN.search(text) is not None


def fold_script(text: str, chinese: bool | None = None) -> str:
    """One script and one vocabulary for Chinese: Traditional characters (standard, Taiwan or
    Hong Kong forms) become Simplified one by one (OpenCC's ``t2s``), then the words Taiwan and
    the mainland write differently become one form (:func:`regional_words_config`), in
    Simplified text too, so that a text and its copy meet whichever way it was converted.
    Text without Chinese characters is returned as is. ``chinese`` skips the check when the
    caller knows (the lines of a document already checked as a whole)."""
    if chinese is None:
        chinese = has_chinese(text)
    if not chinese:
        return text
    t2s, regional = _converters()
    return regional(t2s(text))


# Han characters, the supplementary planes included (the diff's ranges too).
HAN_RANGES = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003134f"
_HAN_ANY = re.compile(f"[{HAN_RANGES}]")
_in_place: Callable[[str], str] | None = None
_folded_char_table: dict[int, str] | None = None


def fold_in_place(text: str) -> str:
    """``text`` with look-alike compatibility characters (:func:`fold_compat`) and the script
    of its Chinese characters folded one character for one, so that every character keeps its
    place: what the diff compares, while it shows each text as written. Words that Taiwan and
    the mainland write differently (軟體, 软件) stay different words here."""
    text = fold_compat(text)
    if _HAN_ANY.search(text) is None:
        return text
    fold = _in_place_converter()
    folded = fold(text)
    if len(folded) == len(text):
        return folded
    # A phrase of another length somewhere: line by line (OpenCC never converts across a line
    # break), and in such a line each character alone, which keeps every place.
    out = []
    for line in text.splitlines(keepends=True):
        folded = fold(line)
        out.append(folded if len(folded) == len(line) else line.translate(_folded_chars()))
    return "".join(out)


def has_traditional(text: str) -> bool:
    """Whether ``text`` holds Chinese that OpenCC's ``t2s`` writes otherwise (converting is
    the fast test: 9 ms a MB; a character class of every such character took 0.36 s)."""
    return _HAN_ANY.search(text) is not None and _t2s_converter()(text) != text


def _in_place_converter() -> Callable[[str], str]:
    """Every text to Traditional (``s2t``), then Taiwan's variant characters to OpenCC's
    standard ones and all to Simplified (``tw2s``): one form for the characters that ``t2s``
    alone keeps apart (Taiwan's 著 and the mainland's 着 in 意味着; 於 and 于), whichever
    script the text is in; Hong Kong's variants are among ``t2s``'s own. Phrases are converted
    in context (乾隆 stays, 乾燥 becomes 干燥)."""
    global _in_place
    if _in_place is None:
        with _script_lock:
            if _in_place is None:
                import opencc

                steps = [opencc.OpenCC(c).convert for c in ("s2t", "tw2s")]

                def fold(text: str) -> str:
                    for step in steps:
                        text = step(text)
                    return text

                _in_place = fold
    return _in_place


def _folded_chars() -> dict[int, str]:
    """Every Han character that the in-place fold (:func:`_in_place_converter`), given it
    alone, writes as another single character, to that one: the same fold, character by
    character."""
    global _folded_char_table
    if _folded_char_table is None:
        ranges = ((0x3400, 0x4DC0), (0x4E00, 0xA000), (0xF900, 0xFB00), (0x20000, 0x31350))
        chars = [chr(c) for lo, hi in ranges for c in range(lo, hi)]
        # One conversion of all of them, one to a line (OpenCC never converts across a line).
        out = _in_place_converter()("\n".join(chars)).split("\n")
        if len(out) != len(chars):
            raise ValueError("OpenCC changed the number of lines")
        _folded_char_table = {
            ord(c): o for c, o in zip(chars, out, strict=True) if o != c and len(o) == 1
        }
    return _folded_char_table


# Bump when _regional_pairs derives another table (rows.FINGERPRINT_VERSION too), or
# when its configuration changes (2: one pass, without a segmentation).
_REGIONAL_TABLE = 2
REGIONAL_KIND = "regional-words"  # its name in the cache and among the shipped tables


def _regional_pairs() -> dict[str, str]:
    """Word -> the form it takes here, for the words of jieba's dictionary that Taiwan and the
    mainland write differently (see the module docstring), derived with OpenCC's own tables:
    a word's form is where it lands when converted to Taiwan's phrasing (``s2twp``) and back
    to the mainland's (``tw2sp``), and the Taiwan form of a word, written in Simplified
    characters (字元, 引数), lands where the word does, unless it is a word of its own."""
    import opencc

    # Each line's first field (before its first space), found in C: a new profile's first
    # scan waits for this table.
    text = (jieba_folder() / "dict.txt").read_text("utf-8")
    words = [w for w in _FIRST_FIELD.findall(text) if w and not w.isspace()]
    taiwan = opencc.OpenCC("s2twp").convert("\n".join(words))
    back = opencc.OpenCC("tw2sp").convert(taiwan).split("\n")
    taiwan_simplified = opencc.OpenCC("t2s").convert(taiwan).split("\n")
    if not len(words) == len(back) == len(taiwan_simplified):
        raise ValueError("OpenCC changed the number of lines")
    # Every word's own landing place first (a word that lands on itself needs no entry).
    pairs = {w: form for w, form in zip(words, back, strict=True) if w != form}
    known = set(words)
    for word, tw_simplified, form in zip(words, taiwan_simplified, back, strict=True):
        # Taiwan's phrasing, in Simplified characters (引数), unless a word of its own
        if tw_simplified != word and tw_simplified not in known:
            pairs.setdefault(tw_simplified, form)
    return {
        k: v
        for k, v in pairs.items()
        if k != v and len(k) > 1 and v and not any(ch.isspace() for ch in v)
    }


_FIRST_FIELD = re.compile(r"^([^ \n]*)", re.MULTILINE)


def jieba_folder() -> Path:
    """Where jieba's data is, found without importing jieba (``jieba.analyse`` alone loads
    the part-of-speech tagger's tables: half a second in every scan worker, for nothing)."""
    spec = importlib.util.find_spec("jieba")
    if spec is None or not spec.submodule_search_locations:
        raise ImportError("jieba is not installed")
    return Path(next(iter(spec.submodule_search_locations)))


def regional_words_config() -> Path:
    """An OpenCC configuration that replaces the words Taiwan and the mainland write
    differently by one form (longest match first, as OpenCC converts), with its table: made
    once per user from jieba's dictionary and this OpenCC's tables (most of a second), or
    copied from the table the build made from the same ones (cache.shipped_table), and cached;
    in the system's temporary folder when the cache folder cannot be written to."""
    import opencc

    source = jieba_folder() / "dict.txt"
    extra = f"opencc {opencc.__version__}, table {_REGIONAL_TABLE}"
    table = cached_path(REGIONAL_KIND, ".txt", source, extra=extra)
    body: str | None = None
    for folder in dict.fromkeys((table.parent, Path(tempfile.gettempdir()))):
        config = (folder / table.name).with_suffix(".json")
        if config.is_file() and config.with_suffix(".txt").is_file():
            return config
        if body is None:
            body = _shipped_regional_table() or regional_table_body()
        if _write_regional_table(config, body):
            return config
    raise OSError(f"cannot write the table of regional words ({table.name}) anywhere")


def regional_key() -> str:
    """What the table of regional words depends on (cache.content_key): jieba's dictionary,
    OpenCC's version and every table it ships, and this module's derivation."""
    import opencc

    shipped = Path(opencc.__file__).parent / "clib" / "share" / "opencc"
    tables = sorted(p for p in shipped.glob("*") if p.is_file())
    names = ",".join(p.name for p in tables)
    return content_key(
        jieba_folder() / "dict.txt",
        *tables,
        extra=f"opencc {opencc.__version__} [{names}], table {_REGIONAL_TABLE}",
    )


def regional_table_body() -> str:
    """The table of regional words as OpenCC reads it: one ``word<TAB>form`` line each."""
    return "".join(f"{k}\t{v}\n" for k, v in sorted(_regional_pairs().items()))


def _shipped_regional_table() -> str | None:
    try:
        data = shipped_table(REGIONAL_KIND, ".txt", regional_key())
        return None if data is None else data.decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None


def _write_regional_table(config: Path, body: str) -> bool:
    table = config.with_suffix(".txt")
    settings = {
        "name": "desktop_dedup: the words Taiwan and the mainland write differently",
        # No "segmentation": the conversion itself replaces the longest match at each place,
        # which is all a segmentation by the same table would add, in a second pass (it cost
        # 40 % of the step).
        "conversion_chain": [{"dict": {"type": "text", "file": str(table)}}],
    }
    # the table first: a configuration is only ever found beside a whole table
    return write_whole(table, body.encode("utf-8")) and write_whole(
        config, json.dumps(settings, ensure_ascii=False).encode("utf-8")
    )


def normalize_text(text: str, *, fold: bool | None = None) -> str:
    """Return ``text`` folded for comparison: NFKC, lower case, one space per white-space run,
    Simplified script, one form for regional words. The script is folded last, once the line
    breaks that split words are gone, so that a phrase reads the same whatever the layout.
    ``fold``: whether the text holds Chinese characters, when the caller knows (None: check)."""
    return normalize_unwrapped(unwrap_fixed_width(text), fold=fold)


# A text longer than this (in characters) is normalised, hashed and segmented
# (fingerprint._segmented) a piece at a time: the steps' copies of a novel of ten million
# characters took 280 MB at once, its tokens as strings 240 MB.
LONG_TEXT_CHARS = 1 << 20


def normalize_unwrapped(text: str, *, fold: bool | None = None) -> str:
    """:func:`normalize_text` of a text whose fixed-width wrap is already undone (or of one
    line): what a caller that holds the unwrapped text uses, so it is not unwrapped twice."""
    if len(text) > LONG_TEXT_CHARS:
        return _fold_script_in_pieces(_collapsed_in_pieces(text), fold)
    return fold_script(_collapsed(text), fold)


def _collapsed(text: str) -> str:
    """The character steps of normalisation, white space collapsed to one space, and none
    between two CJK characters."""
    # str.split() splits on exactly the characters ``\s`` matches (str.isspace), at C speed.
    return _drop_space_between_cjk(" ".join(_fold_characters(text).split()))


def _collapsed_in_pieces(text: str) -> str:
    """:func:`_collapsed` of a long text, a piece of about LONG_TEXT_CHARS characters at a
    time, each cut just before a line break. Nothing crosses
    one there: NFKC composes nothing with a line break and lower case reads no context across
    it (final sigma), the other character steps go one character at a time, and white space is
    split there anyway. The pieces are joined as the whole text would be: by one space, or by
    none between two CJK characters."""
    parts: list[str] = []
    at = 0
    while at < len(text):
        end = text.find("\n", at + LONG_TEXT_CHARS)
        end = len(text) if end < 0 else end
        part = _collapsed(text[at:end])
        if part:
            if parts and not (_CJK_PRESENT.match(parts[-1][-1]) and _CJK_PRESENT.match(part[0])):
                parts.append(" ")
            parts.append(part)
        at = end
    return "".join(parts)


# Where a long text's script is folded in pieces: after a space or a sentence's end. OpenCC
# matches its phrases one after the other from the start of its input, and its phrases (words
# and set phrases, as are the regional words) hold neither, so a phrase never spans a cut and
# each piece converts as it does inside the whole text (checked with pieces of a few dozen
# characters on every text of tests/data: tests/test_fingerprint.py).
_FOLD_PIECE_END = re.compile("[ \u3002\uff01\uff1f]")


def _fold_script_in_pieces(text: str, fold: bool | None) -> str:
    """:func:`fold_script` of a long text, a piece of about LONG_TEXT_CHARS characters at a
    time: OpenCC holds the text it converts and its result as UTF-8, twice over (two
    conversions). Normalising a novel of 33 million characters took 180 MB beyond the text;
    45 MB in pieces."""
    if fold is None:
        fold = has_chinese(text)
    if not fold:
        return text
    parts = []
    at = 0
    while at < len(text):
        cut = _FOLD_PIECE_END.search(text, at + LONG_TEXT_CHARS)
        end = len(text) if cut is None else cut.end()
        parts.append(fold_script(text[at:end], True))
        at = end
    return "".join(parts)


def _drop_space_between_cjk(text: str) -> str:
    """``text`` (white space already collapsed to single spaces) without the space between two
    CJK characters, looked for only in text that has such characters (a third of the cost)."""
    if text.isascii() or not _CJK_PRESENT.search(text):
        return text
    return _SPACE_BETWEEN_CJK.sub("", text)


def _fold_characters(text: str) -> str:
    """The character-by-character steps of normalisation: invisible characters dropped, NFKC,
    radicals to ideographs, lower case (none joins or splits lines). ASCII (an O(1) test)
    has nothing for the first three steps: its text is only lower-cased."""
    if text.isascii():
        return text.lower()
    text = _nfkc(_INVISIBLE.sub("", text))
    if _RADICALS_PRESENT.search(text):
        text = text.translate(_RADICAL_SUPPLEMENT)
    return text.lower()


# A web address (lower-cased): a scheme or "www." that does not end a Latin word, then the
# characters an address is written with (RFC 3986), ASCII only, so that one in Chinese text
# ends at the next Chinese character (tests/test_web_addresses.py holds it as one pattern).
_ADDRESS_REST = re.compile(r"[a-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+")
_LATIN_ALNUM = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")


def web_addresses(normalized: str) -> list[str]:
    """The web addresses in a normalised text, in order: where fingerprinting finds the words
    that only addresses hold, which name nothing (fingerprint.py). Found from each "://" and
    "www." (str.find, in C): one pattern with a look-behind, tried at every character of a
    text, took 0.08 s over the public corpora's texts."""
    if "://" not in normalized and "www." not in normalized:
        return []
    # An address runs to the end of its run of address characters, as does any other that
    # begins inside it, which the end drops (below): the search goes on after the run, so that
    # links joined by commas on one line (a CSV export) are matched once, not once each to the
    # line's end (20,000 such links: 4.8 s).
    found: list[tuple[int, int]] = []
    at = normalized.find("://")
    while at >= 0:
        after = at + 3
        for scheme in ("https", "http", "ftp"):
            start = at - len(scheme)
            if start >= 0 and normalized.startswith(scheme, start):
                if not (start and normalized[start - 1] in _LATIN_ALNUM):
                    rest = _ADDRESS_REST.match(normalized, at + 3)
                    if rest:
                        found.append((start, rest.end()))
                        after = rest.end()
                break
        at = normalized.find("://", after)
    at = normalized.find("www.")
    while at >= 0:
        after = at + 1
        if not (at and normalized[at - 1] in _LATIN_ALNUM):
            rest = _ADDRESS_REST.match(normalized, at + 4)
            if rest:
                found.append((at, rest.end()))
                after = rest.end()
        at = normalized.find("www.", after)
    found.sort()
    out, end = [], 0
    for a, b in found:  # as findall: no match begins inside the one before it
        if a >= end:
            out.append(normalized[a:b])
            end = b
    return out


def normalize_lines(lines: list[str], *, fold: bool | None = None) -> list[str]:
    """``[normalize_unwrapped(line, fold=fold) for line in lines]`` for lines without line
    breaks (stripped lines of a text), computed in one pass over the lines joined by ``\n``:
    every step is the same within a line and none crosses a line break, and one pass costs
    a fraction of one call per line (edge peeling reads dozens of lines per document)."""
    if not lines:
        return []
    text = _fold_characters("\n".join(lines))
    text = _drop_space_between_cjk("\n".join([" ".join(ln.split()) for ln in text.split("\n")]))
    if fold is None or fold:
        # All lines in one conversion: OpenCC converts character by character and word by word,
        # never across a line break, so each line comes out as it would alone.
        text = fold_script(text, fold)
    return text.split("\n")


_BMP = 0x10000


@functools.cache
def _not_word() -> re.Pattern[str]:
    # "_" apart (str.replace): a class that is \W, not a mark, or "_" cannot be written as one,
    # and an alternation per character took twice the time.
    return re.compile(f"[^\\w{combining_marks()}]+")


def bare_words(text: str) -> str:
    """The words of ``text``, in order, with nothing between them: dropped are white space,
    punctuation and symbols, that is characters neither the regex's ``\\w`` nor a combining
    mark (combining_marks: the vowel signs of Devanagari or Thai are parts of their words), and
    the underscore. "Same text" (words_only) and the diff's lines (diff._line_key) compare
    what is left."""
    return _not_word().sub("", text).replace("_", "")


@functools.cache
def _word_chars() -> np.ndarray:
    """Which code points of the Basic Multilingual Plane :func:`bare_words` keeps, as a table
    (tests/test_text.py checks it)."""
    table = np.fromiter((chr(c).isalnum() for c in range(_BMP)), dtype=bool, count=_BMP)
    table[_mark_code_points()] = True
    return table


def words_only(normalized: str) -> str:
    """The normalised text without white space and punctuation (what "same text" compares).

    The characters are looked up in a table as an array of code points: a quarter of the time
    of the regex (:func:`bare_words`), which checks each character's Unicode category in turn
    (the most costly pass over a document's text). Text with characters beyond the BMP (emoji,
    rare ideographs) takes the regex."""
    codes = np.frombuffer(normalized.encode("utf-32-le", "surrogatepass"), dtype=np.uint32)
    if len(codes) == 0 or int(codes.max()) >= _BMP:
        return bare_words(normalized)
    return codes[_word_chars()[codes]].tobytes().decode("utf-32-le")


def text_hash(normalized: str) -> str:
    """Hash of the words of a normalised text, in order, as 32 hex digits (xxh3-128).

    Two documents with the same text hash hold the same words in the same order; they may differ
    in format, encoding, line wrapping, white space and punctuation (full/half width included).
    """
    if len(normalized) <= LONG_TEXT_CHARS:
        return xxhash.xxh3_128_hexdigest(words_only(normalized).encode("utf-8", "surrogatepass"))
    # A piece at a time (words_only goes one character at a time): the same hash, without
    # the whole text's code points as an array and its words twice over.
    digest = xxhash.xxh3_128()
    for at in range(0, len(normalized), LONG_TEXT_CHARS):
        piece = normalized[at : at + LONG_TEXT_CHARS]
        digest.update(words_only(piece).encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


# --- segmentation -------------------------------------------------------------------------------

_segmenter_lock = threading.Lock()
_segmenter: Callable[[str], list[str]] | None = None
SEGMENTER_NAME = ""


def _load_segmenter(prefer_rjieba: bool = True) -> tuple[str, Callable[[str], list[str]]]:
    if prefer_rjieba:
        try:
            import rjieba

            return "rjieba", lambda s: rjieba.cut(s, False)
        except ImportError:  # optional accelerator
            log.info("rjieba not installed; using jieba (slower, same tokens)")
    import jieba

    jieba.setLogLevel(logging.WARNING)
    return "jieba", lambda s: jieba.lcut(s, HMM=False)


def segmenter(prefer_rjieba: bool = True) -> Callable[[str], list[str]]:
    """The process-wide segmenter (loaded once)."""
    global _segmenter, SEGMENTER_NAME
    if not prefer_rjieba:
        return _load_segmenter(False)[1]
    if _segmenter is None:
        with _segmenter_lock:
            if _segmenter is None:
                SEGMENTER_NAME, _segmenter = _load_segmenter(True)
    return _segmenter


# jieba knows Chinese words and keeps runs of ASCII letters and digits together; every other
# character comes out alone: Cyrillic, Greek, Hangul, Arabic, Devanagari, katakana and accented
# Latin words would become single letters ("größe" -> gr / ö / ß / e), whose pairs every text of
# the language shares. Words of those scripts are therefore taken whole before jieba sees the
# rest, with the combining marks written on their letters (Devanagari, Bengali and Thai vowel
# signs, the virama, tone marks), which the regex's \w does not count as letters: "हिन्दी" is
# one word, not ह / न / द. Hiragana stays with jieba (one character each: Japanese particles and
# endings, which are no features in fingerprint.py), as do Chinese characters.
_HAN_KANA = "\u3040-\u309f\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f"
_OTHER_LETTER = re.compile(rf"[^\W\d_\x00-\x7f{_HAN_KANA}]")
# Scripts written without spaces between words (Thai, Lao, Myanmar, Khmer and their extensions):
# a run of their letters is a phrase or a sentence, not a word. With no dictionary for them, such
# a run is cut into letters, each with its marks (a grapheme cluster), and its tokens are every
# three letters in a row, overlapping, so that an edited word changes a few tokens and not the
# whole phrase. Why three: with single letters as tokens, a word pair is two letters, which
# different texts of the language share (two different Thai texts of five help messages each
# had up to 49 % of their word pairs in common; 25 % with three, 19 % when runs were cut at
# every mark), while the copy with one word edited was found as often either way.
UNSPACED_GRAM = 3
UNSPACED_RANGES = "\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff\u19e0-\u19ff\ua9e0-\uaa7f"
_UNSPACED = re.compile(f"[{UNSPACED_RANGES}]")


@functools.cache
def _mark_code_points() -> list[int]:
    """The code points of :func:`combining_marks`, in order."""
    left_out = re.compile(f"[{OPTIONAL_MARKS}\ufe00-\ufe0f]")
    return [
        c
        for c in range(_BMP)
        if unicodedata.category(chr(c)).startswith("M") and not left_out.match(chr(c))
    ]


@functools.cache
def combining_marks() -> str:
    """A regex character class's body holding every combining mark (categories Mn, Mc and Me)
    of the Basic Multilingual Plane, but the optional vowel marks of Arabic and Hebrew
    (OPTIONAL_MARKS, which normalisation drops and the diff shows as characters of their own)
    and the variation selectors (which choose a glyph, as an emoji's: "❤️" and "❤" are the
    same text); built once from the Unicode database (5 ms), the first time it is needed.
    The marks beyond it (historic scripts of India and Central Asia, musical notation) are
    left out: a class with characters beyond the plane is checked range by range, and made
    every pass over a text of any language half as slow again."""
    marks = _mark_code_points()
    ranges: list[str] = []
    first = last = marks[0]
    for c in [*marks[1:], -1]:
        if c == last + 1:
            last = c
            continue
        ranges.append(re.escape(chr(first)) + ("-" + re.escape(chr(last)) if last > first else ""))
        first = last = c
    return "".join(ranges)


@functools.cache
def _any_mark() -> re.Pattern[str]:
    """A combining mark. In a text without letters of other scripts, one is on a Latin letter
    that has no one-character form with it (Turkish "İ" in lower case is i and a dot above):
    jieba would cut the word at the mark, so such a text takes the word patterns below, as one
    with an accented letter anywhere would. (Looking for any mark takes half the time of
    looking for a letter followed by one, and a mark on no letter changes nothing there.)"""
    return re.compile(f"[{combining_marks()}]")


@functools.cache
def _word_patterns() -> tuple[re.Pattern[str], re.Pattern[str]]:
    """(a run of letters of a script without spaces, or a word of another script, with their
    marks; one letter with its marks), built the first time a text holds such a word. The two
    kinds never share a match: "GtkPackTypeระบุ" is an English word and a Thai run."""
    mark, unspaced = combining_marks(), UNSPACED_RANGES
    letter = f"[^\\W\\d_{_HAN_KANA}{unspaced}]"
    u_letter = f"(?=[^\\W\\d_])[{unspaced}]"  # their letters, not their digits and signs
    return (
        # letters, then any marks each followed by letters (disjoint classes: no backtracking)
        re.compile(rf"{u_letter}(?:{u_letter}|[{mark}])*|{letter}+(?:[{mark}]+{letter}*)*"),
        re.compile(rf".[{mark}]*", re.S),
    )


def _unspaced_tokens(letters: list[str]) -> list[str]:
    """The tokens of a run of letters of a script without spaces (each letter with its marks):
    every UNSPACED_GRAM letters in a row, overlapping; a shorter run is one token."""
    n = UNSPACED_GRAM
    if len(letters) <= n:
        return ["".join(letters)]
    return ["".join(letters[i : i + n]) for i in range(len(letters) - n + 1)]


def segment(normalized: str, prefer_rjieba: bool = True) -> list[str]:
    """Split normalised text into tokens (white space and punctuation included): jieba's, with
    words of scripts it does not segment kept whole."""
    cut = segmenter(prefer_rjieba)
    if normalized.isascii() or (
        not _OTHER_LETTER.search(normalized) and not _any_mark().search(normalized)
    ):
        return cut(normalized)
    other_word, letter = _word_patterns()
    tokens: list[str] = []
    at = 0
    for word in other_word.finditer(normalized):
        if word.group().isascii():
            continue
        if word.start() > at:
            tokens.extend(cut(normalized[at : word.start()]))
        if _UNSPACED.match(word.group()):
            tokens.extend(_unspaced_tokens(letter.findall(word.group())))
        else:
            tokens.append(word.group())
        at = word.end()
    if at < len(normalized):
        tokens.extend(cut(normalized[at:]))
    return tokens
