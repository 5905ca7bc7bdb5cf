"""Write the man page desktop-dedup(1), generated from the command's own argument parser.

    python packaging/make_manpage.py [OUTPUT]      (default: desktop-dedup.1)

Needs argparse-manpage (in the dev and packaging extras). Read it with ``man -l desktop-dedup.1``
or install it as ``share/man/man1/desktop-dedup.1``.
"""

from __future__ import annotations

import sys
from pathlib import Path

from desktop_dedup.cli import manpage


def main(argv: list[str]) -> int:
    out = Path(argv[0] if argv else "desktop-dedup.1")
    out.write_text(manpage(), encoding="utf-8")
    print(f"wrote {out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
