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


def test_a_short_notes_copies_show_one_figure_in_the_group_and_the_diff(tmp_path: Path):
    """Short texts are compared several ways (whole, one side's added lines left out, both
    sides'), and the figure is the best of them: grouping, which may stop early below the
    threshold, must still arrive at the figure the diff computes. A 45-word note under a
    banner and above a footer: the whole texts are 77 % the same, and without the banner and
    the footer 100 % (grouping once stopped at 77 %, and the diff said 100 %)."""
    note = " ".join(docgen.SAMPLE_EN.split()[:45])
    banner = "Reposted from the community newsletter. All rights belong to the original author."
    footer = "Follow us for more stories like this one, and share it with your friends and family."
    docgen.write_txt(tmp_path / "docs" / "a.txt", f"{banner}\n\n{note}")
    docgen.write_txt(tmp_path / "docs" / "b.txt", f"{note}\n\n{footer}")
    with DedupService(tmp_path / "db.sqlite") as svc:
        svc.scan([tmp_path / "docs"], workers=1)
        (group,) = svc.groups()
        ref, other = group.members
        shown = svc.diff(ref.doc_id, other.doc_id).similarity
        assert abs(shown - other.similarity) < 1e-4, (shown, other.similarity)
        assert other.similarity == 1.0
