"""Mutation check: seed small realistic bugs one at a time and see whether the tests notice.

Each mutant below is one edit (an exact piece of source replaced by another) that breaks a
promise README makes. For each, the project is copied to a temporary folder (the files git
tracks, as they are in the working tree), the edit is applied there, and the tests named for it
run against that copy (``PYTHONPATH`` points at the copy, so subprocesses that run the CLI use
the mutated code too). A mutant is *caught* when the tests fail, *missed* when they pass.
Before any mutant, the same tests run once on an unmutated copy and must pass.

    .venv/bin/python tests/mutation/run.py            # every mutant
    .venv/bin/python tests/mutation/run.py -k mtime,edge   # ids containing "mtime" or "edge"
    .venv/bin/python tests/mutation/run.py --list

Exit status: 0 when every mutant is caught, 1 when one is missed, 2 when the tree has drifted
(a mutant's source text is no longer in the file: update the list) or the baseline fails.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

# Tests named for each mutant: the most pointed first (pytest runs them in this order and stops at
# the first failure, so a caught mutant costs little), then the rest of what covers that code.
R = "tests/test_readme_promises.py"
ACTIONS = "tests/test_actions.py"
SAFETY = "tests/test_removal_safety.py"
REMOVAL = [ACTIONS, SAFETY, R]
GROUPING = ["tests/test_grouping.py", "tests/test_service.py", R]
MARKING = ["tests/test_marking.py", R]
FINGERPRINT = ["tests/test_fingerprint.py", R]
MEMO_TEST = (
    "tests/test_fingerprint.py::"
    "test_lines_segmented_before_are_read_again_from_memory_with_the_same_fingerprints"
)
OFFICE = "tests/test_extract_office.py"
READING = [
    "tests/test_extract_faults.py",
    "tests/test_extract.py",
    "tests/test_decoding.py",
    R,
]
CLI = [SAFETY, "tests/test_cli.py", R]
STORE = ["tests/test_store.py", "tests/test_grouping.py", R]
REPORT = ["tests/test_report.py", "tests/test_cli.py"]
CLOSE_GROUPING = (
    "tests/test_grouping.py::"
    "test_a_document_the_same_as_one_member_but_not_another_is_close_to_the_group"
)
CLOSE_TWO_GROUPS = (
    "tests/test_grouping.py::test_a_document_close_to_two_groups_is_shown_with_its_closest_match"
)
CLOSE_SERVICE = "tests/test_service.py::test_a_document_close_to_a_group_follows_incremental_scans"
CLOSE_REMOVAL = (
    "tests/test_service.py::"
    "test_a_document_close_to_a_group_can_be_marked_and_removed_with_its_closest_kept"
)
CLOSE_REPORT = (
    "tests/test_report.py::test_documents_close_to_a_group_are_reported_apart_from_its_members"
)
CLOSE_GUI = (
    "tests/gui/test_gui_review.py::"
    "test_a_file_close_to_the_group_is_listed_apart_and_compared_with_its_closest_member"
)


def first(*pointed: str):
    """``pointed`` tests ahead of a group (each file once)."""

    def build(group: list[str]) -> list[str]:
        out = list(pointed)
        out += [t for t in group if t not in out]
        return out

    return build


@dataclass(frozen=True)
class Mutant:
    id: str
    path: str  # relative to the repository
    old: str  # must occur exactly once in the file
    new: str
    tests: tuple[str, ...]
    promise: str  # what README says that this edit breaks


def m(id_, path, old, new, tests, promise):
    return Mutant(id_, path, old, new, tuple(tests), promise)


MUTANTS: list[Mutant] = [
    # --- the 13 of issue 14 ----------------------------------------------------------------
    m(
        "removal-skips-mtime",
        "desktop_dedup/core/actions.py",
        "    if info.st_mtime_ns != c.mtime_ns:\n        return REASON_MTIME\n",
        "",
        first(f"{R}::test_removal_refuses_a_file_whose_mtime_alone_changed")(REMOVAL),
        "right before each file goes, its size, mtime and content hash are checked",
    ),
    m(
        "removal-skips-content-hash",
        "desktop_dedup/core/actions.py",
        "    if digest != c.content_hash.lower():\n        return REASON_CONTENT\n",
        "",
        REMOVAL,
        "right before each file goes, its size, mtime and content hash are checked",
    ),
    m(
        "reference-ignores-mtime",
        "desktop_dedup/core/service.py",
        "(rank(path), mtime, len(path), path)",
        "(rank(path), len(path), path)",
        first(f"{R}::test_reference_is_the_oldest_copy_even_on_a_longer_path")(GROUPING),
        "the reference: 1. a file in a reference folder; 2. the oldest modification time",
    ),
    m(
        "reference-ignores-reference-folder",
        "desktop_dedup/core/service.py",
        "(rank(path), mtime, len(path), path)",
        "(mtime, len(path), path)",
        first(f"{R}::test_reference_folder_beats_age_and_path")(GROUPING),
        "the reference: 1. a file in a reference folder",
    ),
    m(
        "edge-long-line-peeled",
        "desktop_dedup/core/fingerprint.py",
        "EDGE_MAX_LINE_TOKENS = 20 ",
        "EDGE_MAX_LINE_TOKENS = 10**6 ",
        first(f"{R}::test_a_foreign_first_line_of_20_words_is_peeled_but_one_of_21_is_text")(
            FINGERPRINT
        ),
        "a line of more than 20 words is always text",
    ),
    m(
        "edge-peeling-off",
        "desktop_dedup/core/fingerprint.py",
        "    for tok, n in peeled.items():\n"
        "        if tok in counts:\n"
        "            counts[tok] -= n\n",
        "",
        FINGERPRINT,
        "Edge lines are peeled: a title, an ad banner, a footer",
    ),
    m(
        "edge-budget-shared-by-both-ends",
        "desktop_dedup/core/fingerprint.py",
        "        used = 0  # each end has its own budget",
        "        used = sum(peeled.values())  # each end has its own budget",
        first(f"{R}::test_each_end_has_its_own_budget_of_a_fifth_of_the_words")(FINGERPRINT),
        "each end has its own budget of at most 20 % of the words",
    ),
    m(
        "remove-without-yes",
        "desktop_dedup/cli.py",
        "        if not args.yes:\n",
        "        if False:\n",
        first(f"{R}::test_cli_remove_is_a_dry_run_without_yes_then_trashes_with_it")(CLI),
        "`remove` only lists what it would remove unless you add `--yes`",
    ),
    m(
        "text-size-not-checked-before-reading",
        "desktop_dedup/core/extract/_common.py",
        "        if size > limit:\n            raise refuse(size)\n",
        "",
        first(f"{R}::test_a_huge_text_file_is_refused_before_it_is_read")(READING),
        "text files over 64 MiB: their size is checked before reading",
    ),
    m(
        "grouping-chains",
        "desktop_dedup/core/grouping.py",
        "        ok = all(same(x, y) for x in ma for y in mb)\n",
        "        ok = any(same(x, y) for x in ma for y in mb)\n",
        GROUPING,
        "never chains: if A~B and B~C but not A~C, A and C are never in one group",
    ),
    m(
        "html-report-unescaped",
        "desktop_dedup/core/report.py",
        "    esc = html.escape\n",
        "    esc = str\n",
        REPORT,
        "The HTML report ... Every path and text in it is escaped",
    ),
    m(
        "bulk-rules-mark-the-reference",
        "desktop_dedup/core/marking.py",
        "    return is_markable(member) and not member.is_reference\n",
        "    return is_markable(member)\n",
        MARKING,
        "all but the reference, by folder, invert: those leave the reference alone",
    ),
    m(
        "keep-rule-skips-markable-check",
        "desktop_dedup/core/marking.py",
        "marked.update(m.doc_id for m in group.members if is_markable(m) and m is not keep)",
        "marked.update(m.doc_id for m in group.members if m is not keep)",
        MARKING,
        "Files in reference folders are never marked (whatever keep rule)",
    ),
    m(
        "block-shift-wrong",
        "desktop_dedup/core/grouping.py",
        "(u >> 48) & 0xFFFF, (u >> 32) & 0xFFFF",
        "(u >> 48) & 0xFFFF, (u >> 31) & 0xFFFF",
        STORE,
        "two fingerprints within k bits share one block within k/4 bits (the SQL lookup)",
    ),
    m(
        "gb18030-read-as-gbk",
        "desktop_dedup/core/extract/plaintext.py",
        '    "gbk": "gb18030",\n',
        '    "gbk": "gb18030",\n    "gb18030": "gbk",\n',
        first("tests/test_decoding.py")(READING),
        "plain text in any common encoding (GB18030/GBK ...)",
    ),
    m(
        "any-valid-gb18030-taken-as-chinese",
        "desktop_dedup/core/extract/plaintext.py",
        "        if _chinese_by_words(share, ideographs):\n",
        "        if True:\n",
        first("tests/test_decoding.py")(READING),
        "Korean, Japanese, Russian and European texts in their legacy code pages are read as "
        "themselves",
    ),
    m(
        "english-page-words-not-asked-again",
        "desktop_dedup/core/extract/plaintext.py",
        '    if guess["language"] == "en":\n',
        "    if False:\n",
        first("tests/test_decoding.py")(READING),
        "a second look at the non-English words of a mostly-English text",
    ),
    m(
        "unread-type-by-name-only",
        "desktop_dedup/core/scanning.py",
        " and is_unread_type(entry.path, ext):\n",
        ":\n",
        ["tests/test_scanning.py"],
        "a file that only shares the extension is not called one (Tcl's .msg catalogues)",
    ),
    # --- more README promises -----------------------------------------------------------------
    m(
        "removal-follows-symlink",
        "desktop_dedup/core/actions.py",
        "    if stat.S_ISLNK(info.st_mode):\n        return REASON_SYMLINK\n",
        "",
        REMOVAL,
        "its path is resolved (... a symbolic link ... is refused)",
    ),
    m(
        "removal-ignores-linked-folder",
        "desktop_dedup/core/actions.py",
        "    if _normalised(os.path.realpath(c.path)) != _normalised(c.path):\n"
        "        return REASON_LINKED_PATH\n",
        "",
        first(SAFETY)(REMOVAL),
        "a folder on its path replaced by a symbolic link ... is refused",
    ),
    m(
        "removal-ignores-reference-folder",
        "desktop_dedup/core/actions.py",
        "    if c.in_reference_folder or any(_is_within(c.path, root) for root in reference_roots):"
        "\n        return REASON_REFERENCE\n",
        "",
        REMOVAL,
        "anything in a reference folder is always kept",
    ),
    m(
        "removal-skips-size",
        "desktop_dedup/core/actions.py",
        "    if info.st_size != c.size:\n        return REASON_SIZE\n",
        "",
        REMOVAL,
        "its size, mtime and content hash are checked",
    ),
    m(
        "kept-copy-not-verified",
        "desktop_dedup/core/service.py",
        "                if actions.verify_unchanged(kept) is None:\n",
        "                if True:\n",
        first(SAFETY)(REMOVAL),
        "a copy that is kept must still exist ... if none does, nothing in that group is removed",
    ),
    m(
        "near-copies-go-without-asking",
        "desktop_dedup/core/service.py",
        "            elif not include_near and (d.text_hash or d.content_hash)"
        " not in kept_texts[gid]:\n",
        "            elif False:\n",
        first(SAFETY)(REMOVAL),
        "a marked near duplicate goes only if you say so",
    ),
    m(
        "move-replaces-a-name-taken-meanwhile",
        "desktop_dedup/core/actions.py",
        "        os.link(src, dst)\n    except FileExistsError:",
        "        os.replace(src, dst)\n        return\n    except FileExistsError:",
        REMOVAL,
        "Moves never overwrite",
    ),
    m(
        "pictures-inflated-when-opened",
        "desktop_dedup/core/extract/_common.py",
        "            if not _is_unread(info.filename):\n                sizes[",
        "            if True:\n                sizes[",
        [f"{OFFICE}::test_pictures_in_a_container_are_neither_inflated_nor_counted", *READING],
        "a container's pictures, sound, video and fonts are neither inflated nor counted",
    ),
    m(
        "pictures-counted-by-declared-size",
        "desktop_dedup/core/extract/_common.py",
        "        if _is_unread(info.filename):\n            continue\n",
        "",
        [f"{OFFICE}::test_pictures_in_a_container_are_neither_inflated_nor_counted", *READING],
        "a container's pictures, sound, video and fonts are neither inflated nor counted",
    ),
    m(
        "picture-a-reader-opens-unchecked",
        "desktop_dedup/core/extract/_common.py",
        '        if mode == "r":\n            real_size(',
        "        if False:\n            real_size(",
        [f"{OFFICE}::test_a_picture_a_reader_opens_is_checked_first", *READING],
        "one that a reader does open is checked by its real bytes first",
    ),
    m(
        "workbook-read-whole-into-memory",
        "desktop_dedup/core/extract/spreadsheet.py",
        "        if _by_name(name, label):\n",
        "        if False:\n",
        [f"{OFFICE}::test_a_workbook_with_pictures_is_read_within_a_readers_memory", OFFICE],
        "a workbook with 100 MB of pictures is read within a reader's memory",
    ),
    m(
        "workbook-name-not-utf8-handed-by-path",
        "desktop_dedup/core/extract/spreadsheet.py",
        '        name.encode("utf-8")\n',
        "        pass\n",
        [f"{OFFICE}::test_a_workbook_whose_name_is_not_utf8_is_read", OFFICE],
        "a workbook whose name is not UTF-8 is read",
    ),
    m(
        "pdf-pages-not-announced",
        "desktop_dedup/core/extract/pdf.py",
        "        announce_pages(len(document))\n",
        "",
        ["tests/test_reader_budgets.py::test_a_long_pdf_gets_time_for_its_pages"],
        "a PDF gets 0.1 s for each of its pages when that is more than 30 s",
    ),
    m(
        "long-text-pages-not-announced",
        "desktop_dedup/core/pipeline.py",
        "        announce_text(len(extracted.text))  # a long text gets time for its pages\n",
        "",
        ["tests/test_reader_budgets.py::test_a_long_text_gets_time_for_its_pages"],
        "a long text gets 0.1 s for each of its pages (3,000 characters) when that is more",
    ),
    m(
        "pdf-pages-time-ignored",
        "desktop_dedup/core/workers.py",
        "else self.budget.for_pages(worker.pages)",
        "else self.budget.seconds",
        ["tests/test_reader_budgets.py::test_a_long_pdf_gets_time_for_its_pages"],
        "a PDF gets 0.1 s for each of its pages when that is more than 30 s",
    ),
    m(
        "pdf-pages-time-unbounded",
        "desktop_dedup/core/workers.py",
        "min(pages * PAGE_SECONDS, PAGES_MAX_SECONDS)",
        "pages * PAGE_SECONDS",
        [
            "tests/test_reader_budgets.py::test_the_time_for_a_pdfs_pages_is_the_budget_at_least_and_five_minutes_at_most",
            "tests/test_reader_budgets.py",
        ],
        "a PDF gets 0.1 s for each of its pages ..., up to 5 minutes",
    ),
    m(
        "budget-reasons-untranslated",
        "desktop_dedup/gui/reasons.py",
        'took longer than (?P<limit>.+?) to read; skipped$", re.S)',
        '(?!)", re.S)',
        ["tests/test_i18n.py::test_every_core_reason_and_action_is_translated"],
        "the interface speaks Chinese: a file's reason too",
    ),
    m(
        "reader-reason-untranslated",
        "desktop_dedup/gui/reasons.py",
        '        "binary data, not text": QCoreApplication.translate(\n'
        '            "Reasons",\n'
        '            "binary data, not text",\n'
        "        ),\n",
        "",
        ["tests/test_i18n.py::test_every_reason_the_core_writes_is_shown_in_chinese"],
        "the reasons a file was skipped or refused are shown in the interface language",
    ),
    m(
        "report-reasons-untranslated",
        "desktop_dedup/core/report.py",
        "    reason_of = reason_text or str\n",
        "    reason_of = str\n",
        [
            "tests/gui/test_gui_workflow.py::"
            "test_the_html_report_gives_the_reasons_in_the_interface_language"
        ],
        "the HTML report is written in the interface language, its reasons too",
    ),
    m(
        "zip-total-unbounded",
        "desktop_dedup/core/extract/_common.py",
        "    if total > ZIP_MAX_TOTAL_BYTES:\n",
        "    if False:\n",
        READING,
        "archives that would expand to more than 512 MiB in total are refused",
    ),
    m(
        "terminal-escapes-off",
        "desktop_dedup/cli.py",
        "    if text.isprintable():\n        return text\n",
        "    return text\n",
        ["tests/test_terminal_output.py", "tests/test_readme_promises.py"],
        "File names are printed to a terminal with control characters escaped",
    ),
    m(
        "report-temp-file-left-behind",
        "desktop_dedup/core/report.py",
        "        temp.unlink(missing_ok=True)\n        raise\n",
        "        raise\n",
        REPORT,
        "Files are written atomically (no half-written or temporary file left)",
    ),
    m(
        "keep-newest-keeps-oldest",
        "desktop_dedup/core/marking.py",
        "        return lambda m: (-m.modified.timestamp(), m.path)\n",
        "        return lambda m: (m.modified.timestamp(), m.path)\n",
        MARKING + ["tests/gui/test_gui_workflow.py"],
        "keep the newest, oldest, largest or smallest copy",
    ),
    m(
        "ctrl-c-exit-code",
        "desktop_dedup/cli.py",
        "EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_PARTIAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 130",
        "EXIT_OK, EXIT_ERROR, EXIT_USAGE, EXIT_PARTIAL, EXIT_INTERRUPTED = 0, 1, 2, 3, 1",
        [
            "tests/test_faults_scan.py::test_ctrl_c_exits_130_and_keeps_the_work_done",
            "tests/test_cli_conventions.py",
        ],
        "scan exits 130 if you interrupted it with Ctrl-C",
    ),
    m(
        "log-rotates-at-10-mib",
        "desktop_dedup/logs.py",
        "DEFAULT_MAX_BYTES = 1024 * 1024",
        "DEFAULT_MAX_BYTES = 10 * 1024 * 1024",
        ["tests/test_logs.py"],
        "Logs rotate at 1 MiB x 5 files",
    ),
    m(
        "csv-without-bom",
        "desktop_dedup/core/report.py",
        '"utf-8-sig" if fmt.lower() == "csv" else "utf-8"',
        '"utf-8"',
        REPORT,
        "The CSV report ... is UTF-8 with a BOM",
    ),
    m(
        "default-threshold-70",
        "desktop_dedup/core/models.py",
        "DEFAULT_MIN_SIMILARITY = 0.75",
        "DEFAULT_MIN_SIMILARITY = 0.70",
        ["tests/test_service.py", R],
        "The threshold is a share of common text, 75 % by default",
    ),
    m(
        "template-check-off",
        "desktop_dedup/core/sketch.py",
        "        if substituted(a, b) or (common is not None and ",
        "        if (common is not None and ",
        ["tests/test_sketch.py", "tests/test_grouping.py", "tests/test_templates.py"],
        "template instances are refused whatever their similarity",
    ),
    m(
        "name-named-once-counts-as-present",
        "desktop_dedup/core/sketch.py",
        "        or (a_only and _refers(a, b))\n        or (b_only and _refers(b, a))\n",
        "",
        ["tests/test_sketch.py", "tests/test_grouping.py", "tests/test_templates.py"],
        "template instances are refused: one page may name its sibling once",
    ),
    m(
        "words-held-twice-taken-for-held-once",
        "desktop_dedup/core/sketch.py",
        "may_be_salient & (counts >= 2), may_be_salient",
        "may_be_salient & (counts >= 3), may_be_salient",
        ["tests/test_sketch.py", "tests/test_grouping.py"],
        "a word named twice is no reference once: the pair needs more gone",
    ),
    m(
        "words-held-three-times-taken-for-twice",
        "desktop_dedup/core/sketch.py",
        "may_be_salient & (counts >= 3)\n",
        "may_be_salient & (counts >= 4)\n",
        ["tests/test_sketch.py", "tests/test_grouping.py"],
        "a word named three times is no reference: the pair is left to its share",
    ),
    m(
        "word-held-twice-counted-once",
        "desktop_dedup/core/sketch.py",
        "        if self._thrice_bits & mask != mask:\n            return 2\n",
        "        if self._thrice_bits & mask != mask:\n            return 1\n",
        ["tests/test_sketch.py", "tests/test_grouping.py"],
        "a swap one way round needs six occurrences gone (a name held twice counts two)",
    ),
    m(
        "swap-one-way-with-five-gone",
        "desktop_dedup/core/sketch.py",
        "SWAP_MIN_GONE = 2 * SALIENT_MIN_COUNT\n",
        "SWAP_MIN_GONE = 2 * SALIENT_MIN_COUNT - 1\n",
        ["tests/test_sketch.py", "tests/test_grouping.py"],
        "a copy cut short and an edited copy stay together (a swap one way needs six gone)",
    ),
    m(
        "sibling-named-half-as-often-as-itself",
        "desktop_dedup/core/sketch.py",
        "            and int(m) >= held * SALIENT_MIN_COUNT\n",
        "            and int(m) >= held * 2\n",
        ["tests/test_sketch.py", "tests/test_grouping.py"],
        "a revision that drops a word and uses another more stays the same document",
    ),
    m(
        "salient-counts-not-read",
        "desktop_dedup/core/sketch.py",
        "        if flags & _HAS_COUNTS:\n",
        "        if False:\n",
        ["tests/test_sketch.py", "tests/test_grouping.py"],
        "a stored sketch keeps how often its document holds each salient word",
    ),
    m(
        "diff-names-only-words-absent-both-ways",
        "desktop_dedup/core/diff.py",
        "    if first and not second:\n        second = named(first, cb, ca)\n",
        "    if False:\n        second = named(first, cb, ca)\n",
        ["tests/test_diff.py", "tests/test_cli.py"],
        "the diff names the two words when the index refused a pair of one template",
    ),
    m(
        "diff-names-a-swap-with-five-gone",
        "desktop_dedup/core/diff.py",
        "best[0] >= 2 * min_count else None",
        "best[0] >= 2 * min_count - 1 else None",
        ["tests/test_diff.py"],
        "the diff names the words of a swap one way round as the index counts them",
    ),
    m(
        "numbers-are-features",
        "desktop_dedup/core/stopwords.py",
        "    if not letters and _DIGIT.search(tok):\n",
        "    if not letters and _DIGIT.search(tok) and not _WORDLIKE.search(tok):\n",
        FINGERPRINT,
        "Numbers ... are dropped: numbers and dates change between copies",
    ),
    m(
        "regional-words-not-folded",
        "desktop_dedup/core/text.py",
        "    return regional(t2s(text))\n",
        "    return t2s(text)\n",
        ["tests/test_text.py", "tests/test_chinese_scripts.py"],
        "a text and its copy in the other script are the same document, Taiwan vocabulary included",
    ),
    m(
        "cjk-line-break-kept",
        "desktop_dedup/core/text.py",
        '    return _SPACE_BETWEEN_CJK.sub("", text)\n',
        "    return text\n",
        ["tests/test_text.py", "tests/test_fingerprint.py"],
        "no white space between two Chinese characters (a line break there is only layout)",
    ),
    # --- issue 9 item 6: restore from the journal ------------------------------------------
    m(
        "restore-skips-content-hash",
        "desktop_dedup/core/restore.py",
        "        if _hash_or_none(item.file_path) == content_hash.lower():\n",
        "        if True:\n",
        first("tests/test_restore.py::test_a_trashed_file_whose_content_changed_is_not_put_back")(
            ["tests/test_restore.py"]
        ),
        "restore: a trashed file goes back only when its content hash is the journal's",
    ),
    m(
        "restore-moved-skips-content-hash",
        "desktop_dedup/core/restore.py",
        "    if digest != content_hash.lower():\n",
        "    if False:\n",
        ["tests/test_restore.py"],
        "restore: a moved file goes back only when its content hash is the journal's",
    ),
    # --- issue 13: short texts, other scripts, fixed-width cuts; issue 7: read-only index ----
    m(
        "trimmed-share-at-the-threshold",
        "desktop_dedup/core/sketch.py",
        "TRIMMED_MIN_SHARE = 0.9\n",
        "TRIMMED_MIN_SHARE = 0.75\n",
        first("tests/test_short_texts.py")(["tests/test_sketch.py"]),
        "two different notes under one banner are not the same document (trimmed at 90 %)",
    ),
    m(
        "trimmed-shortcut-against-the-whole-text",
        "desktop_dedup/core/sketch.py",
        "bound = 2.0 * shared / (shared + len(b.body)) if shared else 0.0",
        "bound = 2.0 * shared / (shared + len(b.values)) if shared else 0.0",
        first("tests/test_short_texts.py")(["tests/test_sketch.py"]),
        "the trimmed comparison's shortcut never drops a pair that reaches its bar",
    ),
    m(
        "edited-note-trimmed-at-90",
        "desktop_dedup/core/sketch.py",
        "    if best == 0.0 or best < floor or _adds_own_text(meeting.flipped()):\n",
        "    if True:\n",
        first("tests/test_short_texts.py")(["tests/test_sketch.py"]),
        "a note with one word edited and its copy under a banner or a title are one document",
    ),
    m(
        "own-title-inside-not-seen",
        "desktop_dedup/core/sketch.py",
        "    if n and int(np.count_nonzero(in_a[inner])) < INNER_MIN_SHARED * n - 1e-9:\n",
        "    if False:\n",
        first("tests/test_short_texts.py")(["tests/test_sketch.py"]),
        "two sections of one manual under its signature are different documents",
    ),
    m(
        "untagged-note-always-own",
        "desktop_dedup/core/sketch.py",
        "    in_a = meeting.in_b()\n    inner = (",
        "    if len(b.tags) == 0:\n        return True\n    in_a = meeting.in_b()\n    inner = (",
        first("tests/test_short_texts.py")(["tests/test_sketch.py"]),
        "a one-line note with one word edited is a copy of the note under a banner",
    ),
    m(
        "untagged-note-never-own",
        "desktop_dedup/core/sketch.py",
        "        else np.ones(len(b.values), dtype=bool)\n",
        "        else np.zeros(len(b.values), dtype=bool)\n",
        first("tests/test_short_texts.py")(["tests/test_sketch.py"]),
        "two different notes under one banner are not the same document",
    ),
    m(
        "short-texts-never-compared-whole",
        "desktop_dedup/core/sketch.py",
        "    if (len(a.tags) or len(b.tags)) and a.holds_whole_text and b.holds_whole_text:\n",
        "    if False:\n",
        first("tests/test_short_texts.py")(["tests/test_sketch.py"]),
        "a short Chinese text wrapped at another width is a copy of its edited copy",
    ),
    m(
        "groups-kept-across-a-verification-update",
        "desktop_dedup/core/service.py",
        "            sketch_mod.VERIFICATION_VERSION,\n",
        "",
        first("tests/test_service.py")(GROUPING),
        "after an update that verifies pairs differently, the next scan regroups the index",
    ),
    m(
        "hiragana-as-words",
        "desktop_dedup/core/stopwords.py",
        "(tok.isascii() or _HIRAGANA_FIRST <= tok <= _HIRAGANA_LAST)",
        "tok.isascii()",
        first("tests/test_short_texts.py")(FINGERPRINT),
        "a Japanese note under a Japanese banner is a copy of the note",
    ),
    m(
        "no-two-sided-comparison",
        "desktop_dedup/core/sketch.py",
        "            two_sided_similarity(a, b, threshold, common, meeting),\n",
        "",
        first("tests/test_short_texts.py")(["tests/test_sketch.py"]),
        "a note's copy under a banner and its copy above a footer are one document",
    ),
    m(
        "two-sided-with-the-banner-kept",
        "desktop_dedup/core/sketch.py",
        "TWO_SIDED_MAX_ADDED = 1 / 3\n",
        "TWO_SIDED_MAX_ADDED = 0.5\n",
        first("tests/test_short_texts.py")(["tests/test_sketch.py"]),
        "two different notes, one banner above one and below the other, are not grouped",
    ),
    m(
        "two-sided-shortcut-without-the-least-kept",
        "desktop_dedup/core/sketch.py",
        "    least = (1 - TWO_SIDED_MAX_ADDED) * (len(a.values) + len(b.values)) if common is None"
        " else 0\n",
        "    least = (len(a.values) + len(b.values)) if common is None else 0\n",
        first("tests/test_short_texts.py")(["tests/test_sketch.py"]),
        "the two-sided comparison's shortcut never drops a pair that reaches the threshold",
    ),
    m(
        "two-sided-at-the-same-end",
        "desktop_dedup/core/sketch.py",
        "    if not (head_a and tail_b and not head_b) and not (tail_a and head_b and not tail_b)"
        ":\n",
        "    if not (head_a or tail_a) or not (head_b or tail_b):\n",
        first("tests/test_short_texts.py")(["tests/test_sketch.py"]),
        "two different notes under one banner are not grouped",
    ),
    m(
        "other-note-trimmed-at-the-threshold",
        "desktop_dedup/core/sketch.py",
        "    if best == 0.0 or best < floor or _adds_own_text(meeting.flipped()):\n",
        "    if best == 0.0 or best < floor:\n",
        first("tests/test_short_texts.py")(["tests/test_sketch.py"]),
        "two different notes under one banner are not the same document",
    ),
    m(
        "short-text-banner-not-trimmed",
        "desktop_dedup/core/sketch.py",
        "        head |= 1 << k\n    for k in range(min(a.tail_lines, n_tagged)):",
        "        pass\n    for k in range(min(a.tail_lines, n_tagged)):",
        first("tests/test_short_texts.py")(["tests/test_sketch.py"]),
        "a note and its copy under a banner above it are the same document",
    ),
    m(
        "other-scripts-cut-into-letters",
        "desktop_dedup/core/text.py",
        "    if normalized.isascii() or (\n",
        "    if True or (\n",
        first("tests/test_text.py")(["tests/test_own_corpus.py"]),
        "words of scripts jieba does not know are taken whole",
    ),
    m(
        "typographic-quotes-are-changes",
        "desktop_dedup/core/text.py",
        "    table.update(dict.fromkeys(range(0x201C, 0x2020), '\"'))\n",
        "",
        ["tests/test_diff.py"],
        "look-alike characters are no change in the diff",
    ),
    m(
        "legacy-words-found-in-quadratic-time",
        "desktop_dedup/core/extract/plaintext.py",
        '_NON_ASCII_WORD = re.compile(rb"(?<!\\S)\\S*?[\\x80-\\xff]\\S*")\n',
        '_NON_ASCII_WORD = re.compile(rb"[^\\s]*[\\x80-\\xff][^\\s]*")\n',
        ["tests/test_decoding.py"],
        "a legacy text with a long unbroken run is read in bounded time",
    ),
    m(
        "hyphenated-words-found-in-quadratic-time",
        "desktop_dedup/core/extract/_common.py",
        '_HYPHENATED = re.compile(r"(?<![^\\W\\d_])[^\\W\\d_]+-[^\\W\\d_]+")\n',
        '_HYPHENATED = re.compile(r"[^\\W\\d_]+-[^\\W\\d_]+")\n',
        ["tests/test_extract.py"],
        "hyphenated words are joined in linear time beside a long run of letters",
    ),
    m(
        "retiring-reader-drops-the-file-sent-ahead",
        "desktop_dedup/core/workers.py",
        "                    self._requeue_rest(worker, queue)\n",
        "                    pass\n",
        ["tests/test_reader_budgets.py"],
        "the files sent ahead to a reader that ran out of memory are still read",
    ),
    m(
        "scan-batches-written-in-the-scanning-thread",
        "desktop_dedup/core/service.py",
        "            writer.start(rows)\n",
        "            writer._run(rows)\n",
        ["tests/test_scan_writes.py"],
        "the readers keep getting files while a batch of rows is written",
    ),
    m(
        "failed-scan-batch-rows-dropped",
        "desktop_dedup/core/service.py",
        "            pending[:0] = rows\n",
        "            pending[:0] = []\n",
        ["tests/test_scan_writes.py"],
        "a batch that failed to be written goes back to be written again",
    ),
    m(
        "one-word-line-never-meets-the-other-document",
        "desktop_dedup/core/sketch.py",
        "    if alone:  # they meet the other when a pair joining them to a neighbour does\n",
        "    if False:\n",
        ["tests/test_short_texts.py::test_a_heading_of_one_word_is_part_of_the_note_it_heads"],
        "a heading of one word is kept with the note it heads when it meets the other copy",
    ),
    m(
        "long-text-segmented-whole",
        "desktop_dedup/core/fingerprint.py",
        "        if end - at > text_mod.LONG_TEXT_CHARS:\n",
        "        if False:\n",
        [
            "tests/test_reader_budgets.py::test_a_chinese_novel_of_fifty_megabytes_is_read_within_the_memory_budget"
        ],
        "a long text is segmented a piece at a time, within the reader's memory budget",
    ),
    m(
        "long-text-normalised-whole",
        "desktop_dedup/core/text.py",
        "    if len(text) > LONG_TEXT_CHARS:\n",
        "    if False:\n",
        ["tests/test_text.py::test_a_long_text_is_normalised_in_little_more_memory_than_it_takes"],
        "a long text is normalised a piece at a time, within the reader's memory budget",
    ),
    m(
        "long-text-script-folded-whole",
        "desktop_dedup/core/text.py",
        "        return _fold_script_in_pieces(_collapsed_in_pieces(text), fold)\n",
        "        return fold_script(_collapsed_in_pieces(text), fold)\n",
        ["tests/test_text.py::test_a_long_text_is_normalised_in_little_more_memory_than_it_takes"],
        "OpenCC folds a long text's script a piece at a time, within the reader's memory budget",
    ),
    m(
        "long-text-hashed-whole",
        "desktop_dedup/core/text.py",
        "    if len(normalized) <= LONG_TEXT_CHARS:\n",
        "    if True:\n",
        ["tests/test_text.py::test_a_long_text_is_hashed_in_little_more_memory_than_it_takes"],
        "a long text's text hash is computed a piece at a time, within the reader's memory budget",
    ),
    m(
        "normalisation-pieces-cut-anywhere",
        "desktop_dedup/core/text.py",
        '        end = text.find("\\n", at + LONG_TEXT_CHARS)\n',
        "        end = min(len(text), at + LONG_TEXT_CHARS)\n",
        [
            "tests/test_fingerprint.py::test_a_long_text_taken_a_piece_at_a_time_has_the_fingerprint_of_the_whole"
        ],
        "a long text normalised in pieces has the fingerprint of the whole",
    ),
    m(
        "script-fold-pieces-cut-anywhere",
        "desktop_dedup/core/text.py",
        "        cut = _FOLD_PIECE_END.search(text, at + LONG_TEXT_CHARS)\n",
        "        cut = re.compile('(?s).').search(text, at + LONG_TEXT_CHARS)\n",
        [
            "tests/test_fingerprint.py::test_a_long_text_taken_a_piece_at_a_time_has_the_fingerprint_of_the_whole"
        ],
        "a long text's script folded in pieces has the fingerprint of the whole",
    ),
    m(
        "whole-cap-allocated-for-every-read",
        "desktop_dedup/core/extract/_common.py",
        "    data = f.read(size + 1)\n",
        "    data = f.read(limit + 1)\n",
        ["tests/test_extract_faults.py::test_reading_a_small_file_never_asks_for_the_whole_cap"],
        "reading a small file never takes the whole cap of a reader's memory",
    ),
    m(
        "simhash-weighs-every-feature-at-once",
        "desktop_dedup/core/fingerprint.py",
        "_SIMHASH_STEP = 8192\n",
        "_SIMHASH_STEP = 1 << 40\n",
        [
            "tests/test_reader_budgets.py::test_a_word_list_of_five_megabytes_is_read_within_the_memory_budget"
        ],
        "the simhash of 350,000 distinct words fits the reader's memory budget",
    ),
    m(
        "simhash-bits-read-high-first",
        "desktop_dedup/core/fingerprint.py",
        'np.packbits(totals > 0, bitorder="little")',
        'np.packbits(totals > 0, bitorder="big")',
        [
            "tests/test_fingerprint.py::test_simhash_bit_i_is_the_sign_of_the_weighted_votes_on_bit_i"
        ],
        "the seeds' 64-bit Charikar simhash: bit i is the sign of the weighted votes on bit i",
    ),
    m(
        "token-of-letters-and-digits-taken-for-letters",
        "desktop_dedup/core/stopwords.py",
        "    letters = tok.isalpha()\n",
        "    letters = tok.isalnum()\n",
        ["tests/test_fingerprint.py::test_a_tokens_kind_is_what_the_digit_and_letter_patterns_say"],
        "identifiers with digits are no features: a changed number costs nothing",
    ),
    m(
        "legacy-chinese-judged-by-single-ideographs-too",
        "desktop_dedup/core/extract/plaintext.py",
        '_IDEOGRAPH_WORD = re.compile("^[\\u3400-\\u4dbf\\u4e00-\\u9fff]{2,}$"',
        '_IDEOGRAPH_WORD = re.compile("^[\\u3400-\\u4dbf\\u4e00-\\u9fff]{1,}$"',
        [
            "tests/test_decoding.py::"
            "test_the_word_share_is_the_ideographs_in_words_of_two_or_more_over_all_ideographs"
        ],
        "short GBK files decode as Chinese, and other encodings' text is not taken for it",
    ),
    m(
        "last-write-a-full-batch",
        "desktop_dedup/core/service.py",
        "else min(_WRITE_BATCH, max(_WRITE_BATCH_MIN, left))\n",
        "else _WRITE_BATCH\n",
        [
            "tests/test_scan_writes.py::"
            "test_the_batches_shrink_as_the_reading_ends_so_the_last_write_is_small"
        ],
        "a scan writes as it reads: the grouping waits only for its last few rows",
    ),
    m(
        "threshold-60-groups-issues-and-chapters",
        "desktop_dedup/core/models.py",
        "DEFAULT_MIN_SIMILARITY = 0.75",
        "DEFAULT_MIN_SIMILARITY = 0.60",
        [
            "tests/test_templates.py::test_issues_of_one_newsletter_are_never_grouped",
            "tests/test_templates.py::test_chapters_of_one_book_are_never_grouped",
        ],
        "issues of one newsletter and chapters of one book are different documents",
    ),
    m(
        "shingles-of-single-words",
        "desktop_dedup/core/sketch.py",
        "        pairs += h[at + 1 : stop + 1]\n",
        "",
        ["tests/test_templates.py::test_chapters_of_one_book_are_never_grouped"],
        "bigrams, not single words: chapters of one book share their vocabulary but not "
        "their word order",
    ),
    m(
        "siblings-naming-each-other-not-a-swap",
        "desktop_dedup/core/sketch.py",
        "        or _named_less_both_ways(a, b)\n",
        "",
        [
            "tests/test_sketch.py::test_pages_that_name_each_other_are_a_swap_when_each_names_itself_far_more",
            "tests/test_templates.py::test_sibling_pages_that_name_each_other_once_are_two_documents",
            "tests/test_templates.py::test_sibling_pages_that_name_each_other_often_are_two_documents",
            "tests/test_templates.py::test_chinese_sibling_pages_that_name_each_other_are_two_documents",
        ],
        "template instances are refused: sibling pages may name each other",
    ),
    m(
        "diff-names-no-pages-naming-each-other",
        "desktop_dedup/core/diff.py",
        "    pairs += [(first[1], second[1])] if first and second else []\n",
        "",
        ["tests/test_diff.py::test_the_swapped_names_are_found_when_two_pages_name_each_other"],
        "the diff names the two words that kept a pair of one template apart",
    ),
    m(
        "diff-names-the-first-pair-found",
        "desktop_dedup/core/diff.py",
        "    best = max(pairs, key=gone, default=None)\n",
        "    best = pairs[0] if pairs else None\n",
        ["tests/test_diff.py::test_the_swapped_names_are_found_when_two_pages_name_each_other"],
        "the diff names the two words that kept a pair of one template apart",
    ),
    m(
        "diff-names-words-the-index-does-not-weigh",
        "desktop_dedup/core/diff.py",
        "        if word_kind(tok) != NOT_A_WORD:\n",
        "        if tok.strip():\n",
        [
            "tests/test_diff.py::test_the_swapped_names_are_found_when_two_pages_name_each_other",
            "tests/test_diff.py::test_the_swapped_names_are_the_names_the_index_saw_letters_and_digits_together",
            "tests/test_diff.py::test_the_swapped_names_are_the_words_the_index_cut_and_weighed",
        ],
        "the diff names the two words that kept a pair of one template apart, in the index's words",
    ),
    m(
        "diff-cuts-words-its-own-way",
        "desktop_dedup/core/diff.py",
        "    for tok in segment(normalize_text(text)):\n",
        "    for tok in map(str.lower, tokenize_for_diff(text)):\n",
        [
            "tests/test_diff.py::test_the_swapped_names_are_the_names_the_index_saw_letters_and_digits_together",
            "tests/test_diff.py::test_the_swapped_names_are_the_words_the_index_cut_and_weighed",
        ],
        "the diff names the two words that kept a pair of one template apart, in the index's words",
    ),
    m(
        "diff-names-the-words-normalised",
        "desktop_dedup/core/diff.py",
        "    return (_as_written(best[0], a), _as_written(best[1], b)) if best else None\n",
        "    return best\n",
        [
            "tests/test_diff.py::test_the_swapped_names_are_the_names_the_index_saw_letters_and_digits_together",
            "tests/test_diff.py::test_the_swapped_names_are_the_words_the_index_cut_and_weighed",
        ],
        "the diff names the two words that kept a pair of one template apart, in the index's words",
    ),
    m(
        "same-words-verified-pair-by-pair",
        "desktop_dedup/core/grouping.py",
        "        cls = _same_words(items, tid, either, sim, has, load_sketches, threshold,"
        " ignored)\n",
        "        cls = tid\n",
        [
            "tests/test_grouping.py::test_three_thousand_documents_of_the_same_words_are_one_group_verified_once"
        ],
        "documents of the same words are grouped in time proportional to them",
    ),
    m(
        "same-words-made-one-across-an-ignored-pair",
        "desktop_dedup/core/grouping.py",
        "        if ignored and _holds_ignored_pair(\n",
        "        if False and _holds_ignored_pair(\n",
        [
            "tests/test_grouping.py::"
            "test_documents_of_the_same_words_ignored_as_a_pair_stay_apart_and_find_their_own"
        ],
        "a pair you ignore is never grouped, and each of the two still finds its own copies",
    ),
    m(
        "same-words-of-no-words-made-one",
        "desktop_dedup/core/grouping.py",
        "        if sketch_mod.verified_similarity(sk, sk, threshold) < threshold:\n",
        "        if False:\n",
        [
            "tests/test_grouping.py::test_documents_of_the_same_words_stand_as_one_whatever_their_sketches_load"
        ],
        "documents of the same words are grouped in time proportional to them",
    ),
    m(
        "same-words-taken-for-the-same-text",
        "desktop_dedup/core/grouping.py",
        "        elif len({int(tid[d]) for d in docs}) == 1:\n",
        "        elif len({doc_class[d] for d in docs}) == 1:\n",
        [
            "tests/test_grouping.py::test_three_thousand_documents_of_the_same_words_are_one_group_verified_once"
        ],
        "documents of the same words are grouped in time proportional to them",
    ),
    m(
        "same-words-no-distance-taken-for-zero",
        "desktop_dedup/core/grouping.py",
        "                dist = hamming(int(sim[d]), int(sim[ref]))"
        " if has[d] and has[ref] else -1\n"
        "            else:",
        "                dist = 0\n            else:",
        [
            "tests/test_grouping.py::test_three_thousand_documents_of_the_same_words_are_one_group_verified_once"
        ],
        "documents of the same words are grouped in time proportional to them",
    ),
    m(
        "family-verified-pair-by-pair",
        "desktop_dedup/core/grouping.py",
        "FAMILY_MIN_CLASSES = 8\n",
        "FAMILY_MIN_CLASSES = 8_000_000\n",
        [
            "tests/test_grouping.py::"
            "test_a_family_of_form_letters_is_verified_against_its_reference_not_pair_by_pair"
        ],
        "a family of alike documents is grouped in time proportional to it",
    ),
    m(
        "family-bound-only-with-the-first",
        "desktop_dedup/core/grouping.py",
        "    if lowest[0] < needed or least < needed:\n",
        "    if lowest[0] < needed:\n",
        [
            "tests/test_grouping.py::"
            "test_a_star_of_copies_each_the_same_as_the_first_but_not_as_each_other_is_no_family"
        ],
        "every pair of a group is verified the same: no chaining",
    ),
    m(
        "family-of-other-repeated-words",
        "desktop_dedup/core/grouping.py",
        "        if (s.salient.tobytes(), s.counts.tobytes()) != profile:\n",
        "        if False:\n",
        [
            "tests/test_grouping.py::"
            "test_form_letters_that_each_name_their_own_addressee_throughout_are_not_made_a_family"
        ],
        "documents made from one template that name different things are not grouped",
    ),
    m(
        "family-across-an-ignored-pair",
        "desktop_dedup/core/grouping.py",
        "                if ign.blocks(content, seen):\n                    return None\n",
        "                pass\n",
        ["tests/test_grouping.py::test_form_letters_with_a_pair_the_user_ignored_are_no_family"],
        "a pair you ignore is never grouped",
    ),
    m(
        "family-candidates-in-a-dict",
        "desktop_dedup/core/grouping.py",
        "        cand_codes.append(lo.astype(np.int64) * m_all + hi)\n",
        "        cand_codes.append(np.array(list({(a * m_all + b): 0 for a, b in zip("
        "lo.tolist(), hi.tolist())}), dtype=np.int64))\n",
        ["tests/test_grouping.py::test_three_thousand_form_letters_group_in_bounded_memory"],
        "a family of alike documents is grouped in time proportional to it",
    ),
    m(
        "split-family-verified-pair-by-pair",
        "desktop_dedup/core/grouping.py",
        "        split = _split_family(family, pairs_of,",
        "        split = None and _split_family(family, pairs_of,",
        [
            "tests/test_grouping.py::"
            "test_a_family_of_two_letters_is_split_where_no_pair_across_can_be_the_same"
        ],
        "a family of alike documents is grouped in time proportional to it",
    ),
    m(
        "split-parts-kept-apart-though-every-pair-across-may-pass",
        "desktop_dedup/core/grouping.py",
        "            if np.any(held >= sizes[codes // n] * sizes[codes % n]):\n",
        "            if False:\n",
        [
            "tests/test_grouping.py::"
            "test_two_letters_all_of_whose_pairs_are_the_same_are_one_group_not_two"
        ],
        "documents that are all pairwise the same form one group",
    ),
    m(
        "split-order-unchecked",
        "desktop_dedup/core/grouping.py",
        "            if found is None or found[1] <= most:\n",
        "            if found is None:\n",
        [
            "tests/test_grouping.py::"
            "test_a_split_is_refused_when_a_pair_across_is_more_alike_than_a_pair_inside"
        ],
        "a document close to two groups lands with its closest match",
    ),
    m(
        "split-bounds-forget-the-words",
        "desktop_dedup/core/grouping.py",
        "        np.maximum(bound, np.where(light, word_bound, 0.0), out=bound)\n",
        "        pass\n",
        [
            "tests/test_grouping.py::"
            "test_notes_the_same_but_for_one_word_are_not_split_by_their_word_pairs"
        ],
        "a note with one word changed is the same note",
    ),
    m(
        "split-bounds-without-the-lines-inside",
        "desktop_dedup/core/grouping.py",
        "        left_r = np.maximum(sv, inner[r, None])\n",
        "        left_r = sv\n",
        [
            "tests/test_grouping.py::"
            "test_a_family_of_two_letters_is_split_where_no_pair_across_can_be_the_same"
        ],
        "a family of alike documents is grouped in time proportional to it",
    ),
    m(
        "split-bounds-keep-boilerplate-words",
        "desktop_dedup/core/grouping.py",
        "            np.maximum(bound, np.where(maybe, kept_bound, 0.0), out=bound)\n",
        "            pass\n",
        [
            "tests/test_short_texts.py::"
            "test_a_split_familys_bounds_never_fall_below_a_share_leaving_out_boilerplate"
        ],
        "notes under two companies' disclaimers are each found with their copies",
    ),
    m(
        "least-kept-words-whole-text",
        "desktop_dedup/core/sketch.py",
        "    return _kept_words(s, [*range(top), *range(bottom, len(ids))])\n",
        "    return s.words\n",
        [
            "tests/test_short_texts.py::"
            "test_a_family_of_notes_under_two_disclaimers_keeps_each_notes_copies_together"
        ],
        "notes under two companies' disclaimers are each found with their copies",
    ),
    m(
        "split-bounds-leave-out-lines-every-member-holds",
        "desktop_dedup/core/grouping.py",
        "            kept = sketch_mod.least_kept_words(sks[k], counts, always)\n",
        "            kept = sketch_mod.least_kept_words(sks[k], counts)\n",
        [
            "tests/test_short_texts.py::"
            "test_a_split_familys_bounds_keep_the_lines_every_member_holds"
        ],
        "a family of alike documents is grouped in time proportional to it",
    ),
    m(
        "diff-matcher-takes-any-small-gap",
        "desktop_dedup/core/diff.py",
        "_MAX_MATCHER_WORK = 2_000_000\n",
        "_MAX_MATCHER_WORK = 2_000_000_000_000\n",
        [
            "tests/test_diff.py::"
            "test_a_text_of_one_recurring_line_against_it_with_lines_between_takes_few_comparisons"
        ],
        "text made of one thing over and over is compared in time proportional to it",
    ),
    m(
        "edge-lines-counted-anew",
        "desktop_dedup/core/fingerprint.py",
        "        return self._occurrences[line]\n",
        "        return self.lines.count(line)\n",
        [
            "tests/test_fingerprint.py::test_a_text_of_many_lines_without_words_is_peeled_in_one_pass"
        ],
        "edge peeling takes time in proportion to the text: the lines are counted once",
    ),
    m(
        "addresses-run-together-matched-each-to-the-end",
        "desktop_dedup/core/text.py",
        "                        after = rest.end()\n",
        "",
        ["tests/test_web_addresses.py::test_addresses_run_together_are_looked_at_once_each_run"],
        "a file is read in bounded time: links on one line are matched once",
    ),
    m(
        "address-matched-before-its-left-edge-is-checked",
        "desktop_dedup/core/text.py",
        "        if not (at and normalized[at - 1] in _LATIN_ALNUM):\n"
        "            rest = _ADDRESS_REST.match(normalized, at + 4)\n"
        "            if rest:\n",
        "        rest = _ADDRESS_REST.match(normalized, at + 4)\n"
        "        if rest and not (at and normalized[at - 1] in _LATIN_ALNUM):\n"
        "            if rest:\n",
        ["tests/test_web_addresses.py::test_addresses_run_together_are_looked_at_once_each_run"],
        "a file is read in bounded time: links on one line are matched once",
    ),
    m(
        "diff-names-a-regional-word-normalised",
        "desktop_dedup/core/diff.py",
        "            if tok.lower() == word or normalize_unwrapped(written) == word:\n",
        "            if tok.lower() == word:\n",
        ["tests/test_diff.py::test_the_swapped_names_are_the_words_the_index_cut_and_weighed"],
        "the diff names the two words that kept a pair of one template apart, in the index's words",
    ),
    m(
        "word-out-of-a-full-salient-list-unbounded",
        "desktop_dedup/core/sketch.py",
        "    if held is None and len(doc.counts) == SALIENT_SIZE:\n",
        "    if False:\n",
        [
            "tests/test_sketch.py::"
            "test_a_name_among_many_repeated_words_is_held_at_most_as_often_as_the_least_of_them",
            "tests/test_templates.py::test_sibling_pages_that_name_each_other_often_are_two_documents",
        ],
        "template instances are refused: sibling pages may name each other",
    ),
    m(
        "sibling-named-half-as-often-both-ways",
        "desktop_dedup/core/sketch.py",
        "n >= SALIENT_MIN_COUNT * held and",
        "n >= 2 * held and",
        [
            "tests/test_sketch.py::test_pages_that_name_each_other_are_a_swap_when_each_names_itself_far_more"
        ],
        "a revision that uses a word twice as often where it dropped another is the same document",
    ),
    m(
        "siblings-two-gone-each-way",
        "desktop_dedup/core/sketch.py",
        "and n - held >= SALIENT_MIN_COUNT:",
        "and n - held >= 2:",
        [
            "tests/test_sketch.py::test_pages_that_name_each_other_are_a_swap_when_each_names_itself_far_more"
        ],
        "a cut copy and an edited copy of a short text stay together",
    ),
    m(
        "siblings-named-less-one-way-enough",
        "desktop_dedup/core/sketch.py",
        "_named_less(a, b) and _named_less(b, a)",
        "(_named_less(a, b) or _named_less(b, a))",
        [
            "tests/test_sketch.py::test_pages_that_name_each_other_are_a_swap_when_each_names_itself_far_more"
        ],
        "a swap is both ways",
    ),
    m(
        "salient-counts-of-the-other-page-ignored",
        "desktop_dedup/core/sketch.py",
        "    if found is not None:\n        return found\n",
        "",
        [
            "tests/test_sketch.py::test_pages_that_name_each_other_are_a_swap_when_each_names_itself_far_more",
            "tests/test_templates.py::test_chinese_sibling_pages_that_name_each_other_are_two_documents",
        ],
        "template instances are refused: sibling pages may name each other",
    ),
    m(
        "template-name-counted-outside-the-peeled-lines-only",
        "desktop_dedup/core/fingerprint.py",
        "    word_counts = whole[positive]\n",
        "    word_counts = tf[positive]\n",
        ["tests/test_templates.py"],
        "pages made from one template with another name are not grouped",
    ),
    m(
        "utf32-without-bom-is-binary",
        "desktop_dedup/core/extract/plaintext.py",
        "        wide = _utf32_without_bom(whole_units(4)) or _utf16_without_bom(whole_units(2))\n",
        "        wide = _utf16_without_bom(whole_units(2))\n",
        ["tests/test_extract.py"],
        "UTF-32 text without a byte-order mark is read",
    ),
    m(
        "plain-text-doc-refused",
        "desktop_dedup/core/extract/doc.py",
        '    if kind == "unknown":\n        return not_compound_as_text(path, label)\n',
        "",
        ["tests/test_extract_office.py"],
        "a .doc that is plain text is read as text",
    ),
    m(
        "text-xls-refused",
        "desktop_dedup/core/extract/spreadsheet.py",
        '        if kind == "unknown":  # tab- or comma-separated text named .xls\n',
        "        if False:\n",
        ["tests/test_extract_office.py"],
        "an .xls that is tab-separated text is read as text",
    ),
    m(
        "scripts-read-as-documents",
        "desktop_dedup/core/scanning.py",
        '    return "script" if head.startswith(SHEBANG) else "text"\n',
        '    return "text"\n',
        ["tests/test_text_sniffing.py"],
        "a script without an extension is counted, not read as a document",
    ),
    m(
        "typeset-hyphens-left-in-text",
        "desktop_dedup/core/extract/plaintext.py",
        "    return join_typeset_hyphens(decode_text_bytes(read_capped(path)))\n",
        "    return decode_text_bytes(read_capped(path))\n",
        ["tests/test_extract.py"],
        "a manual page saved as text has its hyphenated words whole",
    ),
    m(
        "typeset-hyphen-after-any-word-character",
        "desktop_dedup/core/extract/_common.py",
        '(r"\\u2010(?<=[^\\W\\d_]\\u2010)',
        '(r"\\u2010(?<=\\w\\u2010)',
        ["tests/test_extract.py"],
        "only a word cut after a letter is joined at a typeset hyphen",
    ),
    m(
        "table-layout-menu-read-as-text",
        "desktop_dedup/core/extract/html.py",
        "        _remove(_menu_columns(root))\n",
        "        pass\n",
        ["tests/test_web_pages.py"],
        "a table layout's menu column is not its pages' text",
    ),
    m(
        "table-layout-document-links-dropped",
        "desktop_dedup/core/extract/html.py",
        "            if only and prose > unlinked\n",
        "            if only\n",
        ["tests/test_web_pages.py"],
        "the links of a table layout page's own document are kept",
    ),
    m(
        "permalink-signs-read-as-text",
        "desktop_dedup/core/extract/html.py",
        "    _remove(_permalinks(root))\n",
        "",
        ["tests/test_web_pages.py"],
        "a heading's link to itself is not the page's text",
    ),
    m(
        "diff-hides-the-swap",
        "desktop_dedup/core/service.py",
        "        return share, SWAPPED\n",
        "        return share, None\n",
        ["tests/test_cli.py"],
        "diff names the two words when a swap is why the figure is 0",
    ),
    m(
        "marked-latin-letters-cut-from-their-words",
        "desktop_dedup/core/text.py",
        "        not _OTHER_LETTER.search(normalized) and not _any_mark().search(normalized)\n",
        "        not _OTHER_LETTER.search(normalized)\n",
        first("tests/test_text.py")(["tests/test_fingerprint.py"]),
        "a word is the same tokens whatever else the text holds",
    ),
    m(
        "fixed-width-cuts-left-in",
        "desktop_dedup/core/text.py",
        "    if cut < _MIN_CUT_WORDS or cut < _MIN_CUT_SHARE * full:\n        return text\n",
        "    return text\n",
        first("tests/test_text.py")(["tests/test_extract.py"]),
        "text cut at a fixed width is joined again",
    ),
    m(
        "word-wrap-taken-for-a-cut",
        "desktop_dedup/core/text.py",
        "    if not _cut_by_counting(lines, width):\n        return text\n",
        "",
        first("tests/test_text.py")(["tests/test_short_texts.py"]),
        "a word wrap whose lines happen to be equally long is not glued as a fixed-width cut",
    ),
    m(
        "cut-by-counting-blind-to-spaces",
        "desktop_dedup/core/text.py",
        "        if line[-1].isspace() or (\n",
        "        if False and (\n",
        first("tests/test_text.py")([]),
        "a space left at a line's edge tells a cut by counting from a word wrap",
    ),
    m(
        "cut-evidence-from-every-line",
        "desktop_dedup/core/text.py",
        "    window = lines[: _EVIDENCE_LINES + 1]\n",
        "    window = lines\n",
        first("tests/test_text.py")([]),
        "the evidence for a cut is read from a bounded part of a long text",
    ),
    m(
        "page-chrome-kept",
        "desktop_dedup/core/extract/html.py",
        "    root = _main_content(root, book)\n",
        "",
        ["tests/test_web_pages.py"],
        "a web page is its document, without the site's navigation, sidebars and footer",
    ),
    m(
        "main-ignored",
        "desktop_dedup/core/extract/html.py",
        "    if main is not None and main.text(strip=True):\n",
        "    if False:\n",
        ["tests/test_web_pages.py"],
        "a page's <main> is its document",
    ),
    m(
        "one-article-ignored",
        "desktop_dedup/core/extract/html.py",
        "        root = _the_article(root) or root\n",
        "        pass\n",
        ["tests/test_web_pages.py"],
        "a page's one <article> holding most of its text is its document",
    ),
    m(
        "page-sections-walked-up-each",
        "desktop_dedup/core/extract/html.py",
        "        known.update(dict.fromkeys(path, held))\n",
        "        pass\n",
        ["tests/test_web_pages.py"],
        "a page is read in bounded time whatever its markup",
    ),
    m(
        "article-header-dropped",
        "desktop_dedup/core/extract/html.py",
        '_OWNERS = {"header": {"article", "section", "main"},',
        '_OWNERS = {"header": set(),',
        ["tests/test_web_pages.py"],
        "an article's header (its title, its byline) stays",
    ),
    m(
        "front-matter-kept",
        "desktop_dedup/core/extract/plaintext.py",
        "    text = _without_front_matter(text)\n",
        "",
        ["tests/test_extract.py"],
        "a note's front matter is not its text",
    ),
    m(
        "front-matter-over-prose",
        "desktop_dedup/core/extract/plaintext.py",
        "    if all(key.match(line) or _FRONT_OTHER.match(line) for line in lines):\n",
        "    if True:\n",
        ["tests/test_extract.py"],
        "a page that opens with a rule and prose keeps it",
    ),
    m(
        "wiki-links-read-whole",
        "desktop_dedup/core/extract/plaintext.py",
        '    (re.compile(r"\\[\\[([^\\[\\]|\\n]*)\\|([^\\[\\]\\n]+)\\]\\]"), r"\\2"),\n',
        "",
        ["tests/test_extract.py"],
        "a note's links read as they show: the alias",
    ),
    m(
        "markdown-comments-read",
        "desktop_dedup/core/extract/plaintext.py",
        '    (re.compile(r"<!--(?:(?!<!--|-->).)*-->", re.S), ""),\n',
        "",
        ["tests/test_extract.py"],
        "a note's comments are not its text",
    ),
    m(
        "overstrikes-kept",
        "desktop_dedup/core/extract/plaintext.py",
        '        text = _OVERSTRUCK.sub("", text).replace("\\x08", "")\n',
        "        pass\n",
        ["tests/test_extract.py"],
        "a page saved with groff's overstrikes reads as the page",
    ),
    m(
        "terminal-sequences-kept",
        "desktop_dedup/core/extract/plaintext.py",
        '        text = _TERMINAL_SEQUENCE.sub("", text)\n',
        "        pass\n",
        ["tests/test_extract.py", "tests/test_decoding.py"],
        "a page or a log saved with escape sequences reads as a terminal shows it",
    ),
    m(
        "zero-tail-read-as-text",
        "desktop_dedup/core/extract/plaintext.py",
        '    body = data.rstrip(b"\\x00")\n',
        "    body = data\n",
        ["tests/test_extract.py"],
        "a text followed by zero bytes is its text",
    ),
    m(
        "zero-tail-cut-into-a-wide-character",
        "desktop_dedup/core/extract/plaintext.py",
        '        return body + b"\\x00" * (-len(body) % size)\n',
        "        return body\n",
        ["tests/test_extract.py"],
        "a UTF-16 or UTF-32 text followed by zero bytes keeps its last character",
    ),
    m(
        "damaged-utf8-sent-to-the-detector",
        "desktop_dedup/core/extract/plaintext.py",
        "        text = _damaged_utf8(data) or _decode_legacy(data)\n",
        "        text = _decode_legacy(data)\n",
        ["tests/test_decoding.py"],
        "UTF-8 text with a few damaged bytes is still UTF-8",
    ),
    m(
        "legacy-text-taken-for-damaged-utf8",
        "desktop_dedup/core/extract/plaintext.py",
        "    return text if bad * _DAMAGED_UTF8_SHARE <= non_ascii - bad else None\n",
        "    return text if bad <= non_ascii else None\n",
        ["tests/test_decoding.py"],
        "legacy text is read in its encoding, not as damaged UTF-8",
    ),
    m(
        "stale-meta-charset-trusted",
        "desktop_dedup/core/extract/html.py",
        '    if declared != "utf-8" and not data.isascii():\n',
        "    if False:\n",
        ["tests/test_extract.py"],
        "a UTF-8 page whose meta tag names another charset reads as UTF-8",
    ),
    m(
        "page-saying-utf8-read-as-utf8-anyway",
        "desktop_dedup/core/extract/html.py",
        "            return decode_text_bytes(data)\n",
        '            return data.decode(declared, errors="replace")\n',
        ["tests/test_extract.py"],
        "a page whose meta says UTF-8 and is not reads as the text it is",
    ),
    m(
        "pdf-hyphens-shown",
        "desktop_dedup/core/extract/pdf.py",
        "    return join_hyphenated(text) if HYPHEN_MARK in text else text\n",
        '    return text.replace(HYPHEN_MARK, "-")\n',
        ["tests/test_extract.py"],
        "a PDF's words hyphenated at line ends are read whole",
    ),
    m(
        "ocr-hyphens-shown",
        "desktop_dedup/core/extract/pdf.py",
        "                pages[index] = _LINE_END_HYPHEN.sub(HYPHEN_MARK, text)\n",
        "                pages[index] = text\n",
        ["tests/test_ocr.py"],
        "a word hyphenated at a scanned page's line end is read whole",
    ),
    m(
        "pdf-compound-hyphen-dropped",
        "desktop_dedup/core/extract/_common.py",
        "        return written in hyphenated and (before + after).lower() not in whole\n",
        "        return False\n",
        ["tests/test_extract.py"],
        "a compound broken at its hyphen keeps it where the text writes it so",
    ),
    m(
        "sql-marking-ignores-reference-folders",
        "desktop_dedup/core/store/repository.py",
        "        markable = ~inside_sql(DocumentRow.path, self._locations(reference_roots))\n",
        "        markable = DocumentRow.id.isnot(None)\n",
        ["tests/test_sql_marking.py", "tests/test_marking.py"],
        "files in reference folders are never marked (the app's SQL rules too)",
    ),
    m(
        "read-only-index-opened-for-writing",
        "desktop_dedup/core/store/engine.py",
        "    if _read_only_file(path):\n",
        "    if False:\n",
        ["tests/test_database_faults.py"],
        "read-only commands work on a read-only database",
    ),
    # --- issue 13: scan speed -------------------------------------------------------------
    m(
        "copies-in-one-scan-extracted-again",
        "desktop_dedup/core/pipeline.py",
        "    if content_hash in _REUSABLE or content_hash in entry.read_copies:\n",
        "    if content_hash in _REUSABLE:\n",
        ["tests/test_scanning.py"],
        "a file's byte-identical copies in one scan are extracted once",
    ),
    m(
        "token-tables-emptied-inside-a-document",
        "desktop_dedup/core/fingerprint.py",
        "def _token_ids(tokens: Iterable[str]) -> list[int]:\n    tokens = list(tokens)\n",
        "def _token_ids(tokens: Iterable[str]) -> list[int]:\n    _reset_if_full()\n"
        "    tokens = list(tokens)\n",
        ["tests/test_fingerprint.py"],
        "a worker's token tables are emptied between documents, never inside one",
    ),
    m(
        "token-tables-emptied-inside-a-document-read-whole",
        "desktop_dedup/core/fingerprint.py",
        "    n = len(tokens)\n    ids = np.fromiter(map(_TOKEN_ID.get,",
        "    _reset_if_full()\n    n = len(tokens)\n    ids = np.fromiter(map(_TOKEN_ID.get,",
        ["tests/test_fingerprint.py"],
        "a worker's token tables are emptied between documents, never inside one",
    ),
    m(
        "new-tokens-of-a-document-left-without-ids",
        "desktop_dedup/core/fingerprint.py",
        "        _add_tokens(dict.fromkeys(new))\n",
        "        pass\n",
        FINGERPRINT,
        "the same text gets the same fingerprint whatever was read before it",
    ),
    m(
        "new-features-given-the-next-ones-ids",
        "desktop_dedup/core/fingerprint.py",
        "range(first, first + len(features))",
        "range(first + 1, first + 1 + len(features))",
        FINGERPRINT,
        "the same text gets the same fingerprint whatever was read before it",
    ),
    m(
        "idf-of-a-word-of-no-chinese-looked-up",
        "desktop_dedup/core/fingerprint.py",
        "        found &= np.array(listed, dtype=bool)\n",
        "        pass\n",
        ["tests/test_fingerprint.py::test_idf_table_looks_up_exactly_what_jieba_lists"],
        "words missing from jieba's IDF table get the table's median",
    ),
    m(
        "idf-of-words-whose-hashes-collide-by-hash",
        "desktop_dedup/core/fingerprint.py",
        "                if listed[k] and word in self.exact:\n",
        "                if False:\n",
        ["tests/test_fingerprint.py::test_idf_table_looks_up_exactly_what_jieba_lists"],
        "every word of jieba's IDF table gets its own IDF",
    ),
    m(
        "command-runs-with-the-collector-off",
        "desktop_dedup/cli.py",
        "        gc.freeze()\n        gc.enable()\n",
        "        gc.freeze()\n",
        ["tests/test_cli.py::test_a_command_runs_with_the_collector_on_once_it_has_loaded"],
        "a scan of a million files runs in bounded memory",
    ),
    m(
        "what-a-command-loaded-collected-again-and-again",
        "desktop_dedup/cli.py",
        "        gc.freeze()\n        gc.enable()\n",
        "        gc.enable()\n",
        ["tests/test_cli.py::test_a_command_runs_with_the_collector_on_once_it_has_loaded"],
        "the scan's start-up is measured (bench_small_files)",
    ),
    m(
        "app-runs-with-the-collector-off",
        "desktop_dedup/cli.py",
        "                gc.enable()  # the app loads and collects as it always has\n",
        "                pass\n",
        ["tests/test_cli.py::test_a_command_runs_with_the_collector_on_once_it_has_loaded"],
        "the app runs in bounded memory",
    ),
    m(
        "readers-read-with-the-collector-off",
        "desktop_dedup/core/_worker_preload.py",
        "gc.freeze()\ngc.enable()\n",
        "gc.freeze()\n",
        ["tests/test_worker_crash.py::test_readers_read_with_the_collector_on"],
        "a reader reads within its memory budget",
    ),
    m(
        "idf-cache-of-another-file-used",
        "desktop_dedup/core/cache.py",
        '        key.append(f"{source.resolve()}\\0{st.st_size}-{st.st_mtime_ns}")\n',
        '        key.append(f"{source.resolve()}")\n',
        ["tests/test_fingerprint.py"],
        "the cached IDF table is the table of the installed jieba, never an older one",
    ),
    m(
        "idf-word-looked-up-by-the-wrong-hash",
        "desktop_dedup/core/fingerprint.py",
        '        order = np.argsort(hashes, kind="stable")\n',
        "        order = np.arange(len(hashes))\n",
        ["tests/test_fingerprint.py"],
        "every word of jieba's IDF table gets its own IDF",
    ),
    m(
        "blas-threads-spin-at-start-up",
        "desktop_dedup/__init__.py",
        '_os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")\n',
        "pass\n",
        ["tests/test_architecture.py"],
        "numpy's OpenBLAS runs one thread in our processes (the small-files start-up)",
    ),
    # --- the review: a diff of a text whose lines recur ---------------------------------------
    m(
        "members-columns-sized-by-the-first-group",
        "desktop_dedup/gui/main_window.py",
        "            if header.sectionSize(column) < need:\n"
        "                header.resizeSection(column, need)\n",
        "            pass\n",
        first(
            "tests/gui/test_gui_review.py::"
            "test_no_size_date_or_similarity_is_cut_whichever_group_came_first"
        )(["tests/gui/test_gui_review.py"]),
        "the Files table shows every size, date and figure whole",
    ),
    m(
        "diff-shows-the-script-as-a-change",
        "desktop_dedup/core/text.py",
        "    folded = fold(text)\n",
        "    folded = text\n",
        first(
            "tests/test_diff.py::"
            "test_a_traditional_copy_differs_only_where_its_words_do_but_is_shown_as_written"
        )(["tests/test_diff.py"]),
        "a copy in the other script differs in the diff only where its words do",
    ),
    m(
        "diff-shows-a-fold-inside-a-word",
        "desktop_dedup/core/diff.py",
        "if t != EQUAL and _layout_only(a, b, op)",
        "if False",
        ["tests/test_diff_formats.py"],
        "a copy folded inside words (fold -w) shows no change in the diff, as its figure says",
    ),
    m(
        "diff-hides-a-space-put-into-a-word",
        "desktop_dedup/core/diff.py",
        '            out.append(_LINE_BREAK_RE.sub("", m.group()))',
        "            pass",
        ["tests/test_diff_formats.py"],
        "a real edit in a folded copy is still shown, a space put into a word too",
    ),
    m(
        "short-notes-never-counted-in-words",
        "desktop_dedup/core/sketch.py",
        "    best = _word_share(a.words, b.words, floor, shared)\n",
        "    return 0.0\n",
        ["tests/test_short_texts.py"],
        "a note of a few words with one word changed is the same note",
    ),
    m(
        "words-counted-beyond-light-edits",
        "desktop_dedup/core/sketch.py",
        "    if common >= need or (common >= loose and _light_edits(words, other, edits)):\n",
        "    if True:\n",
        ["tests/test_short_texts.py"],
        "two different notes on one template, or under one footer, are not the same document",
    ),
    m(
        "tokens-lined-up-by-counting-each-line",
        "desktop_dedup/core/fingerprint.py",
        "            token_lines = doc_lines.line_of_tokens(where())\n",
        "            pass\n",
        ["tests/test_short_texts.py"],
        "a footer or banner is one line of the index whatever note it is glued to",
    ),
    m(
        "word-cut-in-two-counted-as-two-edits",
        "desktop_dedup/core/sketch.py",
        "    if common >= need or (common >= loose and _light_edits(words, other, edits)):\n",
        "    if common >= need:\n",
        ["tests/test_short_texts.py"],
        "a short note with one word replaced is the same note, also where we cut that word in two",
    ),
    m(
        "banner-copy-precheck-counts-tokens",
        "desktop_dedup/core/sketch.py",
        "    if len(a.tags) == 0 or shared < _fewest_common("
        "len(b.words), _edits_allowed(len(b.words))):\n",
        "    if len(a.tags) == 0 or shared < _words_needed(len(b.words)):\n",
        ["tests/test_short_texts.py"],
        "a short note with one word replaced is the same note, also where we cut that word in two",
    ),
    m(
        "two-tokens-inserted-counted-as-one-edit",
        "desktop_dedup/core/sketch.py",
        "        return max(gap_a, gap_b) <= 1 or (min(gap_a, gap_b) == 1 and"
        " max(gap_a, gap_b) <= run)\n",
        "        return max(gap_a, gap_b) <= run and min(gap_a, gap_b) <= 1\n",
        ["tests/test_short_texts.py"],
        "two different notes under one banner are not grouped",
    ),
    m(
        "two-words-for-two-counted-as-one-edit",
        "desktop_dedup/core/sketch.py",
        "        return max(gap_a, gap_b) <= 1 or (min(gap_a, gap_b) == 1 and"
        " max(gap_a, gap_b) <= run)\n",
        "        return max(gap_a, gap_b) <= run\n",
        ["tests/test_short_texts.py"],
        "two notes of a few words that differ by more than light edits are not the same document",
    ),
    m(
        "words-compared-with-the-banner-kept",
        "desktop_dedup/core/sketch.py",
        "        gone[line] = bool(dropped >> bit & 1)\n",
        "        pass\n",
        ["tests/test_short_texts.py"],
        "the edited copy of a note of a few words is a copy of the note under a banner",
    ),
    # --- words of scripts with combining marks -----------------------------------------------
    m(
        "words-cut-at-their-marks",
        "desktop_dedup/core/text.py",
        '|{letter}+(?:[{mark}]+{letter}*)*"),\n',
        '|{letter}+"),\n',
        ["tests/test_text.py", "tests/test_short_texts.py"],
        "a Hindi, Bengali or Tamil word keeps its vowel signs and virama",
    ),
    m(
        "thai-runs-kept-whole",
        "desktop_dedup/core/text.py",
        "        if _UNSPACED.match(word.group()):\n",
        "        if False:\n",
        ["tests/test_text.py", "tests/test_short_texts.py"],
        "a Thai text with one word edited is the same text",
    ),
    m(
        "thai-word-pairs-of-single-letters",
        "desktop_dedup/core/text.py",
        "UNSPACED_GRAM = 3\n",
        "UNSPACED_GRAM = 1\n",
        ["tests/test_text.py", "tests/test_short_texts.py"],
        "different Thai texts do not look alike",
    ),
    m(
        "hebrew-vowel-points-kept",
        "desktop_dedup/core/text.py",
        '    "\\u0591-\\u05bd\\u05bf\\u05c1\\u05c2\\u05c4\\u05c5\\u05c7"\n',
        "",
        ["tests/test_text.py", "tests/test_short_texts.py"],
        "Hebrew with its vowel points is the same text as without",
    ),
    m(
        "diff-words-cut-at-their-marks",
        "desktop_dedup/core/diff.py",
        '    word = f"{letter}+(?:[{marks}]+{letter}*)*"\n',
        '    word = f"{letter}+"\n',
        ["tests/test_diff.py"],
        "an edited Hindi word is highlighted whole in the diff",
    ),
    m(
        "diff-thai-letters-apart-from-their-marks",
        "desktop_dedup/core/diff.py",
        "|(?=[^\\\\W\\\\d])[{unspaced}][{marks}]*|",
        "|",
        ["tests/test_diff.py"],
        "no highlight of a Thai diff starts between a letter and its marks",
    ),
    m(
        "same-text-drops-marks",
        "desktop_dedup/core/text.py",
        "    table[_mark_code_points()] = True\n",
        "",
        ["tests/test_text.py"],
        "two Hindi or Thai texts that differ in a vowel sign or a tone mark are not the same text",
    ),
    # --- the tables the setup makes (a new profile's first scan) ----------------------------
    m(
        "new-profile-derives-the-tables",
        "desktop_dedup/core/text.py",
        "            body = _shipped_regional_table() or regional_table_body()\n",
        "            body = regional_table_body()\n",
        ["tests/test_tables.py"],
        "a new profile copies the tables the setup made: the first scan is as fast as the next",
    ),
    m(
        "shipped-table-of-other-sources-used",
        "desktop_dedup/core/cache.py",
        "        if made_from != key:\n            return None\n",
        "",
        ["tests/test_tables.py"],
        "a table made from other files is never used",
    ),
    m(
        "damaged-shipped-table-used",
        "desktop_dedup/core/cache.py",
        "    if xxhash.xxh3_128_hexdigest(data) != body_hash:\n",
        "    if False:\n",
        ["tests/test_tables.py"],
        "a table damaged since it was made is never used",
    ),
    m(
        "repeated-lines-junked-as-one-change",
        "desktop_dedup/core/diff.py",
        "    blocks: list[tuple[int, int, int]] = []\n    i, j = alo, blo\n",
        "    return []\n",
        ["tests/test_diff.py"],
        "each edit of a long text of recurring lines is its own change in the diff",
    ),
    # --- twelfth session: the index tells a banner from a note -----------------------------
    m(
        "common-lines-ignore-what-is-kept",
        "desktop_dedup/core/sketch.py",
        "COMMON_LINE_FACTOR = 2\n",
        "COMMON_LINE_FACTOR = 0\n",
        first("tests/test_short_texts.py")([]),
        "one line above some notes and below others never joins two of them",
    ),
    m(
        "common-lines-without-a-minimum",
        "desktop_dedup/core/sketch.py",
        "    return rarest >= COMMON_LINE_MIN and rarest",
        "    return rarest",
        first("tests/test_short_texts.py")([]),
        "a line is common when it is in at least three texts",
    ),
    m(
        "short-lines-not-written",
        "desktop_dedup/core/store/repository.py",
        "                lines += zip(map(_signed, own), repeat(doc_id))\n",
        "",
        first("tests/test_short_texts.py")(["tests/test_store.py"]),
        "a note's copy under a banner and its copy above a footer longer than a third of it",
    ),
    m(
        "short-lines-not-migrated",
        "desktop_dedup/core/store/engine.py",
        '    _index_from_sketches(conn, which, None, raw_line_ids, "short_lines", "line_id")\n',
        '    _index_from_sketches(conn, which, None, lambda r: [], "short_lines", "line_id")\n',
        ["tests/test_store.py"],
        "an index written before keeps its matching: the lines are read from its sketches",
    ),
    m(
        "nested-rst-directive-kept",
        "desktop_dedup/core/extract/plaintext.py",
        '    (re.compile(r"^[ \\t]*\\.\\.[ \\t]+[\\w:-]+::[ \\t]*", _M), ""),\n',
        '    (re.compile(r"^\\.\\.[ \\t]+[\\w:-]+::[ \\t]*", _M), ""),\n',
        ["tests/test_extract.py"],
        "a reStructuredText page reads as its text, markup removed",
    ),
    m(
        "batch-rest-dropped",
        "desktop_dedup/core/workers.py",
        "            queue.appendleft(worker.sent.pop())\n",
        "            worker.sent.pop()\n",
        ["tests/test_reader_batches.py"],
        "a file that hangs, crashes or runs out of memory in a batch costs that file only",
    ),
    m(
        "batch-rest-kept-by-a-retiring-reader",
        "desktop_dedup/core/workers.py",
        "                if retire:  # it ends without reading the files sent after this one\n"
        "                    self._requeue_rest(worker, queue)\n",
        "",
        ["tests/test_reader_batches.py"],
        "… also when its reader ran out of memory and ends",
    ),
    m(
        "batch-shares-one-time-budget",
        "desktop_dedup/core/workers.py",
        "                entry = worker.sent.popleft()\n"
        "                worker.started = worker.file_started = time.monotonic()\n",
        "                entry = worker.sent.popleft()\n",
        ["tests/test_reader_batches.py"],
        "each file of a batch has its own time budget",
    ),
    m(
        "resource-tracker-started",
        "desktop_dedup/core/forkserver.py",
        "    _without_resource_tracker()\n    return True\n",
        "    return True\n",
        ["tests/test_worker_orphans.py"],
        "a scan starts no process it does not need (multiprocessing's resource tracker)",
    ),
    m(
        "sphinx-source-read-as-text",
        "desktop_dedup/core/extract/__init__.py",
        "        if inner in _MARKUP_COPIES:  # read as its markup, still a text file\n",
        "        if False:\n",
        ["tests/test_extract.py"],
        "a copy of a page's source (Sphinx's .rst.txt) reads as its markup, the page's text",
    ),
    m(
        "long-documents-unkeyed",
        "desktop_dedup/core/grouping.py",
        "                unstored.append(i)\n",
        "                pass\n",
        ["tests/test_long_revisions.py", "tests/test_grouping.py"],
        "a long document's revision that renames one term throughout is grouped",
    ),
    m(
        "long-keys-not-read-from-the-values",
        "desktop_dedup/core/sketch.py",
        "np.where(count > KEYED_MAX_SHINGLES, np.minimum(n_values, LONG_CANDIDATE_KEYS), n_keys)",
        "np.where(count > KEYED_MAX_SHINGLES, 0, n_keys)",
        ["tests/test_long_revisions.py"],
        "… also when it is added to an index later (through the key index)",
    ),
    m(
        "long-keys-not-migrated",
        "desktop_dedup/core/store/engine.py",
        '        conn, which, LONG_KEYS_PREFIX_BYTES, raw_candidate_keys, "sketch_keys", "key"\n',
        '        conn, which, LONG_KEYS_PREFIX_BYTES, lambda r: [], "sketch_keys", "key"\n',
        ["tests/test_long_revisions.py"],
        "an index written before gets the long documents' keys from its sketches",
    ),
    m(
        "long-keys-not-in-the-matching-key",
        "desktop_dedup/core/service.py",
        "        key = [*self._matching_key(s), long_keys]\n",
        "        key = self._matching_key(s)\n",
        ["tests/test_long_revisions.py"],
        "groups built on either side of that size are grouped again by the index's rule",
    ),
    m(
        "long-keys-in-a-team-index",
        "desktop_dedup/core/grouping.py",
        "    return n_documents <= LONG_KEYS_MAX_DOCUMENTS\n",
        "    return True\n",
        ["tests/test_grouping.py"],
        "an index of more than 500,000 documents proposes a long text by its simhash alone",
    ),
    m(
        "pair-similarity-without-the-index",
        "desktop_dedup/core/service.py",
        "            sketch_mod.decode(b.sketch),\n            self.store.line_counts,\n",
        "            sketch_mod.decode(b.sketch),\n            None,\n",
        first("tests/test_short_texts.py")([]),
        "the diff view's figure and the group table's figure agree",
    ),
    m(
        "readers-import-the-working-directory",
        "desktop_dedup/core/forkserver.py",
        '        os.environ["PYTHONSAFEPATH"] = "1"\n',
        '        os.environ["PYTHONSAFEPATH"] = ""\n',
        ["tests/test_faults_scan.py"],
        "nothing in the working directory is imported",
    ),
    m(
        "diff-db-ignored",
        "desktop_dedup/cli.py",
        "        if args.db is None:\n",
        "        if True:\n",
        ["tests/test_cli.py"],
        "with `--db` it is the index's figure for them, the one its groups and reports show",
    ),
    # --- twenty-first session: candidate pairs verified on two processes -----------------------
    m(
        "helper-answers-differ",
        "desktop_dedup/core/grouping.py",
        "(sketch(a), sketch(b), threshold, _no_index))",
        "(sketch(a), sketch(b), threshold, _no_index) * 0.99)",
        ["tests/test_parallel_verification.py", *GROUPING],
        "the groups and figures are the same whether the pairs are verified on one process or two",
    ),
    m(
        "pairs-asking-the-index-dropped-by-the-helper",
        "desktop_dedup/core/grouping.py",
        "            here([pair])[0] if share is None else share",
        "            0.0 if share is None else share",
        ["tests/test_parallel_verification.py", *GROUPING],
        "a note's copy under a banner and its copy above a footer are one document when the "
        "index says which lines are common",
    ),
    m(
        "failed-helper-fails-the-grouping",
        "desktop_dedup/core/grouping.py",
        "        except HelperGone as exc:  # what it had is verified here",
        "        except ZeroDivisionError as exc:",
        ["tests/test_parallel_verification.py", *GROUPING],
        "a helper process that dies costs time, never an answer",
    ),
    m(
        "scan-groups-on-one-process",
        "desktop_dedup/core/service.py",
        "s.min_similarity, s.max_distance, long_keys, workers_mod.helper_process\n",
        "s.min_similarity, s.max_distance, long_keys\n",
        ["tests/test_parallel_verification.py"],
        "a scan verifies its candidate pairs on two processes",
    ),
    m(
        "awaited-piece-lost-when-the-helper-ends",
        "desktop_dedup/core/grouping.py",
        "                    answers = process.next_answer()  # before its piece leaves ``sent``\n"
        "                    answered(sent.popleft(), answers)\n",
        "                    answered(sent.popleft(), process.next_answer())\n",
        ["tests/test_parallel_verification.py"],
        "a helper that dies or fails costs time, never an answer",
    ),
    m(
        "helper-forked-before-any-scan",
        "desktop_dedup/core/workers.py",
        ' != "forkserver" or not fork_server_started():',
        ' != "forkserver":',
        ["tests/test_parallel_verification.py"],
        "a regroup before any scan verifies in its own process (no fork server started for it)",
    ),
    m(
        "space-dropped-before-any-cjk-character",
        "desktop_dedup/core/text.py",
        'rf" (?<=[{_CJK}] )(?=[{_CJK}])"',
        'rf" (?=[{_CJK}])"',
        ["tests/test_text.py", *FINGERPRINT],
        "line breaks inside Chinese are layout, not spaces; other spaces stay",
    ),
    m(
        "line-memo-forgets-the-width",
        "desktop_dedup/core/fingerprint.py",
        "                self._counts[line], self._widths[line] = known\n",
        "                self._counts[line], self._widths[line] = known[0], 0\n",
        first(MEMO_TEST)(FINGERPRINT),
        "a document's fingerprint is the same whatever was read before it",
    ),
    m(
        "line-memo-counts-changed-after-their-document",
        "desktop_dedup/core/fingerprint.py",
        "    lines = tuple(distinct_line_ids(sketch))\n",
        "    lines = tuple(distinct_line_ids(sketch))\n"
        "    for kept in doc_lines._counts.values():\n"
        "        kept.pop(next(iter(kept), None), None)\n",
        first(MEMO_TEST)(FINGERPRINT),
        "a document's fingerprint is the same whatever was read before it",
    ),
    m(
        "line-memo-keyed-by-line-alone-per-document",
        "desktop_dedup/core/fingerprint.py",
        "            known = _LINE_MEMO.get((line, how))\n",
        "            known = _LINE_MEMO.get((line[:20], how))\n",
        first(MEMO_TEST)(FINGERPRINT),
        "a document's fingerprint is the same whatever was read before it",
    ),
    m(
        "schema-column-loses-not-null",
        "desktop_dedup/core/store/schema.py",
        '_column("format", String(16), default=""),',
        '_column("format", String(16), default="", nullable=True),',
        [
            "tests/test_store.py::test_a_new_index_file_has_the_tables_every_release_of_schema_7_to_10_wrote"
        ],
        "existing databases open and migrate: the schema of a version does not drift",
    ),
    m(
        "scanning-process-loads-the-readers",
        "desktop_dedup/core/workers.py",
        "from desktop_dedup.core.rows import problem_row\n",
        "from desktop_dedup.core.rows import problem_row\n"
        "from desktop_dedup.core import pipeline  # noqa\n",
        ["tests/test_architecture.py"],
        "the readers load in the fork server, not in the process the readers wait for",
    ),
    m(
        "forked-fork-server-holds-its-own-alive-pipe",
        "desktop_dedup/core/forkserver.py",
        "                    os.close(alive_w)  # else it would hold its own pipe open",
        "                    pass  # else it would hold its own pipe open",
        ["tests/test_worker_orphans.py"],
        "no process of a scan outlives it, killed or not",
    ),
    m(
        "scan-starts-its-fork-server-as-a-new-interpreter",
        "desktop_dedup/cli.py",
        "            prestart(fork=True)\n",
        "            prestart()\n",
        ["tests/test_worker_orphans.py::test_workers_exit_when_the_cli_is_killed"],
        "the command's fork server is forked from it, loading the readers at once",
    ),
    m(
        "fork-server-of-any-protocol-forked",
        "desktop_dedup/core/forkserver.py",
        "        entry == _KNOWN_ENTRY\n",
        "        True\n",
        [
            "tests/test_worker_orphans.py::"
            "test_a_fork_server_of_another_protocol_is_started_as_multiprocessing_starts_it"
        ],
        "the command's fork server is forked only where its protocol is known",
    ),
    m(
        "ctrl-c-while-the-command-loads-is-a-traceback",
        "desktop_dedup/cli.py",
        "        if isinstance(exc, KeyboardInterrupt):\n            return True\n",
        "        if isinstance(exc, ZeroDivisionError):\n            return True\n",
        [
            "tests/test_faults_scan.py::"
            "test_ctrl_c_while_the_scan_starts_exits_130_without_a_traceback",
            "tests/test_faults_scan.py::"
            "test_ctrl_c_that_a_library_cleanup_turns_into_another_error_still_exits_130",
        ],
        "scan exits 130 if you interrupted it with Ctrl-C",
    ),
    m(
        "diff-aligns-by-blank-lines",
        "desktop_dedup/core/diff.py",
        "_blank_lines_joined(_align(a_keys, b_keys), a_keys)",
        "_align(a_keys, b_keys)",
        ["tests/test_diff_formats.py"],
        "a copy with each paragraph on one line and other blank lines shows no change",
    ),
    m(
        "diff-blank-line-one-side-is-a-change",
        "desktop_dedup/core/diff.py",
        "        if (i1 == i2 or j1 == j2) and not any(",
        "        if False and not any(",
        ["tests/test_diff_formats.py"],
        "a DOCX whose paragraphs have spacing instead of blank lines shows no change",
    ),
    m(
        "diff-space-between-chinese-is-a-change",
        "desktop_dedup/core/diff.py",
        "            if cjk and _beside_chinese(\n",
        '            if cjk and "\\n" in tok and _beside_chinese(\n',
        ["tests/test_diff_formats.py", "tests/test_diff.py"],
        "a space between two Chinese characters is no change",
    ),
    m(
        "diff-layout-keys-keep-chinese-spaces",
        "desktop_dedup/core/diff.py",
        "        if not _beside_chinese(side.text, side.folded, m.start(), m.end()",
        "        if True or not _beside_chinese(side.text, side.folded, m.start(), m.end()",
        ["tests/test_diff.py"],
        "a space between two Chinese characters is no change",
    ),
    m(
        "diff-space-beside-chinese-needs-chinese-both-sides",
        "desktop_dedup/core/diff.py",
        "        and (_cjk_at(text, folded, ws_start - 1) or _cjk_at(text, folded, ws_end))",
        "        and (_cjk_at(text, folded, ws_start - 1) and _cjk_at(text, folded, ws_end))",
        ["tests/test_diff_formats.py"],
        "a space between a Chinese character and a Latin word is no change",
    ),
    m(
        "diff-chinese-looked-for-only-as-folded",
        "desktop_dedup/core/diff.py",
        "    cjk = bool(_CJK_CHAR_RE.search(folded) or _CJK_CHAR_RE.search(stretch))",
        "    cjk = bool(_CJK_CHAR_RE.search(folded))",
        ["tests/test_diff_formats.py", "tests/test_diff.py"],
        "a space beside Chinese punctuation is no change",
    ),
    m(
        "diff-radicals-not-chinese",
        "desktop_dedup/core/diff.py",
        "    return bool(_CJK_CHAR_RE.match(text, at) or _CJK_CHAR_RE.match(folded, at))",
        "    return bool(_CJK_CHAR_RE.match(text, at))",
        ["tests/test_diff_formats.py"],
        "a space beside the radical forms a PDF writes for ideographs is no change either",
    ),
    m(
        "diff-full-width-punctuation-not-chinese",
        "desktop_dedup/core/diff.py",
        "    return bool(_CJK_CHAR_RE.match(text, at) or _CJK_CHAR_RE.match(folded, at))",
        "    return bool(_CJK_CHAR_RE.match(folded, at))",
        ["tests/test_diff_formats.py"],
        "a space between two Chinese characters is no change",
    ),
    m(
        "diff-layout-op-merged-with-equal-ones",
        "desktop_dedup/core/diff.py",
        " and _in_step(merged[-1]) == _in_step(op):",
        ":",
        ["tests/test_diff_formats.py"],
        "rows of a re-wrapped copy pair the same words on both sides",
    ),
    m(
        "diff-rows-cut-out-of-step",
        "desktop_dedup/core/diff.py",
        "        if tag == EQUAL and _in_step((tag, i1, i2, j1, j2)):",
        "        if tag == EQUAL:",
        ["tests/test_diff_formats.py"],
        "rows of a re-wrapped copy pair the same words on both sides",
    ),
    m(
        "diff-blank-line-one-side-hatched",
        "desktop_dedup/gui/diff_view.py",
        '            if row.tag != "equal":  # an equal row',
        "            if True:  # an equal row",
        ["tests/gui/test_gui_diff_view.py"],
        "a blank line only one side has is shown, not as a missing line",
    ),
    m(
        "pdf-page-furniture-kept",
        "desktop_dedup/core/extract/pdf.py",
        '    text = mark_typeset_hyphens("\\n".join(without_page_furniture(pages)))',
        '    text = mark_typeset_hyphens("\\n".join(pages))',
        ["tests/test_pdf_furniture.py"],
        "a PDF's page numbers and running heads are not its text",
    ),
    m(
        "pdf-numbers-out-of-sequence-dropped",
        "desktop_dedup/core/extract/pdf.py",
        "        if any(found.get(page + step, (0, None))[1] == value + step for step in",
        "        if any(True for step in",
        ["tests/test_pdf_furniture.py"],
        "a table whose pages end in figures keeps them",
    ),
    m(
        "pdf-running-line-on-two-pages",
        "desktop_dedup/core/extract/pdf.py",
        "    if count < max(2, -(-2 * len(lines) // 3)):",
        "    if count < 2:",
        ["tests/test_pdf_furniture.py"],
        "a running head opens two thirds of the pages",
    ),
    m(
        "pdf-figures-taken-for-a-running-foot",
        "desktop_dedup/core/extract/pdf.py",
        "        if k is not None and LETTER_RUN.search(lines[page][k])",
        "        if k is not None",
        ["tests/test_pdf_furniture.py"],
        "a table whose pages end in figures keeps them",
    ),
    m(
        "pdf-one-page-any-figure-dropped",
        "desktop_dedup/core/extract/pdf.py",
        "value == 1 and _DIGITS.search(lines[0][k])]",
        "_DIGITS.search(lines[0][k])]",
        ["tests/test_pdf_furniture.py"],
        "a page alone is numbered 1 if at all; another figure there is the text's",
    ),
    m(
        "pdf-one-page-numeral-dropped",
        "desktop_dedup/core/extract/pdf.py",
        "value == 1 and _DIGITS.search(lines[0][k])]",
        "value == 1]",
        ["tests/test_pdf_furniture.py"],
        "a page alone is numbered 1 in figures; an I alone there is the text's",
    ),
    m(
        "pdf-groff-hyphens-left-split",
        "desktop_dedup/core/extract/pdf.py",
        '    text = mark_typeset_hyphens("\\n".join(without_page_furniture(pages)))',
        '    text = "\\n".join(without_page_furniture(pages))',
        ["tests/test_extract.py"],
        "a PDF of a page groff hyphenated has its words whole",
    ),
    m(
        "pptx-slide-furniture-read",
        "desktop_dedup/core/extract/pptx.py",
        "                if paragraph in furniture:\n                    continue\n",
        "",
        ["tests/test_extract_office.py"],
        "a slide's date, footer and number are not its text",
    ),
    m(
        "pdf-furniture-peeled-again-and-again",
        "desktop_dedup/core/extract/pdf.py",
        "            kinds = [kind for kind in kinds if not found[kind]]\n",
        "            kinds = [kind for kind in kinds if found[kind]][:1]\n",
        ["tests/test_pdf_furniture.py"],
        "the line under a running head is the text's",
    ),
    m(
        "rtl-glyph-characters-left-reversed",
        "desktop_dedup/core/extract/pdf.py",
        "            chars[i:end] = chars[i:end][::-1]",
        "            chars[i:end] = chars[i:end]",
        ["tests/test_pdf_scripts.py"],
        "an Arabic PDF's lam-alef ligatures read lam then alef",
    ),
    m(
        "rtl-glyph-run-not-bounded-by-its-box",
        "desktop_dedup/core/extract/pdf.py",
        "        while end < n and _RTL.match(text[end]) and box(end) == first:",
        "        while end < n and _RTL.match(text[end]):",
        ["tests/test_pdf_scripts.py"],
        "only the characters of one glyph are put back in order, not a whole word",
    ),
    m(
        "spaces-between-touching-glyphs-kept",
        "desktop_dedup/core/extract/pdf.py",
        "        if box(i + 1)[0] - _right_end_before(text, i, box) < _TOUCHING_EM * size(i + 1):",
        "        if False:",
        ["tests/test_pdf_scripts.py"],
        "a Gujarati or Marathi PDF's words are whole: a vowel sign drawn apart is no word break",
    ),
    m(
        "word-spaces-taken-for-touching-glyphs",
        "desktop_dedup/core/extract/pdf.py",
        "_TOUCHING_EM = 0.2",
        "_TOUCHING_EM = 0.5",
        ["tests/test_pdf_scripts.py"],
        "the spaces between words stay",
    ),
    m(
        "glyphs-before-a-space-looked-for-across-words",
        "desktop_dedup/core/extract/pdf.py",
        "        if text[k].isspace():\n            break\n",
        "",
        ["tests/test_pdf_scripts.py"],
        "the spaces between words stay, also after a line's first word",
    ),
    m(
        "stacked-marks-left-where-pdfium-gives-them",
        "desktop_dedup/core/extract/pdf.py",
        "            if len(under) == 1:",
        "            if False:",
        ["tests/test_pdf_scripts.py"],
        "a Thai or Burmese PDF is the same document as its text: a stacked tone mark goes after "
        "its letter",
    ),
    m(
        "stacked-marks-moved-in-every-script",
        "desktop_dedup/core/extract/pdf.py",
        '_STACKED_MARK = re.compile(f"[{_STACKED_MARK_SCRIPTS}]")',
        '_STACKED_MARK = re.compile(f"[{_STACKED_MARK_SCRIPTS}{_SIGNS_APART}]")',
        ["tests/test_pdf_scripts.py"],
        "a Bengali PDF, whose marks sit over conjuncts, is read as PDFium gives it",
    ),
    m(
        "marks-over-their-letter-moved-too",
        "desktop_dedup/core/extract/pdf.py",
        "            if base >= 0 and box(base)[0] - slack <= middle <= box(base)[1] + slack:",
        "            if False:",
        ["tests/test_pdf_scripts.py"],
        "a mark over the letter before it stays there",
    ),
    m(
        "stacked-mark-given-to-the-first-of-two-letters",
        "desktop_dedup/core/extract/pdf.py",
        "            if len(under) == 1:",
        "            if under:",
        ["tests/test_pdf_scripts.py"],
        "a mark over two letters' boxes stays where PDFium gives it",
    ),
    m(
        "stacked-marks-looked-for-along-the-whole-line",
        "desktop_dedup/core/extract/pdf.py",
        "            while j >= 0 and lefts[j] >= middle - widest and len(under) < 2:",
        "            while j >= 0 and len(under) < 2:",
        ["tests/test_pdf_scripts.py"],
        "a page's marks are placed in linear time",
    ),
    m(
        "rtl-words-given-left-to-right-kept",
        "desktop_dedup/core/extract/pdf.py",
        "        if first[0] + first[1] < last[0] + last[1]:  # its first letter left of its last",
        "        if False:",
        ["tests/test_pdf_scripts.py"],
        "a right-to-left page printed by Chromium is the same document as its text",
    ),
    m(
        "rtl-word-direction-told-by-its-marks-too",
        "desktop_dedup/core/extract/pdf.py",
        "        letters = [k for k in range(word.start(), word.end()) if not _is_mark(text[k])]",
        "        letters = list(range(word.start(), word.end()))",
        ["tests/test_pdf_scripts.py"],
        "a right-to-left word's direction is told by its letters, not by a mark drawn apart",
    ),
    m(
        "rtl-words-taken-with-their-punctuation",
        "desktop_dedup/core/extract/pdf.py",
        "_RTL_WORD = re.compile(\n"
        '    "(?:(?=[\\u0590-\\u08ff\\ufb1d-\\ufdff\\ufe70-\\ufefc])[^\\\\W\\\\d_]|["'
        ' + OPTIONAL_MARKS + "]){2,}"\n)',
        '_RTL_WORD = re.compile("[\\u0590-\\u08ff\\ufb1d-\\ufdff\\ufe70-\\ufefc]{2,}")',
        ["tests/test_pdf_scripts.py"],
        "a right-to-left word's direction is told by its letters, not by its punctuation",
    ),
    # --- thirty-sixth session: a word only a text's web addresses hold names nothing ---------
    m(
        "words-only-in-addresses-name-the-document",
        "desktop_dedup/core/fingerprint.py",
        "    named = None\n    if addresses:\n",
        "    named = None\n    if False:\n",
        ["tests/test_web_addresses.py"],
        "a word only a text's web addresses hold names nothing (a branch in badges' addresses)",
    ),
    m(
        "identifiers-only-in-addresses-name-the-document",
        "desktop_dedup/core/fingerprint.py",
        "            own = [n > in_idents.get(word, 0) for word, n in idents.items()]",
        "            own = [True for word in idents]",
        ["tests/test_web_addresses.py"],
        "a version only a read-me's download links name names no document",
    ),
    m(
        "web-addresses-not-found",
        "desktop_dedup/core/text.py",
        "            out.append(normalized[a:b])",
        "            pass",
        ["tests/test_web_addresses.py"],
        "a word only a text's web addresses hold names nothing",
    ),
    m(
        "web-addresses-found-inside-another",
        "desktop_dedup/core/text.py",
        "        if a >= end:\n            out.append(normalized[a:b])",
        "        if True:\n            out.append(normalized[a:b])",
        ["tests/test_web_addresses.py"],
        "web addresses are found as the pattern finds them (a www. inside a link is no other)",
    ),
    m(
        "words-also-in-addresses-name-nothing",
        "desktop_dedup/core/fingerprint.py",
        "            if counts_before_peeling.get(word, 0) <= n",
        "            if True",
        ["tests/test_web_addresses.py", "tests/test_templates.py"],
        "template instances are refused: a page's own address names its command too",
    ),
    m(
        "rst-pictures-read-as-words",
        "desktop_dedup/core/extract/plaintext.py",
        "        picture = _RST_PICTURE.match(line) if definition is None else None",
        "        picture = None",
        ["tests/test_rst_as_rendered.py"],
        "a reStructuredText file reads as its rendered page: a picture has no words",
    ),
    m(
        "rst-substitution-definitions-read-as-words",
        "desktop_dedup/core/extract/plaintext.py",
        "        definition = _RST_SUBSTITUTION.match(line)\n",
        "        definition = None\n",
        ["tests/test_rst_as_rendered.py"],
        "a read-me's badges (substitutions' definitions) are not its text",
    ),
    m(
        "rst-substitution-references-kept",
        "desktop_dedup/core/extract/plaintext.py",
        "    return _RST_REFERENCE.sub(shown, text)",
        "    return text",
        ["tests/test_rst_as_rendered.py"],
        "a reference to a substitution reads as what it shows",
    ),
    m(
        "rst-replaced-text-dropped",
        "desktop_dedup/core/extract/plaintext.py",
        "                shows[name] = argument.strip()",
        '                shows[name] = ""',
        ["tests/test_rst_as_rendered.py"],
        "a replace:: substitution reads as its text",
    ),
    m(
        "rst-character-codes-kept",
        "desktop_dedup/core/extract/plaintext.py",
        "        out.append(chr(value) if",
        "        out.append(word if True else chr(value) if",
        ["tests/test_rst_as_rendered.py"],
        "a unicode:: substitution reads as its characters",
    ),
    m(
        "rst-surrogates-written",
        "desktop_dedup/core/extract/plaintext.py",
        "0 < value <= 0x10FFFF and not 0xD800 <= value <= 0xDFFF",
        "value <= 0x10FFFF",
        ["tests/test_rst_as_rendered.py"],
        "a substitution's impossible character is kept as written: the text stays UTF-8",
    ),
    m(
        "rst-figure-caption-dropped",
        "desktop_dedup/core/extract/plaintext.py",
        "            kept.extend(lines[j:end])",
        "            pass",
        ["tests/test_rst_as_rendered.py"],
        "a figure's caption is its text",
    ),
    m(
        "rst-comments-read-as-words",
        "desktop_dedup/core/extract/plaintext.py",
        "            and _RST_NOT_COMMENT.match(line) is None\n",
        "            and False\n",
        ["tests/test_rst_as_rendered.py"],
        "a comment is not the text",
    ),
    m(
        "rst-code-language-shown",
        "desktop_dedup/core/extract/plaintext.py",
        '    text = _RST_LANGUAGE.sub("", text)',
        "    text = text",
        ["tests/test_rst_as_rendered.py"],
        "a code block's language is not shown",
    ),
    m(
        "rst-escaped-space-kept",
        "desktop_dedup/core/extract/plaintext.py",
        '    (re.compile(r"\\\\ "), ""),',
        '    (re.compile(r"\\\\ "), " "),',
        ["tests/test_rst_as_rendered.py"],
        "an escaped space joins the words around it",
    ),
    m(
        "rst-anonymous-target-read",
        "desktop_dedup/core/extract/plaintext.py",
        '    (re.compile(r"^[ \\t]*__[ \\t]+\\S.*$", _M), ""),',
        '    (re.compile(r"^[ \\t]*__[ \\t]+\\S.*$", _M), r"\\g<0>"),',
        ["tests/test_rst_as_rendered.py"],
        "an anonymous target is not the text",
    ),
    m(
        "rst-directive-marker-one-space-only",
        "desktop_dedup/core/extract/plaintext.py",
        '    (re.compile(r"^[ \\t]*\\.\\.[ \\t]+[\\w:-]+::[ \\t]*", _M), ""),',
        '    (re.compile(r"^[ \\t]*\\.\\. [\\w:-]+::[ \\t]*", _M), ""),',
        ["tests/test_rst_as_rendered.py"],
        "a directive's marker written with two spaces is markup",
    ),
    m(
        "rst-block-takes-the-next-line",
        "desktop_dedup/core/extract/plaintext.py",
        "            if _indent(lines[i]) <= own:",
        "            if _indent(lines[i]) < own:",
        ["tests/test_rst_as_rendered.py"],
        "a directive's block is the lines indented under it",
    ),
    m(
        "rst-substitution-names-matched-as-written-only",
        "desktop_dedup/core/extract/plaintext.py",
        "        found = shows.get(name, lowered.get(name.lower()))",
        "        found = shows.get(name)",
        ["tests/test_rst_as_rendered.py"],
        "a substitution's name matches in any case when not as written",
    ),
    m(
        "rst-directive-options-read-as-words",
        "desktop_dedup/core/extract/plaintext.py",
        "            if _RST_DIRECTIVE.match(line):",
        "            if False:",
        ["tests/test_rst_as_rendered.py"],
        "a directive's options are not shown",
    ),
    m(
        "markdown-in-text-files-read-as-written",
        "desktop_dedup/core/extract/plaintext.py",
        "    return strip_markdown(text) if _MARKDOWN_LINK.search(text) else text",
        "    return text",
        ["tests/test_markdown_in_text_files.py"],
        "a text file that holds Markdown reads as Markdown",
    ),
    m(
        "text-files-always-read-as-markdown",
        "desktop_dedup/core/extract/plaintext.py",
        "    return strip_markdown(text) if _MARKDOWN_LINK.search(text) else text",
        "    return strip_markdown(text)",
        ["tests/test_markdown_in_text_files.py"],
        "a text file without a Markdown link reads as written",
    ),
    m(
        "markdown-link-found-after-a-word",
        "desktop_dedup/core/extract/plaintext.py",
        '_MARKDOWN_LINK = re.compile(r"\\[(?<![\\w\\]]\\[)',
        '_MARKDOWN_LINK = re.compile(r"\\[(?<![\\]]\\[)',
        ["tests/test_markdown_in_text_files.py"],
        "a text file without a Markdown link reads as written (array[i](j) is code)",
    ),
    m(
        "markdown-link-targets-with-spaces",
        "desktop_dedup/core/extract/plaintext.py",
        '\\]\\([^()\\s]+\\)")',
        '\\]\\([^()]+\\)")',
        ["tests/test_markdown_in_text_files.py"],
        "a text file without a Markdown link reads as written",
    ),
    m(
        "markdown-link-text-on-one-line",
        "desktop_dedup/core/extract/plaintext.py",
        'r"\\[((?:[^\\[\\]\\n]++|\\n(?=[^\\[\\]\\n]))++)\\]\\(',
        'r"\\[([^\\[\\]\\n]++)\\]\\(',
        ["tests/test_markdown_in_text_files.py"],
        "a Markdown link's text may wrap onto more lines",
    ),
    m(
        "markdown-link-across-a-blank-line",
        "desktop_dedup/core/extract/plaintext.py",
        'r"\\[((?:[^\\[\\]\\n]++|\\n(?=[^\\[\\]\\n]))++)\\]\\(',
        'r"\\[((?:[^\\[\\]\\n]++|\\n)++)\\]\\(',
        ["tests/test_markdown_in_text_files.py"],
        "no Markdown link crosses a blank line",
    ),
    # --- forty-first session: the weights' cap skipped where no weight can reach it ----------
    m(
        "weights-cap-skipped-at-the-boundary",
        "desktop_dedup/core/fingerprint.py",
        "    if len(weights) and weights.max() <= share * weights.sum() * (1 - _SUM_SLACK):\n",
        "    if len(weights) and weights.max() <= share * weights.sum():\n",
        ["tests/test_fingerprint.py::test_capped_weights_at_the_boundary_where_the_sums_differ"],
        "a fingerprint is the same however it is computed (the same text, the same simhash)",
    ),
    m(
        "address-words-mask-inverted",
        "desktop_dedup/core/fingerprint.py",
        "            named = ~np.fromiter(map(there, present.tolist()), bool, len(present))\n",
        "            named = np.fromiter(map(there, present.tolist()), bool, len(present))\n",
        ["tests/test_web_addresses.py"],
        "a word only a text's web addresses hold names nothing (a branch in badges' addresses)",
    ),
    # --- forty-first session: swapped words checked without a lookup a word ------------------
    m(
        "swap-check-skipped-for-as-many-salient-words",
        "desktop_dedup/core/sketch.py",
        "    if a.salient_profile == b.salient_profile:\n",
        "    if len(a.salient) == len(b.salient):\n",
        [
            "tests/test_sketch.py::"
            "test_copies_that_repeat_the_same_words_as_often_skip_the_word_by_word_checks"
        ],
        "a page and its sibling that repeats another word are not the same document",
    ),
    m(
        "bloom-union-asks-for-none-held",
        "desktop_dedup/core/sketch.py",
        "    return bits & union != union\n",
        "    return bits & union == 0\n",
        ["tests/test_sketch.py::test_bloom_filter_never_calls_a_present_word_absent"],
        "two pages whose repeated words were swapped are not the same document",
    ),
    m(
        "names-less-shortcut-for-as-many-words",
        "desktop_dedup/core/sketch.py",
        "    if words_a == words_b:\n",
        "    if len(words_a) == len(words_b):\n",
        [
            "tests/test_sketch.py::"
            "test_pages_naming_each_other_are_told_alike_with_the_same_salient_words_or_not"
        ],
        "sibling pages that name each other are not the same document; copies are",
    ),
    m(
        "names-less-shortcut-one-way",
        "desktop_dedup/core/sketch.py",
        "        return any(map(operator.ge, counts_a, less_b)) and any(map(operator.ge, counts_b,"
        " less_a))\n",
        "        return any(map(operator.ge, counts_a, less_b))\n",
        ["tests/test_sketch.py::test_pages_with_the_same_salient_words_that_name_each_other_less"],
        "sibling pages that name each other are not the same document; copies are",
    ),
    m(
        "names-less-shortcut-needs-more",
        "desktop_dedup/core/sketch.py",
        "max(SALIENT_MIN_COUNT * n, n + SALIENT_MIN_COUNT)",
        "SALIENT_MIN_COUNT * n + 1",
        ["tests/test_sketch.py::test_pages_with_the_same_salient_words_that_name_each_other_less"],
        "sibling pages that name each other are not the same document; copies are",
    ),
    # --- documents close to a group (forty-second session) ---------------------------------
    m(
        "close-documents-not-recorded",
        "desktop_dedup/core/grouping.py",
        "    _close_documents(edges, group_of_class, member_of_class, class_docs, items, cid, ign)"
        "\n",
        "",
        [CLOSE_GROUPING, CLOSE_SERVICE],
        "a document the same as one member of a group but not as every one is shown with it",
    ),
    m(
        "close-document-with-its-farthest-match",
        "desktop_dedup/core/grouping.py",
        "share > known[0] or (share == known[0] and other < known[1])",
        "share < known[0] or (share == known[0] and other < known[1])",
        [CLOSE_TWO_GROUPS],
        "a document close to two groups is shown with the group of its closest match",
    ),
    m(
        "close-document-despite-an-ignored-pair",
        "desktop_dedup/core/grouping.py",
        "        if ign.active and ign.blocks(",
        "        if False and ign.blocks(",
        [CLOSE_GROUPING],
        "a pair you ignored is never shown as close",
    ),
    m(
        "incremental-regroup-forgets-close-documents",
        "desktop_dedup/core/service.py",
        "        region.update(self.store.close_to_groups(touched))\n",
        "",
        [CLOSE_SERVICE],
        "after an incremental scan, the documents close to a group are those of a full regroup",
    ),
    m(
        "incremental-regroup-keeps-a-stale-close-document",
        "desktop_dedup/core/service.py",
        "        touched |= self.store.close_groups_of(region)\n",
        "",
        [CLOSE_SERVICE],
        "after an incremental scan, the documents close to a group are those of a full regroup",
    ),
    m(
        "regroup-after-a-reference-left-starts-from-nothing",
        "desktop_dedup/core/service.py",
        "        return touched, staying - ids\n",
        "        return touched, set()\n",
        [
            "tests/test_service.py::"
            "test_the_copies_left_when_a_groups_reference_goes_are_still_a_group",
            "tests/test_service.py::"
            "test_the_copies_left_when_the_folder_of_a_groups_reference_is_removed",
        ],
        "the copies left when a group's reference goes are still one group",
    ),
    m(
        "close-document-removed-with-its-closest",
        "desktop_dedup/core/service.py",
        "        if member_id in removing:\n            return actions.REASON_CLOSEST_GOING\n",
        "",
        [CLOSE_REMOVAL],
        "a file close to a group goes only while the file it is closest to stays",
    ),
    m(
        "close-document-removed-though-its-closest-changed",
        "desktop_dedup/core/service.py",
        "        if kept is None or actions.verify_unchanged(kept) is not None:\n",
        "        if kept is None:\n",
        [CLOSE_REMOVAL],
        "a file close to a group goes only while the file it is closest to stays",
    ),
    m(
        "close-document-removed-without-the-near-question",
        "desktop_dedup/core/service.py",
        "        return None if include_near else actions.REASON_NEAR\n",
        "        return None\n",
        [CLOSE_REMOVAL],
        "a marked near duplicate goes only if you say so",
    ),
    m(
        "csv-close-row-without-its-member",
        "desktop_dedup/core/report.py",
        "                    _shown(c.member_path),\n                ]",
        '                    "",\n                ]',
        [CLOSE_REPORT],
        "reports list the documents close to a group apart from its members",
    ),
    m(
        "close-files-list-never-shown",
        "desktop_dedup/gui/main_window.py",
        "        self.close_view.setVisible(close > 0)\n",
        "        self.close_view.setVisible(False)\n",
        [CLOSE_GUI],
        "the app lists the files close to the selected group and compares each with its closest",
    ),
    # --- grouping a million, faster (forty-third session) ----------------------------------
    m(
        "class-ids-blind-to-hash-collisions",
        "desktop_dedup/core/grouping.py",
        "        if d != f and keys[d] != keys[f]:\n",
        "        if False:\n",
        ["tests/test_grouping.py::test_class_ids_are_each_keys_first_index_hypothesis", R],
        "documents are the same bytes only when their contents are",
    ),
    m(
        "keys-held-twice-by-their-low-bits-alone",
        "desktop_dedup/core/grouping.py",
        "    return maybe, held[where] == found\n",
        "    return maybe, np.ones(len(found), dtype=bool)\n",
        [
            "tests/test_grouping.py::test_among_finds_exactly_the_held_keys_hypothesis",
            "tests/test_grouping.py::test_keys_held_twice_through_their_low_bits_hypothesis",
        ],
        "candidate keys held by two documents are found among millions through their low bits",
    ),
    m(
        "block-index-migrated-without-the-simhash",
        "desktop_dedup/core/store/engine.py",
        '"CREATE INDEX ix_documents_b{i} ON documents (b{i}, simhash)"',
        '"CREATE INDEX ix_documents_b{i} ON documents (b{i})"',
        ["tests/test_store.py::test_a_version_9_index_gets_block_indexes_that_hold_the_simhash"],
        "a lookup reads the block indexes alone; an index of schema 9 gets them when opened",
    ),
    m(
        "keys-stored-unsigned",
        "desktop_dedup/core/store/repository.py",
        'raw_candidate_keys(r["sketch"], signed=True)',
        'raw_candidate_keys(r["sketch"], signed=False)',
        ["tests/test_service.py"],
        "every document's candidate keys are in the index",
    ),
    m(
        "grouping-collects-as-it-goes",
        "desktop_dedup/core/grouping.py",
        "@collection_paused()  # the pairs, families and groups of a million documents\n",
        "",
        ["tests/test_release.py"],
        "grouping a million documents takes under 3 s",
    ),
    m(
        "ctrl-c-while-loading-noted-and-forgotten",
        "desktop_dedup/cli.py",
        "            _loaded(args)\n            interrupts.resume()\n",
        "            _loaded(args)\n",
        ["tests/test_faults_scan.py::test_a_ctrl_c_as_the_fork_server_is_forked_is_not_lost"],
        "scan exits 130 if you interrupted it with Ctrl-C",
    ),
    m(
        "ctrl-c-raised-inside-a-fork-callback",
        "desktop_dedup/interrupts.py",
        "        signal.signal(signal.SIGINT, _note)\n",
        "        pass\n",
        ["tests/test_faults_scan.py::test_a_ctrl_c_as_the_fork_server_is_forked_is_not_lost"],
        "scan exits 130 if you interrupted it with Ctrl-C",
    ),
    m(
        "grouping-loads-numpy-ma",
        "desktop_dedup/core/grouping.py",
        "        either = sketch_mod.sorted_unique(np.concatenate([shared, short]))\n",
        "        either = np.union1d(shared, short)\n",
        ["tests/test_architecture.py::test_a_scans_grouping_does_not_load_numpy_ma"],
        "the scan's last, one-core step loads nothing it does not use",
    ),
    m(
        "ctrl-c-dropped-by-python-forgotten",
        "desktop_dedup/cli.py",
        "    if program and interrupts.dropped() and code != EXIT_INTERRUPTED:\n",
        "    if False:\n",
        ["tests/test_faults_scan.py::test_a_ctrl_c_dropped_by_python_after_the_scan_is_not_lost"],
        "scan exits 130 if you interrupted it with Ctrl-C",
    ),
    m(
        "every-dropped-exception-taken-for-a-ctrl-c",
        "desktop_dedup/interrupts.py",
        '    if isinstance(getattr(unraisable, "exc_value", None), KeyboardInterrupt):\n',
        "    if True:\n",
        ["tests/test_interrupts.py"],
        "a bug Python reports is still reported, not taken for a Ctrl-C",
    ),
    m(
        "site-marked-by-class-names-kept",
        "desktop_dedup/core/extract/html.py",
        "            _leave_out_the_site(root)\n",
        "            pass\n",
        ["tests/test_web_pages.py"],
        "a web page whose site is marked by class names only is its document",
    ),
    m(
        "site-part-names-ignored",
        "desktop_dedup/core/extract/html.py",
        "        if word in _SITE_NAMES or (word and word.startswith(_SITE_PREFIXES)):\n",
        "        if False:\n",
        ["tests/test_web_pages.py"],
        "a block whose class or id names a part of a site is left out",
    ),
    m(
        "site-part-names-read-without-their-capitals",
        "desktop_dedup/core/extract/html.py",
        '    for word in _NAME_WORD.split(_CAMEL_CASE.sub(r"\\1 \\2", names).lower()):\n',
        "    for word in _NAME_WORD.split(names.lower()):\n",
        [
            "tests/test_web_pages.py::test_the_site_around_a_document_is_left_out_and_what_the_document_holds_stays"
        ],
        "a block whose class or id names a part of a site is left out (siteFooter)",
    ),
    m(
        "code-comment-taken-for-the-sites-comments",
        "desktop_dedup/core/extract/html.py",
        "        if node.tag in _BLOCK_TAGS and _names_a_site_part(node)\n",
        "        if _names_a_site_part(node)\n",
        [
            "tests/test_web_pages.py::test_the_site_around_a_document_is_left_out_and_what_the_document_holds_stays"
        ],
        "a word of code marked as a comment is the document's",
    ),
    m(
        "wrapper-of-the-longest-paragraph-left-out",
        "desktop_dedup/core/extract/html.py",
        "        outermost = _outermost([node for node in named if node.mem_id not in holds_it])\n",
        "        outermost = _outermost(named)\n",
        [
            "tests/test_web_pages.py::test_a_layouts_wrapper_is_not_a_part_of_the_site_whatever_its_name"
        ],
        "a layout's wrapper is not a part of the site whatever its name",
    ),
    m(
        "named-parts-left-out-however-much-they-hold",
        "desktop_dedup/core/extract/html.py",
        "        if 2 * sum(map(texts.outside_links, outermost)) < chars - in_links:\n",
        "        if True:\n",
        [
            "tests/test_web_pages.py::test_a_layouts_wrapper_is_not_a_part_of_the_site_whatever_its_name"
        ],
        "what such names mark is not taken out when it is most of the page's text",
    ),
    m(
        "links-in-the-document-taken-for-a-menu",
        "desktop_dedup/core/extract/html.py",
        "    on_the_way = {node.mem_id for node in chain} | {document.mem_id}\n",
        "    on_the_way = {node.mem_id for node in chain}\n",
        [
            "tests/test_web_pages.py::test_the_site_around_a_document_is_left_out_and_what_the_document_holds_stays"
        ],
        "inside the document, a list of links is the document's",
    ),
    m(
        "contents-page-taken-for-a-menu",
        "desktop_dedup/core/extract/html.py",
        "                if chars < own:\n",
        "                if True:\n",
        ["tests/test_web_pages.py::test_a_page_whose_document_is_mostly_links_keeps_them"],
        "a list of links as long as the document is the page's",
    ),
    m(
        "contents-cut-into-menus",
        "desktop_dedup/core/extract/html.py",
        "                if node.tag in _LISTS:\n",
        "                if False:\n",
        ["tests/test_web_pages.py::test_a_page_whose_document_is_mostly_links_keeps_them"],
        "a list of links as long as the document is the page's, all of it",
    ),
    m(
        "e-books-sidebar-taken-for-a-sites",
        "desktop_dedup/core/extract/epub.py",
        "    return html_bytes_to_text(zf.read(member), book=True)\n",
        "    return html_bytes_to_text(zf.read(member))\n",
        ["tests/test_web_pages.py::test_an_e_books_sidebar_is_its_text"],
        "an e-book's sidebar is its text: the names of a site's parts are looked at in web pages",
    ),
    m(
        "text-hidden-by-style-read",
        "desktop_dedup/core/extract/html.py",
        "    _remove(_hidden_by_style(root))\n",
        "",
        [
            "tests/test_extract.py::test_html_leaves_out_what_its_inline_style_hides_unless_it_is_most_of_the_page"
        ],
        "a page is its visible text: what its own style hides is not",
    ),
    m(
        "page-shown-by-a-script-left-empty",
        "desktop_dedup/core/extract/html.py",
        "    return outermost if 2 * sum(map(_chars, outermost)) < _chars(root) else []\n",
        "    return outermost\n",
        [
            "tests/test_extract.py::test_html_leaves_out_what_its_inline_style_hides_unless_it_is_most_of_the_page"
        ],
        "a page a script shows when it loads is read as its reader saw it",
    ),
    m(
        "socket-folder-left-in-tmp",
        "desktop_dedup/cli.py",
        "        forkserver.remove_socket_folder()\n",
        "        pass\n",
        ["tests/test_worker_orphans.py::test_a_scan_leaves_nothing_in_the_temporary_folder"],
        "a scan leaves nothing behind in /tmp",
    ),
    m(
        "scan-after-verbose-starts-its-readers-late",
        "desktop_dedup/cli.py",
        '        if program and _command_of(argv) == "scan":\n',
        '        if program and argv[:1] == ["scan"]:\n',
        [
            "tests/test_worker_orphans.py::"
            "test_a_scan_after_a_global_option_forks_its_fork_server_from_itself"
        ],
        "a scan with -v runs as fast as one without",
    ),
    m(
        "verbose-flag-spellings-not-skipped",
        "desktop_dedup/cli.py",
        '        if arg == VERBOSE_FLAGS[1] or re.fullmatch("-v+", arg):\n',
        "        if arg == VERBOSE_FLAGS[0]:\n",
        [
            "tests/test_worker_orphans.py::"
            "test_a_scan_after_a_global_option_forks_its_fork_server_from_itself"
        ],
        "a scan with -v runs as fast as one without",
    ),
    m(
        "first-window-larger-than-the-screen",
        "desktop_dedup/gui/main_window.py",
        "    return FULL_SIZE.boundedTo(QSize(room.width() - 16, room.height() * 9 // 10))\n",
        "    return FULL_SIZE\n",
        ["tests/gui/test_gui_review.py::test_the_window_fits_the_screen_at_its_first_start"],
        "the window opens at 1400×860, or smaller where the screen has less room",
    ),
    m(
        "what-the-panes-say-elided-in-their-title",
        "desktop_dedup/gui/diff_view.py",
        "        self.left_pane.setPlaceholderText(text)\n",
        "        self.left_pane.setPlaceholderText(text)\n        self.left_title.setText(text)\n",
        ["tests/gui/test_gui_review.py::test_what_the_compare_panes_say_is_shown_whole"],
        "what the compare panes say when they have nothing to compare is shown whole",
    ),
    m(
        "cancel-at-the-near-question-carries-on",
        "desktop_dedup/gui/main_window.py",
        '        if answer is None:\n            return None\n        if answer == "keep"',
        '        if answer is None:\n            return False\n        if answer == "keep"',
        [
            "tests/gui/test_gui_near_removal.py::"
            "test_cancel_at_the_near_duplicates_question_moves_nothing"
        ],
        "*Cancel*, which removes nothing",
    ),
    m(
        "cancel-at-the-near-question-moves-to-the-folder",
        "desktop_dedup/gui/review_actions.py",
        "        if include_near is None:\n            return None\n",
        "",
        [
            "tests/gui/test_gui_near_removal.py::"
            "test_cancel_at_the_near_duplicates_question_moves_nothing"
        ],
        "*Cancel*, which removes nothing",
    ),
    m(
        "groups-columns-sized-for-a-wide-window",
        "desktop_dedup/gui/main_window.py",
        '                    (3, "a-typical-file-name.txt" if wide else "a-file-name.txt"),\n',
        '                    (3, "a-typical-file-name.txt"),\n',
        [
            "tests/gui/test_gui_review.py::"
            "test_the_groups_columns_fit_beside_their_scroll_bar_at_the_first_start"
        ],
        "all columns on screen",
    ),
    m(
        "enter-exports-a-list",
        "desktop_dedup/gui/list_dialogs.py",
        "        self.export_button.setAutoDefault(False)\n"
        "        self.close_button.setDefault(True)\n",
        "",
        ["tests/gui/test_gui_panels.py::test_enter_closes_a_list_of_files_left_in_place"],
        "Enter closes such a list",
    ),
    m(
        "minimum-size-in-bytes-whatever-its-count",
        "desktop_dedup/gui/settings_dialog.py",
        '        self.min_size.setSuffix(plural(self.tr(" byte(s)", "", n), n))\n',
        '        self.min_size.setSuffix(" bytes")\n',
        ["tests/gui/test_gui_panels.py::test_the_minimum_size_counts_its_bytes_in_english"],
        'the minimum size reads "1 byte", "2048 bytes"',
    ),
    m(
        "salient-counts-kept-in-a-byte",
        "desktop_dedup/core/sketch.py",
        "        np.minimum(counts[top], _MAX_COUNT).astype(np.uint16),\n",
        "        np.minimum(counts[top], 255).astype(np.uint8),\n",
        [
            "tests/test_sketch.py::test_pages_that_name_themselves_hundreds_of_times_are_a_swap",
            "tests/test_templates.py::"
            "test_long_pages_of_one_template_that_name_themselves_throughout_are_two_documents",
        ],
        "long pages of one template that name themselves throughout are two documents",
    ),
    m(
        "two-byte-counts-read-one-byte-each",
        "desktop_dedup/core/sketch.py",
        "            wide = bool(flags & _WIDE_COUNTS)\n",
        "            wide = False\n",
        ["tests/test_sketch.py::test_pages_that_name_themselves_hundreds_of_times_are_a_swap"],
        "a sketch is stored without loss",
    ),
    m(
        "files-read-again-not-counted",
        "desktop_dedup/core/service.py",
        "                        state.again.add(e.path)\n",
        "                        pass\n",
        [
            "tests/test_scanning.py::"
            "test_files_read_again_for_a_new_fingerprint_version_are_counted_and_shown",
            "tests/test_cli.py::test_a_scan_after_an_update_says_why_it_reads_every_file_again",
            "tests/gui/test_gui_panels.py::"
            "test_a_scan_after_an_update_says_it_read_the_unchanged_files_again",
        ],
        "a scan after an update says why it reads every file again",
    ),
    m(
        "changed-files-counted-as-read-again",
        "desktop_dedup/core/service.py",
        "                    if unchanged:  # fingerprinted by another version: read again\n",
        "                    if True:\n",
        [
            "tests/test_scanning.py::"
            "test_files_read_again_for_a_new_fingerprint_version_are_counted_and_shown",
            "tests/test_cli.py::test_a_scan_after_an_update_says_why_it_reads_every_file_again",
        ],
        "a scan after an update says why it reads every file again",
    ),
    m(
        "read-again-note-left-on",
        "desktop_dedup/gui/progress_panel.py",
        "        self.note_label.setVisible(bool(again))\n",
        "        self.note_label.setVisible(self.note_label.isVisible() or bool(again))\n",
        [
            "tests/gui/test_gui_panels.py::"
            "test_the_progress_panel_says_why_unchanged_files_are_read_again"
        ],
        "a scan after an update says why it reads every file again",
    ),
    m(
        "sketch-cut-short-stops-a-grouping",
        "desktop_dedup/core/sketch.py",
        "        except (ValueError, struct.error):\n",
        "        except struct.error:\n",
        [
            "tests/test_sketch.py::test_serialisation_round_trip_and_damaged_bytes",
            "tests/test_service.py::test_a_damaged_sketch_in_the_index_stops_no_regroup",
        ],
        "a damaged row is a near duplicate of nothing; the grouping goes on",
    ),
    m(
        "scan-message-cut-without-a-tooltip",
        "desktop_dedup/gui/review_actions.py",
        "        bar.setToolTip(message)\n",
        "        bar.setToolTip(text)\n",
        [
            "tests/gui/test_gui_review_actions.py::"
            "test_the_whole_scan_message_is_in_the_status_bars_tooltip"
        ],
        "hovering the status bar shows the whole message",
    ),
    m(
        "scan-message-counts-uncounted",
        "desktop_dedup/gui/main_window.py",
        '                groups=plural(self.tr("%n group(s)", "", groups), groups),\n',
        '                groups=f"{groups} groups",\n',
        [
            "tests/gui/test_gui_review_actions.py::"
            "test_the_whole_scan_message_is_in_the_status_bars_tooltip"
        ],
        '"Scanned 1 file"',
    ),
    m(
        "cli-counts-uncounted",
        "desktop_dedup/cli.py",
        '    return plural(f"{n} {noun}(s)", n)\n',
        '    return f"{n} {noun}s"\n',
        [
            "tests/test_cli.py::test_a_scan_of_one_file_says_file",
            "tests/test_cli_conventions.py::test_the_commands_count_their_files",
        ],
        '"Scanned 1 file"',
    ),
    m(
        "window-counts-uncounted",
        "desktop_dedup/gui/main_window.py",
        'plural(self.tr("%n document(s)", "", stats.documents), stats.documents)',
        'f"{stats.documents} documents"',
        ["tests/gui/test_gui_panels.py::test_the_windows_counts_are_counted"],
        '"1 of 1 file", "1 document"',
    ),
    m(
        "texts-of-a-few-words-near-duplicates",
        "desktop_dedup/core/sketch.py",
        "    return 0 < len(sk.words) < MIN_NEAR_WORDS\n",
        "    return False\n",
        ["tests/test_short_texts.py::test_texts_of_a_few_words_are_near_duplicates_of_nothing"],
        "texts of three content words or fewer are near duplicates of nothing",
    ),
    m(
        "near-duplicates-kept-counted-as-going",
        "desktop_dedup/core/service.py",
        "        return count - len(self.near_ids), size - self.near_size\n",
        "        return count, size\n",
        ["tests/gui/test_gui_near_removal.py::test_near_duplicates_are_removed_only_when_included"],
        "the last confirmation counts only the files that will go",
    ),
    m(
        "command-line-scan-lists-no-folders",
        "desktop_dedup/core/service.py",
        "        if named and not self.store.shared:\n            self._list_folders(root_list, "
        "ref_roots)\n",
        "        if False:\n            self._list_folders(root_list, ref_roots)\n",
        [
            "tests/test_service.py::test_the_folder_list_follows_named_scans_until_the_user_changes_it",
            "tests/gui/test_gui_workflow.py::test_after_a_command_line_scan_the_app_lists_its_"
            "folders_and_scans_them",
        ],
        "into an index file whose folder list is empty, `scan` lists the folders it was given",
    ),
    m(
        "command-line-scan-replaces-the-users-folders",
        "desktop_dedup/core/service.py",
        "        if current and not self.store.get_setting(self._FOLDERS_OF_A_SCAN, False):\n"
        "            return False\n",
        "",
        [
            "tests/test_service.py::test_the_folder_list_follows_named_scans_until_the_user_changes_it"
        ],
        "a folder list you made is never changed by `scan`",
    ),
    m(
        "folder-list-of-a-scan-never-follows",
        "desktop_dedup/core/service.py",
        "        self.store.set_setting(self._FOLDERS_OF_A_SCAN, True)\n",
        "",
        [
            "tests/test_service.py::test_the_folder_list_follows_named_scans_until_the_user_changes_it"
        ],
        "a folder list `scan` made follows the next `scan`",
    ),
    m(
        "ticking-a-folder-leaves-the-list-the-scans",
        "desktop_dedup/core/service.py",
        "        self.store.set_folder_reference(path, reference)\n"
        "        self._folders_are_the_users()\n",
        "        self.store.set_folder_reference(path, reference)\n",
        [
            "tests/test_service.py::test_the_folder_list_follows_named_scans_until_the_user_changes_it"
        ],
        "once you add, remove or tick a folder, the list is yours",
    ),
    m(
        "adding-a-folder-leaves-the-list-the-scans",
        "desktop_dedup/core/service.py",
        "        self.store.add_folder(resolved, reference)\n"
        "        self._folders_are_the_users()\n",
        "        self.store.add_folder(resolved, reference)\n",
        [
            "tests/test_service.py::test_the_folder_list_follows_named_scans_until_the_user_changes_it"
        ],
        "once you add, remove or tick a folder, the list is yours",
    ),
    m(
        "removing-a-folder-leaves-the-list-the-scans",
        "desktop_dedup/core/service.py",
        "        self.store.remove_folder(path)\n        self._folders_are_the_users()\n",
        "        self.store.remove_folder(path)\n",
        [
            "tests/test_service.py::test_the_folder_list_follows_named_scans_until_the_user_changes_it"
        ],
        "once you add, remove or tick a folder, the list is yours",
    ),
    m(
        "command-line-scan-lists-folders-of-a-shared-index",
        "desktop_dedup/core/service.py",
        "        if named and not self.store.shared:\n",
        "        if named:\n",
        ["tests/test_locations.py::test_marks_are_per_person_references_and_ignores_are_the_teams"],
        "a shared index's list is the team's to make",
    ),
    m(
        "names-not-utf8-stored-as-they-are",
        "desktop_dedup/core/pathrules.py",
        "    return _TO_ESCAPE.sub(_escape, path)\n",
        "    return path\n",
        ["tests/test_names_not_utf8.py"],
        "a file or folder whose name is not UTF-8 is read, grouped and removed like any other",
    ),
    m(
        "stored-names-read-back-escaped",
        "desktop_dedup/core/pathrules.py",
        "    return _ESCAPED.sub(_unescape, text)\n",
        "    return text\n",
        ["tests/test_names_not_utf8.py"],
        "the same",
    ),
    m(
        "escape-character-in-a-name-not-doubled",
        "desktop_dedup/core/pathrules.py",
        "    return ESCAPE * 2 if ch == ESCAPE else",
        "    return ESCAPE if ch == ESCAPE else",
        [
            "tests/test_names_not_utf8.py::test_the_stored_form_gives_back_every_name_and_keeps_folders_prefixes"
        ],
        "the index stores such a name with each of those bytes escaped",
    ),
    m(
        "journal-paths-not-stored",
        "desktop_dedup/core/store/repository.py",
        "            k: pathrules.stored(v) if k in cls._JOURNAL_PATHS and v else v\n",
        "            k: v\n",
        [
            "tests/test_names_not_utf8.py::test_a_file_whose_name_is_not_utf8_is_moved_restored_and_trashed_by_that_name"
        ],
        "moving, restoring and removing act on the file of that name",
    ),
    m(
        "report-file-refuses-a-name-not-utf8",
        "desktop_dedup/core/report.py",
        'encoding=encoding, errors="backslashreplace", newline=""',
        'encoding=encoding, newline=""',
        ["tests/test_names_not_utf8.py::test_reports_give_a_name_that_is_not_utf8"],
        "the JSON report gives the exact name as JSON escapes",
    ),
    m(
        "csv-name-not-utf8-as-json-escapes",
        "desktop_dedup/core/report.py",
        "    return pathrules.shown(os.path.abspath(path))\n",
        "    return os.path.abspath(path)\n",
        ["tests/test_names_not_utf8.py::test_reports_give_a_name_that_is_not_utf8"],
        "each byte of the name that is not UTF-8 is shown as an escape (`\\xd7`) in the CSV and "
        "HTML reports",
    ),
    m(
        "folder-list-paths-through-qt",
        "desktop_dedup/gui/folders.py",
        "        return self._paths[self.list.row(item)]\n",
        "        return item.data(PATH_ROLE)\n",
        [
            "tests/gui/test_names_not_utf8_gui.py::test_the_window_shows_and_acts_on_names_that_are_not_utf8"
        ],
        "a reference folder acts on the folder of that name",
    ),
    m(
        "file-url-drops-bytes-not-utf8",
        "desktop_dedup/gui/dialogs.py",
        "    if not pathrules.has_undecodable(path) or sys.platform",
        "    if True or sys.platform",
        [
            "tests/gui/test_names_not_utf8_gui.py::test_the_window_shows_and_acts_on_names_that_are_not_utf8"
        ],
        "opening and revealing act on the file of that name",
    ),
    m(
        "log-record-of-a-name-not-utf8-lost",
        "desktop_dedup/logs.py",
        '            errors="backslashreplace",\n',
        "",
        ["tests/test_logs.py::test_a_file_name_that_is_not_utf8_is_logged_as_escapes"],
        "each byte of the name that is not UTF-8 is shown as an escape in the log",
    ),
    m(
        "diff-header-of-a-name-not-utf8-unescaped",
        "desktop_dedup/cli.py",
        '    w(f"--- {shown(args.file_a)}\\n+++ {shown(args.file_b)}\\n")\n',
        '    w(f"--- {args.file_a}\\n+++ {args.file_b}\\n")\n',
        ["tests/test_cli.py::test_diff_names_a_file_whose_name_is_not_utf8_as_the_scan_does"],
        "each byte of the name that is not UTF-8 is shown as an escape in the command line",
    ),
    m(
        "op-error-naming-a-file-not-utf8-through-qt",
        "desktop_dedup/gui/ops.py",
        'op.error = (shown(str(exc)), "")',
        'op.error = (str(exc), "")',
        [
            "tests/gui/test_names_not_utf8_gui.py::test_an_error_naming_such_a_file_names_it_as_"
            "shown"
        ],
        "each byte of the name that is not UTF-8 is shown as an escape in the app",
    ),
    m(
        "restored-file-waits-for-a-scan-by-hand",
        "desktop_dedup/gui/review_actions.py",
        "            if listed:\n                self.window.start_scan()\n",
        "",
        [
            "tests/gui/test_gui_review_actions.py::test_a_restored_file_is_back_in_its_group_"
            "without_scanning_by_hand"
        ],
        "a file restored from the journal is back in its group without a scan by hand",
    ),
    m(
        "file-restored-outside-the-list-scanned-for",
        "desktop_dedup/core/service.py",
        "        return [p for p in paths if pathrules.is_inside_any(p, folders)]\n",
        "        return list(paths)\n",
        [
            "tests/gui/test_gui_review_actions.py::test_a_file_restored_outside_the_listed_"
            "folders_starts_no_scan"
        ],
        "a file restored outside the listed folders starts no scan; the status bar says why",
    ),
    m(
        "scan-without-folders-ignores-the-list",
        "desktop_dedup/cli.py",
        "                args.paths or None,  # none: the index's folder list\n",
        "                args.paths or [os.getcwd()],\n",
        [
            "tests/test_cli.py::test_scan_without_folders_scans_the_folders_the_index_lists",
        ],
        "scan with no PATH scans the folders the index lists, as the app's Scan does",
    ),
    m(
        "scan-without-folders-or-list-traceback",
        "desktop_dedup/cli.py",
        "        if not args.paths and not svc.folders_to_scan():\n",
        "        if False:\n",
        [
            "tests/test_cli.py::test_scan_without_folders_scans_the_folders_the_index_lists",
        ],
        "an index that lists no folders asks for them (exit 2)",
    ),
    m(
        "scan-without-folders-makes-an-index",
        "desktop_dedup/cli.py",
        "    with _service(args.db, must_exist=not args.paths) as svc:\n",
        "    with _service(args.db) as svc:\n",
        [
            "tests/test_cli.py::test_scan_without_folders_scans_the_folders_the_index_lists",
        ],
        "scan with no PATH and no index at --db says so and makes none",
    ),
    m(
        "files-of-an-unread-folder-dropped",
        "desktop_dedup/core/service.py",
        "            kept = set(holders)\n",
        "            kept = set()\n",
        [
            "tests/test_unavailable_folders.py::test_files_of_a_folder_that_is_not_there_stay_"
            "as_last_scanned",
            "tests/test_unavailable_folders.py::test_a_folder_that_cannot_be_listed_keeps_its_files",
        ],
        "a folder the scan cannot read keeps its files as the last scan left them",
    ),
    m(
        "missing-root-not-noted-as-unread",
        "desktop_dedup/core/scanning.py",
        '            problems.append(Problem(root, "folder not found"))\n'
        "            unlisted.append(root)\n",
        '            problems.append(Problem(root, "folder not found"))\n',
        [
            "tests/test_unavailable_folders.py::test_files_of_a_folder_that_is_not_there_stay_"
            "as_last_scanned",
        ],
        "a drive unplugged keeps its files in the index",
    ),
    m(
        "unlistable-folder-not-noted-as-unread",
        "desktop_dedup/core/scanning.py",
        '                problems.append(Problem(folder, "permission denied (folder)"))\n'
        "                unlisted.append(folder)\n",
        '                problems.append(Problem(folder, "permission denied (folder)"))\n',
        [
            "tests/test_unavailable_folders.py::test_a_folder_that_cannot_be_listed_keeps_its_files",
        ],
        "a folder whose permissions changed keeps its files in the index",
    ),
    m(
        "empty-mount-point-files-dropped",
        "desktop_dedup/core/scanning.py",
        "            if not entries and folder == root:\n",
        "            if False:\n",
        [
            "tests/test_unavailable_folders.py::test_a_mount_folder_left_empty_keeps_its_files",
        ],
        "a mount point left empty keeps the files its share held",
    ),
    m(
        "problems-of-the-last-scan-with-problems",
        "desktop_dedup/core/store/repository.py",
        '            select(func.max(ScanRunRow.id)).where(ScanRunRow.status != "running")\n',
        "            select(func.max(ScanProblemRow.scan_id))\n",
        [
            "tests/test_unavailable_folders.py::test_files_of_a_folder_that_is_not_there_stay_"
            "as_last_scanned",
        ],
        "the Problems panel and the reports list the last scan's problems",
    ),
    m(
        "unread-folder-not-shown-in-the-list",
        "desktop_dedup/gui/folders.py",
        "        if problem:  # an unplugged drive",
        "        if False:  # an unplugged drive",
        [
            "tests/gui/test_gui_panels.py::test_a_scan_with_a_folder_unplugged_says_its_files_"
            "were_kept",
        ],
        "the folder list shows which folder the last scan could not read",
    ),
    m(
        "removal-from-a-folder-away-unexplained",
        "desktop_dedup/core/service.py",
        "            elif away(d.path):\n                reason = actions.REASON_FOLDER_AWAY\n",
        "",
        [
            "tests/test_unavailable_folders.py::test_files_of_a_folder_that_is_not_there_stay_"
            "as_last_scanned",
        ],
        "a file in a folder that is not there is refused, with that reason",
    ),
    m(
        "kept-copy-away-says-scan-again",
        "desktop_dedup/core/service.py",
        "            elif gid in kept_away:\n                reason = actions.REASON_KEPT_AWAY\n",
        "",
        [
            "tests/test_unavailable_folders.py::test_files_of_a_folder_that_is_not_there_stay_"
            "as_last_scanned",
        ],
        "a file whose only copy to keep is in a folder that is not there is kept, with that reason",
    ),
    m(
        "confirmation-counts-files-of-a-folder-away",
        "desktop_dedup/core/service.py",
        "        away = self._marked_away(ids)\n",
        "        away = frozenset()\n",
        [
            "tests/gui/test_gui_panels.py::test_the_removal_confirmation_counts_no_file_of_a_"
            "folder_that_is_not_there",
        ],
        "the last confirmation counts only the files that will go",
    ),
    m(
        "member-in-an-unread-folder-not-shown",
        "desktop_dedup/core/service.py",
        "                        in_unread_folder=bool(unread) and pathrules.is_inside_any(d.path, "
        "unread),\n",
        "",
        [
            "tests/gui/test_gui_panels.py::test_a_scan_with_a_folder_unplugged_says_its_files_"
            "were_kept",
        ],
        "a group's file in a folder the last scan could not read says so",
    ),
    m(
        "kept-files-not-said",
        "desktop_dedup/gui/main_window.py",
        "            if summary.files_kept:  # in folders it could not read",
        "            if False:  # in folders it could not read",
        [
            "tests/gui/test_gui_panels.py::test_a_scan_with_a_folder_unplugged_says_its_files_"
            "were_kept",
        ],
        "the status bar says how many files of unread folders were kept",
    ),
    m(
        "unmounted-share-inside-a-folder-dropped",
        "desktop_dedup/core/service.py",
        "            if scanning.mount_away(folder):\n",
        "            if False:\n",
        [
            "tests/test_unavailable_folders.py::test_a_share_mounted_inside_a_scanned_folder_keeps_"
            "its_files_when_unmounted",
        ],
        "a share unmounted inside a scanned folder keeps its files",
    ),
    m(
        "mount-inside-a-folder-not-remembered",
        "desktop_dedup/core/scanning.py",
        "                        if st.st_dev != device:\n",
        "                        if False:\n",
        [
            "tests/test_unavailable_folders.py::test_a_share_mounted_inside_a_scanned_folder_keeps_"
            "its_files_when_unmounted",
        ],
        "a scan remembers where a drive or a share is mounted inside its folders",
    ),
    m(
        "subvolume-taken-for-a-mount",
        "desktop_dedup/core/volumes.py",
        "    return [f for f in folders if f in points or os.path.realpath(f) in points]\n",
        "    return list(folders)\n",
        [
            "tests/test_unavailable_folders.py::test_only_a_folder_with_a_file_system_mounted_"
            "on_it_is_a_mount_point",
        ],
        "only a folder the mount table lists is a mount point",
    ),
    m(
        "excluded-mount-point-kept",
        "desktop_dedup/core/service.py",
        "                or scanning.excluded_below(folder, root, settings.exclude_globs)\n",
        "                or False\n",
        [
            "tests/test_unavailable_folders.py::test_a_share_mounted_inside_a_scanned_folder_keeps_"
            "its_files_when_unmounted",
        ],
        "an excluded folder's files go, mounted or not",
    ),
    m(
        "server-sums-as-decimal",
        "desktop_dedup/core/store/repository.py",
        '            "reclaimable_size": int(reclaim),\n',
        '            "reclaimable_size": reclaim,\n',
        [
            "tests/test_postgres.py::test_cli_scans_and_reports_on_a_postgresql_url",
        ],
        "scan --json writes its summary on a shared index",
    ),
    m(
        "forgotten-files-stay-in-the-index",
        "desktop_dedup/core/service.py",
        "        self.store.delete_documents(gone)\n        self.store.drop_last_scan_problems(",
        "        self.store.drop_last_scan_problems(",
        [
            "tests/test_forget_kept_files.py::test_forgetting_a_folder_whose_files_a_scan_kept",
            "tests/gui/test_gui_panels.py::test_the_files_kept_from_a_retired_drive_are_forgotten_"
            "from_the_problems_list",
        ],
        "forgetting the files kept from a folder the scan could not read drops them from the "
        "results",
    ),
    m(
        "forgotten-folder-still-kept",
        "desktop_dedup/core/service.py",
        "        self.store.drop_last_scan_problems(wanted)\n",
        "",
        [
            "tests/test_forget_kept_files.py::test_forgetting_a_folder_whose_files_a_scan_kept",
            "tests/gui/test_gui_panels.py::test_the_files_kept_from_a_retired_drive_are_forgotten_"
            "from_the_problems_list",
        ],
        "a forgotten folder's problem is settled: no warning, no count",
    ),
    m(
        "forget-takes-any-folder",
        "desktop_dedup/core/service.py",
        "            if folder not in kept:\n",
        "            if False:\n",
        [
            "tests/test_forget_kept_files.py::test_forgetting_a_folder_whose_files_a_scan_kept",
            "tests/test_forget_kept_files.py::test_forget_on_the_command_line",
        ],
        "only the files of a folder the last scan could not read can be forgotten",
    ),
    m(
        "forgotten-mount-point-remembered",
        "desktop_dedup/core/service.py",
        "        if pathrules.inside_some(mounts, wanted):\n",
        "        if False:\n",
        [
            "tests/test_forget_kept_files.py::test_forgetting_a_folder_inside_a_forgotten_one_"
            "and_a_remembered_mount"
        ],
        "forgetting a folder forgets the mount points remembered inside it",
    ),
    m(
        "forget-without-yes",
        "desktop_dedup/cli.py",
        "        kept = svc.forget_kept(folders or None, dry_run=not args.yes)\n",
        "        kept = svc.forget_kept(folders or None, dry_run=False)\n",
        ["tests/test_forget_kept_files.py::test_forget_on_the_command_line"],
        "forget is a dry run unless --yes",
    ),
    m(
        "empty-mount-folder-taken-for-there",
        "desktop_dedup/core/service.py",
        "        away = [f for f in self.folders_to_scan() if scanning.unreadable_root(f)]\n",
        "        away = [f for f in self.folders_to_scan() if not os.path.isdir(f)]\n",
        ["tests/test_unavailable_folders.py::test_a_mount_folder_left_empty_keeps_its_files"],
        "the files of a listed folder the scan could not read are not removed",
    ),
    m(
        "kept-subfolder-not-flagged",
        "desktop_dedup/core/service.py",
        "        folders += self.store.folders_with_kept_files()\n",
        "",
        ["tests/test_unavailable_folders.py::test_a_folder_that_cannot_be_listed_keeps_its_files"],
        "the app marks the files kept from a folder the scan could not read",
    ),
    m(
        "folder-inside-not-marked",
        "desktop_dedup/gui/folders.py",
        "        elif inner:\n",
        "        elif False:\n",
        [
            "tests/gui/test_gui_panels.py::test_the_folder_list_says_when_a_folder_inside_one_was_"
            "not_read"
        ],
        "the folder list marks a listed folder with a folder inside it the scan could not read",
    ),
    m(
        "an-empty-list-says-nothing",
        "desktop_dedup/gui/list_dialogs.py",
        "        text = self.intro_text if rows or not self.empty_text else self.empty_text\n",
        "        text = self.intro_text\n",
        [
            "tests/gui/test_gui_actions.py::test_move_marked_to_folder_renames_on_conflict",
            "tests/gui/test_gui_workflow.py::test_ignore_pair_and_clear_ignores",
            "tests/gui/test_gui_panels.py",
        ],
        "each list that has nothing in it says so, and what would put something there",
    ),
    m(
        "names-read-in-a-code-page-without-words",
        "desktop_dedup/core/extract/plaintext.py",
        "        if pattern.fullmatch(wide) is not None and _dictionary_name(text):\n",
        "        if pattern.fullmatch(wide) is not None:\n",
        ["tests/test_names_not_utf8.py"],
        "a name that is not UTF-8 is shown as read in its East Asian code page only when the "
        "reading is sure; a Russian, Thai or Korean name stays escaped",
    ),
    m(
        "names-not-utf8-shown-as-escapes-only",
        "desktop_dedup/core/pathrules.py",
        "    named = _legacy_name(raw)\n",
        "    named = None\n",
        ["tests/test_names_not_utf8.py", "tests/gui/test_names_not_utf8_gui.py"],
        "a GBK, Big5 or Shift_JIS name is shown as read in it, followed by its code page",
    ),
    m(
        "name-code-page-not-said",
        "desktop_dedup/core/pathrules.py",
        "    return text[:end] + NAMED_IN.format(label) + text[end:]\n",
        "    return text\n",
        ["tests/test_names_not_utf8.py", "tests/test_cli.py"],
        "the same",
    ),
    m(
        "name-tooltip-without-its-bytes",
        "desktop_dedup/gui/models/members.py",
        "        if not pathrules.has_undecodable(path):\n            return shown_path(path)\n",
        "        if True:\n            return shown_path(path)\n",
        ["tests/gui/test_names_not_utf8_gui.py"],
        "a member's tooltip gives the exact bytes of a name that is not UTF-8",
    ),
    m(
        "trash-path-read-as-utf8",
        "desktop_dedup/core/restore.py",
        '    path = os.fsdecode(unquote_to_bytes(values["Path"]))\n',
        '    path = unquote_to_bytes(values["Path"]).decode("utf-8", "replace")\n',
        ["tests/test_names_not_utf8.py"],
        "a file whose name is not UTF-8 is restored from the trash by that name",
    ),
    m(
        "filter-misses-names-as-shown",
        "desktop_dedup/core/store/repository.py",
        "        shown = self._shown_matches(text_filter, regex)\n",
        "        shown: list[int] = []\n",
        ["tests/test_names_not_utf8.py"],
        "the app's filter box finds a file whose name is not UTF-8 by what it shows",
    ),
    m(
        "names-read-on-the-window-thread",
        "desktop_dedup/core/pathrules.py",
        "        _waitless[thread] += 1\n",
        "        pass\n",
        ["tests/gui/test_names_not_utf8_gui.py"],
        "the window never waits for the reader of names that are not UTF-8",
    ),
    m(
        "names-escaped-on-every-thread",
        "desktop_dedup/core/pathrules.py",
        "    if threading.get_ident() in _waitless and not _names_ready.is_set():\n",
        "    if _waitless and not _names_ready.is_set():\n",
        ["tests/test_names_not_utf8.py"],
        "the same: a report exported meanwhile still reads the names",
    ),
    m(
        "a-closed-window-still-keeps-its-thread-from-waiting",
        "desktop_dedup/gui/main_window.py",
        "        self._stop_reading_names()\n",
        "",
        ["tests/test_names_not_utf8.py", "tests/gui/test_names_not_utf8_gui.py"],
        "the same",
    ),
    m(
        "boilerplate-pairs-not-refused",
        "desktop_dedup/core/sketch.py",
        "        if substituted(a, b) or (common is not None and "
        "shares_only_boilerplate(a, b, common)):\n",
        "        if substituted(a, b):\n",
        [
            "tests/test_short_texts.py::"
            "test_different_notes_under_one_long_disclaimer_are_not_grouped",
            "tests/test_cli.py::test_diff_with_the_index_says_two_notes_share_only_a_disclaimer",
        ],
        "two different notes that share only a disclaimer many texts hold are not grouped",
    ),
    m(
        "boilerplate-a-name-is-a-text",
        "desktop_dedup/core/sketch.py",
        "    if smaller < MIN_NEAR_WORDS:\n        return False\n"
        "    return _lcs_length(left_a, left_b)",
        "    return _lcs_length(left_a, left_b)",
        [
            "tests/test_short_texts.py::"
            "test_a_disclaimer_is_boilerplate_only_when_many_texts_hold_it_and_more_than_the_notes"
        ],
        "the same",
    ),
    m(
        "boilerplate-family-taken-whole",
        "desktop_dedup/core/grouping.py",
        "    if not sketch_mod.none_share_only_boilerplate(sketches, common):\n"
        "        return None\n",
        "",
        ["tests/test_short_texts.py::test_a_family_under_one_disclaimer_is_never_taken_whole"],
        "the same, in a family of eight or more alike documents",
    ),
    m(
        "boilerplate-family-shortcut-unsound",
        "desktop_dedup/core/sketch.py",
        "    return len(_common_in_order(distinct)) >= BOILERPLATE_LEFT_SHARE * second\n",
        "    return True\n",
        [
            "tests/test_short_texts.py::"
            "test_a_family_is_shown_free_of_boilerplate_pairs_only_when_none_of_its_pairs_is_one"
        ],
        "the same",
    ),
    m(
        "boilerplate-family-misses-a-line-left-out",
        "desktop_dedup/core/sketch.py",
        "        found = _pairs_leaving_out_more(short, ids, lines, left, set(core), held)\n",
        "        found = set()\n",
        [
            "tests/test_short_texts.py::"
            "test_a_family_is_shown_free_of_boilerplate_pairs_only_when_none_of_its_pairs_is_one"
        ],
        "the same",
    ),
    m(
        "boilerplate-family-pairs-keyed-too-finely",
        "desktop_dedup/core/sketch.py",
        "            key = frozenset(i for i in lines[k] if COMMON_LINE_FACTOR * held(i) > "
        "times)\n",
        "            key = frozenset(lines[k])\n",
        [
            "tests/test_short_texts.py::"
            "test_a_family_is_shown_free_of_boilerplate_pairs_only_when_none_of_its_pairs_is_one"
        ],
        "the same",
    ),
    m(
        "boilerplate-reason-not-said",
        "desktop_dedup/core/service.py",
        "    if common is not None and sketch_mod.shares_only_boilerplate(a, b, common):\n"
        "        return share, BOILERPLATE\n",
        "",
        [
            "tests/test_cli.py::test_diff_with_the_index_says_two_notes_share_only_a_disclaimer",
            "tests/gui/test_gui_diff_view.py::test_the_view_says_why_two_alike_files_are_zero",
        ],
        "the diff says why two alike files are 0: a swap of names, or only boilerplate shared",
    ),
    m(
        "glued-lines-left-out-however-few-texts-hold-them",
        "desktop_dedup/core/sketch.py",
        "    if rarest < BOILERPLATE_MIN_TEXTS or rarest < COMMON_LINE_FACTOR * max(kept_lines, "
        "default=0):\n"
        "        return 0.0\n",
        "",
        [
            "tests/test_short_texts.py::"
            "test_a_note_alone_is_its_copy_under_a_disclaimer_only_when_many_texts_hold_it"
        ],
        "a note alone is its copy under a disclaimer only when many texts hold the disclaimer",
    ),
    m(
        "glued-lines-left-out-inside-the-text",
        "desktop_dedup/core/sketch.py",
        "        if out and not _at_the_ends(s.line_id_array, out):\n            return 0.0\n",
        "",
        [
            "tests/test_short_texts.py::"
            "test_a_note_under_two_disclaimers_is_one_document_only_when_many_texts_hold_each"
        ],
        "a line many texts hold inside a text is its text, not a disclaimer glued to it",
    ),
    m(
        "glued-lines-left-out-of-one-side-only",
        "desktop_dedup/core/sketch.py",
        "    if not (out_a or out_b):\n",
        "    if not (out_a or out_b) or (out_a and out_b):\n",
        [
            "tests/test_short_texts.py::"
            "test_a_note_under_two_disclaimers_is_one_document_only_when_many_texts_hold_each",
            "tests/test_short_texts.py::"
            "test_notes_are_found_with_their_copies_under_another_disclaimer",
        ],
        "a note under one disclaimer many texts hold is the same document as under another",
    ),
    m(
        "common-lines-asked-one-pair-at-a-time",
        "desktop_dedup/core/grouping.py",
        "                    fresh |= more\n",
        "",
        ["tests/test_parallel_verification.py::test_the_index_is_asked_about_lines_in_batches"],
        "the grouping asks the index about the lines of every document decoded since at once",
    ),
    m(
        "swap-refused-whatever-the-pages-begin-with",
        "desktop_dedup/core/sketch.py",
        "    if a.head and a.head == b.head:\n",
        "    if False:\n",
        [
            "tests/test_templates.py::"
            "test_a_revision_that_renames_a_word_throughout_is_one_document_when_it_begins_alike"
        ],
        "a revision that renames a word throughout is one document when the two begin alike",
    ),
    m(
        "head-reads-the-words-of-its-addresses",
        "desktop_dedup/core/fingerprint.py",
        "            if not ends or not any(b <= begin < e for b, e in ends):\n",
        "            if True:\n",
        ["tests/test_web_addresses.py::test_a_read_me_begins_alike_whatever_its_badges_point_at"],
        "a read-me begins alike whatever its badges point at",
    ),
    m(
        "edge-keys-never-stored",
        "desktop_dedup/core/sketch.py",
        "        edge = edge_keys(self, keys)\n",
        "        edge = _EMPTY\n",
        [
            "tests/test_short_texts.py::"
            "test_notes_alone_are_found_with_their_copies_under_a_common_disclaimer",
            "tests/test_short_texts.py::"
            "test_edge_keys_are_stored_after_the_candidate_keys_and_read_back",
        ],
        "a note of eight words is found with its mail under a disclaimer fifty words long",
    ),
    m(
        "edge-keys-propose-as-candidate-keys",
        "desktop_dedup/core/grouping.py",
        "EDGE_KEY_POSTINGS = sketch_mod.BOILERPLATE_MIN_TEXTS - 1\n",
        "EDGE_KEY_POSTINGS = MAX_KEY_POSTINGS\n",
        [
            "tests/test_short_texts.py::"
            "test_mails_that_share_a_signature_are_not_candidates_through_it",
        ],
        "mails that share a signature are not candidates of each other through it",
    ),
    m(
        "edge-keys-of-new-documents-not-looked-up",
        "desktop_dedup/core/service.py",
        "sketch_mod.raw_candidate_keys(r.sketch, long_keys=long_keys)",
        "sketch_mod.candidate_keys(sketch_mod.decode(r.sketch)).tolist()",
        [
            "tests/test_short_texts.py::"
            "test_notes_saved_later_join_their_mails_through_the_key_index",
        ],
        "a mail saved after its note joins it through the key index",
    ),
    m(
        "edge-keys-read-as-candidate-keys",
        "desktop_dedup/core/grouping.py",
        '        n_edge = sketch_mod.edge_key_slots(rec["flags"]).astype(np.int64)\n',
        "        n_edge = np.zeros(len(n), dtype=np.int64)\n",
        [
            "tests/test_short_texts.py::"
            "test_mails_that_share_a_signature_are_not_candidates_through_it",
        ],
        "mails that share a signature are not candidates of each other through it",
    ),
    m(
        "head-of-four-words",
        "desktop_dedup/core/fingerprint.py",
        "HEAD_WORDS = 20\n",
        "HEAD_WORDS = 4\n",
        [
            "tests/test_templates.py::"
            "test_pages_of_one_template_under_one_site_header_are_still_two_documents"
        ],
        "pages of one template under one site header are still two documents",
    ),
    m(
        "head-of-the-first-piece-only",
        "desktop_dedup/core/fingerprint.py",
        "        if first is not None and len(first) < _HEAD_TOKENS:",
        "        if first is not None and at == 0:",
        [
            "tests/test_fingerprint.py::"
            "test_token_tables_are_emptied_between_documents_never_inside_one"
        ],
        "a long text segmented in pieces has the fingerprint of the text whole",
    ),
    m(
        "glued-lines-never-left-out",
        "desktop_dedup/core/sketch.py",
        "                left_out_boilerplate_similarity(a, b, max(share, threshold), common),\n",
        "                0.0,\n",
        [
            "tests/test_short_texts.py::"
            "test_notes_alone_are_found_with_their_copies_under_a_common_disclaimer"
        ],
        "a note alone is found with its copy under a disclaimer many texts hold",
    ),
    m(
        "names-not-shown-again-once-readable",
        "desktop_dedup/gui/main_window.py",
        "        self.diff_view.retitle()\n",
        "",
        ["tests/gui/test_names_not_utf8_gui.py"],
        "the window shows such names as read once its reader is loaded",
    ),
]


def tracked_files() -> list[str]:
    out = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True
    ).stdout
    return [p for p in out.decode().split("\0") if p]


def make_copy(dest: Path) -> None:
    for rel in tracked_files():
        src = REPO / rel
        if not src.is_file():  # deleted in the working tree
            continue
        target = dest / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, target, follow_symlinks=False)
    # untracked new test files and the mutation list itself belong to the working tree too
    for src in (REPO / "tests").rglob("*.py"):
        target = dest / src.relative_to(REPO)
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, target)
    # the labelled corpora beside the repository, where the tests that score them look
    shared = REPO.parent / "shared"
    if shared.is_dir() and not (dest.parent / "shared").exists():
        (dest.parent / "shared").symlink_to(shared.resolve(), target_is_directory=True)
    # generated resources (compiled translations, the tables the setup makes) are not
    # tracked; the tests need them
    tables = (REPO / "resources" / "tables").glob("*")
    for gen in [*(REPO / "desktop_dedup").rglob("*.qm"), *tables]:
        target = dest / gen.relative_to(REPO)
        if not target.exists():
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(gen, target)


def run_tests(copy: Path, tests: tuple[str, ...], timeout: float) -> tuple[int, str, float]:
    """pytest's exit status (0 passed, 1 some failed, 2-5 trouble), a summary, seconds."""
    env = dict(
        os.environ,
        PYTHONPATH=str(copy),
        QT_QPA_PLATFORM="offscreen",
        PYTHONDONTWRITEBYTECODE="1",  # a mutant of the same size must never reuse a .pyc
    )
    env.pop("PYTEST_ADDOPTS", None)
    cmd = [
        sys.executable,
        "-m",
        "pytest",
        "-x",
        "-q",
        "-p",
        "no:randomly",
        "-p",
        "no:cacheprovider",
        *[t for t in tests if (copy / t.split("::")[0]).exists()],
    ]
    start = time.monotonic()
    try:
        proc = subprocess.run(  # a test's output may name a file whose name is not UTF-8
            cmd,
            cwd=copy,
            env=env,
            capture_output=True,
            text=True,
            errors="backslashreplace",
            timeout=timeout,
        )
    except subprocess.TimeoutExpired:
        return -1, "timed out", time.monotonic() - start
    tail = [
        line
        for line in proc.stdout.splitlines()
        if line.startswith(("FAILED", "ERROR")) or " passed" in line or " failed" in line
    ]
    return proc.returncode, "; ".join(tail[-3:]), time.monotonic() - start


def check_imports_copy(copy: Path) -> None:
    env = dict(os.environ, PYTHONPATH=str(copy))
    where = subprocess.run(
        [sys.executable, "-c", "import desktop_dedup; print(desktop_dedup.__file__)"],
        cwd=copy,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    if not Path(where).resolve().is_relative_to(copy.resolve()):
        raise SystemExit(f"the copy's code is not the one imported ({where}); cannot mutate")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("-k", default="", help="only mutants whose id contains this (or one of a,b,c)")
    ap.add_argument("--list", action="store_true", help="list the mutants and exit")
    ap.add_argument("--timeout", type=float, default=900, help="seconds per test run")
    ap.add_argument("--no-baseline", action="store_true", help="skip the unmutated run")
    ap.add_argument(
        "--tests", nargs="+", help="run these tests for every mutant instead of each one's list"
    )
    args = ap.parse_args(argv)
    chosen = [mu for mu in MUTANTS if any(k in mu.id for k in args.k.split(","))]
    if args.tests:
        chosen = [Mutant(**{**mu.__dict__, "tests": tuple(args.tests)}) for mu in chosen]
    if args.list:
        for mu in chosen:
            print(f"{mu.id:40} {mu.path}\n    {mu.promise}")
        return 0
    drifted = []
    for mu in chosen:
        count = (REPO / mu.path).read_text(encoding="utf-8").count(mu.old)
        if count != 1:
            drifted.append(f"{mu.id}: source text found {count} times in {mu.path}")
    if drifted:
        print("The tree no longer matches these mutants:\n  " + "\n  ".join(drifted))
        return 2
    results = []
    with tempfile.TemporaryDirectory(prefix="desktop-dedup-mutation-") as tmp:
        copy = Path(tmp) / "tree"
        make_copy(copy)
        check_imports_copy(copy)
        if not args.no_baseline:
            tests = tuple(sorted({t for mu in chosen for t in mu.tests}))
            status, tail, secs = run_tests(copy, tests, args.timeout * 3)
            verdict = "pass" if status == 0 else "FAIL"
            print(f"baseline (no mutation): {verdict} in {secs:.0f}s  {tail}", flush=True)
            if status != 0:
                return 2
        for mu in chosen:
            target = copy / mu.path
            original = target.read_text(encoding="utf-8")
            target.write_text(original.replace(mu.old, mu.new, 1), encoding="utf-8")
            try:
                status, tail, secs = run_tests(copy, mu.tests, args.timeout)
            finally:
                target.write_text(original, encoding="utf-8")
            # 1: a test failed. A timeout counts too (a mutant that hangs is noticed). Anything
            # else (a test id that no longer exists, a collection error) is not a verdict.
            verdict = {0: "missed", 1: "caught", -1: "caught"}.get(status, "error")
            results.append((mu, verdict))
            print(f"{verdict:6}  {mu.id:40} {secs:5.0f}s  {tail}", flush=True)
    missed = [mu for mu, v in results if v == "missed"]
    errors = [mu for mu, v in results if v == "error"]
    caught = len(results) - len(missed) - len(errors)
    print(f"\n{caught} of {len(results)} mutants caught")
    for mu in missed:
        print(f"  MISSED {mu.id}: {mu.promise}")
    for mu in errors:
        print(f"  ERROR  {mu.id}: the tests could not run (see above)")
    return 2 if errors else 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())
