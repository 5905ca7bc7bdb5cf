"""The suite's own isolation (conftest.py): no network, no real profile."""

from __future__ import annotations

import os
import pwd
import socket
from pathlib import Path

import pytest

# The real home of the user running the tests (HOME itself is already the temporary one).
_REAL_HOME = Path(pwd.getpwuid(os.getuid()).pw_dir)


def test_connections_to_other_machines_are_refused():
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.settimeout(1)
        with pytest.raises(OSError, match="tests must not use the network"):
            sock.connect(("192.0.2.1", 80))  # TEST-NET-1: never a real host
    # this machine stays reachable (a local PostgreSQL, a test's own server)
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as server:
        server.bind(("127.0.0.1", 0))
        server.listen(1)
        with socket.create_connection(server.getsockname(), timeout=5):
            pass
    assert os.environ["PIP_NO_INDEX"] == "1"


def test_home_and_every_xdg_folder_are_temporary():
    home = Path(os.environ["HOME"])
    assert home != _REAL_HOME and home.name.startswith("desktop-dedup-test-home-")
    for var in ("XDG_DATA_HOME", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME"):
        assert not Path(os.environ[var]).is_relative_to(_REAL_HOME), var
