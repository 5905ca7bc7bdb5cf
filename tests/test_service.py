"""DedupService end to end: grouping kinds, reference folders, settings, ignores, marks, pages,
stats, the journal of trash/move, and refusing a file that changed after the scan.

Documents are real files (docgen writes TXT/DOCX/HTML/PDF with the libraries people use); the
index is a real SQLite file per test.
"""

from __future__ import annotations

import os
import random
import re
import shutil
from pathlib import Path

import docgen
import pytest
from support.items import grouping_loads

from desktop_dedup.core.actions import REASON_REFERENCE
from desktop_dedup.core.errors import DedupError
from desktop_dedup.core.models import GroupKind
from desktop_dedup.core.service import DedupService

MASK64 = (1 << 64) - 1
FILLERS_EN = ["harbour", "lantern", "orchard", "meadow", "granite", "willow", "compass", "thimble"]
FILLERS_ZH = ["电脑", "手机", "飞机", "火车", "银行", "钢笔", "地图", "雨伞"]


def made_up_text(seed: int) -> str:
    """Text with its own vocabulary of made-up words: near nothing else in a test."""
    rng = random.Random(seed)
    vocab = [
        "".join(rng.choices("abcdefghijklmnopqrstuvwxyz", k=rng.randint(4, 9))) for _ in range(90)
    ]
    return "\n".join(" ".join(rng.choice(vocab) for _ in range(11)) for _ in range(20)) + "\n"


def hamming(a: int, b: int) -> int:
    return ((a ^ b) & MASK64).bit_count()


def _edit(text: str, fraction: float, seed: int, chinese: bool) -> str:
    rng = random.Random(seed)
    if chinese:
        import jieba

        tokens = list(jieba.cut(text, HMM=False))
        words = [i for i, t in enumerate(tokens) if re.fullmatch(r"[\u4e00-\u9fff]{2,}", t)]
        fillers = FILLERS_ZH
        joiner = ""
    else:
        tokens = text.split(" ")
        words = [i for i, t in enumerate(tokens) if t.isalpha()]
        fillers = FILLERS_EN
        joiner = " "
    for i in rng.sample(words, max(1, round(len(words) * fraction))):
        tokens[i] = rng.choice(fillers)
    return joiner.join(tokens)


def near_copy(text: str, chinese: bool) -> tuple[str, int]:
    """``text`` with 3 % of its words replaced: the same document by the product's definition
    (up to about 5 % of the words edited), so it must be grouped, at a similarity below 100 %.
    Returns the edited text and the number of words replaced."""
    edited = _edit(text, 0.03, 1, chinese)
    return edited, sum(a != b for a, b in zip(text.split(), edited.split(), strict=False))


@pytest.fixture(scope="module")
def near_texts() -> dict[str, tuple[str, int]]:
    return {
        "en": near_copy(docgen.SAMPLE_EN, chinese=False),
        "zh": near_copy(docgen.SAMPLE_ZH, chinese=True),
    }


@pytest.fixture
def svc(db_target):
    """A service over a new index, on SQLite and on PostgreSQL (conftest.db_target)."""
    with DedupService(db_target) as s:
        yield s


def by_path(svc: DedupService) -> dict[str, int]:
    return {m.path: m.doc_id for g in svc.groups() for m in g.members}


def member_sets(svc: DedupService) -> set[frozenset[str]]:
    return {frozenset(m.path for m in g.members) for g in svc.groups()}


def rp(p: Path) -> str:
    return os.path.realpath(p)


def test_same_text_in_four_formats_is_one_group(tmp_path: Path, svc: DedupService) -> None:
    root = tmp_path / "docs"
    files: dict[str, list[Path]] = {}
    for lang, text in (("zh", docgen.SAMPLE_ZH), ("en", docgen.SAMPLE_EN)):
        files[lang] = [
            docgen.write_txt(root / lang / "a.txt", text),
            docgen.write_docx(root / lang / "b.docx", text),
            docgen.write_html(root / lang / "c.html", text),
            docgen.write_pdf(root / lang / "d.pdf", text),
        ]
    summary = svc.scan([root], workers=1)
    assert not summary.problems
    assert summary.groups == 2
    assert member_sets(svc) == {frozenset(rp(p) for p in files[k]) for k in ("zh", "en")}
    for group in svc.groups():
        assert group.kind in (GroupKind.SAME_TEXT, GroupKind.NEAR)
        assert {m.format for m in group.members} == {"txt", "docx", "html", "pdf"}
        assert sum(m.is_reference for m in group.members) == 1
        # the same words in four formats: (nearly) all of the text in common
        assert all(m.similarity >= 0.95 for m in group.members)


def test_identical_and_near_pairs(
    tmp_path: Path, svc: DedupService, near_texts: dict[str, tuple[str, int]]
) -> None:
    root = tmp_path / "docs"
    a = docgen.write_txt(root / "same" / "a.txt", made_up_text(7))
    b = root / "same" / "b.txt"
    shutil.copyfile(a, b)
    near_pairs = set()
    pairs = {
        "en": (docgen.SAMPLE_EN, near_texts["en"][0]),
        "zh": (docgen.SAMPLE_ZH, near_texts["zh"][0]),
    }
    for lang, (text, edited) in pairs.items():
        orig = docgen.write_txt(root / lang / "orig.txt", text)
        copy = docgen.write_txt(root / lang / "edit.txt", edited)
        near_pairs.add(frozenset((rp(orig), rp(copy))))
    svc.scan([root], workers=1)
    groups = {frozenset(m.path for m in g.members): g for g in svc.groups()}
    assert set(groups) == {frozenset((rp(a), rp(b)))} | near_pairs
    same = groups[frozenset((rp(a), rp(b)))]
    assert same.kind == GroupKind.IDENTICAL
    assert [m.similarity for m in same.members] == [1.0, 1.0]
    for key in near_pairs:
        group = groups[key]
        assert group.kind == GroupKind.NEAR
        other = next(m for m in group.members if not m.is_reference)
        # 3 % of the words replaced: each replaced word breaks two of its bigrams
        assert 0.85 <= other.similarity < 0.99
        assert other.distance >= 0
    # the group table shows the same figure as the member list
    summaries = {s.id: s for s in svc.group_page(0, 10)}
    for g in svc.groups():
        assert summaries[g.id].min_similarity == pytest.approx(min(m.similarity for m in g.members))


def test_reference_folder_member_is_kept_and_protected(tmp_path: Path, svc: DedupService) -> None:
    work, ref = tmp_path / "work", tmp_path / "archive"
    original = docgen.write_txt(ref / "master.txt", docgen.SAMPLE_EN)
    copies = [work / "copy1.txt", work / "sub" / "copy2.txt"]
    for c in copies:
        c.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(original, c)
        os.utime(c, ns=(1_600_000_000_000_000_000,) * 2)  # older than the reference copy
    svc.scan([work, ref], reference_roots=[ref], workers=1)
    (group,) = svc.groups()
    assert group.reference.path == rp(original)
    assert group.reference.in_reference_folder
    ids = by_path(svc)
    ref_id = ids[rp(original)]

    svc.set_marked(ids.values(), True)
    assert svc.marked_ids() == {ids[rp(c)] for c in copies}

    trashed: list[str] = []
    results = svc.trash([ref_id], trash=trashed.append)
    assert [(r.ok, r.reason) for r in results] == [(False, REASON_REFERENCE)]
    assert trashed == [] and original.exists()
    assert svc.group(group.id).reference.path == rp(original)


def test_the_folder_list_follows_named_scans_until_the_user_changes_it(tmp_path: Path) -> None:
    """README (Command line): the folders a scan is given (the command line's) become the
    folder list when it is empty or was made by such a scan, a reference folder among or inside
    them as a reference; a file given is not a folder, and a reference folder outside them is
    not scanned, so not listed. Once the user adds, removes or ticks a folder, the list is
    theirs, and no such scan changes it. (A shared index's list is the team's: test_locations.)
    """
    with DedupService(tmp_path / "index.sqlite") as svc:
        _named_folders_listed(tmp_path, svc)


def _named_folders_listed(tmp_path: Path, svc: DedupService) -> None:
    def listed() -> list[tuple[str, bool]]:
        return [(f.path, f.is_reference) for f in svc.folders()]

    work, ref, outside = tmp_path / "work", tmp_path / "work" / "archive", tmp_path / "elsewhere"
    other, third = tmp_path / "other", tmp_path / "third"
    docgen.write_txt(ref / "master.txt", docgen.SAMPLE_EN)
    docgen.write_txt(work / "copy.txt", docgen.SAMPLE_EN)
    loose = docgen.write_txt(tmp_path / "loose.txt", docgen.SAMPLE_ZH)
    docgen.write_txt(other / "note.txt", docgen.SAMPLE_ZH)
    docgen.write_txt(third / "note.txt", docgen.SAMPLE_ZH)
    outside.mkdir()
    svc.scan([work, loose], reference_roots=[ref, outside], workers=1)
    assert listed() == [(rp(work), False), (rp(ref), True)]
    (group,) = svc.groups()
    assert group.reference.path == rp(ref / "master.txt")
    assert svc.scan(workers=1).files_seen == 2  # what the app's Scan does: the listed folders
    assert listed() == [(rp(work), False), (rp(ref), True)]
    assert svc.groups()[0].reference.in_reference_folder

    svc.scan([other], workers=1)  # the list was the last named scan's: it follows
    assert listed() == [(rp(other), False)]
    svc.set_folder_reference(rp(other), True)  # now the user's
    svc.scan([third], workers=1)
    assert listed() == [(rp(other), True)]

    svc.remove_folder(rp(other))
    svc.scan([work], workers=1)  # empty again: listed, and followed
    svc.scan([third], workers=1)
    assert listed() == [(rp(third), False)]
    svc.add_folder(work)
    svc.scan([other], workers=1)
    assert listed() == [(rp(third), False), (rp(work), False)]

    for folder in listed():
        svc.remove_folder(folder[0])
    svc.scan([work, other], workers=1)
    assert listed() == [(rp(other), False), (rp(work), False)]
    svc.remove_folder(rp(other))
    svc.scan([third], workers=1)
    assert listed() == [(rp(work), False)]


def test_similarity_setting_regroups(
    tmp_path: Path, svc: DedupService, near_texts: dict[str, tuple[str, int]]
) -> None:
    root = tmp_path / "docs"
    docgen.write_txt(root / "orig.txt", docgen.SAMPLE_EN)
    docgen.write_txt(root / "edit.txt", near_texts["en"][0])
    docgen.write_txt(root / "zh1.txt", docgen.SAMPLE_ZH)
    docgen.write_html(root / "zh2.html", docgen.SAMPLE_ZH)
    svc.scan([root], workers=1)
    assert svc.group_count() == 2
    assert svc.settings().min_similarity == 0.75
    # A what-if count changes nothing stored.
    assert svc.count_groups_at(1.0) == 1
    assert svc.group_count() == 2 and svc.settings().min_similarity == 0.75
    svc.update_settings(min_similarity=0.995)
    assert svc.group_count() == 1
    assert {g.kind for g in svc.groups()} == {GroupKind.SAME_TEXT}
    svc.update_settings(min_similarity=0.75)
    assert svc.group_count() == 2
    # the candidate radius (bits) is an advanced setting, validated like the threshold
    for bad_k in (-1, 13, 2.5):
        with pytest.raises(DedupError):
            svc.update_settings(max_distance=bad_k)
    for bad in (0.2, 1.5, "x"):
        with pytest.raises(DedupError):
            svc.update_settings(min_similarity=bad)
    with pytest.raises(DedupError):
        svc.count_groups_at(0.1)


def test_ignores_are_keyed_by_content_and_survive_renames(
    tmp_path: Path, svc: DedupService, near_texts: dict[str, tuple[str, int]]
) -> None:
    root = tmp_path / "docs"
    a = docgen.write_txt(root / "a.txt", docgen.SAMPLE_EN)
    b = docgen.write_txt(root / "b.txt", near_texts["en"][0])
    z = [
        docgen.write_txt(root / "z1.txt", docgen.SAMPLE_ZH),
        docgen.write_html(root / "z2.html", docgen.SAMPLE_ZH),
        docgen.write_docx(root / "z3.docx", docgen.SAMPLE_ZH),
    ]
    svc.scan([root], workers=1)
    before = member_sets(svc)
    assert frozenset((rp(a), rp(b))) in before and len(before) == 2
    ids = by_path(svc)
    svc.ignore_pair(ids[rp(a)], ids[rp(b)])
    zh_group = next(g for g in svc.groups() if rp(z[0]) in {m.path for m in g.members})
    svc.ignore_group(zh_group.id)
    assert svc.groups() == []
    assert len(svc.ignored_pairs()) == 1 + 3

    (root / "renamed").mkdir()
    b.rename(root / "renamed" / "b-moved.txt")
    z[1].rename(root / "z2-renamed.html")
    summary = svc.scan([root], workers=1)
    assert summary.files_fingerprinted == 0  # moved: fingerprints reused
    assert svc.groups() == []

    svc.clear_ignored()
    assert svc.ignored_pairs() == []
    after = member_sets(svc)
    assert frozenset((rp(a), rp(root / "renamed" / "b-moved.txt"))) in after
    assert frozenset((rp(z[0]), rp(root / "z2-renamed.html"), rp(z[2]))) in after


def test_marks_persist_across_service_instances(tmp_path: Path) -> None:
    root = tmp_path / "docs"
    a = docgen.write_txt(root / "a.txt", docgen.SAMPLE_EN)
    shutil.copyfile(a, root / "b.txt")
    db = tmp_path / "db.sqlite"
    with DedupService(db) as first:
        first.scan([root], workers=1)
        (group,) = first.groups()
        victim = next(m for m in group.members if not m.is_reference)
        first.set_marked([victim.doc_id], True)
    with DedupService(db) as second:
        assert second.marked_ids() == {victim.doc_id}
        stats = second.stats()
        assert (stats.marked, stats.marked_size) == (1, victim.size)
        second.set_marked([victim.doc_id], False)
        assert second.marked_ids() == set()
        second.set_marked([victim.doc_id], True)
        second.clear_marks()
        assert second.marked_ids() == set()


@pytest.fixture
def three_groups(tmp_path: Path, svc: DedupService) -> DedupService:
    """alpha: 2 copies of a short text; beta: 3 copies of SAMPLE_EN; gamma: 4 of SAMPLE_ZH."""
    root = tmp_path / "docs"
    texts = {
        "alpha": docgen.SAMPLE_EN.split("\n")[0],
        "beta": docgen.SAMPLE_EN,
        "gamma": docgen.SAMPLE_ZH,
    }
    for n, (name, text) in enumerate(texts.items(), start=2):
        first = docgen.write_txt(root / name / f"{name}_0.txt", text)
        for i in range(1, n):
            shutil.copyfile(first, root / name / f"{name}_{i}.txt")
    svc.scan([root], workers=1)
    return svc


def test_group_page_sorts_and_filters(three_groups: DedupService) -> None:
    svc = three_groups
    full = svc.group_page(0, 100)
    assert len(full) == 3 == svc.group_count()
    reclaim = [g.reclaimable_size for g in full]
    assert reclaim == sorted(reclaim, reverse=True)
    truth = {g.id: g.reclaimable_size for g in svc.groups()}
    assert {g.id: g.reclaimable_size for g in full} == truth
    assert [g.member_count for g in svc.group_page(0, 10, sort="members", descending=False)] == [
        2,
        3,
        4,
    ]
    paths = [g.reference_path for g in svc.group_page(0, 10, sort="path", descending=False)]
    assert paths == sorted(paths)
    # Paging returns consecutive slices of the same order.
    assert [g.id for g in svc.group_page(1, 1)] == [full[1].id]
    assert svc.group_page(3, 10) == []

    (beta,) = svc.group_page(0, 10, text="BETA_2")  # substring, case-insensitive
    assert beta.member_count == 3 and svc.group_count(text="BETA_2") == 1
    assert svc.group_page(0, 10, text="beta_.") == []  # plain text: the dot is literal
    (gamma,) = svc.group_page(0, 10, text=r"gamma_[3-9]\.txt$", regex=True)
    assert gamma.member_count == 4
    assert svc.group_count(text=r"_[01]\.txt$", regex=True) == 3
    assert svc.group_count(text="(unclosed", regex=True) == 0  # a bad pattern matches nothing


def test_stats_agree_with_groups(three_groups: DedupService) -> None:
    svc = three_groups
    stats = svc.stats()
    groups = svc.groups()
    assert stats.groups == len(groups) == 3
    assert stats.documents == 9
    assert stats.duplicate_documents == sum(len(g.members) for g in groups) == 9
    assert stats.reclaimable_size == sum(g.reclaimable_size for g in groups)
    assert stats.problems == 0 and stats.marked == 0
    assert stats.last_scan is not None and stats.last_scan.tzinfo is not None


def test_trash_journal_and_file_changed_after_scan(tmp_path: Path, svc: DedupService) -> None:
    root = tmp_path / "docs"
    a = docgen.write_txt(root / "a.txt", docgen.SAMPLE_EN)
    b, c = root / "b.txt", root / "c.txt"
    shutil.copyfile(a, b)
    shutil.copyfile(a, c)
    os.utime(a, ns=(1_500_000_000_000_000_000,) * 2)  # oldest: the reference
    svc.scan([root], workers=1)
    ids = by_path(svc)
    # c is rewritten after the scan: same size, mtime restored, one letter different.
    st = c.stat()
    data = bytearray(c.read_bytes())
    data[10] = ord("X") if data[10] != ord("X") else ord("Y")
    c.write_bytes(bytes(data))
    os.utime(c, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert c.stat().st_size == st.st_size and c.stat().st_mtime_ns == st.st_mtime_ns

    bin_dir = tmp_path / "trash-can"
    bin_dir.mkdir()

    def to_bin(path: str) -> None:
        shutil.move(path, bin_dir / Path(path).name)

    results = {r.path: r for r in svc.trash([ids[rp(b)], ids[rp(c)]], trash=to_bin)}
    assert results[rp(b)].ok
    assert not results[rp(c)].ok and "content differs" in results[rp(c)].reason
    assert not b.exists() and (bin_dir / "b.txt").exists() and c.exists()
    journal = {j.path: j for j in svc.journal()}
    assert set(journal) == {rp(b), rp(c)}
    assert journal[rp(b)].action == "trash" and journal[rp(b)].ok
    assert journal[rp(b)].size == st.st_size and journal[rp(b)].content_hash
    assert not journal[rp(c)].ok and journal[rp(c)].reason == results[rp(c)].reason
    # The trashed copy left the index and its group; the changed one is still indexed.
    assert rp(b) not in svc.store.known_files()
    assert member_sets(svc) == {frozenset((rp(a), rp(c)))}


def test_move_renames_on_conflict_and_journals(tmp_path: Path, svc: DedupService) -> None:
    root = tmp_path / "docs"
    first = docgen.write_txt(root / "x" / "doc.txt", docgen.SAMPLE_ZH)
    for sub in ("y", "z"):
        (root / sub).mkdir()
        shutil.copyfile(first, root / sub / "doc.txt")
    os.utime(first, ns=(1_500_000_000_000_000_000,) * 2)
    target = tmp_path / "moved"
    target.mkdir()
    (target / "doc.txt").write_text("already here", encoding="utf-8")
    svc.scan([root], workers=1)
    ids = by_path(svc)
    movers = [rp(root / "y" / "doc.txt"), rp(root / "z" / "doc.txt")]
    results = svc.move([ids[p] for p in movers], target)
    assert all(r.ok for r in results), results
    destinations = sorted(os.path.basename(r.destination) for r in results)
    assert destinations == ["doc (1).txt", "doc (2).txt"]
    assert (target / "doc.txt").read_text(encoding="utf-8") == "already here"
    for r in results:
        assert Path(r.destination).read_bytes() == first.read_bytes()
        assert not Path(r.path).exists()
    journal = svc.journal()
    assert {(j.action, j.path, j.destination) for j in journal} == {
        ("move", r.path, r.destination) for r in results
    }
    assert svc.groups() == []  # one copy left: no group


def test_diff_of_a_file_deleted_since_the_scan_says_so(tmp_path):
    from desktop_dedup.core.errors import DedupError

    root = tmp_path / "docs"
    a = docgen.write_txt(root / "a.txt", docgen.SAMPLE_EN)
    docgen.write_txt(root / "b.txt", docgen.SAMPLE_EN)
    with DedupService(tmp_path / "db.sqlite") as svc:
        svc.scan([root])
        (group,) = svc.groups()
        ids = {m.path: m.doc_id for m in group.members}
        a.unlink()
        with pytest.raises(DedupError, match="no longer exists"):
            svc.diff(ids[str(a)], ids[str(root / "b.txt")])


def _write_family(root: Path, seed: int, copies: int) -> list[Path]:
    """A made-up text and ``copies`` near copies of it (a few words replaced each)."""
    text = made_up_text(seed)
    paths = [docgen.write_txt(root / f"t{seed}" / "orig.txt", text)]
    for c in range(copies):
        words = text.split(" ")
        rng = random.Random(seed * 100 + c)
        for i in rng.sample(range(len(words)), 3):
            words[i] = "zz" + words[i]
        paths.append(docgen.write_txt(root / f"t{seed}" / f"copy{c}.txt", " ".join(words)))
    return paths


def test_a_small_rescan_matches_through_the_index_and_equals_a_full_regroup(
    tmp_path: Path, svc: DedupService, near_texts: dict[str, tuple[str, int]]
) -> None:
    """After a scan that adds a few documents, only those are looked up (SQL probes of the
    block and key indexes); no fingerprint of the rest is reloaded, groups that did not change
    keep their ids, and the result is what a full regroup of the same files gives."""
    root = tmp_path / "docs"
    for seed in range(12):
        _write_family(root, seed, 2)
    docgen.write_txt(root / "zh" / "a.txt", docgen.SAMPLE_ZH)
    docgen.write_txt(
        root / "poem" / "p.txt", "春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。" * 2
    )
    svc.scan([root], workers=1)
    before = {g.id: frozenset(m.path for m in g.members) for g in svc.groups()}
    assert len(before) == 12
    # new: a near copy of family 3, a Chinese near copy, a copy of the short poem, a loner
    _write_family(root / "new", 3, 0)
    words = made_up_text(3).split(" ")
    words[5] = "edited"
    docgen.write_txt(root / "t3" / "late.txt", " ".join(words))
    docgen.write_txt(root / "zh" / "b.txt", near_texts["zh"][0])
    docgen.write_html(
        root / "poem" / "p.html", "春眠不觉晓，处处闻啼鸟。夜来风雨声，花落知多少。" * 2
    )
    docgen.write_txt(root / "alone.txt", made_up_text(99))
    with grouping_loads(svc.store) as loads:
        summary = svc.scan([root], workers=1)
    assert summary.files_fingerprinted == 4  # the fifth new file is a byte copy: reused
    assert None not in loads, "a small rescan reloaded every fingerprint"
    after = {g.id: frozenset(m.path for m in g.members) for g in svc.groups()}
    # untouched families keep their ids and members
    family3 = {p for p in map(os.path.realpath, (root / "t3").iterdir())}
    for gid, members in before.items():
        if not members & family3:
            assert after.get(gid) == members
    # the same groups as a full regroup, and as a fresh index of the same files
    incremental = set(after.values())
    svc.regroup()
    assert {frozenset(m.path for m in g.members) for g in svc.groups()} == incremental
    with DedupService(tmp_path / "fresh.sqlite") as fresh:
        fresh.scan([root], workers=1)
        assert {frozenset(m.path for m in g.members) for g in fresh.groups()} == incremental
    assert any(len(g) == 5 for g in incremental)  # family 3: orig, 2 copies, new, late
    assert frozenset(map(os.path.realpath, (root / "zh").iterdir())) in incremental
    assert frozenset(map(os.path.realpath, (root / "poem").iterdir())) in incremental


def test_the_diff_shows_the_groups_similarity(
    tmp_path: Path, svc: DedupService, near_texts: dict[str, tuple[str, int]]
) -> None:
    root = tmp_path / "docs"
    docgen.write_txt(root / "orig.txt", docgen.SAMPLE_EN)
    docgen.write_txt(root / "edit.txt", near_texts["en"][0])
    svc.scan([root], workers=1)
    (group,) = svc.groups()
    ref, other = group.members
    assert svc.diff(ref.doc_id, other.doc_id).similarity == pytest.approx(
        other.similarity, abs=1e-4
    )
    assert svc.pair_similarity(ref.doc_id, other.doc_id) == pytest.approx(
        other.similarity, abs=1e-4
    )


def test_types_added_later_are_scanned_for_people_with_saved_settings(tmp_path: Path) -> None:
    """Settings saved before the office readers existed listed only the types offered then;
    the person unticked PDF. The new types are on, PDF stays off, and a later choice holds."""
    old_types = ["txt", "text", "md", "markdown", "rst", "html", "htm", "xhtml"]
    old_types += ["docx", "odt", "rtf", "epub"]  # "pdf" unticked
    db = tmp_path / "db.sqlite"
    with DedupService(db) as svc:
        # What the previous version's update_settings stored: the Settings fields, no more.
        svc.store.set_setting(
            "settings",
            {"min_similarity": 0.8, "max_distance": 12, "extensions": old_types,
             "exclude_globs": [".git"], "min_size": 1, "max_size": 2 * 1024**3},
        )  # fmt: skip
    with DedupService(db) as svc:
        types = svc.settings().extensions
        assert "pdf" not in types
        assert {"doc", "wps", "xls", "et", "ppt", "dps", "eml", "mobi"} <= set(types)
        svc.update_settings(extensions=[t for t in types if t != "doc"])
    with DedupService(db) as svc:
        types = svc.settings().extensions
        assert "doc" not in types and "pdf" not in types and "wps" in types


def test_an_updated_matching_rule_regroups_an_existing_index_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Groups stored by an older app were verified by its rules: when the rules that verify a
    pair change (sketch.VERIFICATION_VERSION), the next scan regroups every document once,
    from the stored fingerprints, though no file changed (the older rule here accepts no near
    pair at all; a rescan that finds nothing new used to keep its groups until the settings
    changed)."""
    from desktop_dedup.core import sketch

    root = tmp_path / "docs"
    for seed in range(3):
        _write_family(root, seed, 2)
    index = tmp_path / "index.sqlite"
    with monkeypatch.context() as old_app:
        old_app.setattr(sketch, "VERIFICATION_VERSION", sketch.VERIFICATION_VERSION - 1)
        old_app.setattr(sketch, "verified_similarity", lambda a, b, threshold=0.0, common=None: 0.0)
        with DedupService(index) as old:
            old.scan([root], workers=1)
            assert not [g for g in old.groups() if g.kind == GroupKind.NEAR]
    with DedupService(index) as new:
        summary = new.scan([root], workers=1)
        assert summary.files_fingerprinted == 0  # nothing is read again
        near = [g for g in new.groups() if g.kind == GroupKind.NEAR]
        assert len(near) == 3, new.groups()


def _close_of(service: DedupService) -> list[tuple[str, str, float]]:
    return [
        (Path(c.path).name, Path(c.member_path).name, c.similarity)
        for g in service.groups()
        for c in g.close
    ]


def test_a_document_close_to_a_group_follows_incremental_scans(tmp_path: Path) -> None:
    """A copy added later that is the same as one member of a group but not as the other is
    close to the group after an incremental scan, as after a full regroup; once it changes to
    a copy of a member it is a member, and close to nothing; a file gone leaves the list."""
    from support.close_family import close_family_texts

    texts = close_family_texts()
    docs = tmp_path / "docs"
    docs.mkdir()
    for stem in ("original", "edited-a"):
        (docs / f"{stem}.txt").write_text(texts[stem], encoding="utf-8")
    for k in range(20):  # other texts: an index large enough to be grouped again in part
        (docs / f"other{k}.txt").write_text(made_up_text(100 + k), encoding="utf-8")
    with DedupService(tmp_path / "index.sqlite") as service:
        service.add_folder(docs)
        service.scan()
        assert _close_of(service) == []

        late = docs / "edited-b.txt"
        late.write_text(texts["edited-b"], encoding="utf-8")
        summary = service.scan()
        assert summary.files_fingerprinted == 1  # the index was grouped around it alone
        close = _close_of(service)
        assert [(a, b) for a, b, _s in close] == [("edited-b.txt", "original.txt")]
        assert 0.75 <= close[0][2] < 1.0
        (group,) = service.groups()
        assert {Path(m.path).name for m in group.members} == {"original.txt", "edited-a.txt"}
        # no rule marks it with the group: it is not one of its duplicates
        for rule in ("all_but_reference", "invert", "newest", "oldest"):
            service.apply_mark_rule(rule)
            assert service.marked_ids() <= {m.doc_id for m in group.members}, rule
        service.clear_marks()
        service.regroup()  # in full: the same answer
        assert _close_of(service) == close
        # a member changes: its group is grouped again with the document close to it
        (docs / "edited-a.txt").write_text(texts["edited-a"] + "\nSiehe auch.\n")
        os.utime(docs / "edited-a.txt", (1_900_000_000, 1_900_000_000))
        service.scan()
        assert [(a, b) for a, b, _s in _close_of(service)] == [("edited-b.txt", "original.txt")]

        late.write_text(texts["edited-a"] + "\n", encoding="utf-8")
        os.utime(late, (1_900_000_000, 1_900_000_000))
        service.scan()
        (group,) = service.groups()
        assert len(group.members) == 3 and group.close == []

        late.write_text(texts["edited-b"], encoding="utf-8")
        os.utime(late, (1_900_000_100, 1_900_000_100))
        service.scan()
        assert [(a, b) for a, b, _s in _close_of(service)] == [("edited-b.txt", "original.txt")]
        # it changes into another text: close to nothing, though no member changed
        late.write_text(made_up_text(7), encoding="utf-8")
        os.utime(late, (1_900_000_200, 1_900_000_200))
        service.scan()
        assert _close_of(service) == []
        late.write_text(texts["edited-b"], encoding="utf-8")
        os.utime(late, (1_900_000_300, 1_900_000_300))
        service.scan()
        assert [(a, b) for a, b, _s in _close_of(service)] == [("edited-b.txt", "original.txt")]
        # the member it was not the same as is gone: it joins the group
        (docs / "edited-a.txt").unlink()
        service.scan()
        (group,) = service.groups()
        assert {Path(m.path).name for m in group.members} == {"original.txt", "edited-b.txt"}
        assert group.close == []
        late.unlink()
        service.scan()
        assert service.groups() == []


def test_a_document_close_to_a_group_stays_listed_when_its_closest_member_is_removed(
    tmp_path: Path,
) -> None:
    """The member a document is closest to is trashed: the document is close to the group
    that is left (through the original's other copy), not dropped from every list."""
    from support.close_family import close_family_texts, write_close_family

    texts = close_family_texts()
    docs = tmp_path / "docs"
    write_close_family(docs)
    (docs / "z-copy-of-original.txt").write_text(texts["original"], encoding="utf-8")
    for k in range(20):  # other texts: an index large enough to be grouped again in part
        (docs / f"other{k}.txt").write_text(made_up_text(200 + k), encoding="utf-8")
    bin_dir = tmp_path / "trash-can"
    bin_dir.mkdir()
    with DedupService(tmp_path / "index.sqlite") as service:
        service.add_folder(docs)
        service.scan()
        (group,) = service.groups()
        (close,) = group.close
        assert Path(close.member_path).name == "original.txt"
        results = service.trash(
            [close.member_id], trash=lambda p: shutil.move(p, bin_dir / Path(p).name)
        )
        assert [r.ok for r in results] == [True]
        (group,) = service.groups()
        assert {Path(m.path).name for m in group.members} == {
            "z-copy-of-original.txt",
            "edited-a.txt",
        }
        assert [(Path(c.path).name, Path(c.member_path).name) for c in group.close] == [
            ("edited-b.txt", "z-copy-of-original.txt")
        ]


def _three_copies(docs: Path) -> None:
    docs.mkdir(parents=True)
    text = made_up_text(31)
    for name in ("a-reference.txt", "b-copy.txt", "c-copy.txt"):
        (docs / name).write_text(text, encoding="utf-8")
    for k in range(20):  # other texts: an index large enough to be grouped again in part
        (docs / f"other{k}.txt").write_text(made_up_text(300 + k), encoding="utf-8")


def _groups_by_name(service: DedupService) -> list[list[str]]:
    return [sorted(Path(m.path).name for m in g.members) for g in service.groups()]


def test_the_copies_left_when_a_groups_reference_goes_are_still_a_group(tmp_path: Path) -> None:
    """A group's reference leaves the index (deleted on disk, trashed in the app, its folder
    removed): the copies left are still one group. The group's row held its reference, so it
    went with it, and its members' rows with it: the regroup after found no member to start
    from, and the copies were in no group, through every later scan."""
    docs = tmp_path / "docs"
    _three_copies(docs)
    with DedupService(tmp_path / "index.sqlite") as service:
        service.add_folder(docs)
        service.scan()
        assert _groups_by_name(service) == [["a-reference.txt", "b-copy.txt", "c-copy.txt"]]
        (group,) = service.groups()
        assert Path(group.reference.path).name == "a-reference.txt"

        (docs / "a-reference.txt").unlink()  # gone from disk: the next scan sees it
        service.scan()
        assert _groups_by_name(service) == [["b-copy.txt", "c-copy.txt"]]

        (group,) = service.groups()  # trashed in the app: its new reference
        bin_dir = tmp_path / "trash-can"
        bin_dir.mkdir()
        results = service.trash(
            [group.reference.doc_id], trash=lambda p: shutil.move(p, bin_dir / Path(p).name)
        )
        assert [r.ok for r in results] == [True]
        assert _groups_by_name(service) == []  # one copy left: no group
        (docs / "d-copy.txt").write_text(made_up_text(31), encoding="utf-8")
        service.scan()
        assert _groups_by_name(service) == [["c-copy.txt", "d-copy.txt"]]


def test_the_copies_left_when_the_folder_of_a_groups_reference_is_removed(tmp_path: Path):
    """The folder that holds a group's reference is taken off the list: the copies in the
    other folder are still one group."""
    _three_copies(tmp_path / "b")
    (tmp_path / "a").mkdir()
    (tmp_path / "b" / "a-reference.txt").rename(tmp_path / "a" / "a-reference.txt")
    with DedupService(tmp_path / "index.sqlite") as service:
        service.add_folder(tmp_path / "a")
        service.add_folder(tmp_path / "b")
        service.scan()
        (group,) = service.groups()
        assert Path(group.reference.path).name == "a-reference.txt"
        service.remove_folder(str(tmp_path / "a"))
        assert _groups_by_name(service) == [["b-copy.txt", "c-copy.txt"]]


def test_a_document_close_to_a_group_can_be_marked_and_removed_with_its_closest_kept(
    tmp_path: Path,
) -> None:
    """A document close to a group, marked after its review, is removed like a near duplicate
    of the member it is closest to: only when you include near copies, only while that member
    stays (neither marked nor changed), verified as it goes; it is counted among the marked."""
    from support.close_family import close_family_texts, write_close_family

    from desktop_dedup.core.actions import REASON_CLOSEST_GOING, REASON_KEPT_CHANGED, REASON_NEAR

    texts = close_family_texts()
    docs = tmp_path / "docs"
    write_close_family(docs)
    bin_dir = tmp_path / "trash-can"
    bin_dir.mkdir()
    with DedupService(tmp_path / "index.sqlite") as service:
        service.add_folder(docs)
        service.scan()
        (group,) = service.groups()
        (close,) = group.close
        service.set_marked([close.doc_id], True)
        plan = service.marked_for_removal()
        assert plan.doc_ids == (close.doc_id,) and plan.near_ids == {close.doc_id}
        assert service.stats().marked == 1
        ids, refused = service.plan_removal([close.doc_id])
        assert ids == [] and [r.reason for r in refused] == [REASON_NEAR]
        assert service.plan_removal([close.doc_id], include_near=True)[0] == [close.doc_id]
        # its closest member marked too: it is not removed with it
        both = [close.doc_id, close.member_id]
        ids, refused = service.plan_removal(both, include_near=True)
        assert ids == [close.member_id]
        assert [(r.doc_id, r.reason) for r in refused] == [(close.doc_id, REASON_CLOSEST_GOING)]
        # its closest member changed since the scan: scan again first
        original = docs / "original.txt"
        original.write_text(texts["original"] + "\nNachtrag.\n", encoding="utf-8")
        ids, refused = service.plan_removal([close.doc_id], include_near=True)
        assert ids == [] and [r.reason for r in refused] == [REASON_KEPT_CHANGED]
        original.write_text(texts["original"], encoding="utf-8")
        service.scan()
        (group,) = service.groups()
        (close,) = group.close
        results = service.trash(
            [close.doc_id],
            trash=lambda p: shutil.move(p, bin_dir / Path(p).name),
            include_near=True,
        )
        assert [r.ok for r in results] == [True]
        assert not (docs / "edited-b.txt").exists() and (bin_dir / "edited-b.txt").exists()
        (group,) = service.groups()
        assert group.close == [] and len(group.members) == 2


def test_a_damaged_sketch_in_the_index_stops_no_regroup(tmp_path: Path) -> None:
    """A document row whose stored sketch is cut short (a damaged index) is a near duplicate
    of nothing: the regroup goes on (it raised ValueError from numpy), and the other
    documents group as before."""
    import sqlite3

    from desktop_dedup.core.service import DedupService

    root = tmp_path / "docs"
    river = docgen.write_txt(root / "river.txt", docgen.SAMPLE_EN)
    shutil.copyfile(river, root / "river copy.txt")
    edited = docgen.SAMPLE_EN.replace("river", "stream", 1)
    damaged = docgen.write_txt(root / "river edited.txt", edited)
    docgen.write_txt(root / "jiangnan.txt", docgen.SAMPLE_ZH)
    docgen.write_docx(root / "jiangnan.docx", docgen.SAMPLE_ZH)
    db = tmp_path / "index.sqlite"
    with DedupService(db) as svc:
        svc.scan([root], workers=1)
        before = sorted(len(g.members) for g in svc.groups())
    assert before == [2, 3]
    with sqlite3.connect(db) as con:
        con.execute(
            "UPDATE documents SET sketch = substr(sketch, 1, 40) WHERE path = ?",
            (os.path.realpath(damaged),),
        )
    with DedupService(db) as svc:
        svc.regroup()
        groups = sorted(sorted(Path(m.path).name for m in g.members) for g in svc.groups())
    assert groups == [["jiangnan.docx", "jiangnan.txt"], ["river copy.txt", "river.txt"]]
