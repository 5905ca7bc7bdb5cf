"""RTF via striprtf; code pages come from \\ansicpg / \\fcharset (cp936 for Chinese)."""

from __future__ import annotations

import os
import re

from striprtf.striprtf import rtf_to_text

from desktop_dedup.core.errors import ExtractionError
from desktop_dedup.core.extract._common import join_surrogates, read_capped

_ANSICPG = re.compile(rb"\\ansicpg(\d+)")


def _raw_encoding(data: bytes) -> str:
    """Encoding for raw 8-bit bytes some writers put in RTF instead of \\'hh escapes."""
    match = _ANSICPG.search(data[:4096])
    if match:
        name = f"cp{int(match.group(1))}"
        try:
            "".encode(name)
        except LookupError:
            return "cp1252"
        return "gb18030" if name == "cp936" else name
    return "cp1252"


def extract_rtf(path: str | os.PathLike[str]) -> str:
    data = read_capped(path)
    if not data.lstrip().startswith(b"{\\rtf"):
        raise ExtractionError("not an RTF document (missing {\\rtf header)")
    source = data.decode(_raw_encoding(data), errors="replace")
    text = rtf_to_text(source, encoding="cp1252", errors="replace")
    return join_surrogates(text).replace("\r\n", "\n").replace("\r", "\n")
