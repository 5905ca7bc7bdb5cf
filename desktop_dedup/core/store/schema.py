"""The whole on-disk schema, as SQLAlchemy 2.x Core tables.

Values that need 64 bits (sizes, mtimes in ns, the simhash, candidate keys) are ``Int64``:
SQLite's INTEGER (already 64-bit, and the DDL of existing index files stays as it was),
PostgreSQL's BIGINT (its INTEGER is 32-bit).

The simhash is stored as a signed 64-bit integer and again as four 16-bit
blocks ``b0``..``b3`` (b0 = the top 16 bits of the unsigned 64-bit value), each with its own
index: two fingerprints within 3 bits share at least one block exactly (pigeonhole), so a
near lookup is four indexed equality probes plus a popcount over the few rows they return.

Each table is declared by a :class:`Row` class: the class's attributes are the table's columns
(``DocumentRow.path`` in a query, ``DocumentRow`` where a table goes), and its instances are
rows the store loaded, as plain objects (``doc.path``). Why not the ORM's declarative models,
which look the same: importing the ORM and mapping the classes cost every command 0.2-0.4 s
of its start-up (a scan's readers waited for it), and the store only ever used the mapped
classes as tables and as records.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, ClassVar, Self

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    Text,
)

Int64 = BigInteger().with_variant(Integer(), "sqlite")

metadata = MetaData()


class Row:
    """A table (the class) and a loaded row of it (an instance: :meth:`load`)."""

    __table__: ClassVar[Table]

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for column in cls.__table__.columns:
            setattr(cls, column.key, column)

    @classmethod
    def __clause_element__(cls) -> Table:
        """What SQLAlchemy reads where a table goes: ``select(DocumentRow)``."""
        return cls.__table__

    @classmethod
    def load(cls, values: Iterable[Any]) -> Self:
        """A row from the values of a ``select(cls)`` result row, in the table's column order."""
        row = cls.__new__(cls)
        row.__dict__.update(zip(cls.__table__.columns.keys(), values, strict=True))
        return row

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.__dict__!r})"


def _column(*args: Any, nullable: bool = False, **kwargs: Any) -> Column[Any]:
    """A column, NOT NULL unless ``nullable=True``, as the ORM's ``Mapped[int]`` made them (the
    DDL of existing index files stays as it was)."""
    return Column(*args, nullable=nullable, **kwargs)


def _fk_documents(name: str, **kwargs: Any) -> Column[Any]:
    return _column(name, ForeignKey("documents.id", ondelete="CASCADE"), **kwargs)


class DocumentRow(Row):
    __table__ = Table(
        "documents",
        metadata,
        _column("id", Integer, primary_key=True),
        # On SQLite the path on the one machine that uses the index; on PostgreSQL a location
        # that every machine agrees on (volumes.Locator: smb://server/share/...,
        # file://MACHINE/...).
        _column("path", Text, unique=True),
        # indexed (schema v6): a scan looks up the fingerprints it may reuse by the sizes it meets
        _column("size", Int64, index=True),
        _column("mtime_ns", Int64),
        _column("content_hash", String(32), index=True, nullable=True),
        _column("text_hash", String(32), index=True, nullable=True),
        _column("simhash", Int64, nullable=True),
        # indexed below (the block indexes)
        _column("b0", Integer, nullable=True),
        _column("b1", Integer, nullable=True),
        _column("b2", Integer, nullable=True),
        _column("b3", Integer, nullable=True),
        # sketch.TextSketch: what verifies a candidate pair (schema v3)
        _column("sketch", LargeBinary, nullable=True),
        _column("shingles", Integer, index=True, nullable=True),  # distinct shingles
        _column("token_count", Integer, default=0),
        _column("text_chars", Integer, default=0),
        _column("format", String(16), default=""),
        _column("status", String(16), index=True),  # core.models.DocStatus
        _column("error", Text, nullable=True),
        _column("fp_version", Integer, default=0),
        _column("last_seen_scan", Integer, nullable=True),
        # (a "marked" column until schema v6: marks are per person now, MarkRow)
        #
        # The four block indexes, each with the simhash after its block (schema 10), so a
        # lookup reads only the index (SQLite's covering index) and checks the distance there:
        # fetching each row found from the table took 0.33 s of the 0.83 s that merging 1,000
        # new documents into 1,000,000 took (bench_incremental). On PostgreSQL each carries
        # the simhash and the id as INCLUDE columns instead (an index-only scan: at 10,000,000
        # documents a block value is held by ~150 rows, and fetching them from the table made
        # a lookup ~20 ms). That is migration 5's work (engine._v4_to_v5), which every server
        # database goes through, new ones too: declared here, the option would load
        # SQLAlchemy's PostgreSQL dialect in every command (20 ms of a scan's start-up) for
        # SQLite, which has no such option.
        *(Index(f"ix_documents_b{i}", f"b{i}", "simhash") for i in range(4)),
    )


class SketchKeyRow(Row):
    """A document's candidate keys (core/sketch.py candidate_keys): indexed, so a new document
    finds the texts that share one without loading any sketch (schema v3; a long document's
    since schema v8)."""

    __table__ = Table(
        "sketch_keys",
        metadata,
        _column("key", Int64, primary_key=True),  # signed 64-bit view
        _fk_documents("doc_id", primary_key=True, index=True),
    )


class ShortLineRow(Row):
    """The lines of a short document (core/sketch.py line_ids), indexed by line: how many
    different texts hold a line tells a reposting banner or a signature, glued to many notes,
    from a note's own text (sketch.two_sided_similarity; schema v7)."""

    __table__ = Table(
        "short_lines",
        metadata,
        _column("line_id", Int64, primary_key=True),  # signed 64-bit view
        _fk_documents("doc_id", primary_key=True, index=True),
    )


class MarkRow(Row):
    """A document one person marked for removal (schema v6). Marks are per person: two people
    reviewing one shared index must not undo or remove each other's choices. On SQLite (one
    person) ``user_name`` is ""."""

    __table__ = Table(
        "marks",
        metadata,
        _column("user_name", String(255), primary_key=True),
        _fk_documents("doc_id", primary_key=True, index=True),
    )


class FolderRow(Row):
    __table__ = Table(
        "folders",
        metadata,
        _column("id", Integer, primary_key=True),
        _column("path", Text, unique=True),
        _column("is_reference", Boolean, default=False),
    )


class SettingRow(Row):
    __table__ = Table(
        "settings",
        metadata,
        _column("key", String(64), primary_key=True),
        _column("value", Text),  # JSON
    )


class ScanRunRow(Row):
    __table__ = Table(
        "scan_runs",
        metadata,
        _column("id", Integer, primary_key=True),
        _column("started_at", DateTime(timezone=True)),
        _column("finished_at", DateTime(timezone=True), nullable=True),
        # running | finished | cancelled | interrupted
        _column("status", String(16)),
        _column("roots", Text),  # JSON list
        _column("files_seen", Integer, default=0),
        _column("files_fingerprinted", Integer, default=0),
        _column("files_reused", Integer, default=0),
        _column("files_removed", Integer, default=0),
        _column("problems", Integer, default=0),
        # the machine that ran it (schema v4): only its own runs can be stale to a machine
        _column("machine", String(255), default=""),
    )


class ScanProblemRow(Row):
    """Problems that are not a document row: unreadable folders, undecodable file names."""

    __table__ = Table(
        "scan_problems",
        metadata,
        _column("id", Integer, primary_key=True),
        _column(
            "scan_id",
            ForeignKey("scan_runs.id", ondelete="CASCADE"),
            index=True,
        ),
        _column("path", Text),
        _column("reason", Text),
    )


class IgnoredPairRow(Row):
    """A pair the user said is not a duplicate, keyed by content so it survives renames."""

    __table__ = Table(
        "ignored_pairs",
        metadata,
        _column("hash_a", String(32), primary_key=True),  # hash_a < hash_b
        _column("hash_b", String(32), primary_key=True),
        _column("path_a", Text, default=""),
        _column("path_b", Text, default=""),
        _column("created_at", DateTime(timezone=True)),
    )


class GroupRow(Row):
    __table__ = Table(
        "groups",
        metadata,
        _column("id", Integer, primary_key=True),
        _column("kind", String(16)),
        _column(
            "reference_doc_id",
            ForeignKey("documents.id", ondelete="CASCADE"),
        ),
        _column("reference_path", Text),
        _column("member_count", Integer),
        _column("reclaimable_size", Int64),
        _column("total_size", Int64),
        _column("max_distance", Integer),
        # the lowest verified similarity between the reference and a member (schema v3)
        _column("min_similarity", Float, default=1.0),
        Index("ix_groups_reclaimable", "reclaimable_size"),
        Index("ix_groups_members", "member_count"),
        Index("ix_groups_refpath", "reference_path"),
    )


class GroupMemberRow(Row):
    __table__ = Table(
        "group_members",
        metadata,
        _fk_documents("doc_id", primary_key=True),
        _column(
            "group_id",
            ForeignKey("groups.id", ondelete="CASCADE"),
            index=True,
        ),
        _column("position", Integer),
        _column("is_reference", Boolean),
        _column("distance", Integer),
        _column("similarity", Float),
    )


class CloseDocumentRow(Row):
    """A document in no group that is verified the same as a member of a group but not as
    every member (grouping.CloseDocument; schema v9): shown with that group, the rule against
    chaining keeping it out."""

    __table__ = Table(
        "close_documents",
        metadata,
        _fk_documents("doc_id", primary_key=True),
        _column(
            "group_id",
            ForeignKey("groups.id", ondelete="CASCADE"),
            index=True,
        ),
        _fk_documents("member_id", index=True),  # the member it is closest to
        _column("similarity", Float),  # its verified share of common text with that member
    )


class JournalRow(Row):
    __table__ = Table(
        "journal",
        metadata,
        _column("id", Integer, primary_key=True),
        _column("time", DateTime(timezone=True)),
        _column("action", String(16)),
        _column("path", Text),
        _column("destination", Text, default=""),
        _column("content_hash", String(32), default=""),
        _column("size", Int64, default=0),
        _column("ok", Boolean),
        _column("reason", Text, default=""),
        # the machine that touched the file (schema v4): only it can settle an interrupted
        # intent, by looking at its own disk ("" in rows written before v4)
        _column("machine", String(255), default=""),
    )
