"""Reports of a scan's duplicate groups and problems, as JSON, CSV or one self-contained HTML file.

Formats, and why they look the way they do:

* **JSON** (``schema_version`` 1) is for programs: exact keys, absolute paths, sizes in bytes,
  times in ISO 8601 UTC, ``ensure_ascii=False`` so Chinese names stay readable. Schema::

    {"schema_version": 1, "generated_at": "2026-11-22T07:30:00Z",
     "app": {"name": "desktop_dedup", "version": "..."},
     "settings": {...},
     "summary": {"groups", "documents", "reclaimable_bytes", "problems"},
     "groups": [{"id", "kind", "reclaimable_bytes",
                 "members": [{"path", "size", "modified", "format", "is_reference",
                              "distance", "similarity", "content_hash"}],
                 "close": [{"path", "size", "modified", "format", "similarity",
                            "closest_member"}]}],
     "problems": [{"path", "reason"}]}

  ``close`` lists the documents in no group that are the same as one of the group's members
  (``similarity`` with ``closest_member``, a member's path) but not as every member: the rule
  against chaining keeps them out of the group, so they are not among its ``members``, not
  counted in ``summary`` and never removed with it.

* **CSV** is for spreadsheets, so it is ONE table: a row per group member, then a row per problem
  (``group_id`` empty, ``problem`` holding the reason). Columns: ``group_id, kind, is_reference,
  path, size, modified, format, distance, similarity, problem, close_to``. A document close to a
  group (see ``close`` above) follows the group's members with ``is_reference`` and
  ``distance`` empty, its similarity with its closest member, and that member's path in
  ``close_to``, the only rows where it is not empty. :func:`write_report` writes it as
  UTF-8 *with* a byte-order mark, because Excel otherwise guesses a legacy code page and garbles
  Chinese file names; :func:`render_report` returns the text without the mark. Cells are never
  formula-like: paths are absolute (start with ``/`` or a drive letter) and reasons are ours.
* **HTML** is for people: one file with inline CSS, no scripts, no external assets, every piece of
  text passed through :func:`html.escape` (file names are untrusted input).

A file name that is not UTF-8 (each such byte a lone surrogate, as os.fsdecode holds it) is, in
JSON, the exact name as JSON escapes (``\\udcd7``: what Python's json gives back, and
os.fsencode turns into the bytes on disk); in CSV and HTML, which people read, each such byte is
a visible escape (``\\xd7``, pathrules.shown), as the command line prints it.
"""

from __future__ import annotations

import csv
import html
import io
import json
import os
import secrets
from collections.abc import Callable, Mapping, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from desktop_dedup.core import pathrules
from desktop_dedup.core.models import CloseDocument, Group, Member, Problem
from desktop_dedup.core.release import drop_gradually
from desktop_dedup.core.units import format_size

REPORT_FORMATS: tuple[str, ...] = ("json", "csv", "html")
SCHEMA_VERSION = 1
APP_NAME = "desktop_dedup"

CSV_COLUMNS: tuple[str, ...] = (
    "group_id",
    "kind",
    "is_reference",
    "path",
    "size",
    "modified",
    "format",
    "distance",
    "similarity",
    "problem",
    "close_to",
)


def _iso_utc(moment: datetime) -> str:
    """ISO 8601 in UTC with a ``Z``; naive times are taken to be UTC already (models say UTC)."""
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return moment.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _jsonable(value: object) -> object:
    """Settings may hold tuples, paths or enums; JSON gets lists and strings for them."""
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value, key=str) if isinstance(value, set | frozenset) else value
        return [_jsonable(v) for v in items]
    if value is None or isinstance(value, bool | int | float | str):
        return value
    if isinstance(value, datetime):
        return _iso_utc(value)
    return str(value)


def _member_record(member: Member) -> dict[str, object]:
    return {
        "path": os.path.abspath(member.path),
        "size": member.size,
        "modified": _iso_utc(member.modified),
        "format": member.format,
        "is_reference": member.is_reference,
        "distance": member.distance,
        "similarity": member.similarity,
        "content_hash": member.content_hash,
    }


def _close_record(close: CloseDocument) -> dict[str, object]:
    return {
        "path": os.path.abspath(close.path),
        "size": close.size,
        "modified": _iso_utc(close.modified),
        "format": close.format,
        "similarity": close.similarity,
        "closest_member": os.path.abspath(close.member_path),
    }


def _summary(groups: Sequence[Group], problems: Sequence[Problem]) -> dict[str, int]:
    return {
        "groups": len(groups),
        "documents": sum(len(g.members) for g in groups),
        "reclaimable_bytes": sum(g.reclaimable_size for g in groups),
        "problems": len(problems),
    }


def _render_json(
    groups: Sequence[Group],
    problems: Sequence[Problem],
    generated_at: datetime,
    settings: Mapping[str, object],
    app_version: str,
) -> str:
    document = {
        "schema_version": SCHEMA_VERSION,
        "generated_at": _iso_utc(generated_at),
        "app": {"name": APP_NAME, "version": app_version},
        "settings": _jsonable(settings),
        "summary": _summary(groups, problems),
        "groups": [
            {
                "id": group.id,
                "kind": str(group.kind),
                "reclaimable_bytes": group.reclaimable_size,
                "members": [_member_record(m) for m in group.members],
                "close": [_close_record(c) for c in group.close],
            }
            for group in groups
        ],
        "problems": [{"path": p.path, "reason": p.reason} for p in problems],
    }
    return json.dumps(document, ensure_ascii=False, indent=2) + "\n"


def _shown(path: str) -> str:
    """A path as CSV and HTML give it: absolute, a byte of its name that is not UTF-8 visible."""
    return pathrules.shown(os.path.abspath(path))


def _render_csv(groups: Sequence[Group], problems: Sequence[Problem]) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer)  # excel dialect: quotes where needed, CRLF rows
    writer.writerow(CSV_COLUMNS)
    for group in groups:
        for m in group.members:
            writer.writerow(
                [
                    group.id,
                    str(group.kind),
                    "true" if m.is_reference else "false",
                    _shown(m.path),
                    m.size,
                    _iso_utc(m.modified),
                    m.format,
                    m.distance,
                    f"{m.similarity:.4f}",
                    "",
                    "",
                ]
            )
        for c in group.close:
            writer.writerow(
                [
                    group.id,
                    str(group.kind),
                    "",
                    _shown(c.path),
                    c.size,
                    _iso_utc(c.modified),
                    c.format,
                    "",
                    f"{c.similarity:.4f}",
                    "",
                    _shown(c.member_path),
                ]
            )
    for problem in problems:
        writer.writerow(
            ["", "", "", pathrules.shown(problem.path), "", "", "", "", "", problem.reason, ""]
        )
    return buffer.getvalue()


# The HTML report is for people, so it speaks the interface's language (the CSV and JSON are
# for programs and stay English). The core has no Qt, hence its own small table.
_HTML_TEXT: dict[str, dict[str, str]] = {
    "en": {
        "lang": "en",
        "title": "report",
        "heading": "Duplicate documents report",
        "generated": "Generated {when} by {app} {version}",
        "groups": "Groups",
        "documents": "Documents in groups",
        "reclaimable": "Reclaimable",
        "byte": "byte",
        "bytes": "bytes",
        "problems": "Problems",
        "group": "Group {id} &middot; {kind} &middot; {count} documents, {size} reclaimable",
        "keep": "Keep",
        "path": "Path",
        "size": "Size",
        "modified": "Modified (UTC)",
        "format": "Format",
        "similarity": "Similarity",
        "distance": "Distance",
        "reference": "reference",
        "reason": "Reason",
        "none": "None.",
        "identical": "Identical files",
        "same_text": "Same text",
        "near": "Near duplicates",
        "close": "Close to this group, but not the same as every document in it (not removed "
        "with it):",
        "closest": "Closest to",
    },
    "zh_CN": {
        "lang": "zh-CN",
        "title": "报告",
        "heading": "重复文档报告",
        "generated": "由 {app} {version} 生成于 {when}",
        "groups": "组数",
        "documents": "组内文档",
        "reclaimable": "可释放空间",
        "byte": "字节",
        "bytes": "字节",
        "problems": "问题",
        "group": "第 {id} 组 &middot; {kind} &middot; {count} 个文档，可释放 {size}",
        "keep": "保留",
        "path": "路径",
        "size": "大小",
        "modified": "修改时间（UTC）",
        "format": "格式",
        "similarity": "相似度",
        "distance": "距离",
        "reference": "参考文件",
        "reason": "原因",
        "none": "无。",
        "identical": "完全相同的文件",
        "same_text": "文字相同",
        "near": "近似重复",
        "close": "与本组接近、但并非与组内每个文档都相同的文档（不随本组删除）：",
        "closest": "最接近",
    },
}
REPORT_LANGUAGES = tuple(_HTML_TEXT)

_CSS = """
body { font-family: system-ui, "Segoe UI", "Noto Sans CJK SC", "Microsoft YaHei", sans-serif;
       margin: 2em; color: #1d1d1f; background: #fff; }
h1 { font-size: 1.5em; } h2 { font-size: 1.15em; margin-top: 2em; }
table { border-collapse: collapse; width: 100%; margin: .5em 0 1.5em; }
th, td { border: 1px solid #d0d0d5; padding: .3em .6em; text-align: left; vertical-align: top; }
th { background: #f2f2f5; }
td.num { text-align: right; white-space: nowrap; }
td.path { word-break: break-all; font-family: ui-monospace, Menlo, Consolas, monospace; }
tr.reference { background: #eef7ee; font-weight: 600; }
table.close { color: #4a4a4f; }
.badge { display: inline-block; padding: 0 .4em; border-radius: .3em; background: #2e7d32;
         color: #fff; font-size: .8em; }
dl.summary { display: grid; grid-template-columns: max-content auto; gap: .2em 1em; }
dl.summary dt { font-weight: 600; } dl.summary dd { margin: 0; }
.muted { color: #6e6e73; }
"""


def _html_lines(
    groups: Sequence[Group],
    problems: Sequence[Problem],
    generated_at: datetime,
    settings: Mapping[str, object],
    app_version: str,
    language: str = "en",
    reason_text: Callable[[str], str] | None = None,
) -> list[str]:
    """The HTML report's lines (joined by line breaks, the page)."""
    esc = html.escape
    reason_of = reason_text or str
    t = _HTML_TEXT.get(language, _HTML_TEXT["en"])

    def size(n: int) -> str:  # the one size rule, in the report's language
        return esc(format_size(n, labels={"byte": t["byte"], "bytes": t["bytes"]}))

    summary = _summary(groups, problems)
    generated = t["generated"].format(
        when=esc(_iso_utc(generated_at)), app=esc(APP_NAME), version=esc(app_version)
    )
    out: list[str] = [
        "<!DOCTYPE html>",
        f'<html lang="{t["lang"]}"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{esc(APP_NAME)} {t['title']}</title>",
        f"<style>{_CSS}</style></head><body>",
        f"<h1>{t['heading']}</h1>",
        f'<p class="muted">{generated}</p>',
        '<dl class="summary">',
        f"<dt>{t['groups']}</dt><dd>{summary['groups']}</dd>",
        f"<dt>{t['documents']}</dt><dd>{summary['documents']}</dd>",
        f"<dt>{t['reclaimable']}</dt><dd>{size(summary['reclaimable_bytes'])} "
        f"({summary['reclaimable_bytes']} {t['bytes']})</dd>",
        f"<dt>{t['problems']}</dt><dd>{summary['problems']}</dd>",
    ]
    for key, value in settings.items():
        value = _jsonable(value)
        shown = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
        out.append(f"<dt>{esc(str(key))}</dt><dd>{esc(shown)}</dd>")
    out.append("</dl>")

    for group in groups:
        label = t.get(str(group.kind), str(group.kind))
        heading = t["group"].format(
            id=group.id,
            kind=esc(label),
            count=len(group.members),
            size=size(group.reclaimable_size),
        )
        out.append(f'<h2 id="group-{group.id}">{heading}</h2>')
        out.append(
            f"<table><thead><tr><th>{t['keep']}</th><th>{t['path']}</th><th>{t['size']}</th>"
            f"<th>{t['modified']}</th><th>{t['format']}</th><th>{t['similarity']}</th>"
            f"<th>{t['distance']}</th></tr></thead><tbody>"
        )
        for m in group.members:
            row_class = ' class="reference"' if m.is_reference else ""
            keep = f'<span class="badge">{t["reference"]}</span>' if m.is_reference else ""
            out.append(
                f"<tr{row_class}><td>{keep}</td>"
                f'<td class="path">{esc(_shown(m.path))}</td>'
                f'<td class="num" title="{m.size} {t["bytes"]}">{size(m.size)}</td>'
                f"<td>{esc(_iso_utc(m.modified))}</td><td>{esc(m.format)}</td>"
                f'<td class="num">{m.similarity * 100:.1f}%</td>'
                f'<td class="num">{m.distance}</td></tr>'
            )
        out.append("</tbody></table>")
        if group.close:
            out.append(f'<p class="muted">{t["close"]}</p>')
            out.append(
                f'<table class="close"><thead><tr><th>{t["path"]}</th><th>{t["size"]}</th>'
                f"<th>{t['modified']}</th><th>{t['format']}</th><th>{t['similarity']}</th>"
                f"<th>{t['closest']}</th></tr></thead><tbody>"
            )
            for c in group.close:
                out.append(
                    f'<tr><td class="path">{esc(_shown(c.path))}</td>'
                    f'<td class="num" title="{c.size} {t["bytes"]}">{size(c.size)}</td>'
                    f"<td>{esc(_iso_utc(c.modified))}</td><td>{esc(c.format)}</td>"
                    f'<td class="num">{c.similarity * 100:.1f}%</td>'
                    f'<td class="path">{esc(_shown(c.member_path))}</td></tr>'
                )
            out.append("</tbody></table>")

    out.append(f"<h2>{t['problems']} ({len(problems)})</h2>")
    if problems:
        out.append(
            f"<table><thead><tr><th>{t['path']}</th><th>{t['reason']}</th></tr></thead><tbody>"
        )
        for p in problems:
            reason = esc(reason_of(p.reason))
            out.append(
                f'<tr><td class="path">{esc(pathrules.shown(p.path))}</td><td>{reason}</td></tr>'
            )
        out.append("</tbody></table>")
    else:
        out.append(f'<p class="muted">{t["none"]}</p>')
    out.append("</body></html>\n")
    return out


def render_report(
    groups: Sequence[Group],
    problems: Sequence[Problem],
    fmt: str,
    *,
    generated_at: datetime | None = None,
    settings: Mapping[str, object] | None = None,
    app_version: str = "",
    language: str = "en",
    reason_text: Callable[[str], str] | None = None,
) -> str:
    """Render a report as text in ``fmt`` (one of :data:`REPORT_FORMATS`); the HTML one in
    ``language`` (one of :data:`REPORT_LANGUAGES`, English otherwise), a skipped file's reason
    as ``reason_text`` gives it in that language (the app's own translation; the core has none).

    Raises ``ValueError`` for an unknown format (a caller's mistake, not per-file trouble).
    """
    fmt = fmt.lower()
    if fmt not in REPORT_FORMATS:
        raise ValueError(
            f"unknown report format {fmt!r}; choose one of {', '.join(REPORT_FORMATS)}"
        )
    moment = generated_at or datetime.now(UTC)
    settings = settings or {}
    if fmt == "json":
        return _render_json(groups, problems, moment, settings, app_version)
    if fmt == "csv":
        return _render_csv(groups, problems)
    lines = _html_lines(groups, problems, moment, settings, app_version, language, reason_text)
    return "\n".join(lines)


def write_report(
    path: str | os.PathLike[str],
    groups: Sequence[Group],
    problems: Sequence[Problem],
    fmt: str,
    *,
    generated_at: datetime | None = None,
    settings: Mapping[str, object] | None = None,
    app_version: str = "",
    language: str = "en",
    reason_text: Callable[[str], str] | None = None,
) -> None:
    """Write a report atomically: a reader sees the old file or the whole new one, never half.

    The text goes to a temporary file in the same folder (same filesystem, so the final
    ``os.replace`` is atomic), is flushed to disk, then renamed over ``path``. CSV is written with
    a UTF-8 byte-order mark for Excel. ``OSError`` (missing folder, no permission) propagates.
    """
    if fmt.lower() == "html":  # its lines, not one string of the whole page
        lines = _html_lines(
            groups,
            problems,
            generated_at or datetime.now(UTC),
            settings or {},
            app_version,
            language,
            reason_text,
        )
    else:
        lines = [
            render_report(
                groups,
                problems,
                fmt,
                generated_at=generated_at,
                settings=settings,
                app_version=app_version,
                language=language,
                reason_text=reason_text,
            )
        ]
    target = Path(path)
    encoding = "utf-8-sig" if fmt.lower() == "csv" else "utf-8"
    temp = target.with_name(f".{target.name}.{secrets.token_hex(6)}.tmp")
    try:
        # Plain open (not mkstemp) so the report gets the user's usual permissions (umask).
        # a lone surrogate (a name that is not UTF-8) is left in JSON only: \udcd7 there is
        # its JSON escape
        with open(temp, "x", encoding=encoding, errors="backslashreplace", newline="") as handle:
            _write_lines(handle, lines)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(temp, target)
    except BaseException:
        temp.unlink(missing_ok=True)
        raise
    finally:
        drop_gradually(lines)  # a large page's lines: not freed in one hold of the GIL


# What one write hands over at most (characters). Encoding and writing a report of 77 MB in one
# call held the interpreter lock for 0.2 s, and the app's window, whose export runs on another
# thread, stood still that long (bench_gui); a piece at a time, it stands still for none.
_WRITE_PIECE = 1 << 20


def _write_lines(handle: Any, lines: Sequence[str]) -> None:
    """Write ``"\n".join(lines)`` to ``handle`` a piece of about _WRITE_PIECE characters at a
    time: a long line (a whole report) in slices, short ones joined into pieces."""
    batch: list[str] = []
    size = 0
    first = True

    def flush() -> None:
        nonlocal batch, size, first
        if batch:
            text = "\n".join(batch)
            if not first:
                text = "\n" + text
            for at in range(0, len(text), _WRITE_PIECE):
                handle.write(text[at : at + _WRITE_PIECE])
            first = False
        batch, size = [], 0

    for line in lines:
        batch.append(line)
        size += len(line) + 1
        if size >= _WRITE_PIECE:
            flush()
    flush()
