"""Interface language: which translation to load, and remembering the user's choice.

The app follows the system locale unless the user picked a language in the menu; the choice
is stored in QSettings and applied at the next start (re-translating every live widget is
not worth its bugs). Translations are Qt Linguist ``.ts`` sources in
``resources/translations/`` compiled to ``.qm`` at build time by
``packaging/build_resources.sh``; Qt's own strings (standard buttons, file dialogs) come
from Qt's ``qtbase_<lang>.qm``.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable

from PySide6.QtCore import (
    QCoreApplication,
    QLibraryInfo,
    QLocale,
    QSettings,
    QTranslator,
)

from desktop_dedup import APP_NAME
from desktop_dedup.resources import resource_path

logger = logging.getLogger(__name__)

SETTINGS_KEY = "ui/language"
SYSTEM = "system"  # stored value meaning "follow the system locale"
SOURCE_LANGUAGE = "en"
TRANSLATION_BASENAME = "desktop_dedup"

# (code, name shown in the language menu, in that language so anyone can find their own).
_LANGUAGES: tuple[tuple[str, str], ...] = (
    ("en", "English"),
    ("zh_CN", "简体中文"),
)


class _ContextFallbackTranslator(QTranslator):
    """A QTranslator that retries a miss under the empty context.

    pyside6-lupdate files strings from module-level helpers (``def tr(text): return
    QCoreApplication.translate("Formatting", text)`` called as ``tr("...")``) under the empty
    context, while at run time they are looked up under the helper's context. The retry makes
    such strings translate instead of silently staying English.
    """

    def translate(
        self, context: str, source: str, disambiguation: str | None = None, n: int = -1
    ) -> str | None:
        found = super().translate(context, source, disambiguation, n)
        if not found and context:
            found = super().translate("", source, disambiguation, n)
        # None (a null QString) tells Qt "not here, ask the next translator"; "" would not.
        return found or None


# Keep translators alive for the life of the application (Qt holds raw pointers only).
_installed: list[QTranslator] = []


def available_languages() -> list[tuple[str, str]]:
    """Languages the interface ships in, as ``(code, native name)`` for a language menu."""
    return list(_LANGUAGES)


def _codes() -> set[str]:
    return {code for code, _ in _LANGUAGES}


def _settings() -> QSettings:
    # Same organisation/application as the rest of the GUI's QSettings when the app set them;
    # a fixed pair otherwise, so a choice made before the QApplication exists is not lost.
    if QCoreApplication.instance() is not None and QCoreApplication.organizationName():
        return QSettings()
    return QSettings(APP_NAME, APP_NAME)


def language_for_locale(ui_languages: Iterable[str]) -> str:
    """Map a locale's preferred UI languages (``QLocale.uiLanguages()``) to a shipped code.

    Any Chinese variant maps to zh_CN (the only Chinese translation; a Traditional reader
    still understands it better than English), otherwise the first exact or language-level
    match wins, and English is the fallback.
    """
    for tag in ui_languages:
        norm = tag.replace("-", "_")
        lang = norm.split("_")[0].lower()
        if lang == "zh":
            return "zh_CN"
        if norm in _codes():
            return norm
        if lang in _codes():
            return lang
    return SOURCE_LANGUAGE


def system_language() -> str:
    """The shipped language that best fits the system locale."""
    return language_for_locale(QLocale.system().uiLanguages())


def stored_language() -> str:
    """The user's menu choice: a language code, or :data:`SYSTEM`."""
    value = _settings().value(SETTINGS_KEY, SYSTEM)
    value = str(value) if value else SYSTEM
    return value if value in _codes() else SYSTEM


def current_language() -> str:
    """The language the interface uses (or will use at the next start)."""
    stored = stored_language()
    return system_language() if stored == SYSTEM else stored


def set_language(code: str) -> None:
    """Remember ``code`` (or :data:`SYSTEM`) for the next start.

    Raises ValueError for a code we do not ship, so a typo in the menu wiring fails in tests.
    """
    if code != SYSTEM and code not in _codes():
        raise ValueError(f"unsupported language {code!r}; choose from {sorted(_codes())}")
    settings = _settings()
    settings.setValue(SETTINGS_KEY, code)
    settings.sync()
    logger.info("interface language set to %s (applies on restart)", code)


def translation_file(code: str) -> str:
    """Path of the compiled ``.qm`` for ``code`` (it exists only after the resource build)."""
    return str(resource_path(f"translations/{TRANSLATION_BASENAME}_{code}.qm"))


def _remove_installed(app: QCoreApplication) -> None:
    while _installed:
        app.removeTranslator(_installed.pop())


def install_translator(app: QCoreApplication, language: str | None = None) -> str:
    """Load the translations for ``language`` (default: :func:`current_language`) into ``app``.

    Returns the language actually in effect: the source language when the code is English
    or its ``.qm`` is missing (logged, so a broken build shows up in the log file). Calling
    it again replaces the previously installed translators.
    """
    if not app.organizationName():
        app.setOrganizationName(APP_NAME)
    code = language or current_language()
    if code == SYSTEM:
        code = system_language()
    _remove_installed(app)
    if code == SOURCE_LANGUAGE or code not in _codes():
        QLocale.setDefault(QLocale.system())  # undo a previous call's language formatting
        return SOURCE_LANGUAGE

    ours = _ContextFallbackTranslator(app)
    qm = translation_file(code)
    if not ours.load(qm):
        logger.warning("translation %s not found or unreadable; using English", qm)
        QLocale.setDefault(QLocale.system())
        return SOURCE_LANGUAGE
    app.installTranslator(ours)
    _installed.append(ours)

    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    qt_translator = QTranslator(app)
    if qt_translator.load(f"qtbase_{code}", qt_dir):
        app.installTranslator(qt_translator)
        _installed.append(qt_translator)
    else:
        logger.info("Qt's own qtbase_%s.qm not found in %s", code, qt_dir)

    # Numbers, dates and sizes formatted by Qt follow the interface language.
    QLocale.setDefault(QLocale(code))
    logger.info("interface language %s (%s)", code, qm)
    return code
