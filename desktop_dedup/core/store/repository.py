"""All database access: the only module that writes SQL. One short connection (and
transaction) per unit of work, in SQLAlchemy Core; callers get plain rows (schema.Row), tuples
or dataclasses back.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import sqlite3
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import repeat
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np
from sqlalchemy import (
    String,
    any_,
    bindparam,
    case,
    delete,
    false,
    func,
    literal,
    literal_column,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import DBAPIError

from desktop_dedup.core import pathrules
from desktop_dedup.core.grouping import MAX_KEY_POSTINGS, BuiltGroup, split_blocks
from desktop_dedup.core.models import DocStatus
from desktop_dedup.core.pathrules import inside_sql
from desktop_dedup.core.release import drop_gradually
from desktop_dedup.core.sketch import (
    HEADER_BYTES,
    KEYED_MAX_SHINGLES,
    KEYS_PREFIX_BYTES,
    LONG_KEYS_PREFIX_BYTES,
    raw_candidate_keys,
    raw_line_ids,
)
from desktop_dedup.core.store.engine import (
    display_name,
    hamming,
    is_database_url,
    is_read_only,
    machine_name,
    make_engine,
    migrate,
    user_name,
)
from desktop_dedup.core.store.engine import signed64 as _signed
from desktop_dedup.core.store.schema import (
    CloseDocumentRow,
    DocumentRow,
    FolderRow,
    GroupMemberRow,
    GroupRow,
    IgnoredPairRow,
    JournalRow,
    MarkRow,
    ScanProblemRow,
    ScanRunRow,
    SettingRow,
    ShortLineRow,
    SketchKeyRow,
)
from desktop_dedup.core.volumes import Locator, is_location

log = logging.getLogger(__name__)

_CHUNK = 500  # values per IN (...) list (SQLite)
_ARRAY_CHUNK = 20_000  # values per = ANY(array) (PostgreSQL: one parameter, one round trip)
_WRITE_ATTEMPTS = 5
_MASK64 = (1 << 64) - 1


def now() -> datetime:
    return datetime.now(UTC)


def _aware(dt: datetime | None) -> datetime | None:
    # SQLite keeps no zone; everything we write is UTC.
    return dt.replace(tzinfo=UTC) if dt is not None and dt.tzinfo is None else dt


@dataclass(frozen=True, slots=True)
class KnownFile:
    id: int
    size: int
    mtime_ns: int
    content_hash: str | None
    status: str
    fp_version: int


@dataclass(frozen=True, slots=True)
class StoredFingerprint:
    """What a moved or copied file can reuse instead of being extracted again."""

    text_hash: str | None
    simhash: int | None
    token_count: int
    text_chars: int
    format: str
    status: str
    error: str | None
    sketch: bytes | None
    shingles: int | None


class GroupingRow(NamedTuple):
    """What grouping reads of a document: a tuple, made from the driver's row at C speed (a
    million documents' rows as frozen dataclasses cost 3-6 s of a full regroup)."""

    id: int
    path: str
    size: int
    mtime_ns: int
    content_hash: str
    text_hash: str | None
    simhash: int | None
    sketch: bytes | None


class Store:
    """The database of one desktop_dedup index: a SQLite file, or a PostgreSQL database named by
    a ``postgresql://`` URL that several machines share."""

    def __init__(self, target: str | Path):
        if is_database_url(target):
            self.path: str | Path = str(target)  # what reopens it (a worker thread's service)
        else:
            self.path = Path(target).expanduser().resolve()
        self.engine = make_engine(self.path)
        self.dialect = self.engine.dialect.name
        self.machine = machine_name()
        # Whose marks: one person per SQLite file; on a server, the person at this machine.
        self.user = "" if self.dialect == "sqlite" else user_name()
        # A server's paths are locations (volumes.Locator) that every machine agrees on; a
        # SQLite file keeps this machine's paths as they are.
        self.locator = Locator(self.machine) if self.dialect != "sqlite" else None
        self._insert = sqlite_insert
        if self.dialect == "postgresql":  # loaded only for a server (20 ms of every start-up)
            from sqlalchemy.dialects.postgresql import insert as postgresql_insert

            self._insert = postgresql_insert
        self._chunk = _ARRAY_CHUNK if self.dialect == "postgresql" else _CHUNK
        # statements compiled once, run with rows as the driver takes them (_execute_raw)
        self._raw_sql: dict[Any, tuple[str, list[str] | None]] = {}
        # this engine's Hamming distance between a found row and the query (bound as :q)
        self._distance_sql = str(
            hamming(literal_column("c.simhash"), literal_column("CAST(:q AS BIGINT)")).compile(
                dialect=self.engine.dialect
            )
        )
        self._near_sql: dict[str, Any] = {}
        self._driver_sql: dict[str, str] = {}
        self._lookup_conn: Any = None  # PostgreSQL: the connection lookups use (_driver_rows)
        self._version_conn: sqlite3.Connection | None = None  # data_version's own connection
        # Single reads outside a transaction: no BEGIN and ROLLBACK round trips around them.
        self._reader = self.engine.execution_options(isolation_level="AUTOCOMMIT")
        migrate(self.engine, self.path)
        self.read_only = is_read_only(self.engine)
        if not self.read_only:
            self._close_stale_runs()

    def data_version(self) -> int | None:
        """A number that changes when another connection (another process, another window's
        service) commits to this index: SQLite's ``PRAGMA data_version`` on a connection of
        its own, kept open for this. None on a server (no such counter there)."""
        if self.dialect != "sqlite":
            return None
        if self._version_conn is None:
            self._version_conn = sqlite3.connect(
                Path(self.path).as_uri() + "?mode=ro", uri=True, check_same_thread=False
            )
        return int(self._version_conn.execute("PRAGMA data_version").fetchone()[0])

    def _member(self, column: Any, values: Sequence[Any]) -> Any:
        """``column IN values``: on PostgreSQL ``column = ANY(:array)``, one parameter however
        many values (an IN list of thousands of bound values costs more to build, send and parse
        than to run), so chunks are large and round trips few."""
        if self.dialect != "postgresql":
            return column.in_(values)
        from sqlalchemy.dialects.postgresql import ARRAY

        return column == any_(bindparam(None, list(values), type_=ARRAY(column.type)))

    @property
    def shared(self) -> bool:
        """A database server that other machines and people use at the same time."""
        return self.dialect != "sqlite"

    # --- locations ----------------------------------------------------------------------------
    # Callers speak in this machine's paths; a shared index stores locations. What cannot be
    # resolved here (another machine's disk, a share not mounted here) is shown as its location.

    def location(self, path: str) -> str:
        """Where ``path`` (on this machine) is in this index's terms (as stored: a name that is
        not UTF-8 escaped, pathrules.stored)."""
        return pathrules.stored(path if self.locator is None else self.locator.location(path))

    def local_path(self, location: str) -> str:
        """The path of a stored location on this machine, or the location itself when it has
        none here (see :meth:`is_here`)."""
        location = pathrules.from_stored(location)
        return location if self.locator is None else self.locator.display(location)

    @staticmethod
    def is_here(path: str) -> bool:
        """Whether a path given back by this store is on this machine (not a location that only
        another machine can reach)."""
        return not is_location(path)

    def _locations(self, paths: Iterable[str]) -> list[str]:
        return [self.location(p) for p in paths]

    @property
    def display_name(self) -> str:
        """What may be shown or logged: the file, or the URL without its password."""
        return display_name(self.path)

    def close(self) -> None:
        if self._lookup_conn is not None:
            self._lookup_conn.close()
            self._lookup_conn = None
        if self._version_conn is not None:
            self._version_conn.close()
            self._version_conn = None
        self.engine.dispose()

    # --- documents ------------------------------------------------------------------------

    def known_files(self, under: Sequence[str] | None = None) -> dict[str, KnownFile]:
        """Every document by path, or those inside the folders ``under``."""
        stmt = select(
            DocumentRow.path,
            DocumentRow.id,
            DocumentRow.size,
            DocumentRow.mtime_ns,
            DocumentRow.content_hash,
            DocumentRow.status,
            DocumentRow.fp_version,
        )
        if under is not None:
            stmt = stmt.where(self._inside(self._locations(under)))
        with self.engine.connect() as conn:
            return {self.local_path(r[0]): KnownFile(*r[1:]) for r in conn.execute(stmt)}

    @staticmethod
    def _inside(roots: Sequence[str]):
        return or_(
            false(),
            *(DocumentRow.path.startswith(r.rstrip("/") + "/", autoescape=True) for r in roots),
        )

    def fingerprints_by_content(
        self, fp_version: int, sizes: Iterable[int] | None = None
    ) -> dict[str, StoredFingerprint]:
        """Current-version fingerprints keyed by content hash (for moved/copied files); with
        ``sizes``, only those of documents of these sizes (a file's copy has its size), found
        through the size index instead of reading every fingerprint of the index."""
        stmt = select(
            DocumentRow.content_hash,
            DocumentRow.text_hash,
            DocumentRow.simhash,
            DocumentRow.token_count,
            DocumentRow.text_chars,
            DocumentRow.format,
            DocumentRow.status,
            DocumentRow.error,
            DocumentRow.sketch,
            DocumentRow.shingles,
        ).where(
            DocumentRow.fp_version == fp_version,
            DocumentRow.content_hash.is_not(None),
            DocumentRow.status != DocStatus.PROBLEM,
        )
        if sizes is None:
            with self.engine.connect() as conn:
                return {r[0]: StoredFingerprint(*r[1:]) for r in conn.execute(stmt)}
        with self.engine.connect() as conn:
            if conn.execute(select(DocumentRow.id).limit(1)).first() is None:
                return {}  # a first scan: the lookup by a thousand sizes was 7 ms of its start
        rows = self._in_chunks(
            lambda part: stmt.where(self._member(DocumentRow.size, part)), sorted(set(sizes))
        )
        return {r[0]: StoredFingerprint(*r[1:]) for r in rows}

    def upsert_documents(self, rows: Sequence[dict[str, Any]]) -> list[str]:
        """Insert or update documents by path; each row is a dict of DocumentRow columns.

        A mark is for the content that was reviewed: a marked document whose content changed
        (or that can no longer be read) loses its mark, everyone's. Returns the paths that lost
        one."""
        if not rows:
            return []
        prepared = []
        lines: dict[str, Sequence[int]] = {}  # a short document's lines, when its reader made them
        for row in rows:
            row = dict(row)
            made = row.pop("lines", None)
            row["path"] = self.location(row["path"])
            sh = row.get("simhash")
            row["b0"], row["b1"], row["b2"], row["b3"] = (
                split_blocks(sh) if sh is not None else (None, None, None, None)
            )
            if made is not None and row.get("sketch"):
                lines[row["path"]] = made
            prepared.append(row)
        # One order for every writer: two machines upserting overlapping batches then lock the
        # same rows in the same order and cannot deadlock each other.
        prepared.sort(key=lambda r: r["path"])
        cols = tuple(prepared[0].keys())

        def upsert() -> Any:
            stmt = self._insert(DocumentRow).values({c: bindparam(c) for c in cols})
            return stmt.on_conflict_do_update(
                index_elements=[DocumentRow.path],
                set_={c: stmt.excluded[c] for c in cols if c != "path"},
            )

        for attempt in range(_WRITE_ATTEMPTS):
            try:
                with self.engine.begin() as conn:
                    dropped = self._marks_outdated_by(conn, prepared)
                    # one statement for the whole list (executemany), compiled once per set of
                    # columns: SQLAlchemy's own processing of each row's parameters cost the
                    # scanning process more than the database's work (0.1 s of 0.3 for the
                    # public corpora's 1,415 rows)
                    values = [tuple(map(r.__getitem__, cols)) for r in prepared]
                    self._execute_raw(conn, ("upsert", cols), upsert, cols, values)
                    if "sketch" in cols:
                        self._write_keys(conn, prepared, lines)
                    ids = list(dropped.values())
                    for i in range(0, len(ids), self._chunk):
                        conn.execute(
                            delete(MarkRow).where(
                                self._member(MarkRow.doc_id, ids[i : i + self._chunk])
                            )
                        )
                return [self.local_path(p) for p in sorted(dropped)]
            except DBAPIError as exc:
                # PostgreSQL may still pick this transaction as a deadlock's victim (keys,
                # groups): it was rolled back whole, so doing it again is safe.
                if not self._retryable(exc) or attempt == _WRITE_ATTEMPTS - 1:
                    raise
                log.info("writing documents collided with another writer; trying again")
                time.sleep(0.05 * (attempt + 1))

    def _marks_outdated_by(self, conn: Any, rows: Sequence[dict[str, Any]]) -> dict[str, int]:
        """Stored path -> id of the marked documents (anyone's marks) that ``rows`` give another
        content (or a problem)."""
        if "content_hash" not in rows[0]:
            return {}
        if conn.execute(select(MarkRow.doc_id).limit(1)).first() is None:
            return {}  # the common case: nothing marked, nothing to compare
        new = {r["path"]: r.get("content_hash") for r in rows}
        paths = list(new)
        dropped = {}
        marked = select(MarkRow.doc_id).where(MarkRow.doc_id == DocumentRow.id).exists()
        for i in range(0, len(paths), self._chunk):
            for path, doc_id, old_hash in conn.execute(
                select(DocumentRow.path, DocumentRow.id, DocumentRow.content_hash).where(
                    marked, self._member(DocumentRow.path, paths[i : i + self._chunk])
                )
            ):
                if new[path] is None or new[path] != old_hash:
                    dropped[path] = doc_id
        return dropped

    @staticmethod
    def _retryable(exc: DBAPIError) -> bool:
        """A deadlock victim (40P01) or a serialisation failure (40001)."""
        return getattr(exc.orig, "sqlstate", None) in ("40P01", "40001")

    @contextmanager
    def exclusive(self, name: str) -> Iterator[None]:
        """Hold a lock named ``name`` across the machines sharing this index (PostgreSQL's
        session advisory lock on a connection of its own), e.g. around a regroup that reads the
        groups and writes them back. SQLite: one machine; its writers take turns already."""
        if self.dialect != "postgresql":
            yield
            return
        key = int.from_bytes(
            hashlib.blake2b(name.encode(), digest_size=8).digest(), "big", signed=True
        )
        with self.engine.connect() as conn:
            conn.execute(text("SELECT pg_advisory_lock(:k)"), {"k": key})
            conn.commit()
            try:
                yield
            finally:
                conn.execute(text("SELECT pg_advisory_unlock(:k)"), {"k": key})
                conn.commit()

    def _write_keys(
        self, conn, rows: Sequence[dict[str, Any]], made: dict[str, Sequence[int]]
    ) -> None:
        """Replace the candidate keys and the short lines of the documents just written (same
        transaction); ``made``: the lines their readers made, by path (else read from the
        sketch)."""
        paths = [r["path"] for r in rows]
        ids: dict[str, int] = {}
        for i in range(0, len(paths), self._chunk):
            ids.update(
                conn.execute(
                    select(DocumentRow.path, DocumentRow.id).where(
                        self._member(DocumentRow.path, paths[i : i + self._chunk])
                    )
                ).all()
            )
        doc_ids = list(ids.values())
        for i in range(0, len(doc_ids), self._chunk):
            part = doc_ids[i : i + self._chunk]
            conn.execute(delete(SketchKeyRow).where(self._member(SketchKeyRow.doc_id, part)))
            conn.execute(delete(ShortLineRow).where(self._member(ShortLineRow.doc_id, part)))
        keys, lines = [], []
        for r in rows:
            if r.get("sketch") and r.get("status") != DocStatus.PROBLEM:
                # The keys are stored at the start of the sketch: read, not recomputed.
                doc_id = ids[r["path"]]
                # read as signed numbers, not converted one by one: 23,000 keys of a first
                # scan of the public corpora took 0.03 s of the scanning process
                keys += zip(raw_candidate_keys(r["sketch"], signed=True), repeat(doc_id))
                own = made.get(r["path"])
                own = raw_line_ids(r["sketch"]) if own is None else own
                lines += zip(map(_signed, own), repeat(doc_id))
        self._insert_pairs(conn, SketchKeyRow, "key", keys)
        self._insert_pairs(conn, ShortLineRow, "line_id", lines)

    def _insert_pairs(self, conn, table: type, column: str, rows: list[tuple[int, int]]) -> None:
        """Insert (value, doc_id) rows into ``table`` (candidate keys, short lines), skipping
        those present: tens of thousands of rows per batch (_execute_raw)."""
        if not rows:
            return

        def insert() -> Any:
            values = {column: bindparam(column), "doc_id": bindparam("doc_id")}
            return self._insert(table).values(values).on_conflict_do_nothing()

        self._execute_raw(conn, ("pairs", column), insert, (column, "doc_id"), rows)

    def _execute_raw(
        self,
        conn: Any,
        key: Any,
        build: Callable[[], Any],
        columns: Sequence[str],
        rows: Sequence[Sequence[Any]],
    ) -> None:
        """Run the statement ``build()`` makes, whose parameters are named ``columns``, once
        for each row of values in that order (numbers, text, bytes: nothing to convert), in one
        executemany. Compiled once per ``key`` for this engine, and the rows go to the driver
        as they are: SQLAlchemy's per-row parameter processing cost the scanning process more
        than the database's own work."""
        sql = self._raw_sql.get(key)
        if sql is None:
            compiled = build().compile(dialect=self.engine.dialect)
            order = list(compiled.positiontup or ()) if compiled.positional else None
            sql = self._raw_sql[key] = (str(compiled), order)
        statement, order = sql
        params: Sequence[Any]
        if order is None:  # named parameters
            params = [dict(zip(columns, row, strict=True)) for row in rows]
        elif order == list(columns):
            params = rows
        else:
            at = [columns.index(name) for name in order]
            params = [tuple(row[i] for i in at) for row in rows]
        conn.exec_driver_sql(statement, params)

    def line_counts(self, line_ids: Iterable[int]) -> dict[int, int]:
        """How many different texts (documents with another text, or without text another
        content) of the index hold each of these short-document lines (sketch.line_ids): the
        rest are held by none. Only matchable documents have lines (_write_keys), so their
        status is not asked: with it, SQLite took 20 ms for 500 lines instead of 0.2."""
        counts: dict[int, int] = {}
        text_of = func.coalesce(DocumentRow.text_hash, DocumentRow.content_hash)
        for line_id, n in self._in_chunks(
            lambda part: (
                select(ShortLineRow.line_id, func.count(text_of.distinct()))
                .join(DocumentRow, DocumentRow.id == ShortLineRow.doc_id)
                .where(self._member(ShortLineRow.line_id, part))
                .group_by(ShortLineRow.line_id)
            ),
            sorted({_signed(k) for k in line_ids}),
        ):
            counts[int(line_id) & _MASK64] = int(n)
        return counts

    def delete_documents(self, ids: Iterable[int]) -> int:
        ids = list(ids)
        with self.engine.begin() as conn:
            for i in range(0, len(ids), self._chunk):
                conn.execute(
                    delete(DocumentRow).where(
                        self._member(DocumentRow.id, ids[i : i + self._chunk])
                    )
                )
        return len(ids)

    def _here(self, doc: DocumentRow) -> DocumentRow:
        """A loaded (detached) document with its path as this machine sees it."""
        doc.path = self.local_path(doc.path)
        return doc

    def document(self, doc_id: int) -> DocumentRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(DocumentRow).where(DocumentRow.id == doc_id)).first()
        return None if row is None else self._here(DocumentRow.load(row))

    def documents(self, ids: Iterable[int]) -> list[DocumentRow]:
        ids = list(ids)
        out: list[DocumentRow] = []
        with self.engine.connect() as conn:
            for i in range(0, len(ids), self._chunk):
                out += map(
                    DocumentRow.load,
                    conn.execute(
                        select(DocumentRow).where(
                            self._member(DocumentRow.id, ids[i : i + self._chunk])
                        )
                    ),
                )
        return [self._here(d) for d in out]

    _GROUPING_COLUMNS = (
        DocumentRow.id,
        DocumentRow.path,
        DocumentRow.size,
        DocumentRow.mtime_ns,
        DocumentRow.content_hash,
        DocumentRow.text_hash,
        DocumentRow.simhash,
        DocumentRow.sketch,
    )
    _MATCHABLE = DocumentRow.status.in_((DocStatus.OK, DocStatus.SHORT))

    def grouping_rows(
        self, ids: Iterable[int] | None = None, *, keys_only: bool = False, long_keys: bool = True
    ) -> list[GroupingRow]:
        """What grouping needs of every matchable document, or of the documents ``ids``; paths
        are as stored (locations on a server: the groups, their references and the reference
        folders are the same whichever machine matches them); with ``keys_only`` each sketch
        is cut to its header and candidate keys (sketch.py
        KEYS_PREFIX_BYTES), read in SQL, and :meth:`sketches` fetches the rest on demand; a
        long document's to its header alone unless ``long_keys`` (grouping.long_keys_used)."""
        columns = list(self._GROUPING_COLUMNS)
        if keys_only:
            # a long document's keys are its first values, fewer (sketch.candidate_keys)
            keyed = DocumentRow.shingles.between(1, KEYED_MAX_SHINGLES)
            long_width = LONG_KEYS_PREFIX_BYTES if long_keys else HEADER_BYTES
            width = case((keyed, KEYS_PREFIX_BYTES), else_=long_width)
            columns[-1] = func.substr(DocumentRow.sketch, 1, width)
        stmt = select(*columns).where(self._MATCHABLE)
        with self.engine.connect() as conn:
            if ids is None:
                return self._driver_read(conn, stmt, GroupingRow._make)
            ids = list(ids)
            out = []
            for i in range(0, len(ids), self._chunk):
                chunk = stmt.where(self._member(DocumentRow.id, ids[i : i + self._chunk]))
                out += self._driver_read(conn, chunk, GroupingRow._make)
            return out

    def _driver_read(self, conn: Any, stmt: Any, make: Callable[[Any], Any]) -> list[Any]:
        """``make`` of each row of ``stmt`` (columns of numbers, text and bytes: nothing to
        convert), fetched by the driver itself: SQLAlchemy's result rows cost a full regroup
        of a million documents 1.2 s more than the driver's fetchall (3.5 s against 2.3)."""
        compiled = stmt.compile(
            dialect=self.engine.dialect, compile_kwargs={"render_postcompile": True}
        )
        params = compiled.params
        if compiled.positional:
            params = tuple(params[name] for name in compiled.positiontup or ())
        cursor = conn.connection.dbapi_connection.cursor()
        try:
            cursor.execute(str(compiled), params)
            return list(map(make, cursor.fetchall()))
        finally:
            cursor.close()

    def _in_chunks(self, query: Callable[[list[Any]], Any], values: Iterable[Any]) -> list[Any]:
        """The rows of ``query(part)`` for every part of ``values`` small enough for IN (...)."""
        values = list(values)
        rows: list[Any] = []
        with self.engine.connect() as conn:
            for i in range(0, len(values), self._chunk):
                rows += conn.execute(query(values[i : i + self._chunk])).all()
        return rows

    def sketches(self, ids: Iterable[int]) -> dict[int, bytes]:
        return dict(
            self._in_chunks(
                lambda part: select(DocumentRow.id, DocumentRow.sketch).where(
                    self._member(DocumentRow.id, part)
                ),
                ids,
            )
        )

    def documents_sharing_keys(self, keys: Iterable[int]) -> list[int]:
        """Documents holding one of these candidate keys, through the key index; a key held by
        more than ``MAX_KEY_POSTINGS`` documents is a common phrase and proposes nothing (the
        same rule as the in-memory grouping)."""
        keys = list({_signed(k) for k in keys})
        out: set[int] = set()
        with self.engine.connect() as conn:
            for i in range(0, len(keys), self._chunk):
                part = keys[i : i + self._chunk]
                common = set(
                    conn.execute(
                        select(SketchKeyRow.key)
                        .where(self._member(SketchKeyRow.key, part))
                        .group_by(SketchKeyRow.key)
                        .having(func.count() > MAX_KEY_POSTINGS)
                    ).scalars()
                )
                wanted = [k for k in part if k not in common]
                out.update(
                    conn.execute(
                        select(SketchKeyRow.doc_id).where(self._member(SketchKeyRow.key, wanted))
                    ).scalars()
                )
        return list(out)

    def ids_by_path(self, paths: Iterable[str]) -> list[int]:
        rows = self._in_chunks(
            lambda part: select(DocumentRow.id).where(self._member(DocumentRow.path, part)),
            self._locations(paths),
        )
        return [r[0] for r in rows]

    def rows_by_text(self, text_hashes: Iterable[str]) -> list[int]:
        """Matchable documents with one of these text hashes or (text-less) content hashes."""
        keys = list(set(text_hashes))
        out: set[int] = set()
        with self.engine.connect() as conn:
            for i in range(0, len(keys), self._chunk):
                part = keys[i : i + self._chunk]
                # one probe of each hash index: PostgreSQL plans "a = ANY(..) OR b = ANY(..)"
                # as a scan of the whole table (275 ms at 1,000,000 documents)
                for column in (DocumentRow.text_hash, DocumentRow.content_hash):
                    out.update(
                        conn.execute(
                            select(DocumentRow.id).where(
                                self._MATCHABLE, self._member(column, part)
                            )
                        ).scalars()
                    )
        return list(out)

    @staticmethod
    def _probe_values(block: int, flips: int) -> list[int]:
        """The 16-bit values within ``flips`` bits of ``block``."""
        values = [block]
        frontier = [(block, -1)]
        for _ in range(flips):
            nxt = []
            for v, last in frontier:
                for bit in range(last + 1, 16):
                    w = v ^ (1 << bit)
                    values.append(w)
                    nxt.append((w, bit))
            frontier = nxt
        return values

    _EXACT_LOOKUP = text(
        " UNION ".join(f"SELECT id, simhash FROM documents WHERE b{i} = :b{i}" for i in range(4))
    )

    @classmethod
    def lookup_sql(cls, simhash: int, max_distance: int) -> str:
        """The indexed probes of :meth:`lookup_near` (literal 16-bit integers: at most 4 x 697
        of them, beyond what bound parameters should carry)."""
        flips = max(0, int(max_distance)) // 4
        if flips > 3:
            raise ValueError("lookups are indexed up to 15 bits")
        parts = []
        for i, b in enumerate(split_blocks(simhash)):
            values = ",".join(map(str, cls._probe_values(b, flips)))
            parts.append(f"SELECT id, simhash FROM documents WHERE b{i} IN ({values})")
        return " UNION ".join(parts)

    def lookup_near_many(self, simhashes: Sequence[int], max_distance: int) -> set[int]:
        """Ids of every stored fingerprint within ``max_distance`` bits of any of ``simhashes``:
        :meth:`lookup_near` for many documents at once (one indexed probe per distinct block
        value and column, then one vectorised distance check), as after a scan."""
        flips = max(0, int(max_distance)) // 4
        if flips > 3:
            raise ValueError("lookups are indexed up to 15 bits")
        if not simhashes:
            return set()
        if self.dialect == "postgresql":
            return self._lookup_near_many_joined(simhashes, max_distance, flips)
        probes: list[set[int]] = [set(), set(), set(), set()]
        for sh in simhashes:
            for i, b in enumerate(split_blocks(sh)):
                probes[i].update(self._probe_values(b, flips))
        found: dict[int, int] = {}
        with self.engine.connect() as conn:
            for i, values in enumerate(probes):
                ordered = sorted(values)
                for lo in range(0, len(ordered), 4000):
                    part = ",".join(map(str, ordered[lo : lo + 4000]))
                    found.update(
                        conn.execute(
                            text(f"SELECT id, simhash FROM documents WHERE b{i} IN ({part})")
                        ).all()
                    )
        if not found:
            return set()
        ids = np.fromiter(found.keys(), dtype=np.int64, count=len(found))
        stored = np.fromiter(found.values(), dtype=np.int64, count=len(found)).view(np.uint64)
        out: set[int] = set()
        for sh in simhashes:
            q = np.uint64(sh & _MASK64)
            out.update(ids[np.bitwise_count(stored ^ q) <= max_distance].tolist())
        return out

    _JOINED_BLOCK = (
        "SELECT d.id FROM unnest(CAST(:v{i} AS integer[]), CAST(:s{i} AS bigint[])) AS q(v, s)"
        " JOIN documents d ON d.b{i} = q.v WHERE {distance} <= :k"
    )
    _JOINED_PAIRS = 80_000  # (probe value, query) pairs per statement, over the four blocks

    def _lookup_near_many_joined(
        self, simhashes: Sequence[int], max_distance: int, flips: int
    ) -> set[int]:
        """PostgreSQL: each (probe value, query) pair joined to its block index and the distance
        checked in the server, pair by pair, so only the answers travel back (at 10,000,000
        documents a block value is held by ~150 of them: millions of rows for a batch). The
        four blocks are one statement (UNION: a document found through several blocks comes
        back once), each block's pairs in index order; the arrays go as one text literal each
        (psycopg adapting 80,000 Python ints one by one cost more than the server's join)."""
        distance = hamming(literal_column("d.simhash"), literal_column("q.s")).compile(
            dialect=self.engine.dialect
        )
        sql = text(
            " UNION ".join(self._JOINED_BLOCK.format(i=i, distance=distance) for i in range(4))
        )
        queries = sorted(set(simhashes))
        per_statement = max(1, self._JOINED_PAIRS // (4 * len(self._probe_values(0, flips))))
        out: set[int] = set()
        with self.engine.connect() as conn:
            for lo in range(0, len(queries), per_statement):
                pairs: list[list[tuple[int, int]]] = [[], [], [], []]
                for sh in queries[lo : lo + per_statement]:
                    signed = _signed(sh)
                    for i, b in enumerate(split_blocks(sh)):
                        pairs[i].extend((v, signed) for v in self._probe_values(b, flips))
                params: dict[str, Any] = {"k": int(max_distance)}
                for i, block_pairs in enumerate(pairs):
                    block_pairs.sort()
                    params[f"v{i}"] = "{" + ",".join(str(v) for v, _ in block_pairs) + "}"
                    params[f"s{i}"] = "{" + ",".join(str(q) for _, q in block_pairs) + "}"
                out.update(conn.execute(sql, params).scalars())
        return out

    def lookup_near(self, simhash: int, max_distance: int) -> list[tuple[int, int]]:
        """(doc_id, distance) of every stored fingerprint within ``max_distance`` bits.

        The seeds' index, widened by multi-probing: two fingerprints within ``k`` bits have, by
        the pigeonhole principle, one of their four 16-bit blocks within ``k // 4`` bits, so each
        indexed block column is probed with every value that close to the query's block (1
        value up to k = 3, 17 up to 7, 137 up to 11, 697 up to 15) and the rows found are
        checked exactly. Exact for every k; no table scan (EXPLAIN QUERY PLAN is tested).
        """
        if max_distance <= 3:  # one probe per block: a statement compiled once, values bound
            probes = self._EXACT_LOOKUP.text
            params = dict(zip(("b0", "b1", "b2", "b3"), split_blocks(simhash), strict=True))
        else:
            probes, params = self.lookup_sql(simhash, max_distance), {}
        # The exact check runs in the engine (SQLite's registered hamming, PostgreSQL's
        # bit_count of the XOR), so only the answers travel back. One SQL text per radius class:
        # compiled once, and prepared by the server once.
        sql = self._near_sql.get(probes)
        if sql is None:
            sql = text(
                f"SELECT c.id, {self._distance_sql} AS d FROM ({probes}) AS c "
                f"WHERE c.simhash IS NOT NULL AND {self._distance_sql} <= :k"
            )
            if max_distance <= 3:
                self._near_sql[probes] = sql
        params = {**params, "q": _signed(simhash), "k": int(max_distance)}
        if self.dialect == "postgresql":
            return [(doc_id, int(d)) for doc_id, d in self._driver_rows(sql.text, params)]
        with self._reader.connect() as conn:
            rows = conn.execute(sql, params)
            return [(doc_id, int(d)) for doc_id, d in rows]

    def _driver_rows(self, sql: str, params: dict[str, Any]) -> list[tuple]:
        """PostgreSQL: run one read on a connection this store keeps for lookups, straight
        through psycopg, prepared on the server. A lookup is a few index probes (~0.1 ms in the
        server); SQLAlchemy's checkout, reset and result wrapping around it cost three times
        that, so the lookup skips them. A connection the server dropped is replaced once."""
        import psycopg  # the PostgreSQL driver (only a server's store gets here)

        driver_sql = self._driver_sql.get(sql)
        if driver_sql is None:
            driver_sql = self._driver_sql[sql] = re.sub(r"(?<![:\w]):(\w+)", r"%(\1)s", sql)
        for attempt in range(2):
            if self._lookup_conn is None:
                conn = self.engine.raw_connection()
                conn.driver_connection.autocommit = True
                self._lookup_conn = conn
            try:
                cur = self._lookup_conn.driver_connection.execute(driver_sql, params, prepare=True)
                return cur.fetchall()
            except psycopg.OperationalError:
                self._lookup_conn.invalidate()
                self._lookup_conn = None
                if attempt:
                    raise
        raise AssertionError("unreachable")

    _EXACT_COUNT_BELOW = 1_000_000

    def document_count(self, *, estimate: bool = False) -> int:
        """How many documents; with ``estimate``, PostgreSQL's own statistics when they say a
        million or more (counting 10,000,000 rows reads the whole table, seconds; the callers
        choose a strategy and a radius by it, where 1 % off changes nothing)."""
        if estimate and self.dialect == "postgresql":
            with self._reader.connect() as conn:
                approx = conn.execute(
                    text("SELECT reltuples::bigint FROM pg_class WHERE oid = 'documents'::regclass")
                ).scalar_one()
            if approx >= self._EXACT_COUNT_BELOW:
                return int(approx)
        with self.engine.connect() as conn:
            return conn.execute(select(func.count()).select_from(DocumentRow)).scalar_one()

    # --- marks ------------------------------------------------------------------------------

    # Marks are this person's (self.user): another person's marks in a shared index are theirs
    # to change.

    def set_marked(self, ids: Iterable[int], marked: bool) -> None:
        with self.engine.begin() as conn:
            self._write_marks(conn, ids, marked)

    def _write_marks(self, conn: Any, ids: Iterable[int], marked: bool) -> None:
        ids = sorted(set(ids))
        for i in range(0, len(ids), self._chunk):
            part = ids[i : i + self._chunk]
            if marked:
                # only documents still in the index (one may have left since it was shown)
                conn.execute(
                    self._insert(MarkRow)
                    .from_select(
                        ["user_name", "doc_id"],
                        select(
                            literal(self.user, String(255)).label("user_name"), DocumentRow.id
                        ).where(self._member(DocumentRow.id, part)),
                    )
                    .on_conflict_do_nothing()
                )
            else:
                conn.execute(
                    delete(MarkRow).where(
                        MarkRow.user_name == self.user, self._member(MarkRow.doc_id, part)
                    )
                )

    def marked_ids(self) -> set[int]:
        with self.engine.connect() as conn:
            return set(
                conn.execute(select(MarkRow.doc_id).where(MarkRow.user_name == self.user)).scalars()
            )

    def clear_marks(self) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(MarkRow).where(MarkRow.user_name == self.user))

    def marked_among(self, ids: Iterable[int]) -> set[int]:
        """Those of ``ids`` that are marked (what a view of a few documents shows)."""
        rows = self._in_chunks(
            lambda part: select(MarkRow.doc_id).where(
                MarkRow.user_name == self.user, self._member(MarkRow.doc_id, part)
            ),
            ids,
        )
        return {r[0] for r in rows}

    def _marked(self) -> Any:
        """SQL: this person marked the document (a :class:`DocumentRow` in the query)."""
        return (
            select(MarkRow.doc_id)
            .where(MarkRow.doc_id == DocumentRow.id, MarkRow.user_name == self.user)
            .exists()
        )

    # Keep rules, in SQL: the member each group keeps is the first in this order (the path last,
    # so the choice is deterministic); the same orders as core.marking's Python rules.
    _KEEP_ORDERS = {
        "newest": lambda: (DocumentRow.mtime_ns.desc(), DocumentRow.path),
        "oldest": lambda: (DocumentRow.mtime_ns.asc(), DocumentRow.path),
        "largest": lambda: (DocumentRow.size.desc(), DocumentRow.path),
        "smallest": lambda: (DocumentRow.size.asc(), DocumentRow.path),
        "shortest_path": lambda: (func.length(DocumentRow.path), DocumentRow.path),
    }

    def apply_mark_rule(
        self,
        rule: str,
        reference_roots: Sequence[str],
        *,
        folder: str | None = None,
        group_ids: Sequence[int] | None = None,
        keep_id: int | None = None,
    ) -> None:
        """Set the marks of every member of the groups ``group_ids`` (all groups when None) to
        what ``rule`` says, in one transaction; documents inside ``reference_roots`` are never
        touched (core.pathrules decides "inside", here in SQL).

        Rules: ``all_but_reference``; ``keep_only`` (``keep_id``); the keep orders above;
        ``keep_in_folder`` (``folder``: groups with no member there lose their marks);
        ``invert`` (the non-references' marks flipped, references unmarked); ``add_in_folder``
        (marks the non-references inside ``folder``, nothing unmarked)."""
        m = GroupMemberRow
        markable = ~inside_sql(DocumentRow.path, self._locations(reference_roots))
        folder_cond = inside_sql(DocumentRow.path, self._locations([folder])) if folder else false()
        scope = select(m.doc_id)
        if group_ids is not None:
            scope = scope.where(m.group_id.in_(list(group_ids)))
        if rule == "add_in_folder":
            target = select(DocumentRow.id).where(
                DocumentRow.id.in_(scope.where(m.is_reference == false())),
                markable,
                folder_cond,
            )
            with self.engine.begin() as conn:
                self._write_marks(conn, list(conn.execute(target).scalars()), True)
            return
        if rule == "all_but_reference":
            to_mark = select(m.doc_id).where(m.is_reference == false())
        elif rule == "keep_only":
            to_mark = select(m.doc_id).where(m.doc_id != keep_id)
        elif rule == "invert":
            to_mark = (
                select(m.doc_id)
                .join(DocumentRow, DocumentRow.id == m.doc_id)
                .where(m.is_reference == false(), ~self._marked())
            )
        elif rule == "keep_in_folder":
            having = (
                select(m.group_id).join(DocumentRow, DocumentRow.id == m.doc_id).where(folder_cond)
            )
            to_mark = (
                select(m.doc_id)
                .join(DocumentRow, DocumentRow.id == m.doc_id)
                .where(m.group_id.in_(having), ~folder_cond)
            )
        elif rule in self._KEEP_ORDERS:
            ranked = (
                select(
                    m.doc_id.label("doc_id"),
                    func.row_number()
                    .over(partition_by=m.group_id, order_by=self._KEEP_ORDERS[rule]())
                    .label("rn"),
                )
                .join(DocumentRow, DocumentRow.id == m.doc_id)
                .subquery()
            )
            to_mark = select(ranked.c.doc_id).where(ranked.c.rn > 1)
        else:
            raise ValueError(f"unknown marking rule {rule!r}")
        with self.engine.begin() as conn:
            # What the rule marks is computed before any row changes (invert reads the marks).
            ids = set(conn.execute(to_mark).scalars())
            current = dict(
                conn.execute(
                    select(DocumentRow.id, self._marked()).where(
                        DocumentRow.id.in_(scope), markable
                    )
                ).all()
            )
            on = [i for i, was in current.items() if i in ids and not was]
            off = [i for i, was in current.items() if i not in ids and was]
            self._write_marks(conn, on, True)
            self._write_marks(conn, off, False)

    def marked_in_groups(self) -> list[tuple[int, int, int]]:
        """(doc id, size, group id) of every marked document that is in a group, then of every
        marked document close to one (CloseDocumentRow)."""
        c = CloseDocumentRow
        with self.engine.connect() as conn:
            members = conn.execute(
                select(DocumentRow.id, DocumentRow.size, GroupMemberRow.group_id)
                .join(GroupMemberRow, GroupMemberRow.doc_id == DocumentRow.id)
                .where(self._marked())
                .order_by(GroupMemberRow.group_id, GroupMemberRow.position)
            ).all()
            close = conn.execute(
                select(DocumentRow.id, DocumentRow.size, c.group_id)
                .join(c, c.doc_id == DocumentRow.id)
                .where(self._marked())
                .order_by(c.group_id, c.doc_id)
            ).all()
        return [tuple(r) for r in members + close]

    def closest_members(self, doc_ids: Iterable[int]) -> dict[int, int]:
        """For those of ``doc_ids`` that are close to a group: the member each is closest to."""
        rows = self._in_chunks(
            lambda part: select(CloseDocumentRow.doc_id, CloseDocumentRow.member_id).where(
                self._member(CloseDocumentRow.doc_id, part)
            ),
            doc_ids,
        )
        return {d: m for d, m in rows}

    def fully_marked_groups(self) -> list[int]:
        """Groups every member of which is marked (removing them leaves no copy)."""
        m = GroupMemberRow
        marked_count = func.sum(case((self._marked(), 1), else_=0))
        with self.engine.connect() as conn:
            return list(
                conn.execute(
                    select(m.group_id)
                    .join(DocumentRow, DocumentRow.id == m.doc_id)
                    .where(
                        m.group_id.in_(
                            select(m.group_id)
                            .join(DocumentRow, DocumentRow.id == m.doc_id)
                            .where(self._marked())
                        )
                    )
                    .group_by(m.group_id)
                    .having(marked_count == func.count())
                ).scalars()
            )

    # --- folders and settings -----------------------------------------------------------------

    def folders(self) -> list[tuple[str, bool]]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(FolderRow.path, FolderRow.is_reference).order_by(FolderRow.id)
            )
            return [(self.local_path(p), bool(r)) for p, r in rows]

    def add_folder(self, path: str, reference: bool) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                self._insert(FolderRow)
                .values(path=self.location(path), is_reference=reference)
                .on_conflict_do_nothing(index_elements=[FolderRow.path])
            )

    def remove_folder(self, path: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(FolderRow).where(FolderRow.path == self.location(path)))

    def set_folder_reference(self, path: str, reference: bool) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(FolderRow)
                .where(FolderRow.path == self.location(path))
                .values(is_reference=reference)
            )

    def get_setting(self, key: str, default: Any = None) -> Any:
        with self.engine.connect() as conn:
            value = conn.execute(
                select(SettingRow.value).where(SettingRow.key == key)
            ).scalar_one_or_none()
        return default if value is None else json.loads(value)

    def set_setting(self, key: str, value: Any) -> None:
        with self.engine.begin() as conn:
            stmt = self._insert(SettingRow).values(key=key, value=json.dumps(value))
            conn.execute(
                stmt.on_conflict_do_update(
                    index_elements=[SettingRow.key], set_={"value": stmt.excluded.value}
                )
            )

    _SCAN_REFS = "scan_reference_roots"

    def scan_reference_roots(self) -> list[str]:
        """The reference folders named by the last scan (``scan --reference``), as paths here;
        on a shared index, every machine's last scan's: they decide the groups, which are the
        team's."""
        stored = self.get_setting(self._SCAN_REFS, [])
        if isinstance(stored, dict):  # a shared index: machine -> its last scan's locations
            stored = [r for machine in sorted(stored) for r in stored[machine]]
        return [self.local_path(r) for r in stored]

    def set_scan_reference_roots(self, roots: Sequence[str]) -> None:
        """This scan's reference folders. On a shared index they replace only this machine's
        (another machine's scan without ``--reference`` must not drop them, nor make everyone
        regroup in full), read and written under a row lock so two scans do not lose one."""
        locations = self._locations(roots)
        if self.locator is None:
            self.set_setting(self._SCAN_REFS, locations)
            return
        self._set_this_machines(self._SCAN_REFS, locations)

    def _set_this_machines(self, key: str, values: list[str]) -> None:
        """Replace this machine's entry of the setting ``key`` (machine -> its values), under a
        row lock: two machines' scans do not lose one another's."""
        with self.engine.begin() as conn:
            conn.execute(
                self._insert(SettingRow)
                .values(key=key, value="{}")
                .on_conflict_do_nothing(index_elements=[SettingRow.key])
            )
            value = conn.execute(
                select(SettingRow.value).where(SettingRow.key == key).with_for_update()
            ).scalar_one()
            stored = json.loads(value)
            if not isinstance(stored, dict):
                stored = {}
            if values:
                stored[self.machine] = values
            else:
                stored.pop(self.machine, None)
            conn.execute(
                update(SettingRow)
                .where(SettingRow.key == key)
                .values(value=json.dumps(stored, sort_keys=True))
            )

    _MOUNTS = "mount_points"

    def _this_machines(self, key: str) -> list[str]:
        """This machine's paths in the setting ``key`` (machine -> its paths)."""
        stored = self.get_setting(key, {})
        mine = stored.get(self.machine, []) if isinstance(stored, dict) else []
        return [pathrules.from_stored(m) for m in mine if isinstance(m, str)]

    def mount_points(self) -> list[str]:
        """The folders inside this machine's scanned folders where a drive or a share was
        mounted at the scans that read them (walk_files' ``mounts``)."""
        return self._this_machines(self._MOUNTS)

    def set_mount_points(self, paths: Sequence[str]) -> None:
        """This machine's mount points (:meth:`mount_points`), kept by machine and as its own
        paths, not as locations: a share's location cannot be told from the folder it is
        mounted on while it is not mounted there, which is when they are asked for."""
        self._set_this_machines(self._MOUNTS, sorted({pathrules.stored(p) for p in paths}))

    _KEPT = "kept_folders"

    def folders_with_kept_files(self) -> list[str]:
        """The folders (or paths) this machine's last scan could not read and kept files of,
        as last scanned: a listed folder not found, a folder it could not list, a mount point
        without its drive (the scan's ``unlisted`` that hold files of the index)."""
        return self._this_machines(self._KEPT)

    def set_folders_with_kept_files(self, paths: Sequence[str]) -> None:
        """This machine's :meth:`folders_with_kept_files`, kept as :meth:`set_mount_points`
        keeps those."""
        self._set_this_machines(self._KEPT, sorted({pathrules.stored(p) for p in paths}))

    # --- scan runs and problems -----------------------------------------------------------------

    def _close_stale_runs(self) -> None:
        # A run of this machine still "running" when the database is opened was killed: say so.
        # Only when there is one, so that opening a read-only database (to report on it) writes
        # nothing. Another machine's run is its own business (it may be running now).
        mine = (ScanRunRow.status == "running", ScanRunRow.machine.in_((self.machine, "")))
        with self.engine.connect() as conn:
            stale = conn.execute(
                select(func.count()).select_from(ScanRunRow).where(*mine)
            ).scalar_one()
        if stale:
            with self.engine.begin() as conn:
                conn.execute(update(ScanRunRow).where(*mine).values(status="interrupted"))

    def start_scan_run(self, roots: Sequence[str]) -> int:
        with self.engine.begin() as conn:
            return conn.execute(
                ScanRunRow.__table__.insert().returning(ScanRunRow.id),
                {
                    "started_at": now(),
                    "status": "running",
                    "roots": json.dumps(list(roots)),
                    "machine": self.machine,
                },
            ).scalar_one()

    def finish_scan_run(self, run_id: int, status: str, **counts: int) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(ScanRunRow)
                .where(ScanRunRow.id == run_id)
                .values(status=status, finished_at=now(), **counts)
            )

    def last_scan(self) -> ScanRunRow | None:
        with self.engine.connect() as conn:
            row = conn.execute(
                select(ScanRunRow)
                .where(ScanRunRow.status != "running")
                .order_by(ScanRunRow.id.desc())
                .limit(1)
            ).first()
        if row is None:
            return None
        run = ScanRunRow.load(row)
        run.started_at = _aware(run.started_at)
        run.finished_at = _aware(run.finished_at)
        return run

    def add_scan_problems(self, run_id: int, problems: Sequence[tuple[str, str]]) -> None:
        if not problems:
            return
        with self.engine.begin() as conn:
            conn.execute(
                ScanProblemRow.__table__.insert(),
                [{"scan_id": run_id, "path": self.location(p), "reason": r} for p, r in problems],
            )

    @staticmethod
    def _last_scan_id(conn: Any) -> int | None:
        """The last scan that ended (finished, cancelled or interrupted): the one whose problems
        are shown. Not the last scan *with* problems: after a scan that had none, the one
        before's (a drive unplugged then) were shown as if they were still there."""
        return conn.execute(
            select(func.max(ScanRunRow.id)).where(ScanRunRow.status != "running")
        ).scalar_one_or_none()

    def last_scan_problems_of(self, paths: Sequence[str]) -> dict[str, str]:
        """The last scan's problems of these paths (by path): why it could not read a folder."""
        if not paths:
            return {}
        with self.engine.connect() as conn:
            last = self._last_scan_id(conn)
            if last is None:
                return {}
            rows = conn.execute(
                select(ScanProblemRow.path, ScanProblemRow.reason).where(
                    ScanProblemRow.scan_id == last,
                    ScanProblemRow.path.in_(self._locations(paths)),
                )
            ).all()
        return {self.local_path(p): r for p, r in rows}

    def problem_count(self) -> int:
        with self.engine.connect() as conn:
            docs = conn.execute(
                select(func.count())
                .select_from(DocumentRow)
                .where(DocumentRow.status == DocStatus.PROBLEM)
            ).scalar_one()
            last = self._last_scan_id(conn)
            other = 0
            if last is not None:
                other = conn.execute(
                    select(func.count())
                    .select_from(ScanProblemRow)
                    .where(ScanProblemRow.scan_id == last)
                ).scalar_one()
        return docs + other

    def problems(self) -> list[tuple[str, str]]:
        """Documents that could not be fingerprinted plus the last scan's other problems."""
        with self.engine.connect() as conn:
            docs = conn.execute(
                select(DocumentRow.path, DocumentRow.error)
                .where(DocumentRow.status == DocStatus.PROBLEM)
                .order_by(DocumentRow.path)
            ).all()
        return [(self.local_path(p), r or "") for p, r in docs] + self.last_scan_problems()

    def last_scan_problems(self) -> list[tuple[str, str]]:
        """The last scan's problems that are no document's (folders it could not read, names
        it could not decode), by path."""
        with self.engine.connect() as conn:
            last = self._last_scan_id(conn)
            if last is None:
                return []
            rows = conn.execute(
                select(ScanProblemRow.path, ScanProblemRow.reason)
                .where(ScanProblemRow.scan_id == last)
                .order_by(ScanProblemRow.path)
            ).all()
        return [(self.local_path(p), r) for p, r in rows]

    def drop_last_scan_problems(self, paths: Sequence[str]) -> None:
        """The last scan's problems of these paths are settled: they are no longer shown."""
        with self.engine.begin() as conn:
            last = self._last_scan_id(conn)
            locations = self._locations(paths)
            for i in range(0, len(locations), self._chunk):
                conn.execute(
                    delete(ScanProblemRow).where(
                        ScanProblemRow.scan_id == last,
                        self._member(ScanProblemRow.path, locations[i : i + self._chunk]),
                    )
                )

    # --- groups -------------------------------------------------------------------------------

    def _group_rows(
        self,
        groups: Sequence[BuiltGroup],
        sizes: dict[int, int],
        paths: dict[int, str],
        ids: list[int],
    ) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[dict[str, Any]]]:
        group_rows, member_rows, close_rows = [], [], []
        for gid, g in zip(ids, groups, strict=True):
            close_rows.extend(
                {
                    "doc_id": c.doc_id,
                    "group_id": gid,
                    "member_id": c.member,
                    "similarity": round(c.similarity, 4),
                }
                for c in g.close
            )
            total = sum(sizes[m.doc_id] for m in g.members)
            group_rows.append(
                {
                    "id": gid,
                    "kind": g.kind,
                    "reference_doc_id": g.reference,
                    "reference_path": paths[g.reference],
                    "member_count": len(g.members),
                    "reclaimable_size": total - sizes[g.reference],
                    "total_size": total,
                    "max_distance": max(m.distance for m in g.members),
                    "min_similarity": round(min(m.similarity for m in g.members), 4),
                }
            )
            for pos, m in enumerate(g.members):
                member_rows.append(
                    {
                        "group_id": gid,
                        "doc_id": m.doc_id,
                        "position": pos,
                        "is_reference": m.doc_id == g.reference,
                        "distance": m.distance,
                        "similarity": round(m.similarity, 4),
                    }
                )
        return group_rows, member_rows, close_rows

    def _stable_ids(
        self, conn, groups: Sequence[BuiltGroup], replaced: set[int] | None
    ) -> list[int]:
        """Group ids for ``groups``: a group keeps the id of the old group that held its
        reference (when that old group is being replaced and no other new group took it), so
        selection and scroll position survive a regroup; the others get fresh ids."""
        # the old groups of the new groups' references only (not every membership of the index)
        refs = sorted({g.reference for g in groups})
        old: dict[int, int] = {}
        for i in range(0, len(refs), self._chunk):
            old.update(
                conn.execute(
                    select(GroupMemberRow.doc_id, GroupMemberRow.group_id).where(
                        self._member(GroupMemberRow.doc_id, refs[i : i + self._chunk])
                    )
                ).all()
            )
        taken: set[int] = set()
        ids: list[int | None] = []
        for g in groups:
            gid = old.get(g.reference)
            if gid is not None and gid not in taken and (replaced is None or gid in replaced):
                taken.add(gid)
                ids.append(gid)
            else:
                ids.append(None)
        # the highest id that stays: the highest of all ids, skipping those being replaced
        # (through the primary key, newest first, never more than len(replaced) + 1 rows)
        skip = replaced or set()
        highest = 0
        if replaced is None:
            highest = conn.execute(select(func.max(GroupRow.id))).scalar_one_or_none() or 0
        else:
            for gid in conn.execute(
                select(GroupRow.id).order_by(GroupRow.id.desc()).limit(len(skip) + 1)
            ).scalars():
                if gid not in skip:
                    highest = gid
                    break
        nxt = max(highest, max(taken, default=0)) + 1
        out = []
        for gid in ids:
            if gid is None:
                gid = nxt
                nxt += 1
            out.append(gid)
        drop_gradually(old)
        return out

    def replace_groups(
        self,
        groups: Sequence[BuiltGroup],
        sizes: dict[int, int],
        paths: dict[int, str],
        replaced: Iterable[int] | None = None,
    ) -> list[int]:
        """Replace the groups ``replaced`` (all groups when None) by ``groups``, in one
        transaction; returns the new groups' ids (stable where the group is the same). The
        documents close to a replaced group go with it: a caller regrouping part of an index
        replaces every group a document of that part is close to (service._regroup_around)."""
        replaced_set = None if replaced is None else set(replaced)
        with self.engine.begin() as conn:
            ids = self._stable_ids(conn, groups, replaced_set)
            group_rows, member_rows, close_rows = self._group_rows(groups, sizes, paths, ids)
            if replaced_set is None:
                conn.execute(delete(CloseDocumentRow))
                conn.execute(delete(GroupMemberRow))
                conn.execute(delete(GroupRow))
            else:
                gone = list(replaced_set)
                for i in range(0, len(gone), self._chunk):
                    part = gone[i : i + self._chunk]
                    conn.execute(
                        delete(CloseDocumentRow).where(
                            self._member(CloseDocumentRow.group_id, part)
                        )
                    )
                    conn.execute(
                        delete(GroupMemberRow).where(self._member(GroupMemberRow.group_id, part))
                    )
                    conn.execute(delete(GroupRow).where(self._member(GroupRow.id, part)))
            self._bulk_insert(conn, GroupRow.__table__, group_rows)
            self._bulk_insert(conn, GroupMemberRow.__table__, member_rows)
            self._bulk_insert(conn, CloseDocumentRow.__table__, close_rows)
        drop_gradually(group_rows, member_rows)  # a million objects: not in one GIL hold
        return ids

    def _bulk_insert(self, conn: Any, table: Any, rows: Sequence[dict[str, Any]]) -> None:
        """Insert ``rows`` in ``conn``'s transaction: PostgreSQL's COPY (one stream; an
        executemany sends and runs one INSERT per row), SQLite's executemany."""
        if not rows:
            return
        if self.dialect != "postgresql":
            for i in range(0, len(rows), 5000):
                conn.execute(table.insert(), rows[i : i + 5000])
            return
        cols = list(rows[0])
        cursor = conn.connection.driver_connection.cursor()
        with cursor.copy(f"COPY {table.name} ({', '.join(cols)}) FROM STDIN") as copy:
            for r in rows:
                copy.write_row([r[c] for c in cols])

    def groups_of(self, doc_ids: Iterable[int]) -> dict[int, int]:
        """doc id -> group id for those of ``doc_ids`` that are in a group."""
        return dict(
            self._in_chunks(
                lambda part: select(GroupMemberRow.doc_id, GroupMemberRow.group_id).where(
                    self._member(GroupMemberRow.doc_id, part)
                ),
                doc_ids,
            )
        )

    def close_groups_of(self, doc_ids: Iterable[int]) -> set[int]:
        """The groups that some of ``doc_ids`` are close to (CloseDocumentRow)."""
        rows = self._in_chunks(
            lambda part: select(CloseDocumentRow.group_id).where(
                self._member(CloseDocumentRow.doc_id, part)
            ),
            doc_ids,
        )
        return {r[0] for r in rows}

    def close_to_groups(self, group_ids: Iterable[int]) -> list[int]:
        """The documents close to some of these groups (CloseDocumentRow)."""
        rows = self._in_chunks(
            lambda part: select(CloseDocumentRow.doc_id).where(
                self._member(CloseDocumentRow.group_id, part)
            ),
            group_ids,
        )
        return [r[0] for r in rows]

    def close_counts(self, group_ids: Iterable[int]) -> dict[int, int]:
        """How many documents are close to each of these groups that has any."""
        rows = self._in_chunks(
            lambda part: (
                select(CloseDocumentRow.group_id, func.count())
                .where(self._member(CloseDocumentRow.group_id, part))
                .group_by(CloseDocumentRow.group_id)
            ),
            group_ids,
        )
        return {g: n for g, n in rows}

    def close_documents(
        self, group_ids: Sequence[int]
    ) -> dict[int, list[tuple[CloseDocumentRow, DocumentRow]]]:
        """The documents close to each of these groups, closest first, with their rows."""
        c = CloseDocumentRow
        return self._by_group(c, group_ids, (c.group_id, c.similarity.desc(), c.doc_id))

    def members_of_groups(self, group_ids: Iterable[int]) -> list[int]:
        rows = self._in_chunks(
            lambda part: select(GroupMemberRow.doc_id).where(
                self._member(GroupMemberRow.group_id, part)
            ),
            group_ids,
        )
        return [r[0] for r in rows]

    _SORTS = {
        "reclaimable": GroupRow.reclaimable_size,
        "members": GroupRow.member_count,
        "kind": GroupRow.kind,
        "path": GroupRow.reference_path,
        "distance": GroupRow.max_distance,
        "similarity": GroupRow.min_similarity,
        "size": GroupRow.total_size,
    }

    def _group_filter(self, stmt, text_filter: str, regex: bool):
        if not text_filter:
            return stmt
        match = (
            DocumentRow.path.regexp_match(text_filter)
            if regex
            else DocumentRow.path.icontains(text_filter, autoescape=True)
        )
        shown = self._shown_matches(text_filter, regex)
        if shown:
            match = or_(match, DocumentRow.id.in_(shown))
        matching = (
            select(GroupMemberRow.group_id)
            .join(DocumentRow, DocumentRow.id == GroupMemberRow.doc_id)
            .where(match)
        )
        return stmt.where(GroupRow.id.in_(matching))

    def _shown_matches(self, text_filter: str, regex: bool) -> list[int]:
        """The grouped documents whose names are not UTF-8 and whose paths, as people see them
        (pathrules.shown: 资料备份 ⟨GBK⟩), match the filter: their stored text holds escapes,
        which no one types. Python's regular expressions and lower case, on the few paths
        stored with escapes."""
        if regex:
            try:
                found = re.compile(text_filter).search
            except re.error:
                return []
        else:
            needle = text_filter.lower()

            def found(text: str) -> bool:
                return needle in text.lower()

        escaped = (
            select(DocumentRow.id, DocumentRow.path)
            .join(GroupMemberRow, GroupMemberRow.doc_id == DocumentRow.id)
            .where(DocumentRow.path.contains(pathrules.ESCAPE, autoescape=True))
        )
        with self.engine.connect() as conn:
            rows = conn.execute(escaped).all()
        return [doc_id for doc_id, path in rows if found(pathrules.shown(self.local_path(path)))]

    @staticmethod
    def _bad_pattern(exc: DBAPIError) -> bool:
        """PostgreSQL refused a regular expression (SQLSTATE 2201B). A pattern Python accepts
        may still be outside PostgreSQL's dialect; like SQLite's REGEXP, it matches nothing."""
        return getattr(exc.orig, "sqlstate", None) == "2201B"

    def group_count(self, text_filter: str = "", regex: bool = False) -> int:
        stmt = self._group_filter(select(func.count()).select_from(GroupRow), text_filter, regex)
        with self.engine.connect() as conn:
            try:
                return conn.execute(stmt).scalar_one()
            except DBAPIError as exc:
                if regex and self._bad_pattern(exc):
                    return 0
                raise

    def group_page(
        self,
        offset: int,
        limit: int,
        sort: str = "reclaimable",
        descending: bool = True,
        text_filter: str = "",
        regex: bool = False,
    ) -> list[GroupRow]:
        col = self._SORTS.get(sort, GroupRow.reclaimable_size)
        order = (col.desc(), GroupRow.id) if descending else (col.asc(), GroupRow.id)
        stmt = self._group_filter(select(GroupRow), text_filter, regex)
        stmt = stmt.order_by(*order).offset(offset).limit(limit)
        with self.engine.connect() as conn:
            try:
                return self._groups_here(conn.execute(stmt))
            except DBAPIError as exc:
                if regex and self._bad_pattern(exc):
                    return []
                raise

    def _groups_here(self, rows: Iterable[Any]) -> list[GroupRow]:
        out = list(map(GroupRow.load, rows))
        for g in out:
            g.reference_path = self.local_path(g.reference_path)
        return out

    def group_members(
        self, group_ids: Sequence[int]
    ) -> dict[int, list[tuple[GroupMemberRow, DocumentRow]]]:
        m = GroupMemberRow
        return self._by_group(m, group_ids, (m.group_id, m.position))

    def _by_group(
        self, table: Any, group_ids: Sequence[int], order: tuple[Any, ...]
    ) -> dict[int, list[tuple[Any, DocumentRow]]]:
        """The rows of ``table`` (keyed by ``group_id`` and ``doc_id``) of each of these groups,
        in ``order``, each with its document's row."""
        out: dict[int, list[tuple[Any, DocumentRow]]] = {g: [] for g in group_ids}
        split = len(table.__table__.columns)
        with self.engine.connect() as conn:
            for i in range(0, len(group_ids), self._chunk):
                rows = conn.execute(
                    select(table, DocumentRow)
                    .join(DocumentRow, DocumentRow.id == table.doc_id)
                    .where(self._member(table.group_id, group_ids[i : i + self._chunk]))
                    .order_by(*order)
                ).all()
                for row in rows:
                    r = table.load(row[:split])
                    out[r.group_id].append((r, self._here(DocumentRow.load(row[split:]))))
        return out

    def group_kind(self, group_id: int) -> str | None:
        with self.engine.connect() as conn:
            return conn.execute(
                select(GroupRow.kind).where(GroupRow.id == group_id)
            ).scalar_one_or_none()

    def all_group_rows(self) -> list[GroupRow]:
        with self.engine.connect() as conn:
            return self._groups_here(conn.execute(select(GroupRow).order_by(GroupRow.id)))

    def result_totals(self) -> dict[str, int]:
        with self.engine.connect() as conn:
            groups, dup_docs, reclaim = conn.execute(
                select(
                    func.count(GroupRow.id),
                    func.coalesce(func.sum(GroupRow.member_count), 0),
                    func.coalesce(func.sum(GroupRow.reclaimable_size), 0),
                )
            ).one()
            docs = conn.execute(
                select(func.count())
                .select_from(DocumentRow)
                .where(DocumentRow.status != DocStatus.PROBLEM)
            ).scalar_one()
            problems = conn.execute(
                select(func.count())
                .select_from(DocumentRow)
                .where(DocumentRow.status == DocStatus.PROBLEM)
            ).scalar_one()
            close = conn.execute(select(func.count()).select_from(CloseDocumentRow)).scalar_one()
            marked, marked_size = conn.execute(
                select(func.count(DocumentRow.id), func.coalesce(func.sum(DocumentRow.size), 0))
                .join(MarkRow, MarkRow.doc_id == DocumentRow.id)
                .where(MarkRow.user_name == self.user)
            ).one()
        # as whole numbers: PostgreSQL sums a bigint column as numeric (Decimal here), which a
        # JSON summary cannot hold
        return {
            "groups": int(groups),
            "duplicate_documents": int(dup_docs),
            # the copies beyond each group's reference: a group of three holds two duplicates
            "extra_copies": int(dup_docs - groups),
            "reclaimable_size": int(reclaim),
            "documents": int(docs),
            "problems": int(problems),
            "marked": int(marked),
            "marked_size": int(marked_size),
            "close_documents": int(close),  # in no group, close to one (CloseDocumentRow)
        }

    # --- ignored pairs -------------------------------------------------------------------------

    def add_ignored_pairs(self, pairs: Iterable[tuple[str, str, str, str]]) -> None:
        rows = []
        for ha, hb, pa, pb in pairs:
            if ha == hb:
                continue
            if hb < ha:
                ha, hb, pa, pb = hb, ha, pb, pa
            pa, pb = self._locations((pa, pb))
            rows.append(
                {"hash_a": ha, "hash_b": hb, "path_a": pa, "path_b": pb, "created_at": now()}
            )
        if not rows:
            return
        with self.engine.begin() as conn:
            conn.execute(
                self._insert(IgnoredPairRow)
                .values(rows)
                .on_conflict_do_nothing(index_elements=["hash_a", "hash_b"])
            )

    def ignored_pairs(self) -> list[IgnoredPairRow]:
        with self.engine.connect() as conn:
            rows = list(
                map(
                    IgnoredPairRow.load,
                    conn.execute(select(IgnoredPairRow).order_by(IgnoredPairRow.created_at)),
                )
            )
        for r in rows:
            r.created_at = _aware(r.created_at)
            r.path_a, r.path_b = self.local_path(r.path_a), self.local_path(r.path_b)
        return rows

    def ignored_hash_pairs(self) -> set[tuple[str, str]]:
        with self.engine.connect() as conn:
            return {
                (a, b)
                for a, b in conn.execute(select(IgnoredPairRow.hash_a, IgnoredPairRow.hash_b))
            }

    def clear_ignored(self, pairs: Iterable[tuple[str, str]] | None = None) -> None:
        with self.engine.begin() as conn:
            if pairs is None:
                conn.execute(delete(IgnoredPairRow))
                return
            for a, b in pairs:
                a, b = min(a, b), max(a, b)
                conn.execute(
                    delete(IgnoredPairRow).where(
                        IgnoredPairRow.hash_a == a, IgnoredPairRow.hash_b == b
                    )
                )

    # --- journal ---------------------------------------------------------------------------------

    # A journal row's paths are this machine's (its machine column says whose), as stored.
    _JOURNAL_PATHS = ("path", "destination")

    @classmethod
    def _journal_values(cls, values: dict[str, Any]) -> dict[str, Any]:
        return {
            k: pathrules.stored(v) if k in cls._JOURNAL_PATHS and v else v
            for k, v in values.items()
        }

    @classmethod
    def _journal_rows(cls, rows: Iterable[Any]) -> list[JournalRow]:
        out = list(map(JournalRow.load, rows))
        for r in out:
            r.path = pathrules.from_stored(r.path)
            r.destination = pathrules.from_stored(r.destination or "")
        return out

    def add_journal(self, entries: Sequence[dict[str, Any]]) -> None:
        if entries:
            with self.engine.begin() as conn:
                conn.execute(
                    JournalRow.__table__.insert(),
                    [
                        {"time": now(), "machine": self.machine, **self._journal_values(e)}
                        for e in entries
                    ],
                )

    # Write-ahead: a row with this reason is an intent whose outcome was never recorded.
    JOURNAL_PENDING = "in progress"

    def journal_begin(self, entry: dict[str, Any]) -> int:
        """Record an intent (committed before the file is touched); returns its row id."""
        with self.engine.begin() as conn:
            return conn.execute(
                JournalRow.__table__.insert().returning(JournalRow.id),
                {
                    "time": now(),
                    "machine": self.machine,
                    **self._journal_values(entry),
                    "ok": False,
                    "reason": self.JOURNAL_PENDING,
                },
            ).scalar_one()

    def journal_update(self, row_id: int, **values: Any) -> None:
        with self.engine.begin() as conn:
            conn.execute(
                update(JournalRow)
                .where(JournalRow.id == row_id)
                .values(**self._journal_values(values))
            )

    def pending_journal(self) -> list[JournalRow]:
        with self.engine.connect() as conn:
            return self._journal_rows(
                # only this machine's intents: another machine settles its own from its disk
                conn.execute(
                    select(JournalRow).where(
                        JournalRow.reason == self.JOURNAL_PENDING,
                        JournalRow.machine.in_((self.machine, "")),
                    )
                )
            )

    def journal(self) -> list[JournalRow]:
        with self.engine.connect() as conn:
            rows = self._journal_rows(conn.execute(select(JournalRow).order_by(JournalRow.id)))
        for r in rows:
            r.time = _aware(r.time)
        return rows

    # --- misc ------------------------------------------------------------------------------------

    @classmethod
    def _at_or_inside(cls, locations: Sequence[str]):
        """Documents inside one of ``locations`` or at one (a kept path may be a file)."""
        return or_(cls._inside(locations), DocumentRow.path.in_(locations))

    def count_under(self, root: str) -> int:
        """How many documents are inside ``root`` (or at it: a root may be a file)."""
        location = self.location(root)
        with self.engine.connect() as conn:
            return conn.execute(
                select(func.count()).select_from(DocumentRow).where(self._at_or_inside([location]))
            ).scalar_one()

    def paths_under(self, roots: Sequence[str]) -> list[tuple[int, str]]:
        """(id, path) of documents inside any of ``roots`` (or at one: a root may be a file)."""
        if not roots:
            return []
        locations = self._locations(roots)
        with self.engine.connect() as conn:
            return [
                (i, self.local_path(p))
                for i, p in conn.execute(
                    select(DocumentRow.id, DocumentRow.path).where(self._at_or_inside(locations))
                )
            ]
