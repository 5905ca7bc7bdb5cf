"""A throw-away PostgreSQL cluster for the tests and benchmarks: ``initdb`` into a temporary
folder, a Unix socket in that folder, no TCP listener, trust authentication, no fsync.

The server binaries come from Debian's ``postgresql`` package (packaging/bootstrap.sh installs
it); they live in ``/usr/lib/postgresql/<major>/bin``, outside PATH. PostgreSQL refuses to run as
root, so under root (CI, containers) the cluster runs as ``nobody`` in a world-writable folder.
"""

from __future__ import annotations

import glob
import itertools
import os
import shutil
import subprocess
import tempfile
from pathlib import Path

_counter = itertools.count()


def find_bindir() -> Path | None:
    """The folder holding initdb/pg_ctl, or None when PostgreSQL's server is not installed."""
    found = shutil.which("initdb")
    if found and shutil.which("pg_ctl"):
        return Path(found).parent
    candidates = glob.glob("/usr/lib/postgresql/*/bin/initdb")
    candidates.sort(key=lambda p: int(Path(p).parent.parent.name), reverse=True)
    for c in candidates:
        if os.access(c, os.X_OK):
            return Path(c).parent
    return None


class Cluster:
    """One running server; :meth:`new_database` gives each test its own empty database."""

    def __init__(self, bindir: Path, base: Path | None = None):
        self.bindir = bindir
        self.dir = Path(base or tempfile.mkdtemp(prefix="desktop-dedup-pg-"))
        self.dir.mkdir(parents=True, exist_ok=True)
        self.data = self.dir / "data"
        self._as_root = os.geteuid() == 0
        if self._as_root:
            os.chmod(self.dir, 0o777)  # the server runs as nobody

    def _run(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        cmd = [str(self.bindir / args[0]), *args[1:]]
        if self._as_root:
            cmd = ["runuser", "-u", "nobody", "--", *cmd]
        return subprocess.run(cmd, capture_output=True, text=True, check=check, timeout=120)

    def start(self, *settings: str) -> Cluster:
        self._run(
            "initdb", "-D", str(self.data), "-A", "trust", "-U", "postgres", "--no-sync",
            "-E", "UTF8", "--locale", "C",
        )  # fmt: skip
        options = [f"-c listen_addresses='' -k {self.dir} -c fsync=off"]
        options += [f"-c {s}" for s in settings]
        self._run(
            "pg_ctl", "-D", str(self.data), "-l", str(self.dir / "server.log"), "-w",
            "-o", " ".join(options), "start",
        )  # fmt: skip
        return self

    def stop(self) -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop", check=False)
        shutil.rmtree(self.dir, ignore_errors=True)

    def url(self, dbname: str = "postgres") -> str:
        return f"postgresql://postgres@/{dbname}?host={self.dir}"

    def new_database(self, prefix: str = "t") -> str:
        """A new, empty database; its URL."""
        import psycopg

        name = f"{prefix}_{os.getpid()}_{next(_counter)}"
        with psycopg.connect(host=str(self.dir), user="postgres", dbname="postgres") as conn:
            conn.autocommit = True
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def drop_database(self, url: str) -> None:
        import psycopg

        name = url.split("/")[3].split("?")[0]
        with psycopg.connect(host=str(self.dir), user="postgres", dbname="postgres") as conn:
            conn.autocommit = True
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
