"""The SQLite store: block-indexed lookups, WAL, schema versions, and refusing what it cannot use.

Everything runs against real SQLite files in tmp_path; the CLI checks run the real entry point
in a subprocess so the message a user sees is what is asserted.
"""

from __future__ import annotations

import json
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from support.close_family import write_close_family

from desktop_dedup.core import grouping
from desktop_dedup.core.errors import DatabaseError, DatabaseTooNewError
from desktop_dedup.core.store import SCHEMA_VERSION, Store, explain_query_plan

MASK64 = (1 << 64) - 1


def to_signed(u: int) -> int:
    return u - (1 << 64) if u >= 1 << 63 else u


def hamming(a: int, b: int) -> int:
    return ((a ^ b) & MASK64).bit_count()


def doc_row(i: int, simhash: int | None) -> dict:
    return {
        "path": f"/docs/{i:06d}.txt",
        "size": 100 + i,
        "mtime_ns": 1_700_000_000_000_000_000 + i,
        "content_hash": f"{i:032x}",
        "text_hash": f"{i:032x}",
        "simhash": simhash,
        "token_count": 50,
        "text_chars": 200,
        "format": "txt",
        "status": "ok",
        "error": None,
        "fp_version": 1,
    }


def flip_bits(value: int, n: int, rng: random.Random) -> int:
    u = value & MASK64
    for bit in rng.sample(range(64), n):
        u ^= 1 << bit
    return to_signed(u)


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def filled_store(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Store, dict[int, int], list[int]]:
    """~3,000 fingerprints: random ones plus clusters around centres at 0..8 flipped bits.

    Clusters make sure every k has true neighbours to find (random 64-bit values almost never
    lie within 6 bits of each other), and both signs of the 64-bit value are present.
    """
    rng = random.Random(20261122)
    values: list[int] = [to_signed(rng.getrandbits(64)) for _ in range(1500)]
    centres = [to_signed(rng.getrandbits(64)) for _ in range(60)]
    # Centres near the sign bit boundary as well: signed/unsigned mix-ups show up there.
    centres += [to_signed((1 << 63) | rng.getrandbits(20)), rng.getrandbits(20)]
    for c in centres:
        values.append(c)
        for _ in range(24):
            values.append(flip_bits(c, rng.randint(0, 8), rng))
    values += [0, -1, to_signed(1 << 63), (1 << 63) - 1]
    if request.param == "postgresql":
        target = request.getfixturevalue("postgres_cluster").new_database()
    else:
        target = tmp_path_factory.mktemp("store") / "index.sqlite"
    store = Store(target)
    store.upsert_documents([doc_row(i, v) for i, v in enumerate(values)])
    store.upsert_documents([doc_row(len(values), None) | {"status": "short"}])
    by_id = {doc_id: simhash for doc_id, simhash in _all_fingerprints(store)}
    assert len(by_id) == len(values)
    yield store, by_id, centres + [0, -1, to_signed(1 << 63)]
    store.close()


def _all_fingerprints(store: Store) -> list[tuple[int, int]]:
    with store.engine.connect() as conn:
        sql = "SELECT id, simhash FROM documents WHERE simhash IS NOT NULL"
        return [tuple(r) for r in conn.exec_driver_sql(sql)]


@pytest.mark.parametrize("k", [3, 7, 10])
def test_lookup_plan_uses_the_four_block_indexes(filled_store, k) -> None:
    """Up to k = 3 one probe per block; wider radii probe each block with every value within
    k // 4 bits of it (multi-probe), still through the four block indexes, never a scan."""
    store, _, _ = filled_store
    if store.dialect == "postgresql":
        # At 3,000 rows a sequential scan is cheaper and PostgreSQL rightly takes it; with
        # sequential scans priced out, each probe must be answerable by its block index (a
        # missing index fails here). The benchmark shows the plan it picks by itself at scale.
        with store.engine.connect() as conn:
            conn.exec_driver_sql("SET enable_seqscan = off")
            sql = "EXPLAIN (COSTS OFF) " + Store.lookup_sql(-123456789, k)
            plan = [r[0] for r in conn.exec_driver_sql(sql)]
        for block in ("b0", "b1", "b2", "b3"):
            assert any(
                f"Scan using ix_documents_{block} " in line
                or f"Scan on ix_documents_{block}" in line
                for line in plan
            ), plan
        assert not any("Seq Scan on documents" in line for line in plan), plan
        return
    # Each probe is answered by its block index alone (schema 10: each holds the simhash):
    # fetching each row found from the table took 0.33 s of the 0.83 s that merging 1,000 new
    # documents into 1,000,000 took (bench_incremental).
    for sql in (Store.lookup_sql(-123456789, k), Store._EXACT_LOOKUP.text):
        params = dict.fromkeys(("b0", "b1", "b2", "b3"), 7)
        plan = explain_query_plan(store.engine, sql, params if ":b0" in sql else {})
        searches = [line for line in plan if "documents" in line]
        assert len(searches) == 4, plan
        for block in ("b0", "b1", "b2", "b3"):
            wanted = f"USING COVERING INDEX ix_documents_{block} ({block}=?)"
            assert any(wanted in line for line in searches), plan
        # No full table scan and no full index scan of documents.
        assert not any(line.startswith("SCAN") and "documents" in line for line in plan), plan
        assert all(line.startswith("SEARCH documents USING COVERING") for line in searches)


@pytest.mark.parametrize("k", [0, 1, 2, 3, 4, 5, 6, 7, 10, 12])
def test_lookup_near_equals_brute_force(filled_store, k: int) -> None:
    store, by_id, centres = filled_store
    rng = random.Random(k)
    queries = centres[:20] + [flip_bits(c, rng.randint(0, 4), rng) for c in centres[20:40]]
    queries += [to_signed(rng.getrandbits(64)) for _ in range(5)]
    found_any = 0
    for q in queries:
        expected = sorted((i, hamming(q, v)) for i, v in by_id.items() if hamming(q, v) <= k)
        got = sorted(store.lookup_near(q, k))
        assert got == expected, f"k={k} query={q}"
        found_any += len(expected)
    assert found_any > len(queries)  # the clusters did give neighbours to find


def test_wal_mode_and_schema_version_on_disk(tmp_path: Path) -> None:
    path = tmp_path / "index.sqlite"
    Store(path).close()
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert {"documents", "ignored_pairs", "scan_runs", "settings", "groups"} <= tables
    # Opening again is a no-op migration: the version stays and data survives.
    store = Store(path)
    store.set_setting("probe", {"a": 1})
    store.close()
    store = Store(path)
    assert store.get_setting("probe") == {"a": 1}
    store.close()


def _schema(conn: sqlite3.Connection) -> list[tuple[str, str, str, str]]:
    return sorted(
        conn.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'"
        ).fetchall()
    )


def test_a_new_index_file_has_the_tables_every_release_of_schema_7_to_10_wrote(
    tmp_path: Path,
) -> None:
    """An index file is opened by every release that knows its schema version. The tables
    were declared as ORM models until the store moved to Core tables (store/schema.py, for
    0.2-0.4 s of start-up): no column's type, nullability, key or index may differ from what
    the releases of schema 7 wrote (tests/data/store/schema_7.sql, from the release before).
    Schema 8 changed no table: it fills the key index with the long documents' keys. Schema 9
    adds one table, the documents close to a group (tests/data/store/schema_9.sql); schema 10
    has the simhash in each block index (tests/data/store/schema_10.sql)."""
    Store(tmp_path / "index.sqlite").close()
    expected = sqlite3.connect(":memory:")
    for version in (7, 9, 10):
        script = Path(__file__).parent / f"data/store/schema_{version}.sql"
        expected.executescript(script.read_text())
    assert SCHEMA_VERSION == 10  # a version that changes a table is a new file of its own here
    with sqlite3.connect(tmp_path / "index.sqlite") as made:
        assert _schema(made) == _schema(expected)


def test_a_version_8_index_gets_the_documents_close_to_its_groups_at_its_next_scan(tmp_path):
    """Schema 9 stores the documents close to a group (in no group: the same as one member,
    not as every one). An index of schema 8 has no such table: opening it adds the table, and
    the next scan groups the whole index again (its grouping key names the groups' version),
    so an unchanged folder's close document is found without reading a file again."""
    from desktop_dedup.core.service import DedupService

    folder = tmp_path / "docs"
    write_close_family(folder)
    path = tmp_path / "index.sqlite"
    with DedupService(path) as service:
        service.add_folder(folder)
        service.scan()
        (group,) = service.groups()
        assert [Path(c.path).name for c in group.close] == ["edited-b.txt"]
    con = sqlite3.connect(path)
    con.execute("DROP TABLE close_documents")
    (stored,) = con.execute("SELECT value FROM settings WHERE key='grouping_key'").fetchone()
    key = json.loads(stored)
    # the key of a release of schema 8: the groups' version was not part of it
    assert key[4] == grouping.GROUPS_VERSION
    del key[4]
    con.execute("UPDATE settings SET value = ? WHERE key = 'grouping_key'", (json.dumps(key),))
    con.execute("PRAGMA user_version=8")
    con.commit()
    con.close()

    with DedupService(path) as service:
        (group,) = service.groups()
        assert group.close == []  # the table is there, empty until the index is grouped again
        summary = service.scan()
        assert summary.files_fingerprinted == 0
        (group,) = service.groups()
        assert [Path(c.path).name for c in group.close] == ["edited-b.txt"]
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_version_9_index_gets_block_indexes_that_hold_the_simhash(tmp_path):
    """Schema 10: each block index holds the simhash beside the block (SQLite's covering
    index; PostgreSQL's have included it since schema 5), so a lookup reads no row of the
    table. Opening an index of schema 9 replaces its four block indexes; its rows and what
    a lookup finds stay."""
    rng = random.Random(9)
    values = [to_signed(rng.getrandbits(64)) for _ in range(300)]
    values += [flip_bits(values[0], n, rng) for n in (1, 2, 3)]
    path = tmp_path / "index.sqlite"
    store = Store(path)
    store.upsert_documents([doc_row(i, v) for i, v in enumerate(values)])
    before = sorted(store.lookup_near(values[0], 3))
    store.close()
    con = sqlite3.connect(path)
    for i in range(4):  # the block indexes as schema 9 had them
        con.execute(f"DROP INDEX ix_documents_b{i}")
        con.execute(f"CREATE INDEX ix_documents_b{i} ON documents (b{i})")
    con.execute("PRAGMA user_version=9")
    con.commit()
    con.close()

    store = Store(path)
    assert sorted(store.lookup_near(values[0], 3)) == before and len(before) == 4
    plan = explain_query_plan(store.engine, Store.lookup_sql(values[0], 3), {})
    assert sum("USING COVERING INDEX" in line for line in plan) == 4, plan
    store.close()
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 10
    made = dict(
        con.execute("SELECT name, sql FROM sqlite_master WHERE name LIKE 'ix_documents_b%'")
    )
    assert made == {
        f"ix_documents_b{i}": f"CREATE INDEX ix_documents_b{i} ON documents (b{i}, simhash)"
        for i in range(4)
    }
    assert con.execute("SELECT count(*) FROM documents").fetchone()[0] == len(values)


def _run_cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "desktop_dedup", *args],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_newer_database_is_refused_by_store_and_cli(tmp_path: Path) -> None:
    path = tmp_path / "future.sqlite"
    Store(path).close()
    with sqlite3.connect(path) as conn:
        conn.execute(f"PRAGMA user_version={SCHEMA_VERSION + 1}")
    with pytest.raises(DatabaseTooNewError) as info:
        Store(path)
    message = str(info.value)
    # README: "A database written by a newer version is refused with a clear message".
    expected = (
        f"{path} was written by a newer desktop_dedup (database schema {SCHEMA_VERSION + 1}, "
        f"this version understands up to {SCHEMA_VERSION}). Update desktop_dedup or choose "
        "another database."
    )
    assert message == expected
    # Refused, not touched: the version is still the future one.
    with sqlite3.connect(path) as conn:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION + 1

    for args in (["report", "--db", str(path)], ["scan", str(tmp_path), "--db", str(path)]):
        proc = _run_cli(*args)
        assert proc.returncode == 1, proc.stderr
        assert expected in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
        assert "Traceback" not in proc.stderr


def test_non_database_file_is_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "notes.txt"
    path.write_text("These are my notes, not a database.\n" * 100, encoding="utf-8")
    before = path.read_bytes()
    with pytest.raises(DatabaseError, match="cannot open the database"):
        Store(path)
    proc = _run_cli("report", "--db", str(path))
    assert proc.returncode == 1
    assert f"cannot open the database {path}" in proc.stderr
    assert "Traceback" not in proc.stderr
    assert path.read_bytes() == before


def test_a_version_1_database_is_migrated_in_place_keeping_its_rows(tmp_path):
    import sqlite3

    from desktop_dedup.core.store.engine import MIGRATIONS, make_engine

    path = tmp_path / "v1.sqlite"
    engine = make_engine(path)
    with engine.begin() as conn:  # exactly what version 1 of the app created
        MIGRATIONS[0](conn)
        conn.exec_driver_sql("PRAGMA user_version=1")
        conn.exec_driver_sql("DROP INDEX IF EXISTS ix_documents_status")
        conn.exec_driver_sql("DROP INDEX IF EXISTS ix_documents_marked")
        # version 1 had no sketch (schema 3): the metadata's create_all makes today's tables
        conn.exec_driver_sql("DROP INDEX IF EXISTS ix_documents_shingles")
        conn.exec_driver_sql("ALTER TABLE documents DROP COLUMN shingles")
        conn.exec_driver_sql("ALTER TABLE documents DROP COLUMN sketch")
        conn.exec_driver_sql("ALTER TABLE groups DROP COLUMN min_similarity")
        # nor machine names (schema 4)
        conn.exec_driver_sql("ALTER TABLE journal DROP COLUMN machine")
        conn.exec_driver_sql("ALTER TABLE scan_runs DROP COLUMN machine")
        # a marked flag on each document, not marks per person (schema 6)
        conn.exec_driver_sql("DROP TABLE marks")
        conn.exec_driver_sql("DROP INDEX ix_documents_size")
        conn.exec_driver_sql("ALTER TABLE documents ADD COLUMN marked BOOLEAN NOT NULL DEFAULT 0")
        # nor the lines of short documents (schema 7)
        conn.exec_driver_sql("DROP TABLE short_lines")
        # nor the documents close to a group (schema 9)
        conn.exec_driver_sql("DROP TABLE close_documents")
        conn.exec_driver_sql(
            "INSERT INTO journal (time, action, path, destination, content_hash, size, ok, "
            "reason) VALUES ('2026-01-01 00:00:00', 'trash', '/gone.txt', '', '', 1, 0, "
            "'in progress')"
        )
        conn.exec_driver_sql(
            "INSERT INTO documents (path, size, mtime_ns, status, token_count, text_chars, "
            "format, fp_version, marked) VALUES ('/x.txt', 1, 1, 'ok', 0, 0, 'txt', 1, 1)"
        )
        # a threshold in bits, as versions before schema 3 saved it
        conn.exec_driver_sql(
            "INSERT INTO settings (key, value) VALUES ('settings', "
            '\'{"max_distance": 5, "min_size": 7}\')'
        )
    engine.dispose()

    store = Store(path)
    store.close()
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 10
    # an intent from before machine names was this machine's: it is still there to settle
    assert con.execute("SELECT path, machine FROM journal").fetchall() == [("/gone.txt", "")]
    assert "machine" in {r[1] for r in con.execute("PRAGMA table_info(scan_runs)")}
    columns = {r[1] for r in con.execute("PRAGMA table_info(documents)")}
    assert {"sketch", "shingles"} <= columns
    assert "min_similarity" in {r[1] for r in con.execute("PRAGMA table_info(groups)")}
    # the old bits threshold meant the final answer and is dropped; other settings stay
    saved = con.execute("SELECT value FROM settings WHERE key = 'settings'").fetchone()[0]
    assert json.loads(saved) == {"min_size": 7}
    indexes = {r[0] for r in con.execute("SELECT name FROM sqlite_master WHERE type='index'")}
    assert {"ix_documents_status", "ix_documents_size"} <= indexes
    # the flag became the one person's mark (a SQLite index's person is "")
    assert "marked" not in columns and "ix_documents_marked" not in indexes
    assert con.execute("SELECT path FROM documents").fetchall() == [("/x.txt",)]
    assert con.execute("SELECT user_name, doc_id FROM marks").fetchall() == [("", 1)]
    assert con.execute("SELECT count(*) FROM short_lines").fetchone() == (0,)
    assert con.execute("SELECT count(*) FROM close_documents").fetchone() == (0,)
    plan = " ".join(
        r[-1]
        for r in con.execute(
            "EXPLAIN QUERY PLAN SELECT count(*) FROM documents WHERE status = 'problem'"
        )
    )
    assert "ix_documents_status" in plan


def test_a_version_6_database_gets_the_lines_of_its_short_documents_from_their_sketches(
    tmp_path,
):
    """Schema 7 indexes the lines of short documents (how many texts hold a line tells a banner
    from a note). An index written before has none: migrating reads them from the stored
    sketches, no file again, and they are the lines a scan writes; a long document has none."""
    from desktop_dedup.core.service import DedupService

    folder = tmp_path / "docs"
    folder.mkdir()
    banner = "Reposted from the community newsletter. All rights belong to the original author."
    notes = ["Water the plants on the balcony twice a day.", "The report is due on Friday."]
    for i, note in enumerate(notes):
        (folder / f"{i}.txt").write_text(note, encoding="utf-8")
        (folder / f"{i}-banner.txt").write_text(f"{banner}\n\n{note}", encoding="utf-8")
    (folder / "long.txt").write_text(" ".join(f"word{i} text" for i in range(400)))
    path = tmp_path / "index.sqlite"
    with DedupService(path) as service:
        service.add_folder(folder)
        service.scan()
    con = sqlite3.connect(path)
    written = sorted(con.execute("SELECT line_id, doc_id FROM short_lines").fetchall())
    per_line = dict(
        con.execute("SELECT line_id, count(*) FROM short_lines GROUP BY line_id").fetchall()
    )
    assert sorted(per_line.values()) == [2, 2, 2]  # each note twice, the banner twice
    long_id = con.execute("SELECT id FROM documents WHERE path LIKE '%long.txt'").fetchone()[0]
    assert long_id not in {d for _, d in written}
    con.execute("DROP TABLE short_lines")
    con.execute("PRAGMA user_version=6")
    con.commit()
    con.close()

    Store(path).close()
    con = sqlite3.connect(path)
    assert con.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert sorted(con.execute("SELECT line_id, doc_id FROM short_lines").fetchall()) == written


@pytest.mark.parametrize("k", [0, 3, 5, 10])
def test_lookup_near_many_equals_brute_force(filled_store, k: int) -> None:
    """Many queries at once (after a scan): the union of every query's neighbours, on each
    engine (PostgreSQL checks the distance in the server, SQLite in numpy)."""
    store, by_id, centres = filled_store
    rng = random.Random(100 + k)
    queries = [flip_bits(c, rng.randint(0, 4), rng) for c in centres[:30]]
    queries += [to_signed(rng.getrandbits(64)) for _ in range(5)]
    expected = {i for i, v in by_id.items() if any(hamming(q, v) <= k for q in queries)}
    assert store.lookup_near_many(queries, k) == expected
    assert len(expected) >= 10  # the clusters give neighbours to find
