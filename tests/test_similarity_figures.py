"""One similarity figure everywhere (issue 13): the group's member list, the group table, the
app's diff and the command line's diff of the same two files show the same share of text."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import docgen

from desktop_dedup.core.service import DedupService


def test_cli_diff_prints_the_groups_similarity(tmp_path: Path):
    words = docgen.SAMPLE_EN.split(" ")
    for i in range(10, len(words), 25):  # one word in 25 replaced: about 92 % the same
        words[i] = "changed"
    a = docgen.write_txt(tmp_path / "docs" / "a.txt", docgen.SAMPLE_EN)
    b = docgen.write_pdf(tmp_path / "docs" / "b.pdf", " ".join(words))
    with DedupService(tmp_path / "db.sqlite") as svc:
        svc.scan([tmp_path / "docs"], workers=1)
        (group,) = svc.groups()
        other = group.members[1]
        (summary,) = svc.group_page(0, 5)
        assert 0.8 < other.similarity < 0.99
        assert summary.min_similarity == other.similarity
        assert (
            abs(svc.diff(group.members[0].doc_id, other.doc_id).similarity - other.similarity)
            < 1e-4
        )
    out = subprocess.run(
        [sys.executable, "-m", "desktop_dedup", "diff", str(a), str(b)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    shown = float(re.search(r"similarity (\d\.\d+)", out.stdout).group(1))
    assert abs(shown - other.similarity) < 1e-3
