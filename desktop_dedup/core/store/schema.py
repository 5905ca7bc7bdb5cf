"""SQLAlchemy 2.x typed declarative models: the whole on-disk schema.

Values that need 64 bits (sizes, mtimes in ns, the simhash, candidate keys) are ``Int64``:
SQLite's INTEGER (already 64-bit, and the DDL of existing index files stays as it was),
PostgreSQL's BIGINT (its INTEGER is 32-bit).

The simhash is stored as a signed 64-bit integer and again as four 16-bit
blocks ``b0``..``b3`` (b0 = the top 16 bits of the unsigned 64-bit value), each with its own
index: two fingerprints within 3 bits share at least one block exactly (pigeonhole), so a
near lookup is four indexed equality probes plus a popcount over the few rows they return.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    String,
    Text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

Int64 = BigInteger().with_variant(Integer(), "sqlite")


class Base(DeclarativeBase):
    pass


class DocumentRow(Base):
    __tablename__ = "documents"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    # On SQLite the path on the one machine that uses the index; on PostgreSQL a location that
    # every machine agrees on (volumes.Locator: smb://server/share/..., file://MACHINE/...).
    path: Mapped[str] = mapped_column(Text, unique=True)
    # indexed (schema v6): a scan looks up the fingerprints it may reuse by the sizes it meets
    size: Mapped[int] = mapped_column(Int64, index=True)
    mtime_ns: Mapped[int] = mapped_column(Int64)
    content_hash: Mapped[str | None] = mapped_column(String(32), index=True)
    text_hash: Mapped[str | None] = mapped_column(String(32), index=True)
    simhash: Mapped[int | None] = mapped_column(Int64)
    # indexed below (BLOCK_INDEXES)
    b0: Mapped[int | None] = mapped_column(Integer)
    b1: Mapped[int | None] = mapped_column(Integer)
    b2: Mapped[int | None] = mapped_column(Integer)
    b3: Mapped[int | None] = mapped_column(Integer)
    # sketch.TextSketch: what verifies a candidate pair (schema v3)
    sketch: Mapped[bytes | None] = mapped_column(LargeBinary, nullable=True)
    shingles: Mapped[int | None] = mapped_column(Integer, index=True)  # distinct shingles
    token_count: Mapped[int] = mapped_column(Integer, default=0)
    text_chars: Mapped[int] = mapped_column(Integer, default=0)
    format: Mapped[str] = mapped_column(String(16), default="")
    status: Mapped[str] = mapped_column(String(16), index=True)  # core.models.DocStatus
    error: Mapped[str | None] = mapped_column(Text)
    fp_version: Mapped[int] = mapped_column(Integer, default=0)
    last_seen_scan: Mapped[int | None] = mapped_column(Integer)
    # (a "marked" column until schema v6: marks are per person now, MarkRow)

    # The four block indexes. On PostgreSQL each also carries the simhash and the id (INCLUDE),
    # so a lookup reads only the index (an index-only scan): at 10,000,000 documents a block
    # value is held by ~150 rows, and fetching them from the table made a lookup ~20 ms. That
    # is migration 5's work (engine._v4_to_v5), which every server database goes through, new
    # ones too: declared here, the option would load SQLAlchemy's PostgreSQL dialect in every
    # command (20 ms of a scan's start-up) for SQLite, which has no such option.
    __table_args__ = tuple(Index(f"ix_documents_b{i}", f"b{i}") for i in range(4))


class SketchKeyRow(Base):
    """A document's candidate keys (core/sketch.py candidate_keys): indexed, so a new document
    finds the short and medium texts that share one without loading any sketch (schema v3)."""

    __tablename__ = "sketch_keys"

    key: Mapped[int] = mapped_column(Int64, primary_key=True)  # signed 64-bit view
    doc_id: Mapped[int] = mapped_column(
        ForeignKey("documents.id", ondelete="CASCADE"), primary_key=True, index=True
    )


class ShortLineRow(Base):
    """The lines of a short document (core/sketch.py line_ids), indexed by line: how many
    different texts hold a line tells a reposting banner or a signature, glued to many notes,
    from a note's own text (sketch.two_sided_similarity; schema v7)."""

    __tablename__ = "short_lines"

    line_id: Mapped[int] = mapped_column(Int64, primary_key=True)  # signed 64-bit view
    doc_id: Mapped[int] = mapped_column(
        ForeignKey("documents.id", ondelete="CASCADE"), primary_key=True, index=True
    )


class MarkRow(Base):
    """A document one person marked for removal (schema v6). Marks are per person: two people
    reviewing one shared index must not undo or remove each other's choices. On SQLite (one
    person) ``user_name`` is ""."""

    __tablename__ = "marks"

    user_name: Mapped[str] = mapped_column(String(255), primary_key=True)
    doc_id: Mapped[int] = mapped_column(
        ForeignKey("documents.id", ondelete="CASCADE"), primary_key=True, index=True
    )


class FolderRow(Base):
    __tablename__ = "folders"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    path: Mapped[str] = mapped_column(Text, unique=True)
    is_reference: Mapped[bool] = mapped_column(Boolean, default=False)


class SettingRow(Base):
    __tablename__ = "settings"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)  # JSON


class ScanRunRow(Base):
    __tablename__ = "scan_runs"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    started_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    status: Mapped[str] = mapped_column(String(16))  # running | finished | cancelled | interrupted
    roots: Mapped[str] = mapped_column(Text)  # JSON list
    files_seen: Mapped[int] = mapped_column(Integer, default=0)
    files_fingerprinted: Mapped[int] = mapped_column(Integer, default=0)
    files_reused: Mapped[int] = mapped_column(Integer, default=0)
    files_removed: Mapped[int] = mapped_column(Integer, default=0)
    problems: Mapped[int] = mapped_column(Integer, default=0)
    # the machine that ran it (schema v4): only its own runs can be stale to a machine
    machine: Mapped[str] = mapped_column(String(255), default="")


class ScanProblemRow(Base):
    """Problems that are not a document row: unreadable folders, undecodable file names."""

    __tablename__ = "scan_problems"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    scan_id: Mapped[int] = mapped_column(ForeignKey("scan_runs.id", ondelete="CASCADE"), index=True)
    path: Mapped[str] = mapped_column(Text)
    reason: Mapped[str] = mapped_column(Text)


class IgnoredPairRow(Base):
    """A pair the user said is not a duplicate, keyed by content so it survives renames."""

    __tablename__ = "ignored_pairs"

    hash_a: Mapped[str] = mapped_column(String(32), primary_key=True)  # hash_a < hash_b
    hash_b: Mapped[str] = mapped_column(String(32), primary_key=True)
    path_a: Mapped[str] = mapped_column(Text, default="")
    path_b: Mapped[str] = mapped_column(Text, default="")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))


class GroupRow(Base):
    __tablename__ = "groups"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    reference_doc_id: Mapped[int] = mapped_column(ForeignKey("documents.id", ondelete="CASCADE"))
    reference_path: Mapped[str] = mapped_column(Text)
    member_count: Mapped[int] = mapped_column(Integer)
    reclaimable_size: Mapped[int] = mapped_column(Int64)
    total_size: Mapped[int] = mapped_column(Int64)
    max_distance: Mapped[int] = mapped_column(Integer)
    # the lowest verified similarity between the reference and a member (schema v3)
    min_similarity: Mapped[float] = mapped_column(Float, default=1.0)

    __table_args__ = (
        Index("ix_groups_reclaimable", "reclaimable_size"),
        Index("ix_groups_members", "member_count"),
        Index("ix_groups_refpath", "reference_path"),
    )


class GroupMemberRow(Base):
    __tablename__ = "group_members"

    doc_id: Mapped[int] = mapped_column(
        ForeignKey("documents.id", ondelete="CASCADE"), primary_key=True
    )
    group_id: Mapped[int] = mapped_column(ForeignKey("groups.id", ondelete="CASCADE"), index=True)
    position: Mapped[int] = mapped_column(Integer)
    is_reference: Mapped[bool] = mapped_column(Boolean)
    distance: Mapped[int] = mapped_column(Integer)
    similarity: Mapped[float] = mapped_column(Float)


class JournalRow(Base):
    __tablename__ = "journal"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    time: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    action: Mapped[str] = mapped_column(String(16))
    path: Mapped[str] = mapped_column(Text)
    destination: Mapped[str] = mapped_column(Text, default="")
    content_hash: Mapped[str] = mapped_column(String(32), default="")
    size: Mapped[int] = mapped_column(Int64, default=0)
    ok: Mapped[bool] = mapped_column(Boolean)
    reason: Mapped[str] = mapped_column(Text, default="")
    # the machine that touched the file (schema v4): only it can settle an interrupted intent,
    # by looking at its own disk ("" in rows written before v4)
    machine: Mapped[str] = mapped_column(String(255), default="")
