"""Interface language: choice persistence, translator loading, and a complete zh_CN translation."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest
from PySide6.QtCore import QCoreApplication, QLocale, QSettings

from desktop_dedup import i18n
from desktop_dedup.resources import resource_path

REPO = Path(__file__).resolve().parent.parent
TS_SOURCE = REPO / "resources" / "translations" / "desktop_dedup_zh_CN.ts"
VENV_BIN = Path(sys.executable).parent


def _tool(name: str) -> str:
    exe = VENV_BIN / name
    found = str(exe) if exe.exists() else shutil.which(name)
    if not found:
        pytest.fail(f"{name} not found next to {sys.executable} or on PATH")
    return found


@pytest.fixture(scope="session")
def compiled_qm() -> Path:
    """The .qm the app loads, rebuilt by the real build script when missing or stale."""
    subprocess.run(
        [str(REPO / "packaging" / "build_resources.sh"), str(VENV_BIN.parent)], check=True
    )
    qm = Path(i18n.translation_file("zh_CN"))
    assert qm.is_file()
    return qm


@pytest.fixture
def settings_dir(tmp_path: Path, qapp):
    """QSettings written under tmp_path instead of the real user's configuration."""
    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        QSettings.setPath(fmt, QSettings.Scope.UserScope, str(tmp_path / "settings"))
    yield tmp_path / "settings"
    i18n.install_translator(qapp, "en")  # leave no translator behind for other tests


@pytest.fixture(scope="session")
def fresh_ts(tmp_path_factory: pytest.TempPathFactory) -> ET.ElementTree:
    """The committed .ts merged with a fresh lupdate scan of the GUI code (not written back)."""
    out = tmp_path_factory.mktemp("lupdate") / TS_SOURCE.name
    shutil.copy2(TS_SOURCE, out)
    sources = sorted(str(p) for p in (REPO / "desktop_dedup" / "gui").rglob("*.py"))
    subprocess.run(
        [_tool("pyside6-lupdate"), "-no-obsolete", "-silent", *sources, "-ts", str(out)],
        check=True,
        cwd=REPO,
    )
    return ET.parse(out)


def _messages(tree: ET.ElementTree):
    for context in tree.getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            yield name, message


def _translations(message: ET.Element) -> list[str]:
    translation = message.find("translation")
    forms = translation.findall("numerusform")
    return [f.text or "" for f in forms] if forms else [translation.text or ""]


def test_languages_offered() -> None:
    codes = dict(i18n.available_languages())
    assert codes == {"en": "English", "zh_CN": "简体中文"}


@pytest.mark.parametrize(
    ("ui_languages", "expected"),
    [
        (["zh-Hans-CN", "en-US"], "zh_CN"),
        (["zh-TW"], "zh_CN"),
        (["zh_CN"], "zh_CN"),
        (["de-DE", "en-GB"], "en"),
        (["fr-FR"], "en"),
        ([], "en"),
    ],
)
def test_system_locale_mapping(ui_languages: list[str], expected: str) -> None:
    assert i18n.language_for_locale(ui_languages) == expected


def test_choice_persists_and_system_is_default(settings_dir: Path) -> None:
    assert i18n.stored_language() == i18n.SYSTEM
    assert i18n.current_language() == i18n.system_language()
    i18n.set_language("zh_CN")
    assert i18n.current_language() == "zh_CN"
    # Persisted on disk: the file the next start reads holds the choice.
    (stored,) = [*settings_dir.rglob("*.conf"), *settings_dir.rglob("*.ini")]
    assert "language=zh_CN" in stored.read_text(encoding="utf-8").splitlines()
    i18n.set_language("en")
    assert i18n.current_language() == "en"
    i18n.set_language(i18n.SYSTEM)
    assert i18n.current_language() == i18n.system_language()
    with pytest.raises(ValueError):
        i18n.set_language("xx_YY")


def test_installing_chinese_translates_ours_and_qts_strings(
    qapp, settings_dir: Path, compiled_qm: Path
) -> None:
    i18n.set_language("zh_CN")
    assert i18n.install_translator(qapp) == "zh_CN"
    about = QCoreApplication.translate("AboutDialog", "Log file:")
    assert about != "Log file:" and re.search(r"[\u4e00-\u9fff]", about)
    # Qt's own standard buttons come from qtbase_zh_CN.
    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "取消"
    assert QLocale().language() == QLocale.Language.Chinese

    assert i18n.install_translator(qapp, "en") == "en"
    assert QCoreApplication.translate("AboutDialog", "Log file:") == "Log file:"
    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "Cancel"
    assert QLocale() == QLocale.system()


def test_about_dialog_in_chinese(qtbot, qapp, settings_dir: Path, compiled_qm: Path) -> None:
    from desktop_dedup.gui.about import AboutDialog

    i18n.install_translator(qapp, "zh_CN")
    dialog = AboutDialog(None)
    qtbot.addWidget(dialog)
    assert re.search(r"[\u4e00-\u9fff]", dialog.windowTitle()), dialog.windowTitle()
    assert re.search(r"[\u4e00-\u9fff]", dialog.open_logs_button.text())


def test_missing_qm_falls_back_to_english(qapp, settings_dir: Path, monkeypatch) -> None:
    monkeypatch.setattr(i18n, "translation_file", lambda code: str(settings_dir / "none.qm"))
    assert i18n.install_translator(qapp, "zh_CN") == "en"
    assert QCoreApplication.translate("AboutDialog", "Log file:") == "Log file:"


def test_translation_file_is_where_resources_are() -> None:
    assert Path(i18n.translation_file("zh_CN")).parent == resource_path("translations")


def test_every_source_string_has_a_chinese_translation(fresh_ts: ET.ElementTree) -> None:
    """Fails for any string in the GUI code without a finished zh_CN translation."""
    missing = []
    for context, message in _messages(fresh_ts):
        translation = message.find("translation")
        kind = translation.get("type", "")
        if kind in ("vanished", "obsolete"):
            continue
        texts = _translations(message)
        if kind == "unfinished" or not all(t.strip() for t in texts):
            missing.append(f"{context}: {message.findtext('source')!r}")
    assert not missing, (
        f"{len(missing)} string(s) lack a zh_CN translation; run packaging/update_translations.sh"
        " and translate them in resources/translations/desktop_dedup_zh_CN.ts:\n"
        + "\n".join(missing)
    )


def test_contexts_are_class_names(fresh_ts: ET.ElementTree) -> None:
    """A dotted context is a pyside6-lupdate misparse (e.g. `self.tr` on the line after a
    `QCoreApplication.translate` call): Qt looks the string up under the class name at run
    time, so it would never be translated. Move the call or use a different form."""
    bad = sorted({ctx for ctx, _ in _messages(fresh_ts) if ctx and not ctx.isidentifier()})
    assert not bad, f"strings filed under contexts Qt will never ask for: {bad}"


_PLACEHOLDER = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*(?:[:!][^{}]*)?\}|%n|%\d|&&")


def test_translations_keep_placeholders(fresh_ts: ET.ElementTree) -> None:
    """A translation that drops or renames a `{name}` would show raw braces or raise KeyError
    in `.format()`; `%n`/`%1` likewise. Compare the multisets."""
    wrong = []
    for context, message in _messages(fresh_ts):
        source = message.findtext("source") or ""
        expected = sorted(_PLACEHOLDER.findall(source))
        for text in _translations(message):
            if text and sorted(_PLACEHOLDER.findall(text)) != expected:
                wrong.append(f"{context}: {source!r} -> {text!r}")
    assert not wrong, "placeholders differ:\n" + "\n".join(wrong)


def test_accelerators_are_kept(fresh_ts: ET.ElementTree) -> None:
    """Menu/button mnemonics (&File) stay usable: a source with one gets one in Chinese too,
    in the usual "文件(&F)" form."""
    missing = []
    for context, message in _messages(fresh_ts):
        source = (message.findtext("source") or "").replace("&&", "")
        if re.search(r"&\w", source):
            for text in _translations(message):
                if text and not re.search(r"&\w", text.replace("&&", "")):
                    missing.append(f"{context}: {source!r} -> {text!r}")
    assert not missing, "accelerator lost:\n" + "\n".join(missing)


def test_module_level_helpers_translate_through_the_empty_context(
    qapp, settings_dir: Path, tmp_path: Path, monkeypatch
) -> None:
    """lupdate files `tr = self.tr; tr("...")` and module helpers under the empty context;
    the installed translator must still find them when Qt asks with the class's context."""
    ts = tmp_path / "t.ts"
    ts.write_text(
        '<?xml version="1.0" encoding="utf-8"?><!DOCTYPE TS><TS version="2.1" language="zh_CN">'
        "<context><name></name><message><source>Scan</source><translation>扫描</translation>"
        "</message></context><context><name>Panel</name><message><source>Scan</source>"
        "<translation>开始扫描</translation></message></context></TS>",
        encoding="utf-8",
    )
    qm = tmp_path / "t.qm"
    subprocess.run([_tool("pyside6-lrelease"), "-silent", str(ts), "-qm", str(qm)], check=True)
    monkeypatch.setattr(i18n, "translation_file", lambda code: str(qm))
    assert i18n.install_translator(qapp, "zh_CN") == "zh_CN"
    assert QCoreApplication.translate("MainWindow", "Scan") == "扫描"  # fallback
    assert QCoreApplication.translate("Panel", "Scan") == "开始扫描"  # exact context wins
    assert QCoreApplication.translate("MainWindow", "Unknown") == "Unknown"  # miss stays English


def test_every_core_reason_and_action_is_translated(
    qapp, settings_dir: Path, compiled_qm: Path
) -> None:
    """Issue 9: the journal's actions and every problem reason stayed English in Chinese."""
    from desktop_dedup.core import actions, restore
    from desktop_dedup.gui.reasons import action_label, translate_reason

    reasons = [v for m in (actions, restore) for k, v in vars(m).items() if k.startswith("REASON_")]
    assert len(reasons) > 10
    assert i18n.install_translator(qapp, "zh_CN") == "zh_CN"
    han = re.compile("[\u4e00-\u9fff]")
    for reason in reasons:
        shown = translate_reason(reason)
        assert shown != reason and han.search(shown), reason
    for action in ("trash", "move", "hardlink", "restore"):
        assert han.search(action_label(action)), action
    # What a reader's budget says of a file (core/workers.py, core/pipeline.py, the walk's size
    # limit): these stayed English in the Chinese interface until the thirty-second session.
    from desktop_dedup.core.workers import CRASHED, Budget

    budget = Budget()
    budget_reasons = {
        budget.time_reason(): "30 s",
        budget.time_reason(3_000): "3,000",
        "needs more than 512 MB to read; skipped": "512 MB",
        "out of memory while reading this file; skipped": "",
        CRASHED: "",
        "larger than the 2 GB limit (2.5 GB); skipped": "2.5 GB",
    }
    for reason, kept in budget_reasons.items():
        shown = translate_reason(reason)
        assert shown != reason and han.search(shown) and kept in shown, reason
    # A reason with a detail: the lead phrase translated, the detail (a library's words) kept.
    shown = translate_reason("corrupt PDF: xref table broken")
    assert han.search(shown) and "PDF" in shown and "xref table broken" in shown
    assert han.search(translate_reason("Word document is password-protected"))
    # what the review says of a file it cannot open (core/service.py, document_text)
    shown = translate_reason("cannot open /home/ann/a: b.txt: Permission denied")
    assert shown == "无法打开 /home/ann/a: b.txt：Permission denied", shown
    assert translate_reason("something new the core says") == "something new the core says"
    i18n.install_translator(qapp, "en")
    assert translate_reason(actions.REASON_MISSING) == actions.REASON_MISSING


def _core_reasons() -> list[str]:
    """Every reason the core's source writes for a file as it is, a literal or an f-string (its
    values filled in with 7): in a call of ExtractionError, Problem, problem_row or over_cap,
    or returned by a function whose name ends in ``reason`` (os_error_reason, time_reason ...)."""
    import ast

    calls = {"ExtractionError", "Problem", "problem_row", "over_cap"}
    out = set()

    def add(node: ast.AST | None) -> None:
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.add(node.value)
        elif isinstance(node, ast.JoinedStr):
            out.add("".join(v.value if isinstance(v, ast.Constant) else "7" for v in node.values))

    for path in sorted((REPO / "desktop_dedup" / "core").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) in calls:
                for arg in node.args:
                    add(arg)
            elif isinstance(node, ast.FunctionDef) and node.name.endswith("reason"):
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Return):
                        add(inner.value)
    # (a reason of words: the CLI's "path: reason" of ``diff`` joins two, and has none)
    return sorted(r for r in out if re.search("[a-z]{2} ", r))


def test_every_reason_the_core_writes_is_shown_in_chinese(
    qapp, settings_dir: Path, compiled_qm: Path
) -> None:
    """README: the reasons a file was skipped or refused are shown in the interface language.
    Twenty of the readers' and the walk's (an encrypted PDF, binary data, a file changed during
    the scan, a type the app cannot read ...) stayed English until the thirty-second session."""
    from desktop_dedup.gui.reasons import translate_reason

    reasons = _core_reasons()
    assert len(reasons) > 40 and "PDF is encrypted" in reasons
    assert i18n.install_translator(qapp, "zh_CN") == "zh_CN"
    han = re.compile("[\u4e00-\u9fff]")
    english = [r for r in reasons if not han.search(translate_reason(r))]
    i18n.install_translator(qapp, "en")
    assert english == []


def test_counted_strings_have_plural_forms(qapp, settings_dir: Path, compiled_qm: Path) -> None:
    """Issue 9: "1 files were removed". Counted strings are written once with %n and "(s)";
    English gets "1 change" / "3 changes", Chinese its one form."""
    from desktop_dedup.gui.diff_view import DiffView
    from desktop_dedup.gui.formatting import plural

    view = DiffView()
    i18n.install_translator(qapp, "en")
    assert plural(view.tr("%n change(s)", "", 1), 1) == "1 change"
    assert plural(view.tr("%n change(s)", "", 3), 3) == "3 changes"
    assert i18n.install_translator(qapp, "zh_CN") == "zh_CN"
    assert plural(view.tr("%n change(s)", "", 3), 3) == "3 处改动"
    view.deleteLater()


def test_html_report_speaks_the_interface_language(tmp_path: Path) -> None:
    import docgen

    from desktop_dedup.core.service import DedupService

    docs = tmp_path / "docs"
    for name in ("a", "b"):
        docgen.write_txt(docs / f"{name}.txt", docgen.SAMPLE_ZH)
    with DedupService(tmp_path / "db.sqlite") as svc:
        svc.scan([docs], workers=1)
        svc.export_report("html", tmp_path / "zh.html", language="zh_CN")
        svc.export_report("html", tmp_path / "en.html")
    zh = (tmp_path / "zh.html").read_text(encoding="utf-8")
    en = (tmp_path / "en.html").read_text(encoding="utf-8")
    assert '<html lang="zh-CN">' in zh and "重复文档报告" in zh and "参考文件" in zh
    assert '<html lang="en">' in en and "Duplicate documents report" in en


def test_sizes_in_chinese_keep_the_one_rule(qapp, settings_dir: Path, compiled_qm: Path) -> None:
    """Issue 8: the app writes sizes by the core's rule (core/units.py) in the interface's
    language: "bytes" is translated as Qt's own Chinese locale data had it ("字节"), the units
    stay KB/MB as Chinese Windows shows them, the digits are the locale's."""
    from desktop_dedup.gui.formatting import format_size

    assert i18n.install_translator(qapp, "zh_CN") == "zh_CN"
    assert format_size(0) == "0 字节"
    assert format_size(1) == "1 字节"
    assert format_size(1023) == "1,023 字节"
    assert format_size(20_000) == "19.5 KB"  # 20,000 / 1,024 = 19.53
    assert format_size(64 * 1024**2) == "64 MB"
    i18n.install_translator(qapp, "en")
    QLocale.setDefault(QLocale("de_DE"))  # a locale's digits, the same units
    try:
        assert format_size(20_000) == "19,5 KB"
        assert format_size(1023) == "1.023 bytes"
    finally:
        i18n.install_translator(qapp, "en")
