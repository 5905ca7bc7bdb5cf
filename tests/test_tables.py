"""The tables every scan needs (jieba's IDF table as arrays, the words Taiwan and the mainland
write differently) are made at build time into resources/tables, and a new profile copies them
instead of deriving them in its first scan (most of a second); only a table made from the very
sources installed is ever used (core/cache.py)."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from desktop_dedup import paths
from desktop_dedup.core import cache
from desktop_dedup.core import fingerprint as fp
from desktop_dedup.core import text as text_mod

REPO = Path(__file__).resolve().parents[1]
MAKE_TABLES = REPO / "packaging" / "make_tables.py"


def _no_deriving(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object) -> None:
        raise AssertionError("derived, though the build made this table")

    monkeypatch.setattr(fp, "_parse_idf", refuse)
    monkeypatch.setattr(text_mod, "_regional_pairs", refuse)


def test_a_new_profile_takes_the_tables_the_build_made_and_they_are_what_it_would_derive(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The setup (packaging/build_resources.sh) made the tables from the installed jieba and
    OpenCC: a new profile's first scan copies them, and each is exactly what deriving it from
    those sources gives."""
    monkeypatch.setenv("DESKTOP_DEDUP_HOME", str(tmp_path / "profile"))
    with monkeypatch.context() as patched:
        _no_deriving(patched)
        idf = fp._load_idf(fp._idf_path())
        config = text_mod.regional_words_config()
    assert config.parent == tmp_path / "profile" / "cache"
    assert idf.to_bytes() == fp._parse_idf(fp._idf_path()).to_bytes()
    assert config.with_suffix(".txt").read_text("utf-8") == text_mod.regional_table_body()
    import opencc

    assert opencc.OpenCC(str(config)).convert("预设的引数和档案") == "预设的参数和文件"


def _ship(root: Path, kind: str, suffix: str, key: str, data: bytes) -> None:
    cache.write_shipped(root / cache.SHIPPED_FOLDER, kind, suffix, key, data)
    (root / "icons").mkdir(exist_ok=True)  # what makes a folder the resource root


@pytest.fixture
def resources(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """A resource root of the test's own, and a new profile."""
    root = tmp_path / "resources"
    root.mkdir()
    monkeypatch.setattr(paths, "RESOURCE_CANDIDATES", (root,))
    paths.resource_root.cache_clear()
    monkeypatch.setenv("DESKTOP_DEDUP_HOME", str(tmp_path / "profile"))
    yield root
    paths.resource_root.cache_clear()


def test_an_idf_table_made_from_another_file_or_damaged_is_not_used(
    resources: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "idf.txt"
    source.write_text("天气 8.5\n晴朗 10.25\n明天 7.0\n", encoding="utf-8")
    made = fp._parse_idf(source).to_bytes()
    other = fp.IdfTable.from_words(["天气", "晴朗", "明天"], [1.0, 2.0, 3.0]).to_bytes()

    # Made from this very file: used, nothing parsed.
    _ship(resources, "idf", ".bin", fp.idf_key(source), made)
    with monkeypatch.context() as patched:
        _no_deriving(patched)
        assert fp._load_idf(source).to_bytes() == made

    # jieba upgraded since the build: the shipped table is another file's.
    for cached in (tmp_path / "profile" / "cache").glob("idf-*"):
        cached.unlink()
    _ship(resources, "idf", ".bin", fp.idf_key(source), other)
    source.write_text("天气 9.0\n晴朗 3.0\n明天 7.0\n", encoding="utf-8")
    table = fp._load_idf(source)
    assert (table.idf("天气", fp._hash("天气")), table.idf("晴朗", fp._hash("晴朗"))) == (9.0, 3.0)

    # Made from this file, but damaged since (another body of the same size): its hash says so.
    for cached in (tmp_path / "profile" / "cache").glob("idf-*"):
        cached.unlink()
    _ship(resources, "idf", ".bin", fp.idf_key(source), fp._parse_idf(source).to_bytes())
    (resources / cache.SHIPPED_FOLDER / "idf.bin").write_bytes(other)
    table = fp._load_idf(source)
    assert table.idf("天气", fp._hash("天气")) == 9.0


def test_a_regional_table_made_from_other_sources_is_not_used(
    resources: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    derived: list[bool] = []

    def pairs() -> dict[str, str]:
        derived.append(True)
        return {"引数": "参数"}

    monkeypatch.setattr(text_mod, "_regional_pairs", pairs)
    key = text_mod.regional_key()
    _ship(resources, text_mod.REGIONAL_KIND, ".txt", key + "0", "引数\t变量\n".encode())
    config = text_mod.regional_words_config()
    assert derived == [True]
    assert config.with_suffix(".txt").read_text("utf-8") == "引数\t参数\n"

    for made in config.parent.glob(f"{text_mod.REGIONAL_KIND}-*"):
        made.unlink()
    _ship(resources, text_mod.REGIONAL_KIND, ".txt", key, "引数\t变量\n".encode())
    config = text_mod.regional_words_config()
    assert derived == [True]  # the shipped one, made from these sources
    assert config.with_suffix(".txt").read_text("utf-8") == "引数\t变量\n"

    for made in config.parent.glob(f"{text_mod.REGIONAL_KIND}-*"):
        made.unlink()
    (resources / cache.SHIPPED_FOLDER / "regional-words.txt").write_text("引数\t常量\n", "utf-8")
    config = text_mod.regional_words_config()  # damaged since it was made: not used
    assert derived == [True, True]
    assert config.with_suffix(".txt").read_text("utf-8") == "引数\t参数\n"


def test_make_tables_makes_what_is_missing_or_stale_and_leaves_current_tables_alone(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "tables"

    def run() -> str:
        done = subprocess.run(
            [sys.executable, str(MAKE_TABLES), str(folder)],
            capture_output=True,
            text=True,
            check=True,
            cwd=tmp_path,
        )
        return done.stdout

    assert run().count("make_tables:") == 2
    made = {p.name: p.stat().st_mtime_ns for p in folder.iterdir()}
    assert set(made) == {"idf.bin", "idf.key", "regional-words.txt", "regional-words.key"}
    assert all(p.stat().st_mode & 0o777 == 0o644 for p in folder.iterdir())
    assert run() == ""
    assert {p.name: p.stat().st_mtime_ns for p in folder.iterdir()} == made
    key = folder / "idf.key"
    key.write_text("0" * 32 + key.read_text()[32:])  # made from another jieba's file
    assert run() == f"make_tables: {folder / 'idf.bin'}\n"
    assert cache.shipped_table("idf", ".bin", fp.idf_key(fp._idf_path()), folder) is not None
