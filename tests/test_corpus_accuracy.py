"""Accuracy on the labelled public corpus (../shared/corpus), scored by its own score.py.

Runs the real command line exactly as a user would (scan, then a JSON report) at default
settings, and checks the targets of the engine issue: pair precision >= 0.99, recall >= 0.97.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
CORPUS = Path(os.environ.get("DESKTOP_DEDUP_CORPUS", REPO.parent / "shared" / "corpus"))


@pytest.mark.skipif(
    not (CORPUS / "score.py").exists(), reason="../shared/corpus is not beside the repo"
)
def test_public_corpus_meets_precision_and_recall_targets(tmp_path):
    db = tmp_path / "index.sqlite"
    report = tmp_path / "report.json"
    cli = [sys.executable, "-m", "desktop_dedup"]
    scan = subprocess.run(
        [*cli, "scan", str(CORPUS / "public" / "docs"), "--db", str(db), "--quiet"],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert scan.returncode == 0, scan.stderr
    rep = subprocess.run(
        [*cli, "report", "--db", str(db), "--format", "json", "--output", str(report)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert rep.returncode == 0, rep.stderr
    score = subprocess.run(
        [
            sys.executable,
            str(CORPUS / "score.py"),
            str(CORPUS / "public"),
            str(report),
            "--min-precision",
            "0.99",
            "--min-recall",
            "0.97",
            "--show",
            "15",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    print(score.stdout)
    assert "unknown_paths=0" in score.stdout
    assert score.returncode == 0, f"below target:\n{score.stdout}"
