"""Make the tables every scan needs into ``resources/tables`` (see desktop_dedup/core/cache.py):
jieba's IDF table as arrays, and the words Taiwan and the mainland write differently. Made from
the jieba and OpenCC installed beside this Python, each with the key of what it was made from;
a table whose key is current is left alone, so this is cheap to run on every setup
(``build_resources.sh``). A new profile copies them instead of deriving them in its first scan.

Usage: python packaging/make_tables.py [FOLDER]   (default: resources/tables)
"""

from __future__ import annotations

import sys
from pathlib import Path

from desktop_dedup.core import cache, text
from desktop_dedup.core import fingerprint as fp


def main(argv: list[str]) -> int:
    repo = Path(__file__).resolve().parent.parent
    folder = Path(argv[0]) if argv else repo / "resources" / cache.SHIPPED_FOLDER
    idf = fp._idf_path()
    tables = [
        (fp.IDF_KIND, ".bin", fp.idf_key(idf), lambda: fp._parse_idf(idf).to_bytes()),
        (
            text.REGIONAL_KIND,
            ".txt",
            text.regional_key(),
            lambda: text.regional_table_body().encode("utf-8"),
        ),
    ]
    for kind, suffix, key, make in tables:
        if cache.shipped_table(kind, suffix, key, folder) is not None:
            continue  # made from these very sources, and whole
        cache.write_shipped(folder, kind, suffix, key, make())
        print(f"make_tables: {folder / (kind + suffix)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
