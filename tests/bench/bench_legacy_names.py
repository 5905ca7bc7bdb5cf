"""Benchmark: file names that are not UTF-8, shown as read in their East Asian code page
(extract.plaintext.decode_name, pathrules.shown) or left as escapes.

Why: a zip made on a Chinese, Japanese or Korean Windows holds its names in GBK, Big5, Shift_JIS
or CP949, and unpacked on Linux they are bytes no UTF-8 reader shows; the copies a duplicate
finder is for often sit beside the same files unpacked right. Shown as escapes (``\\xd7\\xca``)
no one can read them; shown in the wrong code page they would mislead. A name of a few
characters says little about its encoding, so the rule is strict, and this measures both sides:

* names in the East Asian code pages, read right, left as escapes, read wrong;
* names in the one-byte code pages of other scripts (Cyrillic, Greek, Hebrew, Arabic, Thai,
  Latin), whose bytes often pair up as Chinese characters, and Korean names in CP949, which the
  rule does not guess: read as East Asian (wrong), or left as escapes (right).

The names: every quoted string of glibc's locale files (``/usr/share/i18n/locales``: month and
day names, countries, languages, units) in each language's code page; the headings of the
Chinese, Japanese, Korean and Russian read-mes of ``pypi_readmes`` (the words people give
sections, and files, in their language: 安装, 快速开始, インストール) in GBK, Shift_JIS, CP949
and Windows-1251; and the titles and poets of the Tang poems (``classical_poems``, from the
npm registry: Traditional characters in Big5, the same folded to Simplified in GBK). The
baseline, same run: each name's bytes read as a short text file is (extract.plaintext's rule
for legacy text), taken when it gives no replacement character.

Also the window's thread: the longest stall while the app's window opens on an index whose
files are named in GBK, the names' reader loaded off the window's thread (as it is) and on it
(the baseline, same run), and on the same files named in UTF-8.

Run: ``.venv/bin/python -m tests.bench.bench_legacy_names``
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

from desktop_dedup.core.errors import ExtractionError
from desktop_dedup.core.extract import plaintext
from desktop_dedup.core.text import fold_script

LOCALES = Path("/usr/share/i18n/locales")
EAST_ASIAN = {
    "zh_CN": ("gbk",),
    "zh_SG": ("gbk",),
    "zh_TW": ("big5",),
    "zh_HK": ("big5hkscs",),
    "ja_JP": ("cp932",),
}
# Every East Asian reading of these is wrong: one-byte code pages, and Korean, which the rule
# does not guess (Chinese names' bytes read as Hangul syllables as often as Korean ones do).
NOT_GUESSED = {
    "ko_KR": ("cp949",),
    "ru_RU": ("cp1251", "koi8_r"),
    "uk_UA": ("cp1251",),
    "bg_BG": ("cp1251",),
    "el_GR": ("cp1253",),
    "pl_PL": ("cp1250",),
    "cs_CZ": ("cp1250",),
    "hu_HU": ("cp1250",),
    "de_DE": ("cp1252",),
    "fr_FR": ("cp1252",),
    "es_ES": ("cp1252",),
    "pt_BR": ("cp1252",),
    "tr_TR": ("cp1254",),
    "he_IL": ("cp1255",),
    "ar_SA": ("cp1256",),
    "th_TH": ("cp874",),
    "vi_VN": ("cp1258",),
}
_CODE = re.compile(r"<U([0-9A-Fa-f]{4,8})>")
_QUOTED = re.compile(r'"((?:<U[0-9A-Fa-f]{4,8}>|[^"<%])+)"')


def locale_strings(name: str) -> list[str]:
    """Every quoted string of a glibc locale file, its <Uxxxx> codes as characters."""
    path = LOCALES / name
    if not path.exists():
        return []
    found = set()
    for line in path.read_text("utf-8", errors="replace").splitlines():
        for quoted in _QUOTED.findall(line):
            text = _CODE.sub(lambda m: chr(int(m.group(1), 16)), quoted).strip()
            if len(text) >= 2 and text.isprintable() and "/" not in text:
                found.add(text)
    return sorted(found)


_MD_HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$")
_RST_RULE = re.compile(r"^([=\-~^\"'`#*+])\1{2,}\s*$")
_MARKUP = re.compile(r"[*_`\[\]()<>|:!]+|https?://\S+")


def readme_headings(texts: Iterable[str], max_chars: int = 40) -> list[str]:
    """The headings of read-mes (Markdown's ``#`` lines, reStructuredText's underlined ones),
    markup and addresses removed, of at most ``max_chars`` characters with one outside ASCII
    at least: the words people give sections, and files, in their language."""
    found = set()
    for text in texts:
        lines = text.splitlines()
        for i, line in enumerate(lines):
            heading = None
            match = _MD_HEADING.match(line)
            if match:
                heading = match.group(1)
            elif i + 1 < len(lines) and line.strip() and _RST_RULE.match(lines[i + 1]):
                heading = line
            if heading is None:
                continue
            heading = " ".join(_MARKUP.sub(" ", heading).split())
            if 2 <= len(heading) <= max_chars and not heading.isascii() and "/" not in heading:
                if heading.isprintable():
                    found.add(heading)
    return sorted(found)


def _new_rule(raw: bytes) -> str | None:
    named = plaintext.decode_name(raw)
    return None if named is None else named[0]


def _as_a_text_file(raw: bytes) -> str | None:
    try:
        text = plaintext._decode_legacy(raw)
    except ExtractionError:
        return None
    return None if "\ufffd" in text or not text.isprintable() else text


RULES: dict[str, Callable[[bytes], str | None]] = {
    "this rule": _new_rule,
    "as a text file": _as_a_text_file,
}


def score(names: Iterable[str], codec: str) -> dict[str, Counter[str]]:
    """For each rule: how many names it read right, left as escapes, read wrong."""
    out = {rule: Counter() for rule in RULES}
    for name in names:
        try:
            raw = name.encode(codec)
        except UnicodeEncodeError:
            continue
        if raw.isascii():
            continue
        for rule, read in RULES.items():
            got = read(raw)
            out[rule]["escaped" if got is None else "right" if got == name else "wrong"] += 1
    return out


def _line(what: str, counts: dict[str, Counter[str]]) -> str:
    parts = []
    for rule, c in counts.items():
        n = sum(c.values())
        parts.append(f"{rule}: {c['right']}/{c['escaped']}/{c['wrong']} of {n}")
    return f"    {what:<34} " + "; ".join(parts)


def _add(total: dict[str, Counter[str]], counts: dict[str, Counter[str]]) -> None:
    for rule, c in counts.items():
        total[rule].update(c)


def _score_locales(locales: dict[str, tuple[str, ...]], total: dict[str, Counter[str]]) -> None:
    for loc, codecs in locales.items():
        for codec in codecs:
            counts = score(locale_strings(loc), codec)
            _add(total, counts)
            print(_line(f"{loc} in {codec}", counts))


WINDOW_CHILD = """
import os, sys, time
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication
app = QApplication([])
from tests.bench.bench_gui import Heartbeat, run_events_until
from desktop_dedup.core import pathrules
from desktop_dedup.core.service import DedupService
from desktop_dedup.gui.main_window import MainWindow
if sys.argv[3] == "on the window's thread":  # the reader loaded where the name is shown
    pathrules.read_names_off_thread = lambda on_ready: None
beat = Heartbeat()
beat.start()
window = MainWindow(
    DedupService(sys.argv[1]), settings=QSettings(sys.argv[2], QSettings.Format.IniFormat)
)
window.show()
run_events_until(lambda: not window.ops.busy)
end = time.monotonic() + 1.0
run_events_until(lambda: time.monotonic() > end)
print(round(beat.stop(), 1))
"""


def window_stalls(tmp: Path, runs: int = 3) -> None:
    """The longest stall of the window's thread while it opens (each time in a new process, as
    an app starts), on an index whose files are named in GBK, with the names' reader loaded on
    a thread of its own (as it is) and on the window's thread (the baseline), and on the same
    files named in UTF-8."""
    import os
    import shutil
    import statistics
    import subprocess
    import sys

    from desktop_dedup.core.service import DedupService

    text = "江南的春天总是来得悄无声息。" * 40
    repo = Path(__file__).resolve().parents[2]
    indexes = {}
    for kind in ("GBK", "UTF-8"):
        root = tmp / kind
        shutil.rmtree(root, ignore_errors=True)
        for folder in ("资料备份", "旧文件"):
            for name in ("会议纪要.txt", "年度总结.txt", "简历.txt"):
                where = os.path.join(os.fsencode(root), folder.encode(), b"copy")
                encoded = name.encode("gbk" if kind == "GBK" else "utf-8")
                os.makedirs(where, exist_ok=True)
                with open(os.path.join(where, encoded), "w", encoding="utf-8") as f:
                    f.write(text + name)
        service = DedupService(tmp / f"{kind}.sqlite3")
        service.scan([root], workers=1)
        service.close()
        indexes[kind] = tmp / f"{kind}.sqlite3"
    env = dict(os.environ, PYTHONPATH=str(repo), QT_QPA_PLATFORM="offscreen")
    print(f"  the window opening, longest stall of its thread (ms; medians of {runs} processes):")
    for kind, how in (
        ("GBK", "off the window's thread"),
        ("GBK", "on the window's thread"),
        ("UTF-8", "off the window's thread"),
    ):
        stalls = []
        for _ in range(runs):
            args = [str(indexes[kind]), str(tmp / "window.ini"), how]
            proc = subprocess.run(
                [sys.executable, "-c", WINDOW_CHILD, *args],
                capture_output=True,
                text=True,
                env=env,
                timeout=300,
            )
            stalls.append(float(proc.stdout.split()[-1]))
        shown = ", ".join(f"{x:.0f}" for x in stalls)
        print(f"    names in {kind}, reader {how}: {statistics.median(stalls):.0f} ({shown})")


def main() -> int:
    print("  right / escaped / wrong; the baseline reads each name as a short text file")
    east = {rule: Counter() for rule in RULES}
    other = {rule: Counter() for rule in RULES}
    if not LOCALES.exists():
        print(f"  {LOCALES} not on this machine (Debian's package locales): locales skipped")
    else:
        print("  East Asian code pages, glibc's locale strings:")
        _score_locales(EAST_ASIAN, east)
        print("  Korean and one-byte code pages (every East Asian reading is wrong):")
        _score_locales(NOT_GUESSED, other)
    from tests.bench import classical_poems, pypi_readmes

    for what, packages, codec, into in (
        ("Chinese", pypi_readmes.PACKAGES, "gbk", east),
        ("Japanese", pypi_readmes.JAPANESE, "cp932", east),
        ("Korean", pypi_readmes.KOREAN, "cp949", other),
        ("Russian", pypi_readmes.RUSSIAN, "cp1251", other),
    ):
        headings = readme_headings(pypi_readmes.readmes(packages).values())
        if headings:
            counts = score(headings, codec)
            _add(into, counts)
            print(_line(f"{what} read-mes' headings in {codec}", counts))

    poems = classical_poems.tang_poems()
    if poems:
        titles = sorted({t for t, _, _ in poems if t} | {a for _, a, _ in poems if a})
        print(f"  Tang poems' titles and poets ({len(titles):,} distinct):")
        big5 = score(titles, "big5")
        print(_line("Traditional, in Big5", big5))
        simplified = sorted({fold_script(t, True) for t in titles})
        gbk = score(simplified, "gbk")
        print(_line("Simplified, in GBK", gbk))
        _add(east, big5)
        _add(east, gbk)
    print(_line("all East Asian names", east))
    print(_line("all Korean names and other scripts", other))
    import tempfile

    with tempfile.TemporaryDirectory() as tmp:
        window_stalls(Path(tmp))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
