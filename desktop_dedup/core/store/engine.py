"""Engine creation for both engines, and schema migrations.

An index is a SQLite file (the default: a path) or a PostgreSQL database shared by a team (a
``postgresql://user@host/dbname`` URL; credentials come from the URL, ``~/.pgpass`` or the
``PG*`` environment variables, as libpq reads them, and are never logged: see
:func:`display_name`).

Schema versions: ``MIGRATIONS[i]`` takes a database from version i to i+1. SQLite keeps the
version in ``PRAGMA user_version`` (every existing index file has it there); PostgreSQL has no
such pragma, so it keeps it in the one-row table ``desktop_dedup_schema``, and a migration holds
a transaction-scoped advisory lock so that two machines opening a new database at once migrate it
once. PostgreSQL's DDL is transactional, so a failed migration leaves the old version whole. A
database whose version is newer than ``SCHEMA_VERSION`` was written by a newer desktop_dedup and
is refused rather than risk corrupting it.
"""

from __future__ import annotations

import getpass
import json
import logging
import os
import re
import socket
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from sqlalchemy import (
    BigInteger,
    Engine,
    LargeBinary,
    create_engine,
    event,
    func,
    inspect,
    select,
    text,
)
from sqlalchemy.engine import Connection, make_url
from sqlalchemy.exc import ArgumentError, IntegrityError, OperationalError
from sqlalchemy.ext.compiler import compiles
from sqlalchemy.sql.functions import FunctionElement

from desktop_dedup.core.errors import DatabaseError, DatabaseTooNewError
from desktop_dedup.core.store.schema import (
    CloseDocumentRow,
    DocumentRow,
    ShortLineRow,
    SketchKeyRow,
    metadata,
)

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
    _pragmas_and_functions(dbapi_conn, cur)


def _on_connect_read_only(dbapi_conn: sqlite3.Connection, _record: object) -> None:
    _pragmas_and_functions(dbapi_conn, dbapi_conn.cursor())


def _pragmas_and_functions(dbapi_conn: sqlite3.Connection, cur: sqlite3.Cursor) -> None:
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.execute("PRAGMA busy_timeout=10000")
    cur.execute("PRAGMA temp_store=MEMORY")
    cur.execute("PRAGMA cache_size=-65536")  # 64 MiB page cache
    cur.close()
    dbapi_conn.create_function("regexp", 2, _regexp, deterministic=True)
    dbapi_conn.create_function("hamming", 2, _popcount64, deterministic=True)


_URL_SCHEMES = ("postgresql", "postgres")


def machine_name() -> str:
    """This machine's name in a shared index: ``DESKTOP_DEDUP_MACHINE``, else the host name."""
    return os.environ.get("DESKTOP_DEDUP_MACHINE") or socket.gethostname() or "localhost"


def user_name() -> str:
    """The person whose marks these are in a shared index: ``DESKTOP_DEDUP_USER``, else the
    operating system's login name. Not the database role: the roles a team is given (README:
    scanner, reviewer) are shared by everyone of a kind, so they do not tell people apart."""
    name = os.environ.get("DESKTOP_DEDUP_USER")
    if name:
        return name
    try:
        return getpass.getuser()
    except (OSError, KeyError, ImportError):  # no login name (a container's numeric uid)
        return str(os.getuid()) if hasattr(os, "getuid") else "user"


def is_database_url(target: object) -> bool:
    """Whether ``target`` names a database server (a URL) rather than an index file."""
    return isinstance(target, str) and re.match(r"^[A-Za-z][A-Za-z0-9+.-]*://", target) is not None


def display_name(target: str | Path) -> str:
    """What may be shown or logged for a database: a file's path, or a URL without its
    password."""
    if is_database_url(target):
        try:
            return make_url(str(target)).render_as_string(hide_password=True)
        except ArgumentError:
            return "<malformed database URL>"
    return str(target)


def _server_url(target: str):
    try:
        url = make_url(target)
    except ArgumentError as exc:
        raise DatabaseError(f"not a database URL: {display_name(target)}") from exc
    backend = url.drivername.split("+")[0]
    if backend not in _URL_SCHEMES:
        raise DatabaseError(
            f"unsupported database {backend!r} in {display_name(target)}: use an index file or "
            "a postgresql://user@host/dbname URL"
        )
    # psycopg 3 (a dependency); SQLAlchemy's default for postgresql:// would be psycopg2.
    return url.set(drivername="postgresql+psycopg")


def make_engine(target: str | Path) -> Engine:
    """An engine for an index file (SQLite) or a ``postgresql://`` URL."""
    if is_database_url(target):
        url = _server_url(str(target))
        # No pre-ping (a round trip per checkout, a lookup's whole budget): a connection the
        # server dropped fails once, SQLAlchemy then discards the pool, and the next one works.
        return create_engine(
            url,
            pool_recycle=3600,
            connect_args={"application_name": "desktop_dedup", "connect_timeout": 10},
        )
    path = Path(target)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise DatabaseError(f"cannot create the database folder {path.parent}: {exc}") from exc
    if _read_only_file(path):
        return _read_only_engine(path)
    engine = create_engine(f"sqlite:///{path}", future=True)
    event.listen(engine, "connect", _on_connect)
    return engine


def _read_only_file(path: Path) -> bool:
    """An index file this process may read but not write (a colleague's, a read-only share, a
    file set read-only): opened read-only, so that reports and the review work on it."""
    return (
        path.is_file()
        and os.access(path, os.R_OK)
        and not (os.access(path, os.W_OK) and os.access(path.parent, os.W_OK))
    )


def _read_only_engine(path: Path) -> Engine:
    """A read-only engine for an index file. SQLite reads a WAL database through its ``-shm``
    file, which a read-only folder cannot hold: then, if no write-ahead log is pending, the file
    is opened as immutable (no locks, no shared memory: nothing can change it from here)."""
    uri = Path(path).as_uri().replace("file://", "file:", 1)
    wal = Path(f"{path}-wal")
    pending = wal.exists() and wal.stat().st_size > 0
    shm_possible = Path(f"{path}-shm").exists() or os.access(path.parent, os.W_OK)

    def connect() -> sqlite3.Connection:
        mode = "ro" if shm_possible or pending else "ro&immutable=1"
        return sqlite3.connect(f"{uri}?mode={mode}", uri=True, check_same_thread=False)

    engine = create_engine("sqlite://", creator=connect, future=True)
    event.listen(engine, "connect", _on_connect_read_only)
    engine.desktop_dedup_read_only = True  # type: ignore[attr-defined]
    return engine


def is_read_only(engine: Engine) -> bool:
    """Whether ``engine`` was opened read-only (:func:`_read_only_engine`)."""
    return bool(getattr(engine, "desktop_dedup_read_only", False))


# --- per-engine SQL ---------------------------------------------------------------------------


class hamming(FunctionElement):  # noqa: N801 - an SQL function's name
    """Bits that differ between two signed 64-bit simhashes, in each engine's own terms:
    SQLite's registered ``hamming`` (see :func:`_on_connect`), PostgreSQL's ``bit_count`` of
    the XOR seen as 64 bits."""

    type = BigInteger()
    inherit_cache = True


@compiles(hamming)
def _hamming_sqlite(element, compiler, **kw):
    return f"hamming({compiler.process(element.clauses, **kw)})"


@compiles(hamming, "postgresql")
def _hamming_postgresql(element, compiler, **kw):
    a, b = (compiler.process(c, **kw) for c in element.clauses)
    return f"bit_count((({a}) # ({b}))::bit(64))"


def signed64(value: int) -> int:
    """The signed 64-bit view of a 64-bit value that SQLite's INTEGER (and PostgreSQL's BIGINT)
    holds: candidate keys and line ids are unsigned hashes."""
    value = int(value) & ((1 << 64) - 1)
    return value - (1 << 64) if value >= 1 << 63 else value


# --- migrations -----------------------------------------------------------------------------


def _v0_to_v1(conn: Connection) -> None:
    """Version 1: the initial schema."""
    metadata.create_all(conn)


def _v1_to_v2(conn: Connection) -> None:
    """Version 2: indexes for the status line's counts (problems, marked) on large indexes."""
    conn.exec_driver_sql("CREATE INDEX IF NOT EXISTS ix_documents_status ON documents (status)")
    if "marked" in _columns(conn, "documents"):  # gone since version 6 (a new database)
        conn.exec_driver_sql("CREATE INDEX IF NOT EXISTS ix_documents_marked ON documents (marked)")


def _columns(conn: Connection, table: str) -> set[str]:
    return {c["name"] for c in inspect(conn).get_columns(table)}


def _blob(conn: Connection) -> str:
    return LargeBinary().compile(dialect=conn.dialect)  # BLOB on SQLite, BYTEA on PostgreSQL


def _v2_to_v3(conn: Connection) -> None:
    """Version 3: two-stage matching. Documents carry the sketch that verifies a candidate pair
    and its indexed candidate keys (filled in by the next scan: fingerprint version 9 re-reads
    every file), groups their lowest
    verified similarity, and the user's threshold is a share of common text instead of bits: an
    old ``max_distance`` setting meant the *final* answer's bits and is dropped (the candidate
    radius now has its own default)."""
    if "sketch" not in _columns(conn, "documents"):
        conn.exec_driver_sql(f"ALTER TABLE documents ADD COLUMN sketch {_blob(conn)}")
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
            conn.execute(
                text("UPDATE settings SET value = :value WHERE key = 'settings'"),
                {"value": json.dumps(stored)},
            )


def _v3_to_v4(conn: Connection) -> None:
    """Version 4: several machines, one index. Removal intents and scan runs name the machine
    that made them, so a machine settles only its own interrupted removals (from its own disk)
    and calls only its own runs stale."""
    for table in ("journal", "scan_runs"):
        if "machine" not in _columns(conn, table):
            conn.exec_driver_sql(
                f"ALTER TABLE {table} ADD COLUMN machine VARCHAR(255) NOT NULL DEFAULT ''"
            )


def _v4_to_v5(conn: Connection) -> None:
    """Version 5: on PostgreSQL the block indexes carry the simhash and the id (INCLUDE), so a
    lookup is an index-only scan (schema.py). Nothing to do on SQLite."""
    if conn.dialect.name != "postgresql":
        return
    _remake_block_indexes(
        conn,
        "SELECT indexdef FROM pg_indexes WHERE indexname = :n",
        "INCLUDE",
        "CREATE INDEX ix_documents_b{i} ON documents (b{i}) INCLUDE (simhash, id)",
    )


def _remake_block_indexes(conn: Connection, ddl_of: str, holding: str, create: str) -> None:
    """Make each of the four block indexes again with ``create`` (its ``{i}`` the block) where
    its definition, read by ``ddl_of`` (its name as ``:n``), does not hold ``holding``."""
    for i in range(4):
        ddl = conn.execute(text(ddl_of), {"n": f"ix_documents_b{i}"}).scalar_one_or_none()
        if ddl is None or holding not in ddl:
            conn.exec_driver_sql(f"DROP INDEX IF EXISTS ix_documents_b{i}")
            conn.exec_driver_sql(create.format(i=i))


def _v5_to_v6(conn: Connection) -> None:
    """Version 6: several people, several machines.

    Marks move to a table of their own, one row per person and document (``marks``): the
    ``documents.marked`` flag was shared by everyone using the index. On SQLite (one person)
    the marks keep user ""; on PostgreSQL they become the migrating person's (user_name()).

    On PostgreSQL every path becomes a location (volumes.Locator): a path on one of the
    migrating machine's network mounts becomes the share's location, any other path a location
    on the migrating machine (file://MACHINE/...). Paths stored before were written by whoever
    scanned; the machine that migrates claims the local ones, and another machine's next scan
    of its own folders writes them again under its name (README). SQLite keeps plain paths: an
    index file is one machine's.

    Documents get an index on their size (a scan looks up reusable fingerprints by size)."""
    from desktop_dedup.core.store.schema import MarkRow

    MarkRow.__table__.create(conn, checkfirst=True)
    if "marked" in _columns(conn, "documents"):
        who = "" if conn.dialect.name == "sqlite" else user_name()
        conn.execute(
            text(
                "INSERT INTO marks (user_name, doc_id) SELECT :who, id FROM documents WHERE marked"
            ),
            {"who": who},
        )
        conn.exec_driver_sql("DROP INDEX IF EXISTS ix_documents_marked")
        conn.exec_driver_sql("ALTER TABLE documents DROP COLUMN marked")
    conn.exec_driver_sql("CREATE INDEX IF NOT EXISTS ix_documents_size ON documents (size)")
    if conn.dialect.name == "postgresql":
        _paths_to_locations(conn)


# every column that holds a document's or folder's path, rewritten by _paths_to_locations
_PATH_COLUMNS = (
    ("documents", "path"),
    ("groups", "reference_path"),
    ("folders", "path"),
    ("ignored_pairs", "path_a"),
    ("ignored_pairs", "path_b"),
    ("scan_problems", "path"),
)


def _paths_to_locations(conn: Connection) -> None:
    from desktop_dedup.core.volumes import Locator

    locator = Locator(machine_name())
    for table, column in _PATH_COLUMNS:
        # the network mounts first, the deepest first; each statement rewrites only plain
        # paths ('/...'), so none is rewritten twice
        for point, sid in locator.network_mounts():
            conn.execute(
                text(
                    f"UPDATE {table} SET {column} = :sid || substr({column}, :n + 1) "
                    f"WHERE substr({column}, 1, :n + 1) = :point || '/'"
                ),
                {"sid": sid, "n": len(point.rstrip("/")), "point": point.rstrip("/")},
            )
        conn.execute(
            text(
                f"UPDATE {table} SET {column} = :prefix || {column} "
                f"WHERE substr({column}, 1, 1) = '/'"
            ),
            {"prefix": f"file://{locator.machine}"},
        )
    row = conn.exec_driver_sql(
        "SELECT value FROM settings WHERE key = 'scan_reference_roots'"
    ).fetchone()
    if row is not None:
        roots = json.loads(row[0])
        if isinstance(roots, list):  # the last scan's, now the migrating machine's (see
            # Store.set_scan_reference_roots: one entry per machine on a server)
            mine = [locator.location(r) for r in roots if isinstance(r, str)]
            conn.execute(
                text("UPDATE settings SET value = :v WHERE key = 'scan_reference_roots'"),
                {"v": json.dumps({locator.machine: mine} if mine else {})},
            )


def _index_from_sketches(
    conn: Connection,
    which: str,
    width: int | None,
    values: Callable[[bytes], list[int]],
    table: str,
    column: str,
) -> None:
    """Fill ``table`` (``column``, doc_id) with ``values(sketch)`` of the matchable documents
    ``WHERE {which}``, read from their stored sketches (the first ``width`` bytes of each, or
    all) a thousand documents at a time, so a large index is not held in memory: no file is
    read again."""
    from desktop_dedup.core.models import DocStatus

    ids = sorted(conn.execute(text(f"SELECT id FROM documents WHERE {which}")).scalars())
    matchable = {str(DocStatus.OK), str(DocStatus.SHORT)}
    sketch = DocumentRow.sketch if width is None else func.substr(DocumentRow.sketch, 1, width)
    for i in range(0, len(ids), 1000):
        part = ids[i : i + 1000]
        rows = conn.execute(
            select(DocumentRow.id, sketch, DocumentRow.status).where(DocumentRow.id.in_(part))
        ).all()
        found = [
            {"value": signed64(k), "doc_id": doc_id}
            for doc_id, raw, status in rows
            if raw is not None and status in matchable
            for k in values(bytes(raw))
        ]
        if found:
            conn.execute(
                text(
                    f"INSERT INTO {table} ({column}, doc_id) VALUES (:value, :doc_id) "
                    "ON CONFLICT DO NOTHING"
                ),
                found,
            )


def _v6_to_v7(conn: Connection) -> None:
    """Version 7: the lines of short documents, indexed (schema.ShortLineRow), read from the
    stored sketches (no file is read again): the two-sided comparison asks how many texts hold
    a line. The short documents are found through the index on their shingle count."""
    from desktop_dedup.core.sketch import SKETCH_SIZE, raw_line_ids

    ShortLineRow.__table__.create(conn, checkfirst=True)
    which = f"shingles <= {int(SKETCH_SIZE)}"
    _index_from_sketches(conn, which, None, raw_line_ids, "short_lines", "line_id")


def _v7_to_v8(conn: Connection) -> None:
    """Version 8: long documents are keyed too (sketch.candidate_keys: a revision that renames
    one term everywhere can move a long text's simhash past the candidate radius). Their keys
    are the first values their stored sketches already hold (sketch.raw_candidate_keys): the
    key index gets them from the start of each sketch."""
    from desktop_dedup.core.sketch import (
        KEYED_MAX_SHINGLES,
        LONG_KEYS_PREFIX_BYTES,
        raw_candidate_keys,
    )

    which = f"shingles > {int(KEYED_MAX_SHINGLES)}"
    _index_from_sketches(
        conn, which, LONG_KEYS_PREFIX_BYTES, raw_candidate_keys, "sketch_keys", "key"
    )


def _v8_to_v9(conn: Connection) -> None:
    """Version 9: the documents close to a group that the rule against chaining keeps out
    of it (schema.CloseDocumentRow). Empty until the index is grouped again, which the next
    scan does in full (the grouping key holds grouping.GROUPS_VERSION)."""
    CloseDocumentRow.__table__.create(conn, checkfirst=True)


def _v9_to_v10(conn: Connection) -> None:
    """Version 10: on SQLite each block index holds the simhash after its block, so a lookup
    reads the index alone (schema.py); an index file made before has its four block indexes
    made again (a few seconds at a million documents, once). PostgreSQL's hold it already
    (INCLUDE, schema 5)."""
    if conn.dialect.name == "postgresql":
        return
    _remake_block_indexes(
        conn,
        "SELECT sql FROM sqlite_master WHERE type = 'index' AND name = :n",
        "simhash",
        "CREATE INDEX ix_documents_b{i} ON documents (b{i}, simhash)",
    )


MIGRATIONS: list[Callable[[Connection], None]] = [
    _v0_to_v1,
    _v1_to_v2,
    _v2_to_v3,
    _v3_to_v4,
    _v4_to_v5,
    _v5_to_v6,
    _v6_to_v7,
    _v7_to_v8,
    _v8_to_v9,
    _v9_to_v10,
]
SCHEMA_VERSION = len(MIGRATIONS)


def migrate(engine: Engine, path: str | Path) -> None:
    """Bring the schema up to date. Two processes opening a fresh database at once both see
    version 0; the loser of the race fails on what the winner created (or on its lock), so it
    reads the version again and carries on from there: every migration is idempotent. A
    read-only index file is only checked: it must be of this version already."""
    if is_read_only(engine):
        with engine.connect() as conn:
            try:
                version = schema_version(conn)
            except Exception as exc:
                cause = getattr(exc, "orig", None) or exc
                raise DatabaseError(
                    f"cannot open the database {display_name(path)}: {cause}"
                ) from exc
        if version > SCHEMA_VERSION:
            raise DatabaseTooNewError(
                f"{display_name(path)} was written by a newer desktop_dedup (database schema "
                f"{version}, this version understands up to {SCHEMA_VERSION}). Update "
                "desktop_dedup or choose another database."
            )
        if version < SCHEMA_VERSION:
            raise DatabaseError(
                f"{display_name(path)} is read-only and was written by an older desktop_dedup "
                f"(schema {version}); open it once where it can be written to update it"
            )
        return
    for attempt in range(_MIGRATION_ATTEMPTS):
        try:
            _migrate_once(engine, path)
            return
        except DatabaseError as exc:
            if isinstance(exc, DatabaseTooNewError) or attempt == _MIGRATION_ATTEMPTS - 1:
                raise
            if not isinstance(exc.__cause__, OperationalError | IntegrityError):
                raise
            log.info(
                "migrating %s raced another process (%s); trying again", display_name(path), exc
            )
            time.sleep(0.1 * (attempt + 1))


_MIGRATION_ATTEMPTS = 5


_VERSION_TABLE = "desktop_dedup_schema"
_MIGRATION_LOCK = 0x6464_7570  # pg_advisory_xact_lock key: "ddup"


def schema_version(conn: Connection) -> int:
    """The schema version of the database ``conn`` is connected to (0: empty)."""
    if conn.dialect.name == "sqlite":
        return conn.exec_driver_sql("PRAGMA user_version").scalar_one()
    if not inspect(conn).has_table(_VERSION_TABLE):
        return 0
    return conn.exec_driver_sql(f"SELECT version FROM {_VERSION_TABLE}").scalar_one_or_none() or 0


def has_index(target: str | Path) -> bool:
    """Whether ``target`` already holds an index (a read-only command must not create one)."""
    engine = make_engine(target)
    try:
        with engine.connect() as conn:
            return schema_version(conn) > 0
    except DatabaseError:
        raise
    except Exception as exc:
        cause = getattr(exc, "orig", None) or exc
        raise DatabaseError(
            f"cannot open the database {display_name(target)}: {_no_secrets(str(cause))}"
        ) from exc
    finally:
        engine.dispose()


def set_schema_version(conn: Connection, version: int) -> None:
    if conn.dialect.name == "sqlite":
        conn.exec_driver_sql(f"PRAGMA user_version={int(version)}")
        return
    conn.exec_driver_sql(f"CREATE TABLE IF NOT EXISTS {_VERSION_TABLE} (version INTEGER NOT NULL)")
    conn.exec_driver_sql(f"DELETE FROM {_VERSION_TABLE}")
    conn.execute(text(f"INSERT INTO {_VERSION_TABLE} (version) VALUES (:v)"), {"v": int(version)})


def _migrate_once(engine: Engine, path: str | Path) -> None:
    name = display_name(path)
    try:
        with engine.begin() as conn:
            if conn.dialect.name == "postgresql":
                # One migrator at a time across every machine; the others wait, then read the
                # version it left.
                conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _MIGRATION_LOCK})
            version = schema_version(conn)
            if version > SCHEMA_VERSION:
                raise DatabaseTooNewError(
                    f"{name} was written by a newer desktop_dedup (database schema {version}, "
                    f"this version understands up to {SCHEMA_VERSION}). Update desktop_dedup or "
                    "choose another database."
                )
            for step in range(version, SCHEMA_VERSION):
                log.info("migrating %s from schema %d to %d", name, step, step + 1)
                MIGRATIONS[step](conn)
                set_schema_version(conn, step + 1)
    except DatabaseError:
        raise
    except Exception as exc:  # not a database, corrupt, read-only, server unreachable ...
        cause = getattr(exc, "orig", None) or exc  # the driver's own words, not SQLAlchemy's
        raise DatabaseError(f"cannot open the database {name}: {_no_secrets(str(cause))}") from exc


def _no_secrets(message: str) -> str:
    """A driver's message with any password=... it quotes blanked."""
    return re.sub(r"(password\s*=\s*)\S+", r"\1***", message, flags=re.IGNORECASE)


def explain_query_plan(engine: Engine, sql: str, params: dict) -> list[str]:
    """The engine's plan for ``sql``, one line a step (used by tests and benchmarks): SQLite's
    EXPLAIN QUERY PLAN details, PostgreSQL's EXPLAIN lines."""
    with engine.connect() as conn:
        if conn.dialect.name == "postgresql":
            return [r[0] for r in conn.execute(text("EXPLAIN (COSTS OFF) " + sql), params)]
        rows = conn.execute(text("EXPLAIN QUERY PLAN " + sql), params).all()
    return [row[-1] for row in rows]
