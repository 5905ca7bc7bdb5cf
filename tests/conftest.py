"""Shared test setup: headless Qt, and a temporary HOME so nothing touches the real profile.

Isolation starts in ``pytest_configure``, before any test module (or a module-scoped fixture
that runs the CLI) is imported: HOME and every XDG folder point into a session folder, and
QSettings, in every format and scope, writes there too. At the end the real profile's app
folders are compared with a snapshot taken at the start; any change fails the run.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

import pytest  # noqa: E402

_REAL_HOME = Path(os.path.expanduser("~"))
_APP_DIRS = [
    _REAL_HOME / ".config" / "desktop_dedup",
    _REAL_HOME / ".local" / "share" / "desktop_dedup",
    _REAL_HOME / ".local" / "state" / "desktop_dedup",
    _REAL_HOME / ".cache" / "desktop_dedup",
    _REAL_HOME / ".config" / "desktop_dedup.conf",
]
_snapshot: dict[str, str] = {}


def _profile_snapshot() -> dict[str, str]:
    out = {}
    for top in _APP_DIRS:
        paths = [top] if top.is_file() else sorted(p for p in top.rglob("*") if p.is_file())
        for p in paths:
            try:
                out[str(p)] = hashlib.sha256(p.read_bytes()).hexdigest()
            except OSError as exc:
                out[str(p)] = f"unreadable: {exc}"
    return out


def pytest_configure(config):
    global _snapshot
    _snapshot = _profile_snapshot()
    home = Path(tempfile.mkdtemp(prefix="desktop-dedup-test-home-"))
    os.environ["HOME"] = str(home)
    for var, sub in (
        ("XDG_DATA_HOME", "data"),
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_CACHE_HOME", "cache"),
        ("XDG_STATE_HOME", "state"),
        ("XDG_RUNTIME_DIR", "runtime"),
    ):
        (home / sub).mkdir(mode=0o700)
        os.environ[var] = str(home / sub)
    from PySide6.QtCore import QSettings

    for fmt in (QSettings.Format.NativeFormat, QSettings.Format.IniFormat):
        for scope in (QSettings.Scope.UserScope, QSettings.Scope.SystemScope):
            QSettings.setPath(fmt, scope, str(home / "qsettings" / scope.name))
    _no_network()


class NetworkUsedInTests(OSError):
    """A test tried to reach another machine; tests must not use the network."""


def _no_network() -> None:
    """Refuse every connection except to this machine (loopback, Unix sockets), in this process,
    and tell pip in any subprocess not to use the package index."""
    import ipaddress
    import socket

    real_connect = socket.socket.connect

    def connect(sock, address):
        if sock.family in (socket.AF_INET, socket.AF_INET6):
            host = address[0]
            try:
                local = ipaddress.ip_address(host).is_loopback
            except ValueError:
                local = host == "localhost"
            if not local:
                raise NetworkUsedInTests(f"tests must not use the network (connect to {host})")
        return real_connect(sock, address)

    socket.socket.connect = connect
    os.environ["PIP_NO_INDEX"] = "1"


def pytest_sessionfinish(session, exitstatus):
    changed = sorted(
        p
        for p in set(_snapshot) | set(_profile_snapshot())
        if _snapshot.get(p) != _profile_snapshot().get(p)
    )
    if changed:
        print("\nThe test run changed the real user profile:\n  " + "\n  ".join(changed))
        session.exitstatus = 1


@pytest.fixture(autouse=True)
def _isolated_user_dirs(tmp_path_factory, monkeypatch):
    """Point XDG folders (data, config, cache, state) at a temporary home for every test."""
    home = tmp_path_factory.mktemp("home")
    for var, sub in (
        ("XDG_DATA_HOME", "data"),
        ("XDG_CONFIG_HOME", "config"),
        ("XDG_CACHE_HOME", "cache"),
        ("XDG_STATE_HOME", "state"),
    ):
        path = home / sub
        path.mkdir()
        monkeypatch.setenv(var, str(path))
    yield home


# --- both engines ---------------------------------------------------------------------------
# The store and service tests run on SQLite (the default) and on a real PostgreSQL server: a
# throw-away cluster started once per session (tests/support/postgres.py), one new database per
# test. Nothing is mocked.


@pytest.fixture(scope="session")
def postgres_cluster():
    from support.postgres import Cluster, find_bindir

    bindir = find_bindir()
    if bindir is None:
        pytest.skip(
            "PostgreSQL's server (initdb, pg_ctl) is not installed: run packaging/bootstrap.sh, "
            "which installs Debian's postgresql package"
        )
    cluster = Cluster(bindir).start()
    yield cluster
    cluster.stop()


@pytest.fixture
def pg_url(postgres_cluster) -> str:
    """The URL of a new, empty PostgreSQL database (dropped after the test)."""
    url = postgres_cluster.new_database()
    yield url
    postgres_cluster.drop_database(url)


ENGINES = ["sqlite", "postgresql"]


@pytest.fixture(params=ENGINES)
def db_target(request, tmp_path) -> str | Path:
    """An index to open, on each engine in turn: a SQLite file or a PostgreSQL URL."""
    if request.param == "postgresql":
        return request.getfixturevalue("pg_url")
    return tmp_path / "index.sqlite3"
