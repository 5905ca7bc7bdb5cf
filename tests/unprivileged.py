"""Run a command so that file permissions apply to it, also when the suite runs as root.

Root reads and writes any file whatever its mode, so a permission test run as root (CI, this
project's containers) would test nothing. As root, the command is run through ``setpriv``
(util-linux) with the two capabilities that bypass permission checks (``CAP_DAC_OVERRIDE``,
``CAP_DAC_READ_SEARCH``) removed from its bounding and inheritable sets: it stays uid 0, so it
can still run the interpreter and read the files root owns with owner permissions, but a mode
of 0 now keeps it out, as it keeps out a normal user. As a normal user the command runs as is.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile

import pytest

_DROP = "-dac_override,-dac_read_search"


def unprivileged(cmd: list[str]) -> list[str]:
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return cmd
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.fail("running as root, permission tests need setpriv (util-linux) to drop rights")
    wrapped = [setpriv, f"--bounding-set={_DROP}", f"--inh-caps={_DROP}", *cmd]
    _check_rights_dropped(wrapped[:3])
    return wrapped


def _check_rights_dropped(prefix: list[str]) -> None:
    """Fail loudly (instead of passing for the wrong reason) if the dropped process can still
    read a file of mode 0."""
    with tempfile.TemporaryDirectory() as tmp:
        probe = os.path.join(tmp, "probe")
        with open(probe, "w") as f:
            f.write("x")
        os.chmod(probe, 0)
        proc = subprocess.run([*prefix, "cat", probe], capture_output=True, timeout=30)
        if proc.returncode == 0:
            pytest.fail("setpriv did not take away root's right to read a file of mode 0")


def run_python(code: str, *args: str, timeout: float = 120) -> object:
    """Run ``code`` (which prints one JSON value last) in an unprivileged interpreter; return it."""
    proc = subprocess.run(
        unprivileged([sys.executable, "-c", code, *args]),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout.splitlines()[-1])
