"""A labelled corpus of our own, made from real texts the public corpora do not hold.

The sources are manual pages translated into thirteen languages (tests/data/languages: German,
French, Spanish, Italian, Polish, Russian, Ukrainian, Japanese, Korean, Swedish, Dutch, Brazilian
Portuguese, Turkish). Each page in each language is a document; its variants are made the way
copies arise in real folders, following ../shared/corpus/README.md's definition of "the same
document": another format (DOCX), re-wrapped lines, a reposting banner, 5 % of the words replaced,
5 % cut from the end, two paragraphs in another order, and a combination.

What makes it hard, and why it is here:
* other scripts and languages: Cyrillic, Hangul, kana, accented Latin;
* templates: every translated page of one language shares its headings (NAME, SYNOPSIS,
  DESCRIPTION...) and a translators' credit paragraph word for word; those pages are different
  documents;
* translations: the same page in two languages is two documents.

``build(folder)`` writes the files and returns the truth: every pair of one family is positive,
every other pair negative (no gray pairs). ``score`` turns groups into pair precision and recall.
"""

from __future__ import annotations

import functools
import gettext
import itertools
import random
import re
import textwrap
import unicodedata
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import docgen

SOURCES = Path(__file__).resolve().parent / "data" / "languages"
BANNERS = [
    "Reposted from the team wiki. All rights belong to the original authors.",
    "本文转载自网络，版权归原作者所有，如有侵权请联系删除。",
]
_WORD = re.compile(r"\w+")
_SPACED = re.compile(r"\s")


@dataclass
class Truth:
    family: dict[str, str] = field(default_factory=dict)  # file name -> family (lang/page)
    kind: dict[str, str] = field(default_factory=dict)
    # families whose sources share much text (a page left untranslated in two languages but
    # for its headings): a person may call them the same or not, so their pairs count neither way
    related: set[tuple[str, str]] = field(default_factory=set)

    def gray(self, a: str, b: str) -> bool:
        fa, fb = self.family[a], self.family[b]
        return (fa, fb) in self.related or (fb, fa) in self.related

    def positives(self) -> set[tuple[str, str]]:
        by_family: dict[str, list[str]] = {}
        for name, fam in self.family.items():
            by_family.setdefault(fam, []).append(name)
        return {
            tuple(sorted(p))  # type: ignore[misc]
            for names in by_family.values()
            for p in itertools.combinations(names, 2)
        }


def sources(languages: Iterable[str] | None = None, pages: int | None = None) -> list[Path]:
    chosen = []
    for lang_dir in sorted(p for p in SOURCES.iterdir() if p.is_dir()):
        if languages is not None and lang_dir.name not in languages:
            continue
        files = sorted(lang_dir.glob("*.txt"))
        chosen.extend(files[:pages] if pages else files)
    return chosen


def _edit_words(text: str, share: float, pool: list[str], rng: random.Random) -> str:
    """Replace ``share`` of the words (of the characters, for text without spaces) with words
    (characters) taken from other documents of the language."""
    if len(_SPACED.findall(text)) > len(text) / 20:
        words = list(_WORD.finditer(text))
        chosen = set(rng.sample(range(len(words)), max(1, int(len(words) * share))))
        out, at = [], 0
        for k, m in enumerate(words):
            if k in chosen:
                out.append(text[at : m.start()])
                out.append(rng.choice(pool))
                at = m.end()
        return "".join(out) + text[at:]
    chars = [i for i, c in enumerate(text) if c.isalpha()]
    chosen = set(rng.sample(chars, max(1, int(len(chars) * share))))
    letters = [c for w in pool for c in w if c.isalpha()] or ["x"]
    return "".join(rng.choice(letters) if i in chosen else c for i, c in enumerate(text))


def _cut_end(text: str, share: float) -> str:
    keep = int(len(text) * (1 - share))
    return text[:keep].rsplit(" ", 1)[0] if " " in text[:keep] else text[:keep]


def _swap(text: str, rng: random.Random) -> str:
    paras = text.split("\n\n")
    if len(paras) < 4:
        return text
    i = rng.randrange(1, len(paras) - 2)
    paras[i], paras[i + 1] = paras[i + 1], paras[i]
    return "\n\n".join(paras)


def _rewrap(text: str, width: int) -> str:
    return "\n\n".join(textwrap.fill(p, width) for p in text.split("\n\n"))


KINDS = ("orig", "docx", "rewrap", "banner", "edit5", "trunc5", "swap", "combo")


def build(folder: Path, files: list[Path], seed: int = 2026, kinds=KINDS) -> Truth:
    """Write every source and its variants into ``folder`` under opaque names."""
    rng = random.Random(seed)
    pools: dict[str, list[str]] = {}
    for f in files:
        pools.setdefault(f.parent.name, []).extend(_WORD.findall(f.read_text(encoding="utf-8")))
    truth = Truth()
    texts = {f"{f.parent.name}/{f.stem}": f.read_text(encoding="utf-8") for f in files}
    for (fa, ta), (fb, tb) in itertools.combinations(texts.items(), 2):
        if fa.split("/")[1] == fb.split("/")[1] and trigram_dice(ta, tb) >= 0.3:
            truth.related.add((fa, fb))
    folder.mkdir(parents=True, exist_ok=True)
    for f in files:
        text = f.read_text(encoding="utf-8").strip()
        lang, family = f.parent.name, f"{f.parent.name}/{f.stem}"
        pool = [w for w in pools[lang] if len(w) > 2]
        banner = rng.choice(BANNERS)
        variants = {
            "orig": text,
            "rewrap": _rewrap(text, 60),
            "banner": f"{banner}\n\n{text}\n\n{banner}",
            "edit5": _edit_words(text, 0.05, pool, rng),
            "trunc5": _cut_end(text, 0.05),
            "swap": _swap(text, rng),
            "combo": _cut_end(
                _edit_words(f"{banner}\n\n{_swap(text, rng)}", 0.03, pool, rng), 0.03
            ),
        }
        for kind in kinds:
            name = f"{rng.getrandbits(40):010x}" + (".docx" if kind == "docx" else ".txt")
            if kind == "docx":
                docgen.write_docx(folder / name, text)
            else:
                docgen.write_txt(folder / name, variants[kind])
            truth.family[name] = family
            truth.kind[name] = kind
    return truth


def trigram_dice(a: str, b: str) -> float:
    """Share of word trigrams two texts have in common (independent of the app's own measure)."""

    def grams(text: str) -> set[tuple[str, ...]]:
        words = _WORD.findall(text.lower())
        return set(zip(words, words[1:], words[2:], strict=False))

    ga, gb = grams(a), grams(b)
    return 2 * len(ga & gb) / (len(ga) + len(gb)) if ga and gb else 0.0


def score(groups: Iterable[Iterable[str]], truth: Truth) -> tuple[float, float, list, list]:
    """Pair precision and recall of ``groups`` (file names), the missed and the false pairs
    (gray pairs count neither way)."""
    predicted = {
        tuple(sorted(p))
        for g in groups
        for p in itertools.combinations(sorted(set(g)), 2)
        if not truth.gray(*p)
    }
    positive = truth.positives()
    tp = predicted & positive
    false = sorted(predicted - positive)
    missed = sorted(positive - predicted)
    precision = len(tp) / len(predicted) if predicted else 1.0
    recall = len(tp) / len(positive) if positive else 1.0
    return precision, recall, missed, false


# --- short texts ----------------------------------------------------------------------------------

SHORT_BANNER = "Reposted from the community newsletter. All rights belong to the original author."
SHORT_FOOTER = "Sent from my phone. Please excuse any typos in this message."
# A company's mail disclaimer (50 words; 70 Chinese characters), below or above every mail: lines
# many texts hold, which two different notes may share and nothing else.
DISCLAIMER = {
    "en": (
        "CONFIDENTIALITY NOTICE: This e-mail message, including any attachments, is for the sole "
        "use of the intended recipient(s) and may contain confidential and privileged "
        "information. Any unauthorized review, use, disclosure or distribution is prohibited. If "
        "you are not the intended recipient, please contact the sender by reply e-mail and "
        "destroy all copies of the original message."
    ),
    "zh": (
        "免责声明：本邮件及其附件可能包含保密信息，仅供指定收件人使用。如果您不是指定收件人，"
        "请立即通知发件人并删除本邮件，严禁以任何方式使用、复制或传播本邮件内容。"
    ),
}
# Another company's disclaimer: the same note sent from both carries one each.
OTHER_DISCLAIMER = {
    "en": (
        "This message and any attachments are intended only for the named addressee and may "
        "contain information that is privileged, confidential or otherwise protected from "
        "disclosure. If you have received this message in error, please notify us at once by "
        "return mail and delete it from your system. Thank you."
    ),
    "zh": (
        "本邮件内容仅供收件人本人阅读，可能含有受法律保护的机密资料。若您误收本邮件，"
        "请即回复告知并彻底删除，未经许可不得转发、复制或以任何形式披露其中内容。谢谢合作。"
    ),
}
CJK_NOTES = Path(__file__).resolve().parent / "data" / "cjk_notes"
# A short text's banner, footer and title in its own language (the key: short_language), and
# the legacy encoding its copy is saved in (Traditional Chinese: Big5).
SHORT_STYLES = {
    "zh": (
        "本文转载自社区通讯，版权归原作者所有。",
        "发自我的手机，如有错字敬请谅解。",
        "通知",
        "gb18030",
    ),
    "ja": (
        "この記事はコミュニティ通信から転載しました。著作権は原著者に帰属します。",
        "スマートフォンから送信しました。誤字はご容赦ください。",
        "お知らせ",
        "cp932",
    ),
    "ko": (
        "이 글은 커뮤니티 소식지에서 옮겨 왔습니다. 저작권은 원저자에게 있습니다.",
        "휴대폰에서 보냈습니다. 오타는 양해해 주세요.",
        "알림",
        "cp949",
    ),
    "": (SHORT_BANNER, SHORT_FOOTER, "Note", None),
}
_HAN = re.compile(r"[\u4e00-\u9fff]")
_KANA = re.compile(r"[\u3040-\u30ff]")
_HANGUL = re.compile(r"[\uac00-\ud7af]")
_THAI_CONSONANT = re.compile(r"[\u0e01-\u0e2e]")
# a Japanese word to edit: a katakana word or two kanji
_JAPANESE_WORD = re.compile(r"[\u30a0-\u30ff]{2,}|[\u4e00-\u9fff]{2}")


def cjk_notes(language: str) -> list[str]:
    """The short texts of tests/data/cjk_notes (``zh_CN`` Simplified and ``zh_TW`` Traditional
    Chinese, ``ja`` Japanese, ``ko`` Korean): real help texts and messages of 40-150 Chinese
    characters, kana or Hangul syllables, lines as written."""
    return _notes(CJK_NOTES, language)


SCRIPT_NOTES = Path(__file__).resolve().parent / "data" / "script_notes"


def script_notes(language: str) -> list[str]:
    """The short texts of tests/data/script_notes (``th`` Thai, ``hi`` Hindi, ``bn`` Bengali,
    ``ar`` Arabic, ``he`` Hebrew): real help texts and messages of 10-60 words (Thai: 40-200
    letters), lines as written."""
    return _notes(SCRIPT_NOTES, language)


def _notes(folder: Path, language: str) -> list[str]:
    """The texts of ``folder``/``language``.txt, one per block between blank lines."""
    text = (folder / f"{language}.txt").read_text(encoding="utf-8")
    return [block.strip() for block in re.split(r"\n\s*\n", text) if block.strip()]


def short_language(text: str) -> str:
    """``zh``, ``ja`` or ``ko`` when most letters of ``text`` are Chinese characters, or kana
    and Chinese characters, or Hangul; else ``""`` (its copies get the English banner)."""
    letters = sum(c.isalpha() for c in text)
    han, kana = len(_HAN.findall(text)), len(_KANA.findall(text))
    if kana and 2 * (han + kana) > letters:
        return "ja"
    if 2 * han > letters:
        return "zh"
    if 2 * len(_HANGUL.findall(text)) > letters:
        return "ko"
    return ""


def fold(text: str, width: int) -> str:
    """What ``fold -w WIDTH`` does: every line cut every ``width`` characters, wherever that
    falls (inside a word, or beside a space, which it keeps); empty lines kept."""
    return "\n".join(
        "\n".join(line[i : i + width] for i in range(0, len(line), width)) if line else ""
        for line in text.split("\n")
    )


def cjk_wrap(text: str, columns: int) -> str:
    """``text`` folded at ``columns`` display columns (a Chinese character takes two), cutting
    anywhere as a fixed-width editor or fold(1) does; its own line breaks are kept."""
    out = []
    for line in text.splitlines():
        width, current = 0, ""
        for ch in line:
            w = 2 if unicodedata.east_asian_width(ch) in "WF" else 1
            if width + w > columns:
                out.append(current)
                width, current = 0, ""
            current += ch
            width += w
        out.append(current)
    return "\n".join(out)


def _language_pages() -> list[list[str]]:
    """The manual pages of tests/data/languages, one list per language."""
    return [
        [page.read_text(encoding="utf-8") for page in sorted(folder.glob("*.txt"))]
        for folder in sorted(p for p in SOURCES.iterdir() if p.is_dir())
    ]


def _mostly_letters(text: str) -> bool:
    return sum(c.isalpha() for c in text) > len(text) / 2


def _taken_in_turn(
    by_source: list[list[str]], count: int, apart: Callable[[str, str], bool]
) -> list[str]:
    """Up to ``count`` texts, taken in turn from each source, each ``apart`` from every one
    taken before it."""
    chosen: list[str] = []
    for text in itertools.chain.from_iterable(itertools.zip_longest(*by_source)):
        if text and all(apart(text, other) for other in chosen):
            chosen.append(text)
        if len(chosen) == count:
            break
    return chosen


def short_paragraphs(count: int, texts: Iterable[Iterable[str]] | None = None) -> list[str]:
    """Up to ``count`` paragraphs of 20-60 words (issue 13's short texts), taken in turn from
    each source (by default each language's manual pages in tests/data/languages), no two
    sharing half of their word trigrams (the pages of one language share a translators' credit,
    which would otherwise be one paragraph many times). ``texts``: one list of texts per
    source."""
    by_source = [
        [
            " ".join(para.split())
            for text in source
            for para in re.split(r"\n\s*\n", text)
            if 20 <= len(para.split()) <= 60 and _mostly_letters(para)
        ]
        for source in (_language_pages() if texts is None else texts)
    ]
    return _taken_in_turn(by_source, count, lambda a, b: trigram_dice(a, b) < 0.5)


def short_sentences(count: int, shortest: int = 8, longest: int = 16) -> list[str]:
    """Up to ``count`` sentences of ``shortest``-``longest`` words (notes of a few words, the
    short end of issue 13's short texts), taken in turn from each language's manual pages in
    tests/data/languages, no two sharing half of their word trigrams or of their words (the
    pages of one language repeat a sentence with a word or two changed: ``apropos`` and
    ``whatis`` say "comparada aos nomes" and "comparada com os nomes")."""
    by_source = [
        [
            sentence
            for text in pages
            for para in re.split(r"\n\s*\n", text)
            for sentence in re.split(r"(?<=[.!?])\s+", " ".join(para.split()))
            if shortest <= len(sentence.split()) <= longest and _mostly_letters(sentence)
        ]
        for pages in _language_pages()
    ]
    return _taken_in_turn(
        by_source, count, lambda a, b: trigram_dice(a, b) < 0.5 and word_dice(a, b) < 0.5
    )


def word_dice(a: str, b: str) -> float:
    """Share of distinct words two texts have in common, in any order."""
    wa, wb = set(_WORD.findall(a.lower())), set(_WORD.findall(b.lower()))
    return 2 * len(wa & wb) / (len(wa) + len(wb)) if wa and wb else 0.0


def one_word_changed(text: str, at: int | None = None) -> str:
    """``text`` with its word at ``at`` (the middle one by default) replaced by "changed" (in
    Chinese, the middle word jieba finds among the Chinese ones, by 改动; in Japanese, the
    middle katakana word or pair of kanji, by テスト; in Korean, by 변경; in Thai, which puts no
    space between words, the four letters from the middle consonant on, by แก้ไข)."""
    language = short_language(text)
    if language == "zh":
        import jieba

        words = list(jieba.cut(text))
        chinese = [i for i, w in enumerate(words) if _HAN.search(w)]
        k = chinese[len(chinese) // 2 if at is None else at]
        return "".join(words[:k] + ["改动"] + words[k + 1 :])
    if language == "ja" and _JAPANESE_WORD.search(text):
        found = list(_JAPANESE_WORD.finditer(text))
        word = found[len(found) // 2 if at is None else at]
        return text[: word.start()] + "テスト" + text[word.end() :]
    thai = [m.start() for m in _THAI_CONSONANT.finditer(text)]
    if 2 * len(thai) > sum(c.isalpha() for c in text):
        k = thai[len(thai) // 2 if at is None else at]
        return text[:k] + "แก้ไข" + text[k + 4 :]
    words = text.split()
    k = len(words) // 2 if at is None else at
    return " ".join(words[:k] + ["변경" if language == "ko" else "changed"] + words[k + 1 :])


@functools.cache
def _opencc(config: str):
    """One OpenCC converter per configuration (making one reads its tables: 2 ms)."""
    import opencc

    return opencc.OpenCC(config)


def build_short(
    folder: Path, paragraphs: list[str], pdf_every: int = 0, footer: bool = True
) -> Truth:
    """Each paragraph with the copies a short text gets: one word replaced, a title, a
    reposting banner above, a footer below (unless ``footer`` is false), lines wrapped at 40
    columns, a DOCX copy (and a PDF copy of every ``pdf_every``-th). A Chinese, Japanese or
    Korean paragraph's banner, footer and title are in its language (SHORT_STYLES), Chinese and
    Japanese lines are folded anywhere (cjk_wrap), and it has a copy in its legacy encoding
    (GB18030 or Big5, Shift-JIS, EUC-KR); a Chinese one also a copy in the other script
    (OpenCC). Every pair of one paragraph's files is one document (any combination of light
    changes is), every other pair two; ``kind`` names the copy."""
    folder.mkdir(parents=True, exist_ok=True)
    truth = Truth()
    for i, text in enumerate(paragraphs):
        language = short_language(text)
        banner, footer_text, title, encoding = SHORT_STYLES[language]
        copies = {
            "orig.txt": text,
            "edit.txt": one_word_changed(text),
            "title.txt": f"{title}\n\n{text}",
            "banner.txt": f"{banner}\n\n{text}",
            "footer.txt": f"{text}\n\n{footer_text}",
            "wrap.txt": (
                cjk_wrap(text, 40)
                if language in ("zh", "ja")
                else "\n".join(textwrap.wrap(text, 40))
            ),
        }
        if not footer:
            del copies["footer.txt"]
        if language == "zh":
            traditional = _opencc("t2s").convert(text) != text
            copies["script.txt"] = _opencc("t2s" if traditional else "s2t").convert(text)
            encoding = "big5" if traditional else encoding
        legacy = None
        for codec in (encoding, "gb18030") if language == "zh" else (encoding,):
            try:
                legacy = text.encode(codec) if codec else None
                break
            except UnicodeEncodeError:
                continue
        for name, body in copies.items():
            docgen.write_txt(folder / f"p{i:03d}-{name}", body)
        names = [*copies, "copy.docx"]
        if legacy is not None:
            (folder / f"p{i:03d}-legacy.txt").write_bytes(legacy)
            names.append("legacy.txt")
        docgen.write_docx(folder / f"p{i:03d}-copy.docx", text)
        if pdf_every and i % pdf_every == 0:
            docgen.write_pdf(folder / f"p{i:03d}-copy.pdf", text)
            names.append("copy.pdf")
        for name in names:
            truth.family[f"p{i:03d}-{name}"] = f"p{i:03d}"
            truth.kind[f"p{i:03d}-{name}"] = name
    return truth


_PRINTF = re.compile(r"%[-+ #0-9.*]*[a-zA-Z]|%%")


def catalogue_text(path: str | Path, words: int, translated_only: bool = False) -> str:
    """A real text in a catalogue's language: the messages of one program's translation (a
    gettext ``.mo`` file) of four words or more, in the catalogue's order, the first ``words``
    words, as paragraphs of sixty; ``translated_only`` leaves out the messages a translation
    left as they are (in English)."""
    with open(path, "rb") as f:
        catalogue = gettext.GNUTranslations(f)._catalog  # noqa: SLF001 - no public listing
    messages = [
        _PRINTF.sub("", v)
        for k, v in catalogue.items()
        if k and isinstance(v, str) and len(v.split()) >= 4 and not (translated_only and v == k)
    ]
    chosen = " ".join(messages).split()[:words]
    return "\n\n".join(" ".join(chosen[i : i + 60]) for i in range(0, len(chosen), 60)) + "\n"


def office_copies(texts: list[Path], folder: Path, formats: Iterable[str]) -> None:
    """Each of ``texts`` (UTF-8 plain text files) as LibreOffice writes it in each of
    ``formats`` (``docx``, ``pdf``...), into ``folder``."""
    for target in formats:
        docgen.soffice(
            [
                "--infilter=Text (encoded):UTF8,LF,,,",
                "--convert-to",
                target,
                "--outdir",
                str(folder),
                *map(str, texts),
            ],
            timeout=900,
        )
