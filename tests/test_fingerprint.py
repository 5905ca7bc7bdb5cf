"""Fingerprint behaviour: segmenter agreement, robustness to small edits and to the lines that
reposting adds at a document's ends, separation of unrelated documents, the short rule, and the
tokens that must not matter (stop words, numbers)."""

from __future__ import annotations

import random
from pathlib import Path

import jieba
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from desktop_dedup.core import fingerprint as fp
from desktop_dedup.core import text as text_mod
from desktop_dedup.core.fingerprint import MIN_FEATURES, Fingerprint, fingerprint_text
from tests.docgen import SAMPLE_EN, SAMPLE_ZH

MIXED = (
    "使用 Python 的 json 模块可以把 dict 对象序列化为 JSON 字符串。The json module exposes "
    "dumps and loads; 调用 json.dumps 时传入 ensure_ascii=False 可以保留中文字符。\n"
    "Linux 服务器上的 nginx 配置文件通常位于 /etc/nginx 目录，修改后需要执行 reload。"
)


def distance(a: int | None, b: int | None) -> int:
    assert a is not None and b is not None
    return bin((a ^ b) & (2**64 - 1)).count("1")


@pytest.fixture(scope="module")
def chinese_words() -> list[str]:
    """Real Chinese words (jieba's dictionary), so that segmentation finds them again."""
    words = []
    for line in Path(jieba.__file__).with_name("dict.txt").read_text(encoding="utf-8").splitlines():
        word, freq, *_ = line.split(" ")
        if len(word) >= 2 and int(freq) >= 50 and all("\u4e00" <= c <= "\u9fff" for c in word):
            words.append(word)
    return words


def topic_tokens(seed: int, lang: str, chinese_words: list[str], n: int = 3000) -> list[str]:
    """A long document's words: a topic vocabulary of its own, drawn with Zipf weights."""
    rng = random.Random(seed)
    if lang == "zh":
        vocab = rng.sample(chinese_words, 4000)
    else:
        letters = "abcdefghijklmnopqrstuvwxyz"
        vocab = ["".join(rng.choices(letters, k=rng.randint(4, 9))) for _ in range(4000)]
    weights = [1.0 / (rank + 1) for rank in range(len(vocab))]
    return rng.choices(vocab, weights, k=n)


def render(tokens: list[str], lang: str) -> str:
    """Sentences of 15 words, paragraphs of 10 sentences."""
    out = []
    for i, tok in enumerate(tokens):
        out.append(tok if lang == "zh" else tok + " ")
        if i % 15 == 14:
            out.append("。" if lang == "zh" else ". ")
        if i % 150 == 149:
            out.append("\n")
    return "".join(out)


def edit(tokens: list[str], share: float, seed: int) -> list[str]:
    """Replace, delete or insert ``share`` of the words at random places."""
    rng = random.Random(seed)
    edited = list(tokens)
    for _ in range(round(len(edited) * share)):
        i = rng.randrange(len(edited))
        op = rng.random()
        if op < 1 / 3:
            edited[i] = rng.choice(edited)
        elif op < 2 / 3:
            del edited[i]
        else:
            edited.insert(i, rng.choice(edited))
    return edited


@pytest.mark.parametrize("text", [SAMPLE_ZH, SAMPLE_EN, MIXED], ids=["zh", "en", "mixed"])
def test_rjieba_and_jieba_give_identical_fingerprints(text):
    # rjieba is a dependency (pyproject.toml): not skipped when missing, or this compares jieba
    # with itself
    assert text_mod.segmenter() is not None and text_mod.SEGMENTER_NAME == "rjieba"
    assert fingerprint_text(text, prefer_rjieba=True) == fingerprint_text(text, prefer_rjieba=False)


def test_fingerprint_fields():
    result = fingerprint_text(SAMPLE_ZH)
    assert isinstance(result, Fingerprint)
    assert result.simhash is not None and -(2**63) <= result.simhash < 2**63
    assert result.feature_count >= MIN_FEATURES
    assert result.token_count >= result.feature_count
    assert len(result.text_hash) == 32


def test_fingerprint_is_deterministic_and_per_document():
    first = fingerprint_text(SAMPLE_EN)
    fingerprint_text(SAMPLE_ZH)  # another document in between must not matter
    assert fingerprint_text(SAMPLE_EN) == first


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_small_edits_of_a_long_document_stay_within_three_bits(lang, chinese_words):
    for seed in range(4):
        tokens = topic_tokens(seed, lang, chinese_words)
        original = fingerprint_text(render(tokens, lang)).simhash
        for share in (0.01, 0.02, 0.03):
            edited = fingerprint_text(render(edit(tokens, share, seed + 100), lang)).simhash
            assert distance(original, edited) <= 3, (lang, seed, share)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_unrelated_documents_are_more_than_ten_bits_apart(lang, chinese_words):
    texts = [render(topic_tokens(seed, lang, chinese_words), lang) for seed in range(6)]
    hashes = [fingerprint_text(text).simhash for text in texts]
    hashes.append(fingerprint_text(SAMPLE_ZH if lang == "zh" else SAMPLE_EN).simhash)
    for i in range(len(hashes)):
        for j in range(i + 1, len(hashes)):
            assert distance(hashes[i], hashes[j]) > 10


def test_english_and_chinese_versions_of_one_story_are_unrelated():
    assert distance(fingerprint_text(SAMPLE_ZH).simhash, fingerprint_text(SAMPLE_EN).simhash) > 10


@pytest.mark.parametrize(
    "text",
    ["", "   \n\t ", "你好，世界。", "Hello, world!", "1234 5678 2024-01-01", "的 了 the of and"],
)
def test_short_texts_have_no_simhash(text):
    result = fingerprint_text(text)
    assert result.simhash is None
    assert result.feature_count < MIN_FEATURES


def test_exactly_min_features_gets_a_simhash():
    words = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india"]
    assert fingerprint_text(" ".join(words[: MIN_FEATURES - 1])).simhash is None
    assert fingerprint_text(" ".join(words[:MIN_FEATURES])).simhash is not None


def test_english_stop_words_do_not_change_the_fingerprint():
    words = SAMPLE_EN.split(" ")
    rng = random.Random(3)
    padded = []
    for word in words:
        padded.append(word)
        if rng.random() < 0.3:
            padded.append(rng.choice(["the", "of", "and", "which", "would", "THE", "Of"]))
    assert fingerprint_text(" ".join(padded)).simhash == fingerprint_text(SAMPLE_EN).simhash


def test_chinese_stop_words_do_not_change_the_fingerprint():
    # Stop words added as whole sentences/clauses, so they cannot merge with neighbouring words.
    padded = SAMPLE_ZH.replace("。", "。我们，但是，因此，")
    assert fingerprint_text(padded).simhash == fingerprint_text(SAMPLE_ZH).simhash


@pytest.mark.parametrize("text", [SAMPLE_ZH, SAMPLE_EN], ids=["zh", "en"])
def test_numbers_do_not_change_the_fingerprint(text):
    rng = random.Random(5)
    sentences = text.replace("。", "。|").replace(". ", ". |").split("|")

    def numbers() -> str:
        version = f"v{rng.randint(1, 9)}.{rng.randint(0, 9)}"
        return f"{rng.randint(1, 99999)} {version} 2024-03-1{rng.randint(0, 9)}"

    numbered = "".join(f"{sentence} {numbers()} " for sentence in sentences)
    assert fingerprint_text(numbered).simhash == fingerprint_text(text).simhash


@pytest.mark.parametrize("text", [SAMPLE_ZH, SAMPLE_EN], ids=["zh", "en"])
def test_added_title_line_does_not_change_the_fingerprint(text):
    """Converters (PDF, DOCX, Markdown) often put the file name on a line of its own on top."""
    assert fingerprint_text("river-town.txt\n" + text).simhash == fingerprint_text(text).simhash
    assert fingerprint_text("# River town\n\n" + text).simhash == fingerprint_text(text).simhash


@pytest.mark.parametrize(
    ("text", "banner", "footer"),
    [
        (
            SAMPLE_ZH,
            "本文转载自网络，版权归原作者所有，如有侵权请联系删除。",
            "扫码关注公众号，获取精彩内容，点击阅读原文。",
        ),
        (
            SAMPLE_EN,
            "Sponsored: save 40% on premium headphones with free shipping this weekend only.",
            "Disclaimer: opinions expressed by contributors are their own; subscribe for updates.",
        ),
    ],
    ids=["zh", "en"],
)
def test_reposting_banner_and_footer_are_peeled(text, banner, footer):
    original = fingerprint_text(text)
    reposted = fingerprint_text(f"{banner}\n\n{text}\n\n{footer}\n")
    assert reposted.simhash == original.simhash
    assert reposted.token_count == original.token_count
    # the same banner at both ends must not vouch for itself
    assert fingerprint_text(f"{banner}\n{text}\n{banner}").simhash == original.simhash


def test_lines_segmented_before_are_read_again_from_memory_with_the_same_fingerprints(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Edge peeling keeps each line it segmented (fingerprint._LINE_MEMO): the next document
    with the same banner, title or note line does not segment it again, and every fingerprint
    is what it is with nothing kept (the kept counts are shared: nothing may change them)."""
    banner = "本文转载自网络，版权归原作者所有，如有侵权请联系删除。"
    footer = "Disclaimer: opinions expressed by contributors are their own; subscribe for updates."
    zh_lines = [line for line in SAMPLE_ZH.splitlines() if line.strip()]
    en_lines = [line for line in SAMPLE_EN.splitlines() if line.strip()]
    texts = [
        f"{banner}\n\n{SAMPLE_ZH}\n\n{footer}\n",
        f"{banner}\n{zh_lines[0]}\n{footer}",  # a short note: every line is peeled and read
        f"{banner}\n\n{SAMPLE_EN}",
        f"{zh_lines[0]}\n{zh_lines[1]}\n{banner}",
        f"{en_lines[0][:120]}\n{footer}\n{footer}",
        "Notes\n" + "\n".join(en_lines[:3]) + f"\n{banner}",
    ]
    computed: list[tuple[str, bool | None]] = []  # a line, read with the script folded or not
    compute = fp._Lines._compute

    def counted(self: fp._Lines, todo: list[str]) -> None:
        computed.extend((line, self._chinese) for line in todo)
        compute(self, todo)

    monkeypatch.setattr(fp._Lines, "_compute", counted)
    fp._LINE_MEMO.clear()
    kept = [fingerprint_text(t) for t in texts]
    assert computed.count((banner, True)) == 1
    assert computed.count((footer, True)) == computed.count((footer, False)) == 1
    assert len(computed) == len(set(computed))  # no line segmented twice
    for text, fingerprint in zip(texts, kept, strict=True):
        fp._LINE_MEMO.clear()
        assert fingerprint_text(text) == fingerprint
    # and in the other order, each document after all the others
    for text, fingerprint in zip(texts, kept, strict=True):
        for other in texts:
            fingerprint_text(other)
        assert fingerprint_text(text) == fingerprint


def test_a_real_opening_paragraph_is_kept():
    """Peeling stops at the first line that belongs to the text: its words count."""
    first, rest = SAMPLE_EN.split("\n", 1)
    counts = fp.content_counts(fp.segment(text_mod.normalize_text(SAMPLE_EN)))
    assert not fp.edge_counts(SAMPLE_EN, counts)
    assert fingerprint_text(rest).simhash != fingerprint_text(SAMPLE_EN).simhash
    assert len(first.split()) > 20  # a paragraph of the text, not a title: it must count


def test_hard_wrapped_copy_fingerprints_like_the_original():
    flat = SAMPLE_EN.replace("\n", "\n\n")
    wrapped = "\n\n".join(
        "\n".join(par[i : i + 40] for i in range(0, len(par), 40)) for par in flat.split("\n\n")
    )
    assert fingerprint_text(wrapped) == fingerprint_text(flat)


def test_share_cap_is_measured_against_the_capped_total():
    values = [3600.0] + [1.0] * 30  # one word repeated 60 times among 30 others
    cap = fp.share_cap(values, 0.1)
    capped = [min(v, cap) for v in values]
    assert max(capped) == pytest.approx(0.1 * sum(capped))
    assert fp.share_cap([5.0, 4.0, 3.0] + [1.0] * 20, 0.5) == 5.0  # nothing to cap
    assert fp.share_cap([9.0, 1.0, 1.0], 0.1) == 1.0  # impossible share: all equal


@given(
    st.lists(st.floats(0.01, 1000.0), min_size=1, max_size=60),
    st.sampled_from([0.05, 0.1, 0.25, 0.5]),
    st.integers(0, 3),
)
def test_capped_weights_are_share_caps_answer(values, share, tie):
    """The shortcut for documents that need no cap gives share_cap's answer, at the boundary
    too: a largest weight exactly its share of the total, or a hair above or below it."""
    if tie and len(values) > 1:  # make the largest exactly (or nearly) its share
        rest = sum(sorted(values)[:-1])
        top = share * rest / (1 - share)
        values = sorted(values)[:-1] + [top * (1.0, 1 + 1e-12, 1 - 1e-12)[tie - 1]]
    weights = np.array(values)
    expected = np.minimum(weights, fp.share_cap(values, share))
    assert fp.capped_weights(weights, share).tolist() == expected.tolist()


def test_capped_weights_at_the_boundary_where_the_sums_differ():
    """A largest weight at its share of the total to the last bit, where numpy's sum and
    share_cap's (in another order) differ in that bit: the shortcut must leave it to
    share_cap (found by the test above)."""
    values = [47.382, 2.373, 38.662, 42.098, 18.812, 10.885, 89.983, 51.016, 20.917, 60.569]
    values += [81.706, 2.092, 1.796, 14.655, 71.886, 16.031, 70.464, 67.821, 54.475, 22.068]
    values += [97.56, 883.251]
    expected = np.minimum(np.array(values), fp.share_cap(values, 0.5))
    assert fp.capped_weights(np.array(values), 0.5).tolist() == expected.tolist()


def test_capped_weights_cap_a_dominant_weight():
    weights = np.array([3600.0] + [1.0] * 30)
    capped = fp.capped_weights(weights, 0.1)
    assert capped.max() == pytest.approx(0.1 * capped.sum())
    assert capped[1:].tolist() == [1.0] * 30


def test_one_dominant_word_cannot_take_over_the_fingerprint():
    """A page that repeats one command name must not collide with every page about it."""
    a = ("grep " * 60) + SAMPLE_EN
    b = ("grep " * 60) + SAMPLE_ZH
    assert distance(fingerprint_text(a).simhash, fingerprint_text(b).simhash) > 10


def test_token_tables_are_emptied_between_documents_never_inside_one(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A worker's token tables are bounded: emptied when they grow past a limit. Emptied while
    a document is fingerprinted, its first ids would point into the emptied tables."""
    expected = [fingerprint_text(SAMPLE_ZH), fingerprint_text(SAMPLE_EN)]
    monkeypatch.setattr(fp, "_TOKEN_ID_MAX", 10)
    for _ in range(3):
        for text, fingerprint in zip((SAMPLE_ZH, SAMPLE_EN), expected, strict=True):
            # its lines segmented again, as the first time: kept from before (_LINE_MEMO),
            # they would not ask the tables for ids while the document is fingerprinted
            fp._LINE_MEMO.clear()
            assert fingerprint_text(text) == fingerprint
    assert len(fp._TOKEN_ID) < 10 + len(set(fp.segment(text_mod.normalize_text(SAMPLE_EN))))
    # A long text is segmented a piece at a time (text.LONG_TEXT_CHARS, a few sentences here):
    # nor between two of its pieces.
    monkeypatch.setattr(text_mod, "LONG_TEXT_CHARS", 60)
    for _ in range(3):
        for text, fingerprint in zip((SAMPLE_ZH, SAMPLE_EN), expected, strict=True):
            fp._LINE_MEMO.clear()
            assert fingerprint_text(text) == fingerprint


def _idf(table: fp.IdfTable, word: str) -> float:
    return table.idf(word, fp._hash(word))


def test_idf_table_is_cached_parsed_and_a_bad_or_stale_cache_is_not_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The IDF table is parsed once per user and loaded from the cache after that; a cache
    that is cut short, or that was made from another IDF file, is never what a scan uses."""
    monkeypatch.setenv("DESKTOP_DEDUP_HOME", str(tmp_path / "profile"))
    source = tmp_path / "idf.txt"
    source.write_text("天气 8.5\n晴朗 10.25\n明天 7.0\n", encoding="utf-8")

    def looked_up(table: fp.IdfTable) -> tuple[float, float, float, float, float]:
        return (table.median, *(_idf(table, w) for w in ("天气", "晴朗", "明天", "下雨")))

    assert looked_up(fp._load_idf(source)) == (8.5, 8.5, 10.25, 7.0, 8.5)  # 下雨: the median
    [cached] = (tmp_path / "profile" / "cache").glob("idf-*")
    parses: list[Path] = []
    real_parse = fp._parse_idf
    monkeypatch.setattr(fp, "_parse_idf", lambda p: parses.append(p) or real_parse(p))
    assert looked_up(fp._load_idf(source)) == (8.5, 8.5, 10.25, 7.0, 8.5)
    assert parses == []  # read from the cache

    cached.write_bytes(cached.read_bytes()[:-5])  # a write cut short by a crash
    assert looked_up(fp._load_idf(source)) == (8.5, 8.5, 10.25, 7.0, 8.5)
    assert parses == [source]

    source.write_text("天气 9.0\n晴朗 3.0\n明天 7.0\n", encoding="utf-8")  # jieba upgraded
    assert looked_up(fp._load_idf(source)) == (7.0, 9.0, 3.0, 7.0, 7.0)
    assert parses == [source, source]


def test_idf_table_is_read_when_no_cache_can_be_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    profile = tmp_path / "profile"
    profile.mkdir()
    (profile / "cache").write_text("a file where the cache folder would be")
    monkeypatch.setenv("DESKTOP_DEDUP_HOME", str(profile))
    source = tmp_path / "idf.txt"
    source.write_text("天气 8.5\n晴朗 10.25\n", encoding="utf-8")
    table = fp._load_idf(source)
    assert (table.median, _idf(table, "天气"), _idf(table, "晴朗")) == (9.375, 8.5, 10.25)


def test_idf_table_looks_up_exactly_what_jieba_lists(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every word of jieba's table gets its own IDF through the hashed arrays, and words whose
    hashes would collide are looked up by name."""
    path = fp._idf_path()
    fields = path.read_text(encoding="utf-8").split()
    listed = dict(zip(fields[0::2], map(float, fields[1::2]), strict=True))
    table = fp.idf_table()
    assert table.median == fp.statistics.median(listed.values())
    assert all(_idf(table, w) == v for w, v in listed.items())
    assert _idf(table, "不是一个词的词") == table.median

    # Two words with one hash: both keep their IDF.
    monkeypatch.setattr(
        fp.xxhash, "xxh64_intdigest", lambda b: 7 if b in ("甲".encode(), "乙".encode()) else len(b)
    )
    clash = fp.IdfTable.from_words(["甲", "乙", "丙丁"], [1.0, 2.0, 3.0])
    assert clash.exact == {"甲": 1.0, "乙": 2.0}
    again = fp.IdfTable.from_bytes(clash.to_bytes())
    assert [_idf(again, w) for w in ("甲", "乙", "丙丁", "戊")] == [1.0, 2.0, 3.0, 2.0]
    # Looked up together (the new words of a document), or marked as not Chinese (no word of
    # the table: the median whatever the hash says).
    words = ["戊", "丙丁", "乙", "甲", "丙丁"]
    hashes = list(map(fp._hash, words))
    assert again.idfs(words, hashes, [True] * 5) == [2.0, 3.0, 2.0, 1.0, 3.0]
    assert again.idfs(words, hashes, [False, True, False, True, False]) == [2.0, 3.0, 2.0, 1.0, 2.0]
    empty = fp.IdfTable.from_words([], [])
    assert empty.idfs(["甲", "乙"], [7, 7], [True, False]) == [0.0, 0.0]


def test_a_long_text_taken_a_piece_at_a_time_has_the_fingerprint_of_the_whole(monkeypatch):
    """A text over a million characters is normalised, segmented, hashed and made into
    shingles a piece at a time (the reader's memory budget; tests/test_reader_budgets.py). The
    pieces are cut where no step reads across, so the fingerprint is the whole text's: checked
    here with pieces of a few dozen characters on real texts of every script we have, hard
    wraps, Traditional Chinese, and the characters whose folding looks at their neighbours."""
    from desktop_dedup.core import sketch as sketch_mod

    data = Path(__file__).parent / "data"
    texts = [SAMPLE_EN, SAMPLE_ZH, MIXED]
    for path in sorted(data.glob("*/*.txt")) + sorted(data.glob("languages/*/*")):
        if path.is_file():
            texts.append(path.read_text("utf-8", errors="replace")[:6000])
    # final sigma, a mark after a break, CJK across a line join, OpenCC phrases (乾燥, 軟體),
    # full-width letters and a compatibility ligature
    tricky = [
        "ΟΔΟΣ\n",
        "e\n\u0301",
        "中文\n句子",
        "乾\n燥",
        "軟\n體。",
        "ｆｕｌｌ　ｗｉｄｔｈ\n",
        "ﬁ\nﬂ ",
    ]
    rng = random.Random(5)
    texts += ["".join(rng.choice(tricky) for _ in range(40)) for _ in range(30)]
    whole = [fingerprint_text(t) for t in texts]
    monkeypatch.setattr(text_mod, "LONG_TEXT_CHARS", 37)
    monkeypatch.setattr(sketch_mod, "_SHINGLE_STEP", 5)
    pieces = [fingerprint_text(t) for t in texts]
    assert len(texts) > 100
    assert [i for i in range(len(texts)) if pieces[i] != whole[i]] == []


@pytest.mark.parametrize("seed", range(4))
def test_simhash_bit_i_is_the_sign_of_the_weighted_votes_on_bit_i(seed):
    # Charikar's simhash, as the seeds define it: bit i is set when the features whose hash has
    # bit i set outweigh those whose hash has it clear; the 64 bits read as a signed integer
    # (what the index stores), so a top bit set is a negative value.
    import numpy as np

    rng = random.Random(seed)
    n = rng.choice([1, 2, 7, 300])
    hashes = [rng.getrandbits(64) for _ in range(n)]
    weights = [rng.uniform(0.1, 9.0) for _ in range(n)]
    if seed == 0:  # one feature: the simhash is its own hash, top bit set
        hashes, weights = [0x8000_0000_0000_0001 | rng.getrandbits(64)], [1.0]
    expected = 0
    for bit in range(64):
        votes = sum(w if (h >> bit) & 1 else -w for h, w in zip(hashes, weights, strict=True))
        expected |= (votes > 0) << bit
    expected -= (expected >> 63) << 64
    got = fp._simhash_arrays(np.array(weights), np.array(hashes, dtype=np.uint64))
    assert type(got) is int and got == expected
    if seed == 0:
        assert got < 0 and got + 2**64 == hashes[0]


def test_a_tokens_kind_is_what_the_digit_and_letter_patterns_say():
    # _kind tells words of letters by str.isalpha, not by the two patterns; on every kind of
    # token the answer must be the patterns' (a letter: [^\W\d_]; a digit: \d, any script's)
    import re
    import unicodedata

    digit, wordlike = re.compile(r"\d"), re.compile(r"[^\W\d_]")

    def by_patterns(tok: str) -> int:
        if digit.search(tok):
            return fp._IDENT if wordlike.search(tok) else fp._NOT_FEATURE
        if (
            tok in fp.stopwords.ALL
            or not wordlike.search(tok)
            or (len(tok) == 1 and (tok.isascii() or "\u3040" <= tok <= "\u309f"))
        ):
            return fp._NOT_FEATURE
        return fp._UNKNOWN

    tokens = ["river", "the", "a", "é", "größe", "江南", "的", "の", "ひらがな", "カタカナ", "x86"]
    tokens += ["GPLv3", "2024", "٣٤", "abc٣", "Ⅷ", "½", "²", "一二", "_", "a_b", "__", "-", " ", ""]
    tokens += ["हिन्दी", "ไทย", "\u0301", "e\u0301", "ǅ", "ʰ", "〇", "々", "℃", "Ⅻx", "x²"]
    rng = random.Random(5)
    letters = [chr(c) for c in range(0x20, 0x3000) if unicodedata.category(chr(c))[0] in "LNMP"]
    tokens += ["".join(rng.choices(letters, k=rng.randint(1, 3))) for _ in range(3000)]
    wrong = [t for t in tokens if fp._kind(t) != by_patterns(t)]
    assert not wrong, wrong[:10]


def test_a_text_of_many_lines_without_words_is_peeled_in_one_pass(monkeypatch):
    """Edge peeling walks the lines at each end until it meets three with words; lines
    without any (a CSV export's empty rows ",,,,", table borders, separators) do not stop it.
    Each such line asked how often it occurs in the whole text, counted anew: 10,000 lines of
    a lone hyphen (20 KB) took 4-5 s. The lines are counted once per document now."""
    walks = []

    class CountingList(list):
        def count(self, value):
            walks.append(value)
            return super().count(value)

    real_init = fp._Lines.__init__

    def init(self, *args, **kwargs):
        real_init(self, *args, **kwargs)
        self.lines = CountingList(self.lines)

    monkeypatch.setattr(fp._Lines, "__init__", init)
    for text in (
        "\u2010\n" * 10_000,
        ",,,,\n" * 10_000 + SAMPLE_EN,
        SAMPLE_EN + "\n|  |  |\n" * 5_000,
    ):
        fingerprint_text(text)
    assert len(walks) <= 10
