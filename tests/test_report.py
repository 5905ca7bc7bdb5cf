"""Tests for core.report: JSON/CSV parse back to the input, HTML is escaped and self-contained."""

from __future__ import annotations

import csv
import html
import io
import json
import os
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from desktop_dedup.core.models import Group, GroupKind, Member, Problem
from desktop_dedup.core.report import (
    CSV_COLUMNS,
    REPORT_FORMATS,
    render_report,
    write_report,
)

NASTY = "<script>alert(1)</script>.txt"


def make_member(path: Path, *, doc_id: int, reference: bool, distance: int = 0) -> Member:
    stat = path.stat()
    return Member(
        doc_id=doc_id,
        path=str(path),
        size=stat.st_size,
        modified=datetime.fromtimestamp(stat.st_mtime, UTC),
        format=path.suffix.lstrip(".").lower(),
        is_reference=reference,
        distance=distance,
        similarity=1 - distance / 64,
        content_hash=f"{doc_id:032x}",
    )


@pytest.fixture
def scan(tmp_path: Path) -> tuple[list[Group], list[Problem]]:
    """Real files on disk, grouped the way the grouping step would hand them over."""
    files = {
        "报告/年度报告.txt": "年度报告：我们在北京大学学习。" * 50,
        "备份/年度报告 (1).txt": "年度报告：我们在北京大学学习。" * 50,
        "notes/plan.md": "# Plan\nShip the release on Monday.\n" * 20,
        "notes/plan-old.md": "# Plan\nShip the release on Friday.\n" * 20,
        'notes/plan, "final".md': "# Plan\nShip the release on Friday!\n" * 19,
        NASTY: "payload" * 10,
        "copy of " + NASTY: "payload" * 10,
    }
    paths = {}
    for rel, text in files.items():
        p = tmp_path / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
        paths[rel] = p
    groups = [
        Group(
            1,
            GroupKind.IDENTICAL,
            [
                make_member(paths["报告/年度报告.txt"], doc_id=1, reference=True),
                make_member(paths["备份/年度报告 (1).txt"], doc_id=2, reference=False),
            ],
        ),
        Group(
            2,
            GroupKind.NEAR,
            [
                make_member(paths["notes/plan.md"], doc_id=3, reference=True),
                make_member(paths["notes/plan-old.md"], doc_id=4, reference=False, distance=2),
                make_member(paths['notes/plan, "final".md'], doc_id=5, reference=False, distance=3),
            ],
        ),
        Group(
            3,
            GroupKind.SAME_TEXT,
            [
                make_member(paths[NASTY], doc_id=6, reference=True),
                make_member(paths["copy of " + NASTY], doc_id=7, reference=False),
            ],
        ),
    ]
    broken = tmp_path / "坏的 <b>.pdf"
    broken.write_bytes(b"%PDF-1.4 truncated")
    problems = [Problem(str(broken), "not a valid PDF (truncated) & <unreadable>")]
    return groups, problems


def test_json_parses_back_to_the_input(scan):
    groups, problems = scan
    when = datetime(2026, 11, 22, 15, 30, tzinfo=timezone(timedelta(hours=8)))
    text = render_report(
        groups,
        problems,
        "json",
        generated_at=when,
        settings={"max_distance": 3, "roots": ("/a", "/b")},
        app_version="1.2.3",
    )
    data = json.loads(text)
    assert set(data) == {
        "schema_version",
        "generated_at",
        "app",
        "settings",
        "summary",
        "groups",
        "problems",
    }
    assert data["schema_version"] == 1
    assert datetime.fromisoformat(data["generated_at"]) == when
    assert data["app"] == {"name": "desktop_dedup", "version": "1.2.3"}
    assert data["settings"] == {"max_distance": 3, "roots": ["/a", "/b"]}
    assert data["summary"] == {
        "groups": len(groups),
        "documents": sum(len(g.members) for g in groups),
        "reclaimable_bytes": sum(g.reclaimable_size for g in groups),
        "problems": 1,
    }
    for group, record in zip(groups, data["groups"], strict=True):
        assert record["id"] == group.id
        assert record["kind"] == group.kind.value
        assert record["reclaimable_bytes"] == group.reclaimable_size
        for member, rec in zip(group.members, record["members"], strict=True):
            assert set(rec) == {
                "path",
                "size",
                "modified",
                "format",
                "is_reference",
                "distance",
                "similarity",
                "content_hash",
            }
            assert rec["path"] == member.path and os.path.isabs(rec["path"])
            assert rec["size"] == member.size == os.path.getsize(rec["path"])
            parsed = datetime.fromisoformat(rec["modified"])
            assert parsed.utcoffset() == timedelta(0)
            assert parsed == member.modified.replace(microsecond=0)
            assert rec["is_reference"] is member.is_reference
            assert (rec["distance"], rec["similarity"]) == (member.distance, member.similarity)
            assert rec["content_hash"] == member.content_hash
    assert data["problems"] == [{"path": problems[0].path, "reason": problems[0].reason}]
    # Chinese stays readable rather than \\u-escaped.
    assert "年度报告" in text


def test_csv_is_one_table_with_members_then_problems(scan):
    groups, problems = scan
    rows = list(csv.DictReader(io.StringIO(render_report(groups, problems, "csv"))))
    members = [m for g in groups for m in g.members]
    assert len(rows) == len(members) + len(problems)
    assert tuple(rows[0].keys()) == CSV_COLUMNS
    for row, (group, member) in zip(
        rows, [(g, m) for g in groups for m in g.members], strict=False
    ):
        assert row["group_id"] == str(group.id)
        assert row["kind"] == group.kind.value
        assert row["is_reference"] == ("true" if member.is_reference else "false")
        assert row["path"] == member.path
        assert int(row["size"]) == member.size
        assert row["format"] == member.format
        assert int(row["distance"]) == member.distance
        assert float(row["similarity"]) == pytest.approx(member.similarity, abs=1e-4)
        assert row["problem"] == ""
    problem_row = rows[-1]
    assert problem_row["group_id"] == ""
    assert problem_row["path"] == problems[0].path
    assert problem_row["problem"] == problems[0].reason


def test_html_escapes_nasty_names_and_is_self_contained(scan):
    groups, problems = scan
    page = render_report(
        groups, problems, "html", app_version="1.0", settings={"roots": [f"/home/{NASTY}"]}
    )
    assert "<script" not in page.lower()
    assert html.escape(f"/home/{NASTY}") in page
    assert html.escape(os.path.abspath(groups[2].members[0].path)) in page
    assert html.escape(problems[0].path) in page and "<b>" not in page
    assert html.escape(problems[0].reason) in page
    assert "<style>" in page
    for external in ("<link", "src=", "http://", "https://", "@import", "url("):
        assert external not in page
    assert page.count("<table>") == len(groups) + 1  # one per group + problems
    assert page.count('class="reference"') == len(groups)


def test_unknown_format_is_rejected(scan):
    groups, problems = scan
    with pytest.raises(ValueError, match="unknown report format"):
        render_report(groups, problems, "xml")


@pytest.mark.parametrize("fmt", REPORT_FORMATS)
def test_write_report_is_atomic_and_replaces(tmp_path: Path, scan, fmt: str):
    groups, problems = scan
    target = tmp_path / "out" / f"report.{fmt}"
    target.parent.mkdir()
    target.write_text("old contents", encoding="utf-8")
    write_report(target, groups, problems, fmt, app_version="9")
    raw = target.read_bytes()
    assert list(target.parent.iterdir()) == [target]  # no temp file left behind
    if fmt == "csv":
        assert raw.startswith(b"\xef\xbb\xbf")  # BOM so Excel reads UTF-8
        text = raw.decode("utf-8-sig")
        assert text == render_report(groups, problems, "csv")
    else:
        assert not raw.startswith(b"\xef\xbb\xbf")
        text = raw.decode("utf-8")
    assert "年度报告" in text
    if fmt == "json":
        assert json.loads(text)["app"]["version"] == "9"


@pytest.mark.parametrize("piece", [1, 7, 100, 1 << 20])
@pytest.mark.parametrize("fmt", REPORT_FORMATS)
def test_write_report_writes_the_rendered_report_a_piece_at_a_time(
    tmp_path: Path, scan, fmt: str, piece: int, monkeypatch: pytest.MonkeyPatch
):
    """A report is written a piece at a time (a whole 77 MB page in one call held the
    interpreter lock for 0.2 s, and the app's window stood still): whatever the piece, the file
    holds exactly the report rendered in one string."""
    from desktop_dedup.core import report

    monkeypatch.setattr(report, "_WRITE_PIECE", piece)
    groups, problems = scan
    when = datetime(2026, 11, 30, tzinfo=UTC)
    target = tmp_path / f"report.{fmt}"
    write_report(target, groups, problems, fmt, generated_at=when, app_version="9")
    expected = render_report(groups, problems, fmt, generated_at=when, app_version="9")
    assert target.read_bytes().decode("utf-8-sig" if fmt == "csv" else "utf-8") == expected


def test_write_report_failure_leaves_old_file_and_no_temp(tmp_path: Path, scan):
    groups, problems = scan
    target = tmp_path / "report.json"
    target.write_text("old", encoding="utf-8")
    with pytest.raises(ValueError):
        write_report(target, groups, problems, "yaml")
    assert target.read_text(encoding="utf-8") == "old"
    with pytest.raises(OSError):
        write_report(tmp_path / "missing" / "r.json", groups, problems, "json")
    # A failure after the temporary file was written: the name is taken by a folder, so the
    # final rename fails. The temporary file goes; the folder and its content stay.
    occupied = tmp_path / "occupied.json"
    (occupied / "inside").mkdir(parents=True)
    before = sorted(p.name for p in tmp_path.iterdir())
    with pytest.raises(OSError):
        write_report(occupied, groups, problems, "json")
    assert sorted(p.name for p in tmp_path.iterdir()) == before
    assert [p.name for p in occupied.iterdir()] == ["inside"]


_names = st.text(
    alphabet=st.characters(blacklist_categories=("Cs", "Cc"), blacklist_characters="/\\"),
    min_size=1,
    max_size=20,
).filter(lambda s: s not in {".", ".."})


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(names=st.lists(_names, min_size=1, max_size=5, unique=True))
def test_property_every_member_path_appears_in_every_format(names: list[str]):
    modified = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    members = [
        Member(k, f"/data/{name}", 10 + k, modified, "txt", k == 0, 0, 1.0)
        for k, name in enumerate(names)
    ]
    groups = [Group(7, GroupKind.IDENTICAL, members)]
    data = json.loads(render_report(groups, [], "json"))
    assert [m["path"] for m in data["groups"][0]["members"]] == [m.path for m in members]
    rows = list(csv.DictReader(io.StringIO(render_report(groups, [], "csv"))))
    assert [r["path"] for r in rows] == [m.path for m in members]
    page = render_report(groups, [], "html")
    for m in members:
        assert html.escape(m.path) in page
    assert "<script" not in page.lower()


def test_html_sizes_follow_the_one_size_rule_in_each_language(scan):
    """Issue 8: the report writes sizes as every face does (core/units.py), "bytes" in the
    report's language. The Chinese pair is 2,250 bytes each (45 bytes of UTF-8 x 50): 2.197
    KiB, "2.2 KB"; the payload pair 70 bytes each."""
    groups, problems = scan
    en = render_report(groups, problems, "html", app_version="1.0")
    zh = render_report(groups, problems, "html", app_version="1.0", language="zh_CN")
    assert en.count('title="2250 bytes">2.2 KB</td>') == 2
    assert zh.count('title="2250 字节">2.2 KB</td>') == 2
    assert en.count('title="70 bytes">70 bytes</td>') == 2
    assert zh.count('title="70 字节">70 字节</td>') == 2
    for page in (en, zh):
        assert "KiB" not in page and "kB" not in page


def test_documents_close_to_a_group_are_reported_apart_from_its_members(tmp_path: Path):
    """A real scan of a page and two edited copies that are each the same as the page but not
    as each other: the report lists the group's two members, and the other copy under
    ``close`` (JSON), as a row with its closest member in ``close_to`` (CSV), and in a table
    of its own below the group (HTML); it is no member and counts in no total."""
    from support.close_family import write_close_family

    from desktop_dedup.core.service import DedupService

    paths = write_close_family(tmp_path / "docs")
    with DedupService(tmp_path / "index.sqlite") as service:
        service.add_folder(tmp_path / "docs")
        service.scan()
        groups = service.groups()
    close_path = os.path.abspath(paths["edited-b"])
    original = os.path.abspath(paths["original"])

    data = json.loads(render_report(groups, [], "json"))
    (group,) = data["groups"]
    assert {m["path"] for m in group["members"]} == {
        original,
        os.path.abspath(paths["edited-a"]),
    }
    (close,) = group["close"]
    assert close["path"] == close_path and close["closest_member"] == original
    assert 0.75 <= close["similarity"] < 1.0
    assert close["size"] == paths["edited-b"].stat().st_size
    assert data["summary"]["documents"] == 2

    rows = list(csv.DictReader(io.StringIO(render_report(groups, [], "csv"))))
    assert [r["close_to"] for r in rows] == ["", "", original]
    assert rows[2]["path"] == close_path and rows[2]["is_reference"] == ""
    assert float(rows[2]["similarity"]) == pytest.approx(close["similarity"], abs=1e-4)

    page = render_report(groups, [], "html")
    table = page[page.index('<table class="close">') :]
    table = table[: table.index("</table>")]
    assert html.escape(close_path) in table and html.escape(original) in table
    assert f"{close['similarity'] * 100:.1f}%" in table
    members_table = page[page.index("<table><thead>") : page.index('<table class="close">')]
    assert html.escape(close_path) not in members_table
