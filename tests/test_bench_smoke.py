"""The scan, lookup and rescan benchmarks' core functions at a tiny size, so a broken benchmark
fails the suite instead of the night someone runs it. No timing is asserted here: the figures
only mean something at full size (``python -m tests.bench``)."""

from __future__ import annotations

import os

from desktop_dedup.core.fingerprint import fingerprint_text
from tests.bench import ab_fingerprint, bench_lookup, bench_rescan, bench_scan


def test_scan_benchmark_corpus_scan_and_baseline(tmp_path):
    corpus = bench_scan.generate_corpus(tmp_path / "docs", total_bytes=300_000, seed=3)
    assert corpus.text_bytes >= 300_000
    assert {p.suffix for p in corpus.files} <= {".txt", ".md", ".html", ".docx"}
    assert all(p.exists() for p in corpus.files)
    # varied prose, not one paragraph repeated
    texts = [p.read_text(encoding="utf-8") for p, _ in corpus.txt_files]
    lines = [line for t in texts for line in t.splitlines() if line]
    assert len(set(lines)) > 0.9 * len(lines)
    _, summary, _ = bench_scan.time_scan(corpus.folder, tmp_path / "scan.db")
    assert summary.files_fingerprinted == len(corpus.files)
    assert not summary.problems
    subset, n_bytes = bench_scan.baseline_subset(corpus, 50_000)
    assert subset and n_bytes >= min(50_000, sum(b for _, b in corpus.txt_files))
    hashes = bench_scan.seeds_recipe(subset)
    assert len(hashes) == len(subset) and all(0 <= h < 2**64 for h in hashes)


def test_seeds_simhash_follows_the_weights():
    # one keyword: the simhash is that keyword's own hash
    import xxhash

    assert bench_scan.seeds_simhash([("江南", 1.0)]) == xxhash.xxh64_intdigest("江南".encode())
    assert bench_scan.seeds_simhash([]) == 0


def test_lookup_benchmark_finds_every_planted_neighbour(tmp_path):
    r = bench_lookup.run(tmp_path / "lookup.db", n=3_000, queries=60, store_rows=500)
    assert r["rows"] == 3_000
    assert r["store_rows"] == 500 and r["direct_rows"] == 2_500
    assert r["planted"] == 30 and r["found"] == 30
    assert r["median_ms"] > 0 and r["p95_ms"] >= r["median_ms"]
    assert sum("USING COVERING INDEX" in line for line in r["plan"]) == 4


def test_lookup_baselines_agree_with_the_store(tmp_path):
    built = bench_lookup.build_store(tmp_path / "l.db", 2_000, store_rows=200)
    store, sims = built["store"], built["sims"]
    try:
        for q, _ in bench_lookup.make_queries(sims, 10):
            ours = sorted(d for d, _ in store.lookup_near(q, bench_lookup.K))
            assert bench_lookup.sql_full_scan(store, q) == ours
            numpy_ids = bench_lookup.numpy_full_scan(sims.view("uint64"), q) + 1
            assert sorted(numpy_ids.tolist()) == ours
    finally:
        store.close()


def test_rescan_benchmark_reuses_every_file(tmp_path):
    r = bench_rescan.run(
        tmp_path / "tree", tmp_path / "r.db", n_files=60, n_folders=6, runs=1, profile=True
    )
    assert r["first"].files_fingerprinted == 60 and not r["first"].problems
    (last,) = r["summaries"]
    assert last.files_reused == 60 and last.files_fingerprinted == 0
    assert r["walk_count"] == 60
    assert "scan" in r["profile"]
    assert len(os.listdir(tmp_path / "tree")) == 6
    texts = {p.read_text(encoding="utf-8") for p in (tmp_path / "tree").rglob("*.txt")}
    assert len(texts) == 60
    assert all(fingerprint_text(t).token_count > 0 for t in list(texts)[:5])


def test_postgres_benchmark_runs_at_a_tiny_size(postgres_cluster, capsys):
    """bench_postgres end to end on 3,000 fingerprints and 200 new documents (its own cluster):
    every planted neighbour found, every near copy grouped, each figure printed. Timing targets
    only mean something at full size, so only the neighbour misses are asserted."""
    from tests.bench import bench_postgres

    misses = bench_postgres.main(3_000, new=200)
    assert not [m for m in misses if "neighbours" in m]
    out = capsys.readouterr().out
    for figure in ("lookup_near(k=3) median", "grouped incrementally", "memory:", "disk:"):
        assert figure in out


def test_formats_benchmark_reads_every_format(tmp_path, monkeypatch):
    from tests.bench import bench_formats

    monkeypatch.setattr(bench_formats, "RUNS", 1)
    for fmt in bench_formats.FORMATS:
        (tmp_path / fmt).mkdir()
        paths = bench_formats.make_files(tmp_path / fmt, fmt, n=2)
        seconds, chars = bench_formats.measure(paths)
        assert seconds > 0 and chars > 1000, fmt


def test_fingerprint_ab_runs_both_modules_text_by_text_and_compares_them(monkeypatch):
    import docgen

    texts = [docgen.SAMPLE_ZH, docgen.SAMPLE_EN, docgen.SAMPLE_ZH + "\n附记：一行。"]
    # the working tree's module against a copy of itself: the same fingerprints, both timed
    same = ab_fingerprint.run(None, texts)
    assert same["texts"] == 3 and same["differ"] == 0
    assert all(same[f"{p}_{v}"] > 0 for p in ("first", "second") for v in ("rev", "tree"))
    # a module that weighs words otherwise: its fingerprints differ, and the count says so
    load = ab_fingerprint.module_at

    def weighing_otherwise(rev, folder):
        module = load(rev, folder)
        module.TF_EXPONENT = 1.0
        return module

    monkeypatch.setattr(ab_fingerprint, "module_at", weighing_otherwise)
    assert ab_fingerprint.run(None, texts)["differ"] > 0


def test_fingerprint_ab_takes_the_revisions_sketch_with_its_fingerprint(tmp_path):
    # the revision's fingerprint makes the revision's sketch; the working tree's stays its own
    import sys

    module = ab_fingerprint.module_at(None, tmp_path)
    assert module.make_sketch.__module__ == "sketch_at_rev"
    assert module.Fingerprint.__module__ == "fingerprint_at_rev"
    tree = sys.modules["desktop_dedup.core.sketch"]
    assert tree.make_sketch.__module__ == "desktop_dedup.core.sketch"
    assert sys.modules["desktop_dedup.core.fingerprint"].make_sketch is tree.make_sketch


def test_latent_pairs_lists_different_texts_that_verify_as_the_same(tmp_path):
    """A labelled corpus of three files: a page, its copy, and a sibling page of one template
    that names the first once (each page names itself four times). The sibling is a different
    text; the template rule keeps it apart (no latent pair), and without the rule it would
    verify with both (two pairs)."""
    import json

    import docgen

    from tests.bench import latent_pairs

    body = docgen.SAMPLE_EN.split()[:150]

    def page(name, also=None):
        words = list(body)
        for at in (0, 40, 80, 120):
            words[at] = name
        if also:
            words[140] = also
        return " ".join(words)

    root = tmp_path / "corpus"
    docgen.write_txt(root / "docs" / "a.txt", page("svnlook"))
    docgen.write_txt(root / "docs" / "b.txt", page("svnlook"))
    docgen.write_txt(root / "docs" / "c.txt", page("svndumpfilter", also="svnlook"))
    truth = {"files": {"a.txt": "s1", "b.txt": "s1", "c.txt": "s2"}}
    truth |= {"positive": [["a.txt", "b.txt"]], "gray": []}
    (root / "truth.json").write_text(json.dumps(truth), encoding="utf-8")
    r = latent_pairs.run([root], tmp_path / "index.sqlite")
    assert r["candidates"] >= 1 and r["latent"] == [] and r["without_rule"] == 2


def test_man_pages_labels_identical_renders_one_page_and_counts_grouped_pairs(tmp_path):
    """The man-page corpus: two pages with the same render are one document, every other
    page its own; the grouped pairs and MinHash-LSH's count come from the real scan and the
    real peer."""
    import docgen

    from tests.bench import man_pages

    docs = tmp_path / "docs"
    text = " ".join(docgen.SAMPLE_EN.split()[:200])
    for name in ("gzip.1.txt", "gunzip.1.txt"):
        (docs / name).parent.mkdir(parents=True, exist_ok=True)
        (docs / name).write_text(text, encoding="utf-8")
    (docs / "ls.1.txt").write_text(" ".join(docgen.SAMPLE_EN.split()[200:400]), encoding="utf-8")
    truth = man_pages.label(docs)
    assert truth["files"] == {
        "gunzip.1.txt": "gunzip.1",
        "gzip.1.txt": "gzip.1",
        "ls.1.txt": "ls.1",
    }
    assert truth["positive"] == [["gunzip.1.txt", "gzip.1.txt"]]
    pairs, groups = man_pages.grouped_pairs(docs, tmp_path / "index.sqlite")
    assert pairs == {("gunzip.1.txt", "gzip.1.txt")} and groups == [["gunzip.1.txt", "gzip.1.txt"]]
    assert man_pages.minhash_pairs(docs) == 1


def test_classical_poems_scores_records_of_one_poem_and_couplets_from_a_real_scan(tmp_path, capsys):
    """The Tang poems' measurement on four poems of its kind: two records of one poem (a
    character apart) are found by a real scan and counted as the same poem; a couplet is
    told as such beside the poem that holds it; a poem that shares no line is in no pair."""
    from tests.bench import classical_poems

    record = "秦川雄帝宅，函谷壯皇居。\n綺殿千尋起，離宮百雉餘。\n連甍遙接漢，飛觀迥凌虛。"
    variant = record.replace("壯", "莊")
    poems = [
        ("帝京篇", "太宗皇帝", record),
        ("帝京篇", "李世民", variant),
        ("句", "無名氏", "巖廊罷機務，崇文聊駐輦。"),
        ("帝京篇 二", "太宗皇帝", "巖廊罷機務，崇文聊駐輦。\n玉匣啓龍圖，金繩披鳳篆。"),
        ("春曉", "孟浩然", "春眠不覺曉，處處聞啼鳥。\n夜來風雨聲，花落知多少。"),
    ]
    assert classical_poems.distinct(poems + poems[:1]) == poems  # each text once
    shares = classical_poems.oracle(poems)
    assert sorted(shares) == [(0, 1), (2, 3)]  # found through a shared line
    assert shares[(0, 1)] >= classical_poems.SAME > shares[(2, 3)]
    assert classical_poems._fragment(poems[2][2], poems[3][2])
    assert not classical_poems._fragment(record, variant)
    folder = tmp_path / "poems"
    classical_poems.write_folder(folder, poems, simplified=True, headed=False)
    assert (folder / "t00001.txt").read_text("utf-8").startswith("秦川雄帝宅，函谷庄皇居。")
    capsys.readouterr()
    classical_poems.score_folder("test", poems, shares, folder)
    out = capsys.readouterr().out
    assert "the same poem (>= 0.94) found 1 of 1" in out


def test_legacy_names_scores_each_rule_right_escaped_and_wrong():
    """bench_legacy_names' scoring on a few names: a GBK name the rule reads right, a Russian
    name in Windows-1251 it leaves as escapes while the baseline reads it as Chinese."""
    from tests.bench import bench_legacy_names as b

    chinese = b.score(["会议纪要", "ascii only"], "gbk")
    assert chinese["this rule"] == {"right": 1}  # the ASCII name is no such name at all
    russian = b.score(["Привет"], "cp1251")
    assert russian["this rule"] == {"escaped": 1}
    assert russian["as a text file"] == {"wrong": 1}
    readme = "# 安装 `pip`\n\n快速开始\n========\n\n## Install\n\n# 一个/路径\n"
    assert b.readme_headings([readme]) == ["安装 pip", "快速开始"]
    if b.LOCALES.exists():  # Debian's locales: month names among the strings
        assert "一月" in b.locale_strings("zh_CN")


def test_boilerplate_lines_refuses_notes_that_share_only_a_disclaimer_not_copies(tmp_path):
    """The rule's look (tests/bench/boilerplate_lines.py), on real scans: twelve different
    sentences, each above one long disclaimer (held by twelve texts), are grouped by the build
    without the rule and every grouped pair is refused at both levels; the build groups none
    of them, and keeps the three copies. One sentence saved under two
    banners and alone (its line held by three texts, each banner by one) is the rule's risk:
    with boilerplate held by three texts its two copies under banners are refused (each keeps
    only its banner), with ten they are not."""
    from tests.bench import boilerplate_lines
    from tests.bench.bench_own_corpus import owncorpus, write_under_disclaimer

    folder = tmp_path / "notes"
    notes = owncorpus.short_sentences(13)
    write_under_disclaimer(folder, notes[:12], "en", "below")
    kept = notes[12]
    banners = ("Reposted from the weekly digest of the community.", "Shared by a friend of ours.")
    for i, banner in enumerate(banners):
        (folder / f"copy{i}.txt").write_text(f"{banner}\n\n{kept}\n", "utf-8")
    (folder / "copy2.txt").write_text(f"{kept}\n", "utf-8")

    def label(x, y):
        return "same" if {x[-9:-5], y[-9:-5]} == {"copy"} else "different"

    seen, hit, built = boilerplate_lines.measured(folder, tmp_path / "index.sqlite", label)
    assert seen["different"] >= 10 and seen["same"] == 3
    assert boilerplate_lines.LEVELS == (3, 10)
    assert hit["half", 3] == {"same": 1, "different": seen["different"]}
    assert hit["half", 10] == {"same": 0, "different": seen["different"]}
    # a banner of under MIN_NEAR_WORDS content words is left to the share of the whole
    assert hit["half4", 3] == hit["half4", 10] == {"same": 0, "different": seen["different"]}
    # the build groups none of those pairs, and no pair its rule refuses (it may group two
    # notes whose words outside the disclaimer are half the same, which it had put apart)
    assert built["same"] == 3 and built["refused"] == 0
    assert built["different"] <= seen["different"] // 10


def _glued_lines_on_twelve_paragraphs(monkeypatch, alone: int):
    """tests/bench/glued_lines.py on twelve different paragraphs (``alone`` of them also as
    its second file), and the list each of its scans' figures goes to."""
    from tests.bench import glued_lines
    from tests.bench.bench_own_corpus import owncorpus

    notes = owncorpus.short_paragraphs(12)
    monkeypatch.setattr(glued_lines, "ALONE", alone)
    monkeypatch.setattr(
        glued_lines, "disclaimer_sets", lambda: [("paragraphs of 20-60 words", notes, "en")]
    )
    seen: list[tuple[int, int]] = []
    monkeypatch.setattr(
        glued_lines,
        "_scan",
        lambda folder, real=glued_lines._scan: seen.append(real(folder)) or seen[-1],
    )
    return glued_lines, seen


def test_glued_lines_counts_notes_alone_found_with_their_mails_by_both_builds(
    tmp_path, monkeypatch
):
    """tests/bench/glued_lines.py on real scans of a small set: twelve different paragraphs as
    mails above a disclaimer, three of them alone too. The build without the view finds fewer
    of the three (one, whose mail's share is high enough without it); the build finds all
    three; neither groups two notes."""
    glued_lines, seen = _glued_lines_on_twelve_paragraphs(monkeypatch, 3)
    glued_lines.run(tmp_path)
    assert [found for found, _ in seen[1::2]] == [3, 3]
    assert all(found < 3 for found, _ in seen[::2])
    assert all(different == 0 for _, different in seen)


def test_glued_lines_counts_notes_under_two_disclaimers_by_both_builds(tmp_path, monkeypatch):
    """tests/bench/glued_lines.py's second part on real scans of a small set: twelve different
    paragraphs as mails above one disclaimer and above another (each in twelve texts, past
    sketch.BOILERPLATE_MIN_TEXTS). The view as it left out one side's lines finds none of the
    pairs of one note's mails; the build finds them all; neither groups two notes."""
    glued_lines, seen = _glued_lines_on_twelve_paragraphs(monkeypatch, 12)
    glued_lines.run_two(tmp_path)
    assert [found for found, _ in seen] == [0, 12, 0, 12]
    assert all(different == 0 for _, different in seen)
