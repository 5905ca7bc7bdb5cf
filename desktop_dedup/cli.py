"""Command line: the same service as the GUI, headless. Progress goes to stderr.

Everything the CLI writes (stdout, stderr, report files) is UTF-8 whatever the locale, so a
report piped from a Chinese Windows console is not cp936. Exit codes: see :data:`EXIT_CODES`.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import re
import signal
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn

from desktop_dedup import __version__, interrupts
from desktop_dedup.core import pathrules
from desktop_dedup.core.errors import DedupError
from desktop_dedup.core.models import (
    DEFAULT_CANDIDATE_DISTANCE,
    DEFAULT_EXCLUDES,
    DEFAULT_EXTENSIONS,
    DEFAULT_MIN_SIMILARITY,
    MAX_SUPPORTED_DISTANCE,
    check_similarity,
)
from desktop_dedup.core.progress import CancelToken, ProgressEvent, Stage
from desktop_dedup.core.units import format_size, plural

EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_PARTIAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130
EXIT_DIFF_DIFFERENT, EXIT_DIFF_TROUBLE = 1, 2  # ``diff`` answers as diff(1) does

EXIT_CODES = (
    (EXIT_OK, "done (a scan that skipped unreadable files lists them and still exits 0)"),
    (EXIT_ERROR, "an error stopped the command (no index at --db, database or disk trouble)"),
    (EXIT_USAGE, "bad usage (unknown option, missing argument)"),
    (EXIT_PARTIAL, "remove --yes: some files were refused or failed; each is listed with why"),
    (EXIT_INTERRUPTED, "interrupted (Ctrl-C); what was done so far is kept"),
)
DIFF_EXIT_CODES = (
    (EXIT_OK, "the two texts are the same"),
    (EXIT_DIFF_DIFFERENT, "the texts differ"),
    (EXIT_DIFF_TROUBLE, "trouble: a file is missing or cannot be read"),
)


def _exit_codes_text(codes=EXIT_CODES, title: str = "exit status") -> str:
    return f"{title}:\n" + "\n".join(f"  {code:<4} {what}" for code, what in codes)


def use_utf8_streams() -> None:
    """stdout and stderr write UTF-8 whatever the locale or console code page says; a
    character that still cannot be written (a lone surrogate) becomes a visible escape."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            try:
                reconfigure(encoding="utf-8", errors="backslashreplace")
            except (ValueError, OSError):  # already written to in another encoding
                pass


def shown(text: str) -> str:
    """``text`` safe to print to a terminal: control characters (ESC sequences that retitle the
    window or recolour it, a newline that would fake a line of output) and bidirectional
    overrides are written as visible escapes (\\x1b, \\n); a file name that is not UTF-8 as the
    app and the reports show it (pathrules.shown: read in its East Asian code page, else
    escaped)."""
    if text.isprintable():
        return text
    text = pathrules.shown(text)
    out = []
    for ch in text:
        if ch.isprintable() or ch == " ":
            out.append(ch)
        else:
            out.append(ch.encode("unicode_escape").decode("ascii"))
    return "".join(out)


class TerminalProgress:
    """A one-line progress bar on stderr (rich), redrawn at most 10 times a second; silent when
    stderr is not a terminal. rich measures display columns, so a Chinese file name (two
    columns a character) is cut to fit the terminal's width instead of wrapping and leaving
    stale lines behind; it honours NO_COLOR and TERM=dumb. Call :meth:`close` when done."""

    def __init__(self, stream=None, enabled: bool | None = None):
        self.stream = sys.stderr if stream is None else stream
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.last = 0.0
        self.started = time.monotonic()
        self.stage = ""
        self._progress = None
        self._task = None

    def _start(self) -> None:
        from rich.console import Console
        from rich.progress import BarColumn, Progress, TextColumn
        from rich.table import Column

        console = Console(file=self.stream, highlight=False)
        self._progress = Progress(
            TextColumn("{task.description:>14}", table_column=Column(no_wrap=True)),
            BarColumn(bar_width=24),
            TextColumn("{task.fields[count]}", table_column=Column(no_wrap=True)),
            TextColumn(
                "{task.fields[name]}",
                markup=False,
                table_column=Column(no_wrap=True, overflow="ellipsis", ratio=1),
            ),
            console=console,
            auto_refresh=False,  # redrawn from __call__: no thread of its own
            transient=True,
        )
        self._progress.start()
        self._task = self._progress.add_task("", total=None, count="", name="")

    def __call__(self, ev: ProgressEvent) -> None:
        if not self.enabled:
            return
        now = time.monotonic()
        if ev.stage == Stage.DONE:
            self.close()
            return
        if ev.stage != self.stage:
            self.stage = ev.stage
            self.started = now
        elif now - self.last < 0.1 and not ev.ocr_page:
            return
        self.last = now
        if self._progress is None:
            self._start()
        count = []
        if ev.total:
            count.append(f"{ev.done}/{ev.total}")
            elapsed = now - self.started
            frac = ev.done / ev.total
            if ev.bytes_done and elapsed > 0.5:
                count.append(f"{format_size(ev.bytes_done / elapsed)}/s")
            if 0 < frac < 1 and elapsed > 1:
                count.append(f"ETA {elapsed / frac - elapsed:.0f}s")
        elif ev.done:
            count.append(counted(ev.done, "file"))
        self._progress.update(
            self._task,
            description=str(ev.stage),
            total=ev.total or None,
            completed=ev.done,
            count="  ".join(count),
            name=(shown(os.path.basename(ev.current)) if ev.current else "")
            + (f" (OCR page {ev.ocr_page}/{ev.ocr_pages})" if ev.ocr_page else ""),
        )
        self._progress.refresh()

    def close(self) -> None:
        """Take the bar off the screen (it is transient) and give the terminal back."""
        if self._progress is not None:
            self._progress.stop()
            self._progress = None


def _service(db: str | None, *, must_exist: bool = False):
    """The service over ``db``; ``must_exist`` for commands that only read an index (a typo in
    --db must not silently create an empty one and report nothing)."""
    from desktop_dedup.core.service import DedupService, default_db_path
    from desktop_dedup.core.store import display_name, has_index, is_database_url

    if must_exist and is_database_url(db):
        if not has_index(db):
            raise DedupError(f"no index in {display_name(db)}: scan a folder first, or check --db")
    elif must_exist:
        path = Path(db).expanduser() if db else default_db_path()
        if not path.is_file():
            raise DedupError(f"no index at {path}: scan a folder first, or check --db")
    return DedupService(db)


def cmd_scan(args: argparse.Namespace) -> int:
    from desktop_dedup.core.forkserver import prestart

    prestart()  # the readers load on the other core while the store loads here
    # with no folders given, an index that lists some is read: a typo in --db makes none
    with _service(args.db, must_exist=not args.paths) as svc:
        if not args.paths and not svc.folders_to_scan():
            print(
                "desktop-dedup scan: error: no folders given, and the index lists none on "
                "this machine: name the folders to scan (PATH)",
                file=sys.stderr,
            )
            return EXIT_USAGE
        changes = {}
        if args.distance is not None:
            changes["max_distance"] = args.distance
        if args.similarity is not None:
            changes["min_similarity"] = args.similarity
        if args.exclude:
            changes["exclude_globs"] = tuple(DEFAULT_EXCLUDES) + tuple(args.exclude)
        if args.types:
            changes["extensions"] = tuple(
                t.strip().lower().lstrip(".") for t in args.types.split(",") if t.strip()
            )
        if args.min_size is not None:
            changes["min_size"] = args.min_size
        if args.text_types is not None:
            changes["text_extensions"] = tuple(
                t.strip().lower().lstrip(".") for t in args.text_types.split(",") if t.strip()
            )
        if args.ocr is not None:
            changes["ocr"] = args.ocr
        # The flags are this scan's (checked as the app's settings are); --save keeps them.
        run = svc.settings_with(**changes)
        if args.save and changes:
            svc.update_settings(**changes)
        if run.ocr and svc.ocr_options(run).engine is None:
            from desktop_dedup.core import ocr

            print(f"warning: OCR is on, but {ocr.status(None)}", file=sys.stderr)
        cancel = CancelToken()
        previous = signal.signal(signal.SIGINT, lambda *_: cancel.cancel())
        bar = TerminalProgress(enabled=None if not args.quiet else False)
        try:
            summary = svc.scan(
                args.paths or None,  # none: the index's folder list
                progress=bar,
                cancel=cancel,
                reference_roots=args.reference or (),
                workers=args.workers,
                settings=run,
            )
        finally:
            bar.close()
            signal.signal(signal.SIGINT, previous)
        out = sys.stdout
        saved = svc.settings()
        threshold = run.min_similarity
        if args.json:
            _print_json(
                {
                    "files_seen": summary.files_seen,
                    "files_read": summary.files_fingerprinted,
                    "files_unchanged_or_moved": summary.files_reused,
                    "files_read_again": summary.files_read_again,
                    "files_gone": summary.files_removed,
                    "files_kept": summary.files_kept,
                    "bytes_read": summary.bytes_read,
                    "text_bytes": summary.text_bytes,
                    "seconds": round(summary.seconds, 3),
                    "groups": summary.groups,
                    "duplicate_documents": summary.duplicate_documents,
                    "reclaimable_bytes": summary.reclaimable_size,
                    "min_similarity": threshold,
                    "settings_saved": run == saved,
                    "interrupted": summary.cancelled,
                    "skipped": [{"path": p.path, "reason": p.reason} for p in summary.problems],
                    "filtered": summary.filtered.as_dict(),
                }
            )
            return EXIT_INTERRUPTED if summary.cancelled else EXIT_OK
        if summary.cancelled:  # the listing's count is not what was read
            print(
                f"Scan interrupted after {summary.seconds:.1f} s: {summary.files_fingerprinted} "
                f"of {summary.files_seen} files read, {summary.files_reused} unchanged or moved.",
                file=out,
            )
        else:
            print(
                f"Scanned {counted(summary.files_seen, 'file')} in {summary.seconds:.1f} s: "
                f"{summary.files_fingerprinted} read{_again(summary.files_read_again)}, "
                f"{summary.files_reused} unchanged or moved, "
                f"{summary.files_removed} gone from the index.",
                file=out,
            )
        if summary.files_kept:
            print(
                f"{counted(summary.files_kept, 'file')} in folders this scan could not read "
                "kept as last scanned (the folders are listed below).",
                file=out,
            )
        if summary.files_fingerprinted:
            print(
                f"Read {format_size(summary.bytes_read)} "
                f"({format_size(summary.text_bytes)} of text).",
                file=out,
            )
        print(
            f"{counted(summary.groups, 'duplicate group')}, "
            f"{summary.duplicate_documents} documents, "
            f"{format_size(summary.reclaimable_size)} reclaimable "
            f"(near duplicates: at least {threshold:.0%} the same text).",
            file=out,
        )
        if summary.close_documents:
            n = summary.close_documents
            print(
                f"{n} more {'document is' if n == 1 else 'documents are'} close to a group but "
                "not the same as every document in it: not counted, listed under the group "
                "(report: close).",
                file=out,
            )
        if run != saved:
            print(one_run_text(run, saved), file=out)
        filtered = filtered_text(summary.filtered)
        if filtered:
            print(filtered, file=out)
        problems = summary.problems
        if problems:
            print(f"{counted(len(problems), 'file')} skipped:", file=out)
            for p in problems[: args.max_problems]:
                print(f"  {shown(p.path)}: {p.reason}", file=out)
            if len(problems) > args.max_problems:
                print(
                    f"  ... and {len(problems) - args.max_problems} more (see the report)", file=out
                )
        if summary.marks_dropped:
            for path in summary.marks_dropped:
                print(f"Mark removed: {shown(path)} changed since it was marked.", file=out)
        if summary.cancelled:
            print("Scan interrupted; what was read is kept and the next scan carries on.", file=out)
            return EXIT_INTERRUPTED
    return EXIT_OK


_SETTING_FLAGS = {
    "min_similarity": "--similarity",
    "max_distance": "--distance",
    "exclude_globs": "--exclude",
    "extensions": "--types",
    "min_size": "--min-size",
    "text_extensions": "--text-types",
    "ocr": "--ocr",
}


def counted(n: int, noun: str) -> str:
    """``n`` and ``noun``, with an s unless ``n`` is 1: "1 file", "2 files" (English; every
    count of things the commands print goes through here, by the app's rule: units.plural)."""
    return plural(f"{n} {noun}(s)", n)


def _again(n: int) -> str:
    """What a scan's summary says of the unchanged files it read again (after an update that
    reads or fingerprints files differently), after its count of files read."""
    if not n:
        return ""
    return f" ({n} of them again: this version reads documents differently)"


def one_run_text(run, saved) -> str:
    """What a scan's flags without --save did: this run only, the saved settings unchanged."""
    flags = [f for key, f in _SETTING_FLAGS.items() if getattr(run, key) != getattr(saved, key)]
    flags = ["--no-ocr" if f == "--ocr" and not run.ocr else f for f in flags]
    text = f"Not saved: {', '.join(flags)} applied to this scan only (add --save to keep them)."
    if run.matching != saved.matching:
        text += (
            " The index is grouped by the saved settings again (near duplicates: at least "
            f"{saved.min_similarity:.0%} the same text): that is what report, remove and the "
            "app show."
        )
    return text


def filtered_text(counts) -> str:
    """One line saying what the scan's filters passed over ("" when nothing)."""
    parts = []
    if counts.other_types:
        top = sorted(counts.by_extension.items(), key=lambda kv: (-kv[1], kv[0]))
        shown_types = ", ".join(f"{'.' + e if e else 'no extension'} {n}" for e, n in top[:6])
        more = ", ..." if len(top) > 6 else ""
        parts.append(f"{counts.other_types} of other types ({shown_types}{more})")
    if counts.not_text:
        parts.append(f"{counts.not_text} without an extension that are not text")
    if counts.scripts:
        parts.append(f"{counted(counts.scripts, 'script')} without an extension (#!)")
    if counts.excluded_files or counts.excluded_folders:
        parts.append(
            f"{counted(counts.excluded_files, 'file')} and "
            f"{counted(counts.excluded_folders, 'folder')} "
            "matching an exclude pattern"
        )
    if counts.too_small:
        parts.append(f"{counts.too_small} under the minimum size")
    if counts.hard_links:
        parts.append(f"{counted(counts.hard_links, 'hard link')} to a file already listed")
    if not parts:
        return ""
    return "Not scanned (filters): " + "; ".join(parts) + "."


_REPORT_SUFFIXES = {".json": "json", ".csv": "csv", ".html": "html", ".htm": "html"}


def cmd_report(args: argparse.Namespace) -> int:
    fmt = args.format
    if fmt is None:  # from the output file's name, JSON otherwise
        fmt = _REPORT_SUFFIXES.get(Path(args.output or "").suffix.lower(), "json")
    with _service(args.db, must_exist=True) as svc:
        if args.output and args.output != "-":
            svc.export_report(fmt, args.output)
            print(f"Wrote {args.output}", file=sys.stderr)
        else:
            sys.stdout.write(svc.report(fmt))
            if not sys.stdout.isatty():
                sys.stdout.flush()
    return EXIT_OK


def cmd_remove(args: argparse.Namespace) -> int:
    from desktop_dedup.core import marking
    from desktop_dedup.core.actions import REASON_NEAR, REASON_NOT_IDENTICAL

    with _service(args.db, must_exist=True) as svc:
        groups = svc.groups()
        if args.keep_in:
            ids = marking.mark_keeping(
                groups, marking.KeepRule.IN_FOLDER, str(Path(args.keep_in).resolve())
            )
        elif args.keep == "reference":
            ids = marking.mark_all_but_reference(groups)
        else:
            ids = marking.mark_keeping(groups, args.keep)
        members = marking.marked_members(groups, ids)
        if args.hardlink and args.move_to:
            raise DedupError("--hardlink and --move-to cannot be used together")
        if args.keep_structure and not args.move_to:
            raise DedupError("--keep-structure goes with --move-to DIR")
        if args.hardlink:
            verb, action = "replace by hard links to the kept copy", "hardlink"
        elif args.move_to:
            verb, action = f"move to {args.move_to}", "move"
        else:
            verb, action = "move to the trash", "trash"
        if not members:
            if args.json:
                _print_json(_removal_json(action, args, dry_run=not args.yes, removed=[], kept=[]))
            else:
                print("Nothing to remove.")
            return EXIT_OK
        # The same group checks the removal itself makes: a verified copy is kept, and near
        # duplicates (text the kept copy lacks) go only with --include-near.
        allowed, refused = svc.plan_removal(
            [m.doc_id for m in members], include_near=args.include_near, hardlink=args.hardlink
        )
        going = [m for m in members if m.doc_id in set(allowed)]
        size = sum(m.size for m in going)
        if args.json and not args.yes:
            removed = [{"path": m.path, "size": m.size} for m in going]
            kept = [{"path": r.path, "reason": r.reason} for r in refused]
            _print_json(_removal_json(action, args, dry_run=True, removed=removed, kept=kept))
            return EXIT_OK
        if not args.json:
            for m in going:
                print(f"  {shown(m.path)}")
            for r in refused:
                print(f"  kept {shown(r.path)}: {r.reason}")
        if not args.yes:
            print(
                f"Would {verb} {counted(len(going), 'file')} ({format_size(size)}); "
                "nothing was changed. Add --yes to do it."
            )
            return EXIT_OK
        cancel = CancelToken()
        previous = signal.signal(signal.SIGINT, lambda *_: cancel.cancel())
        try:
            ids_in_order = [m.doc_id for m in members]
            if args.hardlink:
                results = svc.hardlink(ids_in_order, cancel=cancel)
            elif args.move_to:
                results = svc.move(
                    ids_in_order,
                    args.move_to,
                    cancel=cancel,
                    include_near=args.include_near,
                    keep_structure=args.keep_structure,
                )
            else:
                results = svc.trash(ids_in_order, cancel=cancel, include_near=args.include_near)
        finally:
            signal.signal(signal.SIGINT, previous)
        done = [r for r in results if r.ok]
        failed = [r for r in results if not r.ok]
        if args.json:
            sizes = {m.doc_id: m.size for m in members}
            removed = [
                {"path": r.path, "size": sizes.get(r.doc_id, 0), "destination": r.destination}
                for r in done
            ]
            kept = [{"path": r.path, "reason": r.reason} for r in failed]
            out = _removal_json(action, args, dry_run=False, removed=removed, kept=kept)
            _print_json(dict(out, interrupted=cancel.cancelled))
        else:
            print(f"{len(done)} of {counted(len(members), 'file')} removed ({verb}).")
            for r in failed:
                print(f"  skipped {shown(r.path)}: {r.reason}")
        if cancel.cancelled:
            return EXIT_INTERRUPTED
        # Near duplicates left out without --include-near were kept by choice, not refused.
        left_by_choice = (REASON_NEAR, REASON_NOT_IDENTICAL) if args.hardlink else (REASON_NEAR,)
        return EXIT_PARTIAL if any(r.reason not in left_by_choice for r in failed) else EXIT_OK


def _given_path(path: str) -> str:
    """A path given on the command line as the index names it: ``~`` expanded, absolute,
    links resolved (as the scan resolves its folders)."""
    return os.path.realpath(os.path.abspath(os.path.expanduser(path)))


def cmd_restore(args: argparse.Namespace) -> int:
    with _service(args.db, must_exist=True) as svc:
        open_entries = svc.restorable()  # newest first
        if not args.items:
            ids = [e.id for e in open_entries]
        else:
            ids = []
            for item in args.items:
                if item.isdigit():
                    ids.append(int(item))
                    continue
                path = _given_path(item)
                match = next((e.id for e in open_entries if e.path == path), None)
                if match is None:
                    raise DedupError(
                        f"no removal of {path} in the journal that can be restored "
                        "(see the journal in the app, or run restore without a path)"
                    )
                ids.append(match)
        results = svc.restore(ids, dry_run=not args.yes)
        done = [r for r in results if r.ok]
        failed = [r for r in results if not r.ok]
        if args.json:
            _print_json(
                {
                    "action": "restore",
                    "dry_run": not args.yes,
                    "restored": [
                        {"entry": r.entry_id, "path": r.path, "from": r.source} for r in done
                    ],
                    "kept": [
                        {"entry": r.entry_id, "path": r.path, "reason": r.reason} for r in failed
                    ],
                }
            )
        else:
            if not results:
                print("Nothing to restore.")
            for r in done:
                print(f"  {shown(r.path)}  (from {shown(r.source)})")
            for r in failed:
                print(f"  {'kept' if not args.yes else 'skipped'} {shown(r.path)}: {r.reason}")
            if not args.yes and results:
                print(
                    f"Would restore {counted(len(done), 'file')}; nothing was changed. "
                    "Add --yes to do it."
                )
            elif results:
                again = {0: "", 1: "; scan again to see it"}.get(
                    len(done), "; scan again to see them"
                )
                print(f"{len(done)} of {counted(len(results), 'file')} restored{again}.")
        return EXIT_PARTIAL if args.yes and failed else EXIT_OK


def _removal_json(action: str, args: argparse.Namespace, *, dry_run: bool, removed, kept) -> dict:
    """What ``remove --json`` prints: the plan (dry run) or what happened, file by file."""
    return {
        "action": action,
        "target": str(Path(args.move_to).resolve()) if args.move_to else None,
        "dry_run": dry_run,
        "removed": removed,
        "removed_bytes": sum(r["size"] for r in removed),
        "kept": kept,
        "interrupted": False,
    }


def cmd_forget(args: argparse.Namespace) -> int:
    with _service(args.db, must_exist=True) as svc:
        folders = [_given_path(f) for f in args.folders]
        kept = svc.forget_kept(folders or None, dry_run=not args.yes)
        if args.json:
            _print_json(
                {
                    "action": "forget",
                    "dry_run": not args.yes,
                    "folders": [
                        {"path": k.path, "files": k.files, "reason": k.reason} for k in kept
                    ],
                }
            )
            return EXIT_OK
        if not kept:
            print("No files kept from folders a scan could not read.")
            return EXIT_OK
        for k in kept:
            print(f"  {shown(k.path)}  {counted(k.files, 'file')} ({shown(k.reason)})")
        files = counted(sum(k.files for k in kept), "file")
        if args.yes:
            print(f"Forgot {files}: they left the index (the files themselves were not touched).")
        else:
            print(f"Would forget {files}; nothing was changed. Add --yes to do it.")
        return EXIT_OK


def _print_json(data: dict) -> None:
    """One JSON document on stdout (UTF-8, see :func:`use_utf8_streams`)."""
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=2) + "\n")


_COLORS = {"delete": "\x1b[31;9m", "insert": "\x1b[32;1m", "replace": "\x1b[33m"}


def cmd_diff(args: argparse.Namespace) -> int:
    from desktop_dedup.core.errors import ExtractionError
    from desktop_dedup.core.service import diff_files

    try:
        if args.db is None:
            result = diff_files(
                args.file_a, args.file_b, ignore_whitespace_punct=args.ignore_space_punct
            )
        else:  # the index's figure for the two documents: what its groups and reports show
            with _service(args.db, must_exist=True) as svc:
                ids = []
                for name in (args.file_a, args.file_b):
                    found = svc.store.ids_by_path([str(Path(name).expanduser().resolve())])
                    if not found:
                        raise DedupError(
                            f"{name} is not in the index: scan its folder, or leave out --db"
                        )
                    ids.append(found[0])
                result = svc.diff(*ids, ignore_whitespace_punct=args.ignore_space_punct)
    except (ExtractionError, DedupError) as exc:
        reason = exc.reason if isinstance(exc, ExtractionError) else str(exc)
        print(f"desktop-dedup: {shown(reason)}", file=sys.stderr)
        return EXIT_DIFF_TROUBLE
    color = args.color == "always" or (
        args.color == "auto" and sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    )

    def render(spans, side: str) -> str:
        out = []
        for text, tag in spans:
            if tag == "equal":
                out.append(text)
            elif color:
                out.append(_COLORS.get(tag, "") + text + "\x1b[0m")
            elif side == "a":
                out.append("[-" + text + "-]")
            else:
                out.append("{+" + text + "+}")
        return "".join(out).rstrip("\n")

    w = sys.stdout.write
    w(f"--- {shown(args.file_a)}\n+++ {shown(args.file_b)}\n")
    w(f"similarity {result.similarity:.3f} ({result.a_words} / {result.b_words} words)\n")
    if result.swapped:
        first, second = (shown(word) for word in result.swapped)
        w(
            f"taken for two documents: {first!r} recurs in one and seldom or never in the "
            f"other, {second!r} the other way round, as in two pages of one template that name "
            "two things\n"
        )
    if result.boilerplate:
        w(
            "taken for two documents: what they share is text that many other documents of the "
            "index hold too (a disclaimer, a template's lines), and without it each is a text of "
            "its own\n"
        )
    for row in result.rows:
        if row.tag == "equal":
            continue
        if row.a_lineno is not None:
            w(f"-{row.a_lineno:>5}: {render(row.a_spans, 'a')}\n")
        if row.b_lineno is not None:
            w(f"+{row.b_lineno:>5}: {render(row.b_spans, 'b')}\n")
    # as diff(1): 0 the texts are the same, 1 they differ, 2 trouble
    return EXIT_DIFF_DIFFERENT if any(row.tag != "equal" for row in result.rows) else EXIT_OK


COMPLETION_SHELLS = ("bash", "zsh", "fish")


def _mark_completions(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Tell shtab which arguments name folders and which files, from their metavars."""
    import shtab

    parsers = [parser]
    while parsers:
        current = parsers.pop()
        for action in current._actions:
            if isinstance(action, argparse._SubParsersAction):
                parsers.extend(action.choices.values())
            elif action.metavar in ("DIR", "PATH"):
                action.complete = shtab.DIRECTORY  # type: ignore[attr-defined]
            elif action.metavar in ("FILE", "FILE|URL", "ENTRY|PATH") or action.dest in (
                "file_a",
                "file_b",
            ):
                action.complete = shtab.FILE  # type: ignore[attr-defined]
    return parser


def completion_script(shell: str) -> str:
    """The shell completion script for ``shell`` (bash, zsh or fish), generated by shtab from
    the same parser the command uses, so it never falls behind the options."""
    import shtab

    return shtab.complete(_mark_completions(build_parser()), shell=shell)


def manpage() -> str:
    """desktop-dedup(1) in roff, generated by argparse-manpage from the parser (every command,
    option and exit status). ``packaging/make_manpage.py`` writes it; needs the dev extra."""
    from argparse_manpage.manpage import Manpage

    def table(codes) -> str:
        return "\n".join(f".TP\n.B {code}\n{_roff(what)}" for code, what in codes)

    parser = build_parser()
    parser.formatter_class = argparse.HelpFormatter
    parser.epilog = None  # its table is the EXIT STATUS section below
    parser._manpage = [  # argparse-manpage's extra sections
        {
            "heading": "EXIT STATUS",
            "content": table(EXIT_CODES)
            + "\n.PP\n.B desktop-dedup diff\nanswers as diff(1) does:\n"
            + table(DIFF_EXIT_CODES),
        },
        {
            "heading": "ENVIRONMENT",
            "content": ".TP\n.B NO_COLOR\nwhen set, the progress bar and diff use no colour."
            "\n.PP\nOutput is UTF-8 whatever the locale.",
        },
        {
            "heading": "SEE ALSO",
            "content": "desktop-dedup-gui, the desktop app; README.md of the project.",
        },
    ]
    page = Manpage(parser)
    page.description = "find and remove duplicate documents"
    page.source = f"desktop-dedup {__version__}"
    page.manual = "desktop-dedup manual"
    return str(page)


def _roff(text: str) -> str:
    """Plain text for a roff line: backslashes doubled, a leading dot or quote escaped."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\\&" + text if text[:1] in (".", "'") else text


def cmd_completion(args: argparse.Namespace) -> int:
    sys.stdout.write(completion_script(args.shell))
    return EXIT_OK


def _similarity(value: str) -> float:
    """A threshold given as a percentage ("80", "80%") or a share ("0.8")."""
    text = value.strip().rstrip("%")
    try:
        v = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError("must be a percentage such as 80") from None
    share = v / 100 if v > 1 or value.strip().endswith("%") else v
    try:
        return check_similarity(share)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _distance(value: str) -> int:
    k = int(value)
    if not 0 <= k <= MAX_SUPPORTED_DISTANCE:
        raise argparse.ArgumentTypeError(f"must be from 0 to {MAX_SUPPORTED_DISTANCE}")
    return k


class _HelpFormatter(argparse.HelpFormatter):
    """Wraps descriptions as usual but keeps the exit status table's lines as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        if "\n" in text:
            return "".join(indent + line for line in text.splitlines(keepends=True))
        return super()._fill_text(text, width, indent)


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="desktop-dedup",
        description="Find exact and near-duplicate documents (Chinese and English, any format). "
        "With no command, the desktop app starts.",
        epilog=_exit_codes_text(EXIT_CODES)
        + "\n  diff answers as diff(1): 0 the same, 1 different, 2 trouble",
        formatter_class=_HelpFormatter,
    )
    p.add_argument("--version", action="version", version=f"desktop-dedup {__version__}")
    p.add_argument(*VERBOSE_FLAGS, action="store_true", help="log details to stderr")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    p.set_defaults(_subcommands=sub.choices)

    def db_arg(sp: argparse.ArgumentParser) -> None:
        sp.add_argument(
            "--db",
            metavar="FILE|URL",
            help="index database: a file (default: in your user data folder) or a shared "
            "index's postgresql://user@host/dbname URL",
        )

    def yes_arg(sp: argparse.ArgumentParser) -> None:
        """The commands that change files or the index are a dry run unless --yes."""
        sp.add_argument("--yes", action="store_true", help="really do it (default: only list)")

    s = sub.add_parser(
        "scan",
        help="scan folders and group duplicates",
        description="Scan folders into the index and group their duplicates. "
        "--similarity, --distance, --exclude, --types, --min-size, --text-types and --ocr "
        "apply to this scan only; with --save they also become the saved settings (the app's "
        "too). The summary counts the groups this scan's settings make; without --save the "
        "index is then grouped by the saved settings again, so report, remove and the app "
        "always show groups made by the saved settings.",
        epilog=_exit_codes_text(EXIT_CODES),
        formatter_class=_HelpFormatter,
    )
    s.add_argument(
        "paths",
        nargs="*",
        metavar="PATH",
        help="folders to scan (recursively); none: the folders the index lists, as the app's "
        "Scan does",
    )
    db_arg(s)
    s.add_argument(
        "--similarity",
        type=_similarity,
        metavar="PERCENT",
        help="near duplicates share at least this much of their text "
        # %% is argparse's escape for %
        f"(default: the saved setting, {DEFAULT_MIN_SIMILARITY:.0%}% out of the box)",
    )
    s.add_argument(
        "--distance",
        type=_distance,
        metavar="K",
        help="advanced: simhash radius in bits within which candidates are looked up before "
        "their text is compared (default: the saved setting, "
        f"{DEFAULT_CANDIDATE_DISTANCE} out of the box)",
    )
    s.add_argument(
        "--exclude",
        action="append",
        metavar="GLOB",
        help="skip files/folders whose name matches (repeatable; added to the defaults)",
    )
    s.add_argument(
        "--reference",
        action="append",
        metavar="DIR",
        help="a folder whose files are always kept as references (repeatable)",
    )
    s.add_argument(
        "--types",
        metavar="EXT,...",
        # ", " so help and the man page can break the list (34 types make one word too long
        # for a line, which troff warns it cannot adjust).
        help="document types to scan (default: the saved setting, out of the box "
        f"{', '.join(DEFAULT_EXTENSIONS)})",
    )
    s.add_argument("--min-size", type=int, metavar="BYTES", help="skip files smaller than this")
    s.add_argument(
        "--text-types",
        metavar="EXT,...",
        help="more extensions to read as plain text, e.g. log,nfo (files without an "
        "extension are read when their content is text)",
    )
    s.add_argument(
        "--ocr",
        action=argparse.BooleanOptionalAction,
        help="read PDF pages without a text layer with OCR (Tesseract with chi_sim/eng; "
        "seconds per page; results cached; default: the saved setting, off out of the box)",
    )
    s.add_argument(
        "--save",
        action="store_true",
        help="also save this scan's --similarity, --distance, --exclude, --types, --min-size, "
        "--text-types and --ocr as the settings (without it they apply to this scan only)",
    )
    s.add_argument(
        "--workers", type=int, metavar="N", help="processes to use (default: one per core)"
    )
    s.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    s.add_argument(
        "--json",
        action="store_true",
        help="print the summary as JSON on stdout (files, groups, skipped files with reasons)",
    )
    s.add_argument(
        "--max-problems",
        type=int,
        default=20,
        metavar="N",
        help="skipped files to list in the summary (default 20)",
    )
    s.set_defaults(func=cmd_scan)

    r = sub.add_parser(
        "report",
        help="write the duplicate report (JSON, CSV or HTML)",
        epilog=_exit_codes_text(EXIT_CODES),
        formatter_class=_HelpFormatter,
    )
    db_arg(r)
    r.add_argument(
        "--format",
        choices=("json", "csv", "html"),
        help="report format (default: from the --output file's extension, else json)",
    )
    r.add_argument("--output", "-o", metavar="FILE", help="file to write (default: stdout)")
    r.set_defaults(func=cmd_report)

    rm = sub.add_parser(
        "remove",
        epilog=_exit_codes_text(EXIT_CODES),
        formatter_class=_HelpFormatter,
        help="remove the extra copies of every group (a dry run unless --yes)",
        description="Choose one copy to keep in every group and send the others to the trash "
        "(or move them). Each file is checked against what was scanned right before it goes: "
        "a file changed since the scan is skipped. Reference folders are always kept; "
        "--keep newest keeps only the newest copy of each group, and so on.",
    )
    db_arg(rm)
    rm.add_argument(
        "--keep",
        default="reference",
        choices=("reference", "newest", "oldest", "largest", "smallest", "shortest_path"),
        help="which copy of each group to keep; every other copy goes (default: the reference)",
    )
    rm.add_argument(
        "--keep-in",
        metavar="DIR",
        help="keep the copies inside DIR; groups without one are left alone",
    )
    rm.add_argument(
        "--move-to", metavar="DIR", help="move the copies into DIR instead of the trash"
    )
    rm.add_argument(
        "--keep-structure",
        action="store_true",
        help="with --move-to: keep each file's folders below the scanned folder it came from",
    )
    rm.add_argument(
        "--hardlink",
        action="store_true",
        help="replace each identical copy by a hard link to the kept copy instead of removing "
        "it (same file system only; near and same-text copies are left alone)",
    )
    rm.add_argument(
        "--include-near",
        action="store_true",
        help="also remove near duplicates, whose text differs from the kept copy (by default "
        "only identical and same-text copies go)",
    )
    yes_arg(rm)
    rm.add_argument(
        "--json",
        action="store_true",
        help="print the plan (or, with --yes, what was done) as JSON on stdout: "
        "removed files, and kept ones with the reason",
    )
    rm.set_defaults(func=cmd_remove)

    rs = sub.add_parser(
        "restore",
        epilog=_exit_codes_text(EXIT_CODES),
        formatter_class=_HelpFormatter,
        help="put removed files back from the trash or the move folder (a dry run unless --yes)",
        description="Put files that remove sent to the trash (Linux: the freedesktop trash) or "
        "moved to a folder back at their original paths. Each is checked against the content "
        "hash the journal recorded, and a name that is taken is never overwritten. Without "
        "ENTRY or PATH every removal that can be undone is listed. On Windows and macOS, "
        "restore trashed files from the Recycle Bin or the Trash.",
    )
    db_arg(rs)
    rs.add_argument(
        "items",
        nargs="*",
        metavar="ENTRY|PATH",
        help="a journal entry number (restore --json lists them) or a removed file's path",
    )
    yes_arg(rs)
    rs.add_argument(
        "--json", action="store_true", help="print what would be (or was) restored as JSON"
    )
    rs.set_defaults(func=cmd_restore)

    fg = sub.add_parser(
        "forget",
        epilog=_exit_codes_text(EXIT_CODES),
        formatter_class=_HelpFormatter,
        help="let go of the files a scan kept from folders it could not read (a dry run "
        "unless --yes)",
        description="A scan that cannot read a folder (a drive unplugged, a share not "
        "mounted, permissions changed) keeps its files in the index as it last found them, "
        "with their groups and marks, and never removes them. For a drive retired for good or "
        "a share that moved, forget lets them go: they leave the index, their groups and "
        "their marks; the files themselves are not touched, and a scan that finds them again "
        "reads them again. Without DIR every folder whose files the last scan kept is "
        "listed.",
    )
    db_arg(fg)
    fg.add_argument(
        "folders",
        nargs="*",
        metavar="DIR",
        help="a folder whose files the last scan kept (forget without one lists them)",
    )
    yes_arg(fg)
    fg.add_argument(
        "--json",
        action="store_true",
        help="print the folders (and how many files each) as JSON on stdout",
    )
    fg.set_defaults(func=cmd_forget)

    d = sub.add_parser(
        "diff",
        help="word-level differences between two documents' texts",
        epilog=_exit_codes_text(DIFF_EXIT_CODES),
        formatter_class=_HelpFormatter,
    )
    d.add_argument("file_a")
    d.add_argument("file_b")
    d.add_argument(
        "--ignore-space-punct",
        action="store_true",
        help="differences in white space and punctuation are not changes",
    )
    d.add_argument("--color", choices=("auto", "always", "never"), default="auto")
    d.add_argument(
        "--db",
        metavar="FILE|URL",
        help="compare the two documents as this index knows them: the similarity is the "
        "figure its groups and reports show (without it, the two files' own)",
    )
    d.set_defaults(func=cmd_diff)

    c = sub.add_parser(
        "completion",
        help="print a shell completion script (bash, zsh or fish)",
        description="Print the completion script for your shell. bash: "
        "desktop-dedup completion bash > ~/.local/share/bash-completion/completions/"
        "desktop-dedup; zsh: desktop-dedup completion zsh > ~/.zfunc/_desktop-dedup (with "
        "~/.zfunc in fpath); fish: desktop-dedup completion fish > "
        "~/.config/fish/completions/desktop-dedup.fish",
        epilog=_exit_codes_text(((EXIT_OK, "printed"), (EXIT_USAGE, "unknown shell"))),
        formatter_class=_HelpFormatter,
    )
    c.add_argument("shell", choices=COMPLETION_SHELLS)
    c.set_defaults(func=cmd_completion)
    return p


def _parse(parser: argparse.ArgumentParser, argv: list[str]) -> argparse.Namespace:
    """Options may come anywhere on the line (``scan A --reference R B``): the subcommand's
    arguments are parsed intermixed; global options stand before the subcommand."""
    commands = parser.get_default("_subcommands") or {}
    at = next((i for i, a in enumerate(argv) if a in commands), None)
    if at is None or any(a not in ("-v", "--verbose") for a in argv[:at]):
        return parser.parse_args(argv)
    args = commands[argv[at]].parse_intermixed_args(argv[at + 1 :])
    args.command = argv[at]
    args.verbose = bool(argv[:at]) or getattr(args, "verbose", False)
    return args


def _utf8_mode() -> None:
    """Re-run this command in Python's UTF-8 mode when the locale names another encoding.

    Under a GB18030 (or Latin-1...) locale Python decodes file names with that encoding, so a
    UTF-8 name on disk (what Linux and macOS write) became another string, printed and stored
    as mojibake ("文档" as "鏂囨。"). In UTF-8 mode (PEP 540, the default from Python 3.15) names
    are UTF-8 with undecodable bytes kept (and escaped when shown). The arguments go back to the
    new process as the same bytes."""
    if (
        os.name == "posix"
        and not sys.flags.utf8_mode
        and sys.getfilesystemencoding().lower().replace("-", "") != "utf8"
        and os.environ.get("PYTHONUTF8") != "1"
    ):
        env = dict(os.environ, PYTHONUTF8="1")
        try:
            os.execve(sys.executable, [sys.executable, *sys.orig_argv[1:]], env)
        except OSError:  # cannot re-run: carry on with the locale's encoding
            pass


# The program's one option before its command that takes no value and changes nothing of
# what it runs; --help and --version end it.
VERBOSE_FLAGS = ("-v", "--verbose")


def _command_of(argv: Sequence[str]) -> str | None:
    """The command ``argv`` runs, past the verbose flag (``desktop-dedup -v scan``, ``-vv``,
    ``--verbose``; an abbreviation of it only loses the early start); None when something
    else comes first."""
    for arg in argv:
        if arg == VERBOSE_FLAGS[1] or re.fullmatch("-v+", arg):
            continue
        return arg
    return None


def main(argv: Sequence[str] | None = None) -> int:
    program = argv is None  # run as the program, not called (tests call it with arguments)
    if program:
        _utf8_mode()
        gc.disable()  # while the command loads: see _loaded
        interrupts.defer()  # a Ctrl-C while it loads is raised once it has (interrupts.py)
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if program and _command_of(argv) == "scan":
            # The fork server loads the readers on the other core (core/forkserver.py) while
            # this process parses the command, sets up its log and loads the store: started
            # before any of that, 0.03-0.05 s sooner than from cmd_scan; forked from this
            # process, which has one thread and little loaded yet, rather than started as a new
            # interpreter. A scan that goes no further (--help, a wrong option) only leaves a
            # server that ends with this process.
            from desktop_dedup.core.forkserver import prestart

            prestart(fork=True)
        use_utf8_streams()
        if not argv:
            if program:
                gc.enable()  # the app loads and collects as it always has
                interrupts.resume()
            from desktop_dedup.gui.app import main as gui_main

            return gui_main([])
        parser = build_parser()
        args = _parse(parser, argv)
        if args.command is None:
            parser.print_help()
            return EXIT_USAGE
        import logging

        from desktop_dedup.logs import setup_logging

        setup_logging(logging.DEBUG if args.verbose else logging.INFO, console=args.verbose)
        if program:
            _loaded(args)
            interrupts.resume()
        code = _run_command(args)
    except BaseException as exc:
        # Ctrl-C before a command handles it itself (a scan's reading, a removal): while the
        # command loads, opens the index or lists the folders. Nothing is half done: a write
        # to the index is one transaction, rolled back.
        if not _interrupted(exc):
            raise
        print("desktop-dedup: interrupted (Ctrl-C)", file=sys.stderr)
        code = EXIT_INTERRUPTED
    if program and interrupts.dropped() and code != EXIT_INTERRUPTED:
        # Raised where Python drops exceptions (a weakref's callback), the Ctrl-C did not stop
        # the command, which went on to its end: it ends as interrupted all the same.
        print("desktop-dedup: interrupted (Ctrl-C)", file=sys.stderr)
        code = EXIT_INTERRUPTED
    if program:
        _exit_now(code)
    return code


def _loaded(args: argparse.Namespace) -> None:
    """Load what the command runs on, then collect again. Loading the index's modules
    (SQLAlchemy, numpy: half a second) makes tens of thousands of objects that live as long as
    the program, and the collector, which main turns off first, went over them about 200 times
    while they loaded, once over all of them: a tenth of a second of every command's start,
    before a scan could hand its readers a file. What loading made is then set aside for good
    (gc.freeze), so that later collections do not go over it again."""
    try:
        if args.command != "completion":  # every other command opens an index or reads files
            import desktop_dedup.core.service  # noqa: F401
    finally:
        gc.freeze()
        gc.enable()


def _interrupted(exc: BaseException | None) -> bool:
    """Whether ``exc`` is a Ctrl-C, or was raised while one was being handled: a library's
    cleanup that assumed it would not be interrupted (argparse's, interrupted while it parses
    intermixed options, fails on a field it had not set yet)."""
    seen = 0
    while exc is not None and seen < 20:
        if isinstance(exc, KeyboardInterrupt):
            return True
        exc, seen = exc.__context__, seen + 1
    return False


def _exit_now(code: int) -> NoReturn:
    """End the program once a command is done, without tearing the interpreter down: the
    command closed the index and its readers, and the output is flushed here; unloading
    SQLAlchemy, numpy and the rest took a tenth of a second of every command. What the
    interpreter's exit handlers would have removed is removed here (the fork server's socket
    folder)."""
    import logging

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):  # a closed pipe: nothing more can reach it
            pass
    logging.shutdown()
    # only a command that loaded the fork server's module can have started a process
    # (`completion`, which loads nothing else, is not made to load it on its way out)
    forkserver = sys.modules.get("desktop_dedup.core.forkserver")
    if forkserver is not None:
        forkserver.remove_socket_folder()
    os._exit(code)


def _run_command(args: argparse.Namespace) -> int:
    try:
        return args.func(args)
    except DedupError as exc:
        print(f"desktop-dedup: {shown(str(exc))}", file=sys.stderr)
        return EXIT_ERROR
    except BrokenPipeError:
        return EXIT_OK
    except Exception as exc:
        # SQLAlchemy is imported by the commands that open an index, not up front (0.12 s a
        # start, and `scan` starts its readers first): an error of it can only come from there.
        sa_exc = sys.modules.get("sqlalchemy.exc")
        if sa_exc is not None and isinstance(exc, sa_exc.SQLAlchemyError):
            # disk full, locked, read-only or damaged: one line, exit 1
            cause = getattr(exc, "orig", None) or exc
            print(f"desktop-dedup: database error: {shown(str(cause))}", file=sys.stderr)
            return EXIT_ERROR
        if isinstance(exc, OSError):  # e.g. no space left on the device writing a report
            print(f"desktop-dedup: {shown(str(exc))}", file=sys.stderr)
            return EXIT_ERROR
        raise


if __name__ == "__main__":
    raise SystemExit(main())
