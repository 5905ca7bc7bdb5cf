"""Engine creation with the SQLite pragmas in one connect listener, and schema migrations.

Schema versions live in ``PRAGMA user_version``; ``MIGRATIONS[i]`` takes a database from version
i to i+1. A database whose version is newer than ``SCHEMA_VERSION`` was written by a newer
desktop_dedup and is refused rather than risk corrupting it.
"""

from __future__ import annotations

import json
import logging
import re
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import Engine, create_engine, event, text
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError, OperationalError

from desktop_dedup.core.errors import DatabaseError, DatabaseTooNewError
from desktop_dedup.core.store.schema import Base, SketchKeyRow

log = logging.getLogger(__name__)


def _regexp(pattern: str, value: str | None) -> bool:
    if value is None:
        return False
    try:
        return re.search(pattern, value) is not None
    except re.error:
        return False


def _popcount64(a: int, b: int) -> int:
    # Signed 64-bit values: mask to the unsigned view so a sign difference counts as one bit.
    return ((a ^ b) & 0xFFFF_FFFF_FFFF_FFFF).bit_count() if a is not None and b is not None else 64


def _on_connect(dbapi_conn: sqlite3.Connection, _record: object) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.execute("PRAGMA temp_store=MEMORY")
    cur.execute("PRAGMA cache_size=-65536")  # 64 MiB page cache
    cur.close()
    dbapi_conn.create_function("regexp", 2, _regexp, deterministic=True)
    dbapi_conn.create_function("hamming", 2, _popcount64, deterministic=True)


def make_engine(path: str | Path) -> Engine:
    path = Path(path)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DatabaseError(f"cannot create the database folder {path.parent}: {exc}") from exc
    engine = create_engine(f"sqlite:///{path}", future=True)
    event.listen(engine, "connect", _on_connect)
    return engine


# --- migrations -----------------------------------------------------------------------------


def _v0_to_v1(conn: Connection) -> None:
    """Version 1: the initial schema."""
    Base.metadata.create_all(conn)


def _v1_to_v2(conn: Connection) -> None:
    """Version 2: indexes for the status line's counts (problems, marked) on large indexes."""
    conn.exec_driver_sql("CREATE INDEX IF NOT EXISTS ix_documents_status ON documents (status)")
    conn.exec_driver_sql("CREATE INDEX IF NOT EXISTS ix_documents_marked ON documents (marked)")


def _columns(conn: Connection, table: str) -> set[str]:
    return {r[1] for r in conn.exec_driver_sql(f"PRAGMA table_info({table})")}


def _v2_to_v3(conn: Connection) -> None:
    """Version 3: two-stage matching. Documents carry the sketch that verifies a candidate pair
    and its indexed candidate keys (filled in by the next scan: fingerprint version 9 re-reads
    every file), groups their lowest
    verified similarity, and the user's threshold is a share of common text instead of bits: an
    old ``max_distance`` setting meant the *final* answer's bits and is dropped (the candidate
    radius now has its own default)."""
    if "sketch" not in _columns(conn, "documents"):
        conn.exec_driver_sql("ALTER TABLE documents ADD COLUMN sketch BLOB")
        conn.exec_driver_sql("ALTER TABLE documents ADD COLUMN shingles INTEGER")
    conn.exec_driver_sql("CREATE INDEX IF NOT EXISTS ix_documents_shingles ON documents (shingles)")
    SketchKeyRow.__table__.create(conn, checkfirst=True)
    if "min_similarity" not in _columns(conn, "groups"):
        conn.exec_driver_sql("ALTER TABLE groups ADD COLUMN min_similarity FLOAT DEFAULT 1.0")
    row = conn.exec_driver_sql("SELECT value FROM settings WHERE key = 'settings'").fetchone()
    if row is not None:
        stored = json.loads(row[0])
        if isinstance(stored, dict) and "max_distance" in stored:
            del stored["max_distance"]
            conn.exec_driver_sql(
                "UPDATE settings SET value = ? WHERE key = 'settings'", (json.dumps(stored),)
            )


MIGRATIONS: list[Callable[[Connection], None]] = [_v0_to_v1, _v1_to_v2, _v2_to_v3]
SCHEMA_VERSION = len(MIGRATIONS)


def migrate(engine: Engine, path: Path) -> None:
    """Bring the schema up to date. Two processes opening a fresh database at once both see
    version 0; the loser of the race fails on what the winner created (or on its lock), so it
    reads the version again and carries on from there: every migration is idempotent."""
    for attempt in range(_MIGRATION_ATTEMPTS):
        try:
            _migrate_once(engine, path)
            return
        except DatabaseError as exc:
            if isinstance(exc, DatabaseTooNewError) or attempt == _MIGRATION_ATTEMPTS - 1:
                raise
            if not isinstance(exc.__cause__, OperationalError | IntegrityError):
                raise
            log.info("migrating %s raced another process (%s); trying again", path, exc)
            time.sleep(0.1 * (attempt + 1))


_MIGRATION_ATTEMPTS = 5


def _migrate_once(engine: Engine, path: Path) -> None:
    try:
        with engine.begin() as conn:
            version = conn.exec_driver_sql("PRAGMA user_version").scalar_one()
            if version > SCHEMA_VERSION:
                raise DatabaseTooNewError(
                    f"{path} was written by a newer desktop_dedup (database schema {version}, "
                    f"this version understands up to {SCHEMA_VERSION}). Update desktop_dedup or "
                    "choose another database."
                )
            for step in range(version, SCHEMA_VERSION):
                log.info("migrating %s from schema %d to %d", path, step, step + 1)
                MIGRATIONS[step](conn)
                conn.exec_driver_sql(f"PRAGMA user_version={step + 1}")
    except DatabaseError:
        raise
    except Exception as exc:  # sqlite3.DatabaseError: not a database, corrupt, read-only ...
        cause = getattr(exc, "orig", None) or exc  # the driver's own words, not SQLAlchemy's
        raise DatabaseError(f"cannot open the database {path}: {cause}") from exc


def explain_query_plan(engine: Engine, sql: str, params: dict) -> list[str]:
    """SQLite's EXPLAIN QUERY PLAN details for ``sql`` (used by tests and benchmarks)."""
    with engine.connect() as conn:
        rows = conn.execute(text("EXPLAIN QUERY PLAN " + sql), params).all()
    return [row[-1] for row in rows]
