"""Benchmark: OCR seconds per page, beside the text-layer reader of the same page, same run.

Why: OCR of scanned PDFs (issue 10, item 5) is off by default because it costs seconds a page;
the README states the figure. For the Chinese and the English sample, one A4 page is made twice:
as a PDF with a text layer (tests/docgen.py, reportlab) and as a scanned PDF of the same text
(tests/scangen.py, a 300 DPI image only, in Noto Sans CJK). A third row is the Chinese text PDF
itself rendered to a 300 DPI image and wrapped back into an image-only PDF: the same page in the
thin Song (serif) face PDFium draws for reportlab's STSong-Light, which OCR reads worse. Each is
read by ``extract_text``: the text PDF by its text layer, the scanned one by Tesseract
(uncached), then from the OCR cache. Figures are medians of 3 runs, wall time on the shared
2-core machine; the similarity is the app's share of common text between the OCR text and the
page's real text (1.0: the same words).

No target: the figures are for the README. Run: ``.venv/bin/python -m tests.bench.bench_ocr``
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/docgen.py, scangen.py

import docgen  # noqa: E402
import scangen  # noqa: E402

from desktop_dedup.core import ocr  # noqa: E402
from desktop_dedup.core.extract import extract_text  # noqa: E402
from desktop_dedup.core.service import text_similarity  # noqa: E402

RUNS = 3


def median_seconds(fn, runs: int = RUNS) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def rendered_scan(typed: Path, target: Path) -> Path:
    """``typed`` (one page) drawn to a 300 DPI image by PDFium, in an image-only PDF."""
    import pypdfium2 as pdfium
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.utils import ImageReader
    from reportlab.pdfgen import canvas

    document = pdfium.PdfDocument(str(typed))
    image = document[0].render(scale=300 / 72, grayscale=True).to_pil()
    document.close()
    pdf = canvas.Canvas(str(target), pagesize=A4)
    pdf.drawImage(ImageReader(image), 0, 0, *A4)
    pdf.showPage()
    pdf.save()
    return target


def main() -> int:
    engine = ocr.find_engine()
    if engine is None:
        print("Tesseract with chi_sim/eng is not installed: nothing to measure")
        return 1
    print(f"{ocr.status(engine)}, {ocr.DPI} DPI, load average {os.getloadavg()[0]:.1f}")
    print(f"{'page':>8} {'text layer':>12} {'OCR':>9} {'OCR cached':>11} {'similarity':>11}")
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        rows = (("zh", docgen.SAMPLE_ZH), ("en", docgen.SAMPLE_EN), ("zh-song", docgen.SAMPLE_ZH))
        for lang, text in rows:
            typed = docgen.write_pdf(folder / f"{lang}-typed.pdf", text)
            if lang == "zh-song":
                scanned = rendered_scan(typed, folder / f"{lang}-scan.pdf")
            else:
                scanned = scangen.write_scanned_pdf(folder / f"{lang}-scan.pdf", text)
            text_layer = median_seconds(lambda p=typed: extract_text(p))
            uncached = ocr.OcrOptions(enabled=True, engine=engine, cache_dir=None)
            with ocr.using(uncached):
                read = median_seconds(lambda p=scanned: extract_text(p))
                ocr_text = extract_text(scanned).text
            cached = ocr.OcrOptions(enabled=True, engine=engine, cache_dir=str(folder / "c"))
            with ocr.using(cached):
                extract_text(scanned)  # fills the cache
                from_cache = median_seconds(lambda p=scanned: extract_text(p))
            similarity = text_similarity(ocr_text, text)
            print(
                f"{lang:>8} {text_layer * 1000:>9.1f} ms {read:>7.2f} s "
                f"{from_cache * 1000:>8.1f} ms {similarity:>11.2f}"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
