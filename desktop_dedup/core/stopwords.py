"""Stop words: words so common that they say nothing about which document this is.

Kept short on purpose: IDF already down-weights common Chinese words; these lists remove the
function words that IDF cannot see (all Latin words share one IDF, see fingerprint.py) and the
Chinese particles whose IDF is still high enough to matter in short texts.
"""

from __future__ import annotations

import re

ENGLISH = frozenset(
    """
a about above after again against all also am an and any are as at be because been before being
below between both but by can cannot could did do does doing down during each few for from further
had has have having he her here hers herself him himself his how i if in into is it its itself just
may me might more most must my myself no nor not now of off on once only or other our ours
ourselves out over own same shall she should so some such than that the their theirs them
themselves then there these they this those through to too under until up upon us very was we
were what when where which while who whom why will with would you your yours yourself yourselves
etc e.g i.e vs via per
""".split()
)

CHINESE = frozenset(
    """
的 了 是 在 和 与 或 及 而 也 就 都 被 把 对 从 到 以 为 之 其 这 那 个 一 不 有
中 上 下 将 等 并 则 即
但 如 若 由 于 所 该 此 着 过 吧 吗 呢 啊 呀 么 我 你 他 她 它 们 我们 你们 他们 她们 它们 这个 那个
这些 那些 一个 一些 可以 如果 因为 所以 但是 而且 或者 以及 没有 进行 使用 通过 对于 关于 其中 这样
那样 这里 那里 什么 怎么 因此 然后 已经 还是 就是 只是 不是 也是 都是 还有 之后 之前 以后 以前
""".split()
)

ALL = ENGLISH | CHINESE

# What a token of normalised text (lower case) is to the index: a word it weighs (a feature of
# the fingerprint, fingerprint.py), a name with digits it counts apart (md5sum, x86, GPLv3) or
# nothing (a number, punctuation, a single Latin letter or hiragana, a stop word). The one rule
# for both the fingerprint and the diff's naming of two swapped words (diff.swapped_words).
WORD, NOT_A_WORD, NAME_WITH_DIGITS = -2, -1, -3

_WORDLIKE = re.compile(r"[^\W\d_]")  # a letter or an ideograph
_DIGIT = re.compile(r"\d")
_HIRAGANA_FIRST, _HIRAGANA_LAST = "\u3040", "\u309f"


def word_kind(tok: str) -> int:
    """WORD, NAME_WITH_DIGITS or NOT_A_WORD: what ``tok`` (lower case) is to the index."""
    # Most tokens are words of letters only: no digit, and a letter (what the two patterns
    # look for), told by one call in C instead of two searches.
    letters = tok.isalpha()
    if not letters and _DIGIT.search(tok):
        return NAME_WITH_DIGITS if _WORDLIKE.search(tok) else NOT_A_WORD
    if (
        tok in ALL
        or not (letters or _WORDLIKE.search(tok))
        or (len(tok) == 1 and (tok.isascii() or _HIRAGANA_FIRST <= tok <= _HIRAGANA_LAST))
    ):
        return NOT_A_WORD
    return WORD
