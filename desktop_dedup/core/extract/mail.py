"""E-mail saved as ``.eml`` (RFC 5322/MIME), with the standard library's email package.

The text is the subject, then the body: the text/plain alternative when there is one, else the
HTML one through the HTML reader. Attachments are not followed, even text ones: a message and
the document attached to it are different documents (the attachment, saved, is scanned itself).
"""

from __future__ import annotations

import os
from email import policy
from email.message import EmailMessage
from email.parser import BytesParser

from desktop_dedup.core.errors import ExtractionError
from desktop_dedup.core.extract._common import human_size, open_regular
from desktop_dedup.core.extract.html import html_to_text
from desktop_dedup.core.extract.plaintext import decode_text_bytes

#: Largest message read (it is parsed whole; attachments make most of a big one).
MAX_EML_BYTES: int = 256 * 1024 * 1024


def _part_text(part: EmailMessage) -> str:
    try:
        return part.get_content()
    except (LookupError, UnicodeError, AssertionError):
        # An unknown or wrong charset label: decode the bytes by what they look like.
        payload = part.get_payload(decode=True) or b""
        return decode_text_bytes(payload) if payload else ""


def extract_eml(path: str | os.PathLike[str]) -> str:
    with open_regular(path) as f:
        size = os.fstat(f.fileno()).st_size
        if size > MAX_EML_BYTES:
            raise ExtractionError(
                f"too large: EML file is {human_size(size)}, over the "
                f"{MAX_EML_BYTES // 1024 // 1024} MiB cap"
            )
        message = BytesParser(policy=policy.default).parse(f)
    if not message.keys():
        raise ExtractionError("not an e-mail message (no headers)")
    if message.get_content_type() in ("application/pkcs7-mime", "multipart/encrypted"):
        raise ExtractionError("EML is encrypted (S/MIME or PGP)")
    subject = str(message.get("Subject", "") or "").strip()
    body = message.get_body(preferencelist=("plain", "html"))
    text = ""
    if body is not None:
        text = _part_text(body)
        if body.get_content_type() == "text/html":
            text = html_to_text(text)
    text = text.replace("\r\n", "\n")
    return f"{subject}\n{text}" if subject else text
