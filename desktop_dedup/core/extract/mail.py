"""E-mail saved as ``.eml`` (RFC 5322/MIME), with the standard library's email package; web
pages saved as ``.mht``/``.mhtml`` are the same MIME format (the page is the text/html part).

The text is the subject, then the body: the text/plain alternative when there is one, else the
HTML one through the HTML reader. Attachments are not followed, even text ones: a message and
the document attached to it are different documents (the attachment, saved, is scanned itself).
"""

from __future__ import annotations

import os
from email import policy
from email.header import decode_header, make_header
from email.message import Message
from email.parser import BytesParser

from desktop_dedup.core.errors import ExtractionError
from desktop_dedup.core.extract._common import open_regular
from desktop_dedup.core.extract.html import html_to_text
from desktop_dedup.core.extract.plaintext import decode_text_bytes
from desktop_dedup.core.units import format_size, format_size_over

#: Largest message read (it is parsed whole; attachments make most of a big one).
MAX_EML_BYTES: int = 256 * 1024 * 1024


def _part_text(part: Message) -> str:
    payload = part.get_payload(decode=True) or b""
    if not payload:
        return ""
    charset = part.get_content_charset()
    if charset:
        try:
            return payload.decode(charset)
        except (LookupError, UnicodeError):
            pass  # an unknown or wrong charset label: decode by what the bytes look like
    return decode_text_bytes(payload)


def _body(message: Message) -> Message | None:
    """The text/plain part shown as the message, else the text/html one; never an attachment."""
    found: dict[str, Message] = {}
    for part in message.walk():
        if part.is_multipart() or part.get_content_disposition() == "attachment":
            continue
        kind = part.get_content_type()
        if kind in ("text/plain", "text/html"):
            found.setdefault(kind, part)
    return found.get("text/plain") or found.get("text/html")


def _subject(message: Message) -> str:
    raw = message.get("Subject")
    if raw is None:
        return ""
    try:
        return str(make_header(decode_header(str(raw)))).strip()
    except (LookupError, UnicodeError, ValueError):
        return str(raw).strip()


def extract_eml(path: str | os.PathLike[str]) -> str:
    # The compat32 policy: the default policy's header objects cost ~50 ms a message, and the
    # text needs none of them.
    with open_regular(path) as f:
        size = os.fstat(f.fileno()).st_size
        if size > MAX_EML_BYTES:
            raise ExtractionError(
                f"too large: EML file is {format_size_over(size, MAX_EML_BYTES)}, over the "
                f"{format_size(MAX_EML_BYTES)} cap"
            )
        message = BytesParser(policy=policy.compat32).parse(f)
    if not message.keys():
        raise ExtractionError("not an e-mail message (no headers)")
    if message.get_content_type() in ("application/pkcs7-mime", "multipart/encrypted"):
        raise ExtractionError("EML is encrypted (S/MIME or PGP)")
    subject = _subject(message)
    body = _body(message)
    text = ""
    if body is not None:
        text = _part_text(body)
        if body.get_content_type() == "text/html":
            text = html_to_text(text)
    text = text.replace("\r\n", "\n")
    return f"{subject}\n{text}" if subject else text
