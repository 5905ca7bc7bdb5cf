"""A shared index on a real PostgreSQL server (the session's throw-away cluster, conftest.py):
the CLI and the GUI open it by URL, its schema version lives in a table, 64-bit values survive,
and credentials never reach a message or a log. The store and service suites run on both
engines through conftest.db_target; this file holds what only a server has."""

from __future__ import annotations

import json
import logging
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import docgen
import psycopg
import pytest
from sqlalchemy import text

from desktop_dedup.core.errors import DatabaseError, DatabaseTooNewError
from desktop_dedup.core.service import DedupService
from desktop_dedup.core.store import SCHEMA_VERSION, Store, display_name, explain_query_plan
from desktop_dedup.core.volumes import MOUNTINFO_ENV


def cli(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "desktop_dedup.cli", *args],
        capture_output=True,
        text=True,
        timeout=300,
        env={**os.environ, "PYTHONIOENCODING": "utf-8"},
    )


def _psql(url: str, sql: str):
    """Read the database with psycopg directly, not through the code under test."""
    dbname = url.split("/")[3].split("?")[0]
    host = url.split("host=")[1]
    with psycopg.connect(host=host, user="postgres", dbname=dbname, autocommit=True) as conn:
        cur = conn.execute(sql)
        return cur.fetchall() if cur.description is not None else []


def test_cli_scans_and_reports_on_a_postgresql_url(tmp_path: Path, pg_url: str) -> None:
    root = tmp_path / "docs"
    a = docgen.write_txt(root / "a.txt", docgen.SAMPLE_EN)
    shutil.copyfile(a, root / "b.txt")
    docgen.write_docx(root / "c.docx", docgen.SAMPLE_EN)

    empty = cli("report", "--db", pg_url)
    assert empty.returncode != 0
    assert "no index in postgresql://postgres@/" in empty.stderr, empty.stderr

    scan = cli("scan", str(root), "--db", pg_url)
    assert scan.returncode == 0, scan.stderr
    # what the CLI wrote is in the server, read by another client
    rows = _psql(pg_url, "SELECT path, size FROM documents ORDER BY path")
    assert [Path(p).name for p, _ in rows] == ["a.txt", "b.txt", "c.docx"]
    assert [s for _, s in rows] == [os.path.getsize(root / Path(p).name) for p, _ in rows]
    assert _psql(pg_url, "SELECT version FROM desktop_dedup_schema") == [(SCHEMA_VERSION,)]
    report = cli("report", "--db", pg_url, "--format", "csv")
    assert report.returncode == 0, report.stderr
    for name in ("a.txt", "b.txt", "c.docx"):
        assert name in report.stdout
    # The server sums sizes as numeric (Python's Decimal), which JSON cannot write: `scan
    # --json` ended in a traceback on every shared index until the fifty-third session.
    again = cli("scan", str(root), "--db", pg_url, "--json")
    assert again.returncode == 0, again.stderr
    summary = json.loads(again.stdout)
    with DedupService(pg_url) as service:
        totals = service.store.result_totals()
    assert {k: type(v) for k, v in totals.items()} == {k: int for k in totals}
    assert summary["reclaimable_bytes"] == totals["reclaimable_size"] > 0


def test_values_beyond_32_bits_round_trip(pg_url: str) -> None:
    """Sizes past 4 GiB, mtimes in ns and both ends of the signed 64-bit simhash: PostgreSQL's
    INTEGER is 32-bit, so these columns must be BIGINT there."""
    store = Store(pg_url)
    try:
        row = {
            "path": "/big/film.txt",
            "size": 5 * 2**40,
            "mtime_ns": 1_763_800_000_123_456_789,
            "content_hash": "c" * 32,
            "text_hash": "t" * 32,
            "simhash": -(2**63),
            "token_count": 10,
            "text_chars": 10,
            "format": "txt",
            "status": "ok",
            "error": None,
            "fp_version": 1,
        }
        store.upsert_documents([row, {**row, "path": "/big/b.txt", "simhash": 2**63 - 1}])
        got = _psql(pg_url, "SELECT size, mtime_ns, simhash FROM documents ORDER BY path DESC")
        assert got == [
            (5 * 2**40, 1_763_800_000_123_456_789, -(2**63)),
            (5 * 2**40, row["mtime_ns"], 2**63 - 1),
        ]
        types = dict(
            _psql(
                pg_url,
                "SELECT column_name, data_type FROM information_schema.columns "
                "WHERE table_name = 'documents'",
            )
        )
        assert {types[c] for c in ("size", "mtime_ns", "simhash")} == {"bigint"}
        # the engine's own Hamming distance: every bit differs between the two ends
        ((d,),) = _psql(pg_url, f"SELECT bit_count((({-(2**63)})::bigint # {2**63 - 1})::bit(64))")
        assert d == 64
        # stored as a location on this machine (file://MACHINE/...); shown as its path here
        ids = {store.local_path(p): i for i, p in _psql(pg_url, "SELECT id, path FROM documents")}
        assert store.lookup_near(2**63 - 1, 3) == [(ids["/big/b.txt"], 0)]
    finally:
        store.close()


def test_the_lines_of_short_notes_are_counted_and_migrated_on_the_server(
    tmp_path: Path, pg_url: str
) -> None:
    """The index tells a banner from a note on a server too: 12 notes, each under one banner and
    above one footer as long as itself, are 12 groups of two (the banner and the footer are in
    12 texts each, a note in 2). A server index of schema 6 gets the lines from its sketches."""
    from desktop_dedup.core.service import DedupService

    root = tmp_path / "docs"
    banner = "Reposted from the community newsletter. All rights belong to the original author."
    footer = "Sent from my phone. Please excuse any typos in this message."
    notes = [" ".join(docgen.SAMPLE_EN.split()[i * 12 : i * 12 + 12]) for i in range(12)]
    for i, note in enumerate(notes):
        docgen.write_txt(root / f"n{i}-banner.txt", f"{banner}\n\n{note}")
        docgen.write_txt(root / f"n{i}-footer.txt", f"{note}\n\n{footer}")
    with DedupService(pg_url) as service:
        service.add_folder(root)
        service.scan()
        groups = sorted(sorted(Path(m.path).name for m in g.members) for g in service.groups())
    assert groups == sorted([f"n{i}-banner.txt", f"n{i}-footer.txt"] for i in range(12))
    written = sorted(_psql(pg_url, "SELECT line_id, doc_id FROM short_lines"))
    assert len(written) == 48  # two lines a document
    _psql(pg_url, "DROP TABLE short_lines")
    _psql(pg_url, "UPDATE desktop_dedup_schema SET version = 6 RETURNING 1")
    Store(pg_url).close()
    assert _psql(pg_url, "SELECT version FROM desktop_dedup_schema") == [(SCHEMA_VERSION,)]
    assert sorted(_psql(pg_url, "SELECT line_id, doc_id FROM short_lines")) == written


def test_a_newer_schema_on_the_server_is_refused(pg_url: str) -> None:
    Store(pg_url).close()
    _psql(pg_url, f"UPDATE desktop_dedup_schema SET version = {SCHEMA_VERSION + 1} RETURNING 1")
    with pytest.raises(DatabaseTooNewError, match="newer desktop_dedup"):
        Store(pg_url)
    assert _psql(pg_url, "SELECT version FROM desktop_dedup_schema") == [(SCHEMA_VERSION + 1,)]


def test_two_openers_of_a_new_database_migrate_it_once(pg_url: str) -> None:
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(4) as pool:
        stores = list(pool.map(lambda _: Store(pg_url), range(4)))
    for s in stores:
        s.close()
    assert _psql(pg_url, "SELECT version FROM desktop_dedup_schema") == [(SCHEMA_VERSION,)]


def test_a_password_never_reaches_a_message_or_the_log(postgres_cluster, caplog) -> None:
    secret = "s3cret-Pa55"
    url = f"postgresql://scanner:{secret}@/no_such_db?host={postgres_cluster.dir}"
    assert secret not in display_name(url)
    assert display_name(url).startswith("postgresql://scanner:***@/no_such_db")
    caplog.set_level(logging.DEBUG)
    with pytest.raises(DatabaseError) as err:
        DedupService(url)
    assert "no_such_db" in str(err.value)  # the server's reason reaches the user ...
    assert secret not in str(err.value)  # ... and the password does not
    assert secret not in caplog.text
    bad = cli("report", "--db", url)
    assert bad.returncode != 0 and "no_such_db" in bad.stderr
    assert secret not in bad.stderr + bad.stdout


def test_an_unknown_database_kind_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(DatabaseError, match="unsupported database 'mysql'"):
        Store("mysql://user@host/db")


def test_a_regex_postgresql_cannot_read_matches_nothing(db_target) -> None:
    """Python accepts (?P<name>...); PostgreSQL's regular expressions do not. Like SQLite's
    REGEXP with a bad pattern, the filter finds nothing instead of failing."""
    with DedupService(db_target) as svc:
        assert svc.group_count(text="(?P<x>a)", regex=True) == 0
        assert svc.group_page(0, 10, text="(?P<x>a)", regex=True) == []
        with svc.store.engine.connect() as conn:  # the connection is still usable
            assert conn.execute(text("SELECT 1")).scalar_one() == 1


def test_the_gui_opens_a_shared_index_by_url(qtbot, pg_url: str) -> None:
    from desktop_dedup.gui import app as app_module
    from desktop_dedup.gui.about import AboutDialog

    args = app_module.parse_args(["--db", pg_url])
    window = app_module.open_main_window(args)
    qtbot.addWidget(window)
    try:
        assert window.service.db_path == pg_url
        assert window.groups_model.total == 0
        about = AboutDialog(window, window.service.db_path)
        qtbot.addWidget(about)
        assert about.db_label.text() == display_name(pg_url)
    finally:
        window.service.close()


def _made_up(seed: int, words: int = 300) -> list[str]:
    rng = random.Random(seed)
    vocab = docgen.SAMPLE_EN.split()
    return [
        rng.choice(vocab) + ("" if rng.random() < 0.7 else str(rng.randint(0, 99)))
        for _ in range(words)
    ]


def _shared_tree(root: Path) -> None:
    """Three folders; near-duplicate families spread over them (so groups cross the folders
    that the two scans share and do not share), plus documents with no twin."""
    for f in range(60):
        words = _made_up(f)
        for copy, folder in enumerate(("A", "B", "C")[f % 3 :] + ("A", "B", "C")[: f % 3]):
            edited = list(words)
            rng = random.Random(f * 10 + copy)
            for i in rng.sample(range(len(edited)), 3 if copy else 0):
                edited[i] = "zz" + edited[i]
            docgen.write_txt(root / folder / f"fam{f:02d}_{copy}.txt", " ".join(edited))
    for n in range(45):
        docgen.write_txt(root / "ABC"[n % 3] / f"alone{n:02d}.txt", " ".join(_made_up(1000 + n)))


def _groups(url: str) -> set[frozenset[str]]:
    with DedupService(url) as svc:
        return {frozenset(m.path for m in g.members) for g in svc.groups()}


def mount_table(path: Path, *mounts: tuple[str, str, str]) -> str:
    """A mount table in /proc/self/mountinfo's format: the root file system plus ``mounts``
    (mount point, file system type, source); what a "machine" of a test sees
    (volumes.MOUNTINFO_ENV)."""
    lines = ["1 0 254:1 / / rw,relatime - ext4 /dev/vda1 rw"]
    for n, (point, fstype, source) in enumerate(mounts, start=2):
        lines.append(f"{n} 1 0:{n} / {point} rw,relatime - {fstype} {source} rw")
    path.write_text("\n".join(lines) + "\n")
    return str(path)


def test_two_machines_scanning_overlapping_folders_at_once_equal_one_scan(
    tmp_path: Path, postgres_cluster, monkeypatch
) -> None:
    """Two processes (as two machines) scan A+B and B+C of one network share into one
    database at the same time: no row is lost or doubled, and the groups are those of one
    process scanning A+B+C."""
    root = tmp_path / "share"
    _shared_tree(root)
    mounts = mount_table(tmp_path / "mountinfo", (str(root), "nfs4", "fileserver:/export"))
    monkeypatch.setenv(MOUNTINFO_ENV, mounts)
    a, b, c = (str(root / x) for x in "ABC")
    shared = postgres_cluster.new_database()
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "desktop_dedup.cli", "scan", *dirs, "--db", shared,
             "--workers", "1", "--quiet"],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "DESKTOP_DEDUP_MACHINE": name},
        )
        for name, dirs in (("laptop-1", (a, b)), ("laptop-2", (b, c)))
    ]  # fmt: skip
    for p in procs:
        out, err = p.communicate(timeout=600)
        assert p.returncode == 0, err
    one = postgres_cluster.new_database()
    single = cli("scan", a, b, c, "--db", one, "--workers", "1", "--quiet")
    assert single.returncode == 0, single.stderr

    # one location per file: the share's, whichever machine scanned it
    files = sorted(f"nfs://fileserver/export/{p.relative_to(root)}" for p in root.rglob("*.txt"))
    assert len(files) == 225
    for url in (shared, one):
        paths = [p for (p,) in _psql(url, "SELECT path FROM documents ORDER BY path")]
        assert paths == files  # every file once: none lost, none doubled
    # every document's candidate keys, none lost to a concurrent writer
    keys = (
        "SELECT d.path, count(*) FROM sketch_keys k JOIN documents d ON d.id = k.doc_id GROUP BY 1"
    )
    assert sorted(_psql(shared, keys)) == sorted(_psql(one, keys)) != []
    expected = _groups(one)
    assert len(expected) == 60 and all(len(g) == 3 for g in expected)
    assert _groups(shared) == expected
    machines = {m for (m,) in _psql(shared, "SELECT machine FROM scan_runs")}
    assert machines == {"laptop-1", "laptop-2"}


def test_a_machine_settles_only_its_own_interrupted_removals(
    tmp_path: Path, pg_url: str, monkeypatch
) -> None:
    """An intent left "in progress" by another machine is that machine's to settle, from its
    own disk: here the file is not on this machine's disk, and settling it would wrongly call
    it trashed."""
    monkeypatch.setenv("DESKTOP_DEDUP_MACHINE", "laptop-1")
    store = Store(pg_url)
    store.journal_begin({"action": "trash", "path": str(tmp_path / "only-on-laptop-1.txt")})
    store.close()
    monkeypatch.setenv("DESKTOP_DEDUP_MACHINE", "laptop-2")
    with DedupService(pg_url) as other:
        assert other.recover_journal() == []
    assert _psql(pg_url, "SELECT reason, machine FROM journal") == [("in progress", "laptop-1")]
    monkeypatch.setenv("DESKTOP_DEDUP_MACHINE", "laptop-1")
    with DedupService(pg_url):  # opening settles it: the file is gone from its disk
        pass
    assert _psql(pg_url, "SELECT ok, machine FROM journal") == [(True, "laptop-1")]


def test_a_read_only_reviewer_role_can_open_and_report(tmp_path: Path, pg_url: str) -> None:
    """The roles README documents: a scanner owns the tables; a reviewer granted only SELECT can
    open the index (CLI and service) and write a report, and cannot change it."""
    root = tmp_path / "docs"
    docgen.write_txt(root / "a.txt", docgen.SAMPLE_EN)
    # the same text in other bytes: a group that can be ignored (identical bytes cannot be)
    docgen.write_txt(root / "b.txt", docgen.SAMPLE_EN.replace("\n", "\n\n"))
    assert cli("scan", str(root), "--db", pg_url).returncode == 0
    dbname = pg_url.split("/")[3].split("?")[0]
    for sql in (
        "DROP ROLE IF EXISTS dedup_reviewer",
        "CREATE ROLE dedup_reviewer LOGIN",
        f'GRANT CONNECT ON DATABASE "{dbname}" TO dedup_reviewer',
        "GRANT USAGE ON SCHEMA public TO dedup_reviewer",
        "GRANT SELECT ON ALL TABLES IN SCHEMA public TO dedup_reviewer",
    ):
        _psql(pg_url, sql)
    reviewer = pg_url.replace("postgresql://postgres@", "postgresql://dedup_reviewer@")
    report = cli("report", "--db", reviewer, "--format", "csv")
    assert report.returncode == 0, report.stderr
    assert "a.txt" in report.stdout and "b.txt" in report.stdout
    with DedupService(reviewer) as svc:
        (group,) = svc.groups()
        with pytest.raises(Exception, match="permission denied"):
            svc.set_marked([group.members[1].doc_id], True)
    assert _psql(pg_url, "SELECT count(*) FROM marks") == [(0,)]
    # README: a reviewer who may mark gets INSERT and DELETE on marks, and nothing else changes
    _psql(pg_url, "GRANT INSERT, DELETE ON marks TO dedup_reviewer")
    with DedupService(reviewer) as svc:
        (group,) = svc.groups()
        svc.set_marked([group.members[1].doc_id], True)
        assert svc.marked_ids() == {group.members[1].doc_id}
        with pytest.raises(Exception, match="permission denied"):
            svc.ignore_group(group.id)
    assert _psql(pg_url, "SELECT count(*) FROM marks") == [(1,)]


def test_a_new_server_database_has_covering_block_indexes(pg_url: str) -> None:
    """The block indexes carry the simhash and id on a server from the start (migration 5
    makes them for a new database too: the table declaration leaves the option out)."""
    Store(pg_url).close()
    defs = [
        d
        for (d,) in _psql(
            pg_url, "SELECT indexdef FROM pg_indexes WHERE indexname LIKE 'ix_documents_b_'"
        )
    ]
    assert len(defs) == 4 and all("INCLUDE (simhash, id)" in d for d in defs), defs


def test_a_version_4_server_database_gets_covering_block_indexes(pg_url: str) -> None:
    """Schema 5: the block indexes of a database made by schema 4 (plain indexes) are rebuilt
    with the simhash and id included, keeping the rows; lookups then read only the index."""
    store = Store(pg_url)
    store.upsert_documents(
        [
            {"path": f"/d/{i}.txt", "size": 1, "mtime_ns": 1, "content_hash": None,
             "text_hash": None, "simhash": i * 0x9E3779B97F4A7C15 % 2**63, "token_count": 1,
             "text_chars": 1, "format": "txt", "status": "ok", "error": None, "fp_version": 1}
            for i in range(500)
        ]
    )  # fmt: skip
    store.close()
    for i in range(4):  # what schema 4 created
        _psql(pg_url, f"DROP INDEX ix_documents_b{i}")
        _psql(pg_url, f"CREATE INDEX ix_documents_b{i} ON documents (b{i})")
    _psql(pg_url, "UPDATE desktop_dedup_schema SET version = 4")
    store = Store(pg_url)
    try:
        defs = [
            d
            for (d,) in _psql(
                pg_url, "SELECT indexdef FROM pg_indexes WHERE indexname LIKE 'ix_documents_b_'"
            )
        ]
        assert len(defs) == 4 and all("INCLUDE (simhash, id)" in d for d in defs), defs
        assert _psql(pg_url, "SELECT version FROM desktop_dedup_schema") == [(SCHEMA_VERSION,)]
        assert _psql(pg_url, "SELECT count(*) FROM documents") == [(500,)]
        _psql(pg_url, "VACUUM ANALYZE documents")
        with store.engine.connect() as conn:
            conn.exec_driver_sql("SET enable_seqscan = off")
            conn.exec_driver_sql("SET enable_bitmapscan = off")
            plan = [r[0] for r in conn.exec_driver_sql("EXPLAIN " + Store.lookup_sql(12345, 3))]
        assert sum("Index Only Scan using ix_documents_b" in line for line in plan) == 4, plan
    finally:
        store.close()


def _doc(path: str, size: int, content_hash: str, simhash: int = 1) -> dict:
    return {
        "path": path, "size": size, "mtime_ns": 1, "content_hash": content_hash,
        "text_hash": content_hash, "simhash": simhash, "token_count": 1, "text_chars": 1,
        "format": "txt", "status": "ok", "error": None, "fp_version": 7,
    }  # fmt: skip


def test_reusable_fingerprints_are_looked_up_by_the_sizes_met(db_target, tmp_path) -> None:
    """A scan asks only for fingerprints of the sizes it is about to read (a moved or copied
    file keeps its size), through the size index, not for every fingerprint of the index."""
    store = Store(db_target)
    try:
        store.upsert_documents(
            [_doc(f"{tmp_path}/a.txt", 10, "a" * 32), _doc(f"{tmp_path}/b.txt", 20, "b" * 32)]
        )
        assert set(store.fingerprints_by_content(7)) == {"a" * 32, "b" * 32}
        assert set(store.fingerprints_by_content(7, sizes={10, 30})) == {"a" * 32}
        assert store.fingerprints_by_content(7, sizes=set()) == {}
        plan = explain_query_plan(
            store.engine, "SELECT content_hash FROM documents WHERE size IN (10, 30)", {}
        )
        if store.dialect == "sqlite":  # a tiny table: PostgreSQL rightly prefers to read it all
            assert any("ix_documents_size" in line for line in plan), plan
    finally:
        store.close()


def test_a_lookup_survives_the_server_dropping_its_connection(pg_url: str, tmp_path) -> None:
    """Lookups keep a connection of their own; when the server drops it (restart, idle
    timeout, an administrator), the next lookup opens another and answers."""
    store = Store(pg_url)
    try:
        store.upsert_documents([_doc(f"{tmp_path}/a.txt", 10, "a" * 32, simhash=12345)])
        (doc_id,) = store.ids_by_path([f"{tmp_path}/a.txt"])
        assert store.lookup_near(12345 ^ 0b101, 3) == [(doc_id, 2)]
        killed = _psql(
            pg_url,
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE application_name = 'desktop_dedup' AND pid <> pg_backend_pid()",
        )
        assert killed and all(ok for (ok,) in killed)
        assert store.lookup_near(12345, 3) == [(doc_id, 0)]
    finally:
        store.close()


def test_group_ids_stay_and_new_ones_follow_the_highest_kept(db_target, tmp_path) -> None:
    """A regroup of some groups keeps the id of the group that held each new group's
    reference, and numbers new groups after the highest id that stays (read through the
    primary key and the references' memberships, not every membership of the index)."""
    from desktop_dedup.core.grouping import BuiltGroup, GroupMember

    store = Store(db_target)
    try:
        store.upsert_documents(
            [_doc(f"{tmp_path}/{i}.txt", 10 + i, f"{i:032x}", simhash=i) for i in range(8)]
        )
        ids = store.ids_by_path([f"{tmp_path}/{i}.txt" for i in range(8)])
        doc = dict(zip(range(8), sorted(ids), strict=True))
        sizes, paths = {d: 1 for d in ids}, {d: f"/p{d}" for d in ids}

        def group(*members: int) -> BuiltGroup:
            return BuiltGroup(
                "near", doc[members[0]], [GroupMember(doc[m], 1, 0.9) for m in members]
            )

        assert store.replace_groups([group(0, 1), group(2, 3), group(4, 5)], sizes, paths) == [
            1,
            2,
            3,
        ]
        # group 3 (4, 5) is rebuilt as (4, 6) and a new (5, 7): the first to hold a reference
        # of it keeps id 3, the other comes after the highest id; groups 1 and 2 stay
        assert store.replace_groups([group(4, 6), group(5, 7)], sizes, paths, replaced={3}) == [
            3,
            4,
        ]
        assert store.groups_of(doc.values()) == {
            doc[0]: 1,
            doc[1]: 1,
            doc[2]: 2,
            doc[3]: 2,
            doc[4]: 3,
            doc[6]: 3,
            doc[5]: 4,
            doc[7]: 4,
        }
        # the highest group replaced and nothing kept from it: its id is free again
        assert store.replace_groups([group(1, 2)], sizes, paths, replaced={4, 1, 2}) == [1]
        assert store.replace_groups([group(5, 7)], sizes, paths, replaced=set()) == [4]
    finally:
        store.close()


def test_documents_close_to_a_group_on_each_engine(db_target, tmp_path) -> None:
    """On either engine (PostgreSQL writes them with COPY): the document close to a group is
    stored, counted on the group's row of the table, and follows its closest member's
    removal to the copy of it that stays; the copies left are still a group."""
    from support.close_family import close_family_texts, write_close_family

    texts = close_family_texts()
    docs = tmp_path / "docs"
    write_close_family(docs)
    (docs / "z-copy-of-original.txt").write_text(texts["original"], encoding="utf-8")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    with DedupService(db_target) as svc:
        svc.add_folder(docs)
        svc.scan()
        (group,) = svc.groups()
        (close,) = group.close
        assert (Path(close.path).name, Path(close.member_path).name) == (
            "edited-b.txt",
            "original.txt",
        )
        assert [s.close_count for s in svc.group_page(0, 10)] == [1]
        svc.trash([close.member_id], trash=lambda p: shutil.move(p, bin_dir / Path(p).name))
        (group,) = svc.groups()
        assert sorted(Path(m.path).name for m in group.members) == [
            "edited-a.txt",
            "z-copy-of-original.txt",
        ]
        assert [Path(c.member_path).name for c in group.close] == ["z-copy-of-original.txt"]
