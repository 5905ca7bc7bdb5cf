"""The seeded bugs of tests/mutation/run.py still seed bugs.

A mutant whose source text is no longer in its file seeds nothing, and one that names a test
which no longer exists is "caught" by pytest's error about the missing test: either proves
nothing while a full run still counts it. Three mutants' source text had moved with the code
(a condition spread over two lines, a reader's retirement, the PDF reader's hyphen step) and
one named a test renamed since, unnoticed until a run picked them; README's table of mutants
lacked 24 of them. This checks every mutant on every run of the suite, without running one.
"""

from __future__ import annotations

import ast
import importlib.util
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def _mutants() -> list:
    spec = importlib.util.spec_from_file_location("mutation_run", REPO / "tests/mutation/run.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[spec.name]
    return list(module.MUTANTS)


def _test_names(path: Path) -> set[str]:
    """The test functions a test file defines, at its top level and in its classes."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            names.add(node.name)
    return names


def test_every_mutant_still_finds_its_source_text_once():
    mutants = _mutants()
    assert len(mutants) > 100
    drifted = [
        f"{mu.id}: {count} times in {mu.path}"
        for mu in mutants
        if (count := (REPO / mu.path).read_text(encoding="utf-8").count(mu.old)) != 1
    ]
    assert not drifted, drifted
    assert all(mu.old != mu.new for mu in mutants)


def test_every_mutant_names_tests_that_exist():
    missing = []
    for mu in _mutants():
        assert mu.tests, mu.id
        for node in mu.tests:
            file, _, name = node.partition("::")
            path = REPO / file
            if not path.exists():
                missing.append(f"{mu.id}: {file}")
            elif name and name.split("::")[0].split("[")[0] not in _test_names(path):
                missing.append(f"{mu.id}: {node}")
    assert not missing, missing


def test_every_mutant_has_a_unique_id_and_a_row_in_readmes_table():
    mutants = _mutants()
    ids = [mu.id for mu in mutants]
    assert len(ids) == len(set(ids))
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("| Seeded bug (`tests/mutation/run.py` id)") :]
    rows = []
    for line in table.splitlines():
        if not line.startswith("|"):
            break
        rows.append(line)
    listed = "\n".join(rows)
    absent = [i for i in ids if f"`{i}`" not in listed]
    assert not absent, absent
