"""Benchmark: reading office documents full of pictures, beside inflating every member
first (what a scan did before the thirty-second session).

Why: every member of a zip container (DOCX, PPTX, XLSX, ODF) was inflated once before its text
was read, to count the bytes that really come out (a zip bomb's headers can lie), pictures and
video included, though no reader opens them; and the pictures counted toward the 512 MiB cap,
so a presentation with a long video was refused. Now such parts (``_common.UNREAD_PARTS``) are
left alone unless a reader opens one. The files are the real documents of tests/data/formats
(LibreOffice-made, a few KB of text), each with PICTURE_MB of photographs added as Word and
LibreOffice store them: JPEG (made here by Pillow from a smooth gradient with noise, about
1 MB each), deflated into the archive. Medians of RUNS passes, in this process, the files in
the page cache.

Target: a document's pictures cost at most MAX_RATIO times what the same document without them
costs to read. Returns the formats that miss it. The baseline is what the zip check did before
(inflating every member); an XLSX or ODS also went to python-calamine as the open file, which
reads all of it into memory (about 2.5 ms a MB more here, and a workbook with 100 MB of pictures
was past a reader's memory); now by its name when that says its format.
Run: ``.venv/bin/python -m tests.bench.bench_pictures``
"""

from __future__ import annotations

import io
import os
import random
import tempfile
import zipfile
from pathlib import Path

from desktop_dedup.core.extract import extract_text
from tests.bench.bench_diff import median_seconds

DATA = Path(__file__).resolve().parents[1] / "data" / "formats"
PICTURES = {
    "docx": "word/media/image{}.jpeg",
    "pptx": "ppt/media/image{}.jpeg",
    "xlsx": "xl/media/image{}.jpeg",
    "odt": "Pictures/10000000000000{}.jpg",
    "odp": "Pictures/10000000000000{}.jpg",
}
PICTURE_MB, RUNS, MAX_RATIO = 40, 5, 3.0


def photographs(total_mb: int) -> list[bytes]:
    """JPEG images of about 1 MB each, ``total_mb`` of them in all."""
    from PIL import Image

    rng = random.Random(7)
    out, size = [], 0
    while size < total_mb * 1024 * 1024:
        noise = Image.frombytes("RGB", (1200, 900), rng.randbytes(1200 * 900 * 3))
        gradient = Image.linear_gradient("L").resize((1200, 900)).convert("RGB")
        image = Image.blend(gradient, noise, 0.35)
        buffer = io.BytesIO()
        image.save(buffer, "JPEG", quality=92)
        out.append(buffer.getvalue())
        size += len(out[-1])
    return out


def with_pictures(source: Path, path: Path, pattern: str, pictures: list[bytes]) -> Path:
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(path, "w") as dst:
        for info in src.infolist():
            dst.writestr(info, src.read(info))
        for i, data in enumerate(pictures):
            dst.writestr(pattern.format(i), data, zipfile.ZIP_DEFLATED)
    return path


def inflate_every_member(path: Path) -> None:
    with zipfile.ZipFile(path) as zf:
        for info in zf.infolist():
            zf.read(info)


def main() -> list[str]:
    print(f"documents with {PICTURE_MB} MB of JPEG pictures, medians of {RUNS} passes")
    print(f"  load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    pictures = photographs(PICTURE_MB)
    misses = []
    with tempfile.TemporaryDirectory(prefix="bench_pictures_") as tmp:
        for fmt, pattern in PICTURES.items():
            source = DATA / f"zh.{fmt}"
            path = with_pictures(source, Path(tmp) / f"pictures.{fmt}", pattern, pictures)
            assert extract_text(path).text == extract_text(source).text
            plain = median_seconds(lambda source=source: extract_text(source), RUNS)
            now = median_seconds(lambda path=path: extract_text(path), RUNS)
            before = now + median_seconds(lambda path=path: inflate_every_member(path), RUNS)
            ratio = now / plain
            print(
                f"  {fmt:5s} {path.stat().st_size / 1e6:5.1f} MB: read in {now * 1e3:6.1f} ms "
                f"(without its pictures {plain * 1e3:5.1f} ms: {ratio:4.1f}x); inflating every "
                f"member first, as before: {before * 1e3:6.1f} ms ({before / now:4.0f}x)"
            )
            if ratio > MAX_RATIO:
                misses.append(f"{fmt}: {ratio:.1f}x the document without its pictures")
    return misses


if __name__ == "__main__":
    raise SystemExit(1 if main() else 0)
