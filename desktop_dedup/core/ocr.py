"""Optional OCR of PDF pages that have no text layer, with the Tesseract program.

Off by default (the ``ocr`` setting, ``scan --ocr``): OCR costs seconds per page. When it is on
and Tesseract is installed with ``chi_sim`` and/or ``eng``, ``core/extract/pdf.py`` renders each
page without text (but with an image) and this module reads it:

* **Tesseract through ``subprocess``**, not pytesseract: the page goes in on stdin as a PGM
  image and the text comes back on stdout, so there are no temporary files and no dependency on
  Pillow; the program is started with ``OMP_THREAD_LIMIT=1`` (each scan worker is one core's
  worth, and Tesseract's OpenMP threads would fight the other workers) and, on Linux, dies with
  the worker that started it, so Cancel and Ctrl-C (which kill workers) stop it too.
* **Languages**: ``chi_sim`` first (it reads Chinese and the Latin words among it); a page that
  comes back with (almost) no Chinese is read again with ``eng``, which keeps the spaces
  between English words that ``chi_sim`` drops. (``chi_sim+eng`` in one pass turned whole
  Chinese paragraphs into Latin garbage on the test pages.)
* **Cache**: each page's text is kept under the user data folder, keyed by the PDF's xxh3-128
  content hash (the scan's content hash), the page number and what shapes the result (DPI,
  languages): a second scan, a copy of the file elsewhere, or the diff view reads it back
  instead of running Tesseract, and a scan cancelled halfway keeps the pages it finished.
* **Progress and time**: before each page it runs, the worker reports "page k of n" to the scan
  engine (``configure``'s ``report``), which shows it and gives that page its own time budget.

The worker processes get :class:`OcrOptions` from the scan (the engine found by the scanning
process, the cache folder); nothing here reads settings.
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from desktop_dedup.core.errors import ExtractionError

log = logging.getLogger(__name__)

#: The Tesseract languages used, in the order tried (see the module doc).
LANGUAGES: tuple[str, ...] = ("chi_sim", "eng")
#: Rendering resolution: Tesseract's documentation asks for at least 300 DPI.
DPI = 300
#: A page is rendered at most this many pixels (a poster-sized page gets a lower DPI): 40 MP of
#: grey is 40 MB, well inside a reader's memory budget.
MAX_PIXELS = 40_000_000
#: A Tesseract program to use instead of the one on PATH.
ENV_TESSERACT = "DESKTOP_DEDUP_TESSERACT"
#: Windows: no console window flashes up for each run of the program from the GUI.
_NO_WINDOW = getattr(subprocess, "CREATE_NO_WINDOW", 0)
#: Bumped when what a cached page holds changes meaning.
CACHE_VERSION = 1
#: The folder under the user data folder that holds the cache.
CACHE_FOLDER = "ocr-cache"

NO_TEXT_LAYER = "scanned, no text layer"
#: Problem reasons for a PDF without a text layer when OCR did not read it (gui/reasons.py
#: translates each).
REASON_OCR_OFF = (
    "scanned, no text layer; OCR can read it: turn OCR on in the settings (or scan --ocr)"
)
REASON_OCR_OFF_NOT_INSTALLED = (
    "scanned, no text layer; OCR could read it: install Tesseract (with chi_sim and eng) and "
    "turn OCR on in the settings (or scan --ocr)"
)
REASON_OCR_NOT_INSTALLED = (
    "scanned, no text layer; OCR is on but Tesseract (with chi_sim or eng) was not found"
)


@dataclass(frozen=True)
class Engine:
    """A Tesseract program and the languages of :data:`LANGUAGES` it has."""

    path: str
    version: str
    languages: tuple[str, ...]


@dataclass(frozen=True)
class OcrOptions:
    """What a scan's readers need to OCR (picklable: it goes to the worker processes)."""

    enabled: bool = False
    engine: Engine | None = None
    cache_dir: str | None = None
    #: Tesseract is stopped after this long on one page (the scan engine's per-page budget is
    #: the first limit; this one also bounds OCR run outside a scan, e.g. for the diff view).
    page_seconds: float = 60.0
    #: Read pages from the cache only, never run Tesseract (the diff view when OCR is off: the
    #: index may hold a document read with OCR before it was turned off).
    cache_only: bool = False

    @property
    def active(self) -> bool:
        return self.enabled and self.engine is not None


Report = Callable[[int, int], None]

_options = OcrOptions()
_report: Report | None = None


def configure(options: OcrOptions, report: Report | None = None) -> None:
    """Set this process's OCR options (a scan worker calls it once, before its first file);
    ``report(k, n)`` is called before page k of the n pages of a file that need OCR."""
    global _options, _report
    _options, _report = options, report


def current() -> OcrOptions:
    return _options


@contextlib.contextmanager
def using(options: OcrOptions) -> Iterator[None]:
    """Use ``options`` for the extraction run inside the block (outside a scan)."""
    global _options, _report
    saved = _options, _report
    _options, _report = options, None
    try:
        yield
    finally:
        _options, _report = saved


# --- finding Tesseract -------------------------------------------------------------------------


def _candidates() -> list[str]:
    override = os.environ.get(ENV_TESSERACT, "").strip()
    if override:
        return [override]
    found = shutil.which("tesseract")
    out = [found] if found else []
    if sys.platform == "win32":  # the UB Mannheim installer does not add itself to PATH
        for base in (os.environ.get("ProgramFiles"), os.environ.get("LOCALAPPDATA")):
            if base:
                out.append(os.path.join(base, "Tesseract-OCR", "tesseract.exe"))
    return out


#: How long a look for Tesseract is trusted (the diff view asks for every pair it shows).
_FOUND_SECONDS = 30.0
_found: dict[tuple[str, ...], tuple[float, Engine | None]] = {}


def find_engine() -> Engine | None:
    """The Tesseract program to use (``$DESKTOP_DEDUP_TESSERACT``, else ``tesseract`` on PATH)
    when it runs and has ``chi_sim`` or ``eng``; None otherwise. Costs two short runs of it
    (the answer is kept for half a minute)."""
    candidates = tuple(_candidates())
    now = time.monotonic()
    seen = _found.get(candidates)
    if seen is not None and now - seen[0] < _FOUND_SECONDS:
        return seen[1]
    engine = _find_engine(candidates)
    _found[candidates] = (now, engine)
    return engine


def _find_engine(candidates: tuple[str, ...]) -> Engine | None:
    for path in candidates:
        if not os.path.isfile(path):
            continue
        try:
            langs = subprocess.run(
                [path, "--list-langs"],
                capture_output=True,
                timeout=10,
                check=False,
                creationflags=_NO_WINDOW,
            )
            version = subprocess.run(
                [path, "--version"],
                capture_output=True,
                timeout=10,
                check=False,
                creationflags=_NO_WINDOW,
            )
        except (OSError, subprocess.SubprocessError) as exc:
            log.info("cannot run %s: %s", path, exc)
            continue
        # Tesseract 3 printed the list on stderr.
        listed = (langs.stdout + langs.stderr).decode("utf-8", "replace").split()
        have = tuple(lang for lang in LANGUAGES if lang in listed)
        if langs.returncode != 0 or not have:
            log.info("%s has none of the languages %s", path, ", ".join(LANGUAGES))
            continue
        first = (version.stdout + version.stderr).decode("utf-8", "replace").strip()
        return Engine(path, first.splitlines()[0] if first else "tesseract", have)
    return None


def no_text_layer_reason(options: OcrOptions | None = None) -> str:
    """Why a PDF without a text layer was not read, with what would read it."""
    options = _options if options is None else options
    if options.enabled:
        return REASON_OCR_NOT_INSTALLED
    return REASON_OCR_OFF if find_engine() is not None else REASON_OCR_OFF_NOT_INSTALLED


def status(engine: Engine | None) -> str:
    """One line for the settings and the CLI: what OCR would use, or what is missing."""
    if engine is None:
        return (
            "Tesseract OCR is not installed (Debian/Ubuntu: apt install tesseract-ocr "
            "tesseract-ocr-chi-sim tesseract-ocr-eng)"
        )
    missing = [lang for lang in LANGUAGES if lang not in engine.languages]
    line = f"{engine.version} with {', '.join(engine.languages)}"
    if missing:
        line += f" (no {', '.join(missing)} language data)"
    return line


# --- reading pages ----------------------------------------------------------------------------


#: A rendered page: 8-bit grey pixels row by row (``stride`` bytes a row), width, height.
@dataclass(frozen=True)
class GreyImage:
    pixels: bytes
    width: int
    height: int
    stride: int
    dpi: int

    def pgm(self) -> bytes:
        """The image as a binary PGM (Tesseract's image library reads it from stdin)."""
        header = b"P5\n%d %d\n255\n" % (self.width, self.height)
        if self.stride == self.width:
            return header + self.pixels
        rows = (
            self.pixels[y * self.stride : y * self.stride + self.width] for y in range(self.height)
        )
        return header + b"".join(rows)


def render_scale(width_pt: float, height_pt: float) -> float:
    """The scale (pixels per point) a page of this size is rendered at: :data:`DPI`, lowered
    so that the page stays within :data:`MAX_PIXELS`."""
    scale = DPI / 72
    area = max(width_pt, 1.0) * max(height_pt, 1.0)
    if area * scale * scale > MAX_PIXELS:
        scale = (MAX_PIXELS / area) ** 0.5
    return scale


def _die_with_parent() -> None:  # pragma: no cover - runs in the child, before exec
    try:
        import ctypes

        ctypes.CDLL(None).prctl(1, 9)  # PR_SET_PDEATHSIG, SIGKILL
    except Exception:
        pass


_HAN = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")


def _tesseract(engine: Engine, image: GreyImage, lang: str, seconds: float, page: int) -> str:
    cmd = [engine.path, "stdin", "stdout", "-l", lang, "--dpi", str(image.dpi)]
    env = {**os.environ, "OMP_THREAD_LIMIT": "1"}
    try:
        proc = subprocess.run(
            cmd,
            input=image.pgm(),
            capture_output=True,
            env=env,
            timeout=seconds,
            check=False,
            preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
            creationflags=_NO_WINDOW,
        )
    except subprocess.TimeoutExpired as exc:
        raise ExtractionError(
            f"OCR took longer than {seconds:g} s on page {page + 1}; skipped"
        ) from exc
    except OSError as exc:
        raise ExtractionError(f"OCR failed: cannot run {engine.path}: {exc.strerror}") from exc
    if proc.returncode != 0:
        detail = proc.stderr.decode("utf-8", "replace").strip().splitlines()
        raise ExtractionError(
            f"OCR failed on page {page + 1}: {detail[-1] if detail else proc.returncode}"
        )
    return proc.stdout.decode("utf-8", "replace").replace("\f", "").strip()


def ocr_image(engine: Engine, image: GreyImage, seconds: float = 60.0, page: int = 0) -> str:
    """The text Tesseract reads on one page (see the module doc for the languages)."""
    langs = engine.languages
    text = _tesseract(engine, image, langs[0], seconds, page)
    if len(langs) > 1 and langs[0] == "chi_sim":
        han = len(_HAN.findall(text))
        latin = len(_LATIN.findall(text))
        if latin and han < 0.05 * (han + latin):  # an English page: eng keeps its spaces
            text = _tesseract(engine, image, "eng", seconds, page)
    return text


def _cache_tag(engine: Engine) -> str:
    return f"v{CACHE_VERSION}-{DPI}dpi-{'+'.join(engine.languages)}"


def _cache_path(options: OcrOptions, content_hash: str, page: int) -> str | None:
    if not options.cache_dir or options.engine is None:
        return None
    return os.path.join(
        options.cache_dir,
        content_hash[:2],
        content_hash,
        f"{page}.{_cache_tag(options.engine)}.txt",
    )


def _read_cache(path: str | None) -> str | None:
    if path is None:
        return None
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        log.warning("ignoring unreadable OCR cache entry %s: %s", path, exc)
        return None


def _write_cache(path: str | None, text: str) -> None:
    if path is None:
        return
    try:
        folder = os.path.dirname(path)
        os.makedirs(folder, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                f.write(text)
            os.replace(tmp, path)  # whole or not at all, also when the worker is killed
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
    except OSError as exc:  # a full or read-only disk costs the cache, not the scan
        log.warning("cannot write the OCR cache %s: %s", path, exc)


def read_pages(
    path: str | os.PathLike[str],
    pages: list[int],
    render: Callable[[int], GreyImage],
    options: OcrOptions | None = None,
) -> dict[int, str]:
    """The OCR text of ``pages`` (0-based) of the PDF at ``path``: from the cache, else
    ``render(page)`` read by Tesseract and cached. Reports each page it runs (``configure``)."""
    options = _options if options is None else options
    engine = options.engine
    if not options.enabled or engine is None:
        raise ExtractionError(no_text_layer_reason(options))
    from desktop_dedup.core.actions import content_hash_file  # the scan's own content hash

    content_hash = content_hash_file(path)
    out: dict[int, str] = {}
    for k, page in enumerate(pages, start=1):
        cache = _cache_path(options, content_hash, page)
        text = _read_cache(cache)
        if text is None:
            if options.cache_only:
                raise ExtractionError(REASON_OCR_OFF)
            if _report is not None:
                _report(k, len(pages))
            text = ocr_image(engine, render(page), options.page_seconds, page)
            _write_cache(cache, text)
        out[page] = text
    return out


def cache_dir() -> str:
    """The OCR cache folder of this user (created when first written)."""
    from desktop_dedup.paths import data_dir

    return str(data_dir() / CACHE_FOLDER)
