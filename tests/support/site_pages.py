"""Web pages of sites that mark their parts with class names only, as most sites made before
HTML5 and many since: a Chinese news portal (the markup of DedeCMS's and PHPCMS's default
templates), a blog (WordPress's classic Kubrick theme), a Chinese forum thread (Discuz! X's
markup, ids and all) and an English news site's story page. Each holds the site around an
article (menus, breadcrumbs, the site's header and footer, a sidebar of other articles, share
buttons, comments or replies) and no <main>, <article>, landmark role or HTML5 element that
would say which part is the article.

``page(layout, title, paragraphs, rng)`` writes the page of one article; ``text(title,
paragraphs)`` is the article as a person keeps it in a text file (its title, its paragraphs).
The site's own words (its menus, its other articles' titles, the comments) are the same on every
page of a layout except for a few picked by ``rng``, as on a real site from one day to the next.
"""

from __future__ import annotations

import html
import random

LAYOUTS = ("portal", "blog", "forum", "news")

_ZH_MENU = "首页 新闻 国内 国际 财经 科技 体育 娱乐 汽车 房产 教育 健康".split()
_ZH_HEADLINES = [
    "专家解读最新经济数据走势",
    "多地出台新政支持小微企业发展",
    "科技公司发布新一代人工智能产品",
    "春运火车票今日开售 这些变化要知道",
    "研究发现每天步行有助于心脏健康",
    "教育部发布高校招生新规定",
    "新能源汽车销量再创新高",
    "气象台发布寒潮蓝色预警",
    "博物馆推出夜间开放活动",
    "体育赛事门票销售火爆",
    "城市地铁新线路年底通车",
    "图书馆延长周末开放时间",
    "老旧小区改造惠及万户居民",
    "夏季用电高峰到来 电网做好准备",
]
_ZH_COMMENTS = [
    "写得很好，学习了。",
    "感谢分享，很有帮助！",
    "期待更多这样的文章。",
    "说得有道理，支持一下。",
    "收藏了，以后慢慢看。",
    "这个问题我也遇到过，谢谢楼主。",
]
_EN_MENU = "World Politics Business Science Technology Health Sport Culture Travel Opinion".split()
_EN_HEADLINES = [
    "Ten walks to take before the summer ends",
    "The library that lends tools as well as books",
    "What the new rail timetable means for commuters",
    "A river cleaned up by its neighbours",
    "Why the old market hall is closing for a year",
    "The bakers who start work at three in the morning",
    "How a village saved its only shop",
    "Notes from a week without a phone",
    "The quiet return of the night train",
    "A garden planted on a car park roof",
    "Five books to read on a long journey",
    "The museum that stays open until midnight",
]
_EN_COMMENTS = [
    "Lovely piece, thank you for writing it.",
    "I remember this from when I was young.",
    "Great read. Shared it with my family.",
    "Does anyone know if this is still open?",
    "Thanks, this was just what I needed today.",
]


def text(title: str, paragraphs: list[str]) -> str:
    """The article as a text file holds it."""
    return "\n\n".join([title, *paragraphs]) + "\n"


def _links(words: list[str], tag: str = "li") -> str:
    return "".join(
        f'<{tag}><a href="/{i}.html">{html.escape(w)}</a></{tag}>' for i, w in enumerate(words)
    )


def _some(words: list[str], n: int, rng: random.Random) -> list[str]:
    return rng.sample(words, min(n, len(words)))


def page(layout: str, title: str, paragraphs: list[str], rng: random.Random) -> str:
    """The page of one article on a site of ``layout`` (one of LAYOUTS)."""
    t = html.escape(title)
    body = "".join(f"<p>{html.escape(p)}</p>" for p in paragraphs)
    if layout == "portal":
        return (
            '<!DOCTYPE html><html><head><meta charset="utf-8"><title>'
            f"{t}_某某网</title></head><body>"
            '<div class="header"><div class="logo"><a href="/">某某网</a></div>'
            '<div class="topnav"><a href="/login">登录</a> <a href="/reg">注册</a></div></div>'
            f'<div class="nav"><ul>{_links(_ZH_MENU)}</ul></div>'
            '<div class="position">当前位置：<a href="/">首页</a> &gt; '
            '<a href="/news/">新闻</a> &gt; 正文</div>'
            '<div class="wrap"><div class="left"><div class="article">'
            f"<h1>{t}</h1>"
            '<div class="info">2024-03-05 10:21 来源：某某网 作者：编辑部</div>'
            f'<div class="content">{body}</div>'
            '<div class="share">分享到：<a href="#">微信</a> <a href="#">微博</a> '
            '<a href="#">QQ空间</a></div></div>'
            '<div class="comment"><h3>网友评论</h3><dl>'
            + "".join(
                f"<dt>网友 {name}</dt><dd>{c}</dd>"
                for name, c in zip(
                    ("小林", "老王", "阿明"), _some(_ZH_COMMENTS, 3, rng), strict=False
                )
            )
            + "</dl></div></div>"
            '<div class="right"><div class="box"><h3>热点排行</h3><ul>'
            f"{_links(_some(_ZH_HEADLINES, 10, rng))}</ul></div>"
            f'<div class="box"><h3>图片新闻</h3><ul>{_links(_some(_ZH_HEADLINES, 6, rng))}'
            "</ul></div></div></div>"
            '<div class="footer"><p><a href="/about">关于我们</a> | <a href="/contact">联系我们'
            '</a> | <a href="/ads">广告服务</a></p>'
            "<p>版权所有 © 2024 某某网 京ICP备12345678号 未经授权禁止转载</p></div>"
            "</body></html>"
        )
    if layout == "blog":
        comments = "".join(
            f"<li><cite>{name}</cite> Says:<br><small>March 6th, 2024 at 9:1{i} am</small>"
            f"<p>{c}</p></li>"
            for i, (name, c) in enumerate(
                zip(("Anna", "Tom", "Priya"), _some(_EN_COMMENTS, 3, rng), strict=False)
            )
        )
        return (
            '<!DOCTYPE html><html><head><meta charset="utf-8">'
            f'<title>A Quiet Corner » {t}</title></head><body><div id="page">'
            '<div id="header"><h1><a href="/">A Quiet Corner</a></h1>'
            '<div class="description">Notes on books, walks and small things</div></div>'
            f'<ul id="menu">{_links(["Home", "About", "Books", "Walks", "Contact"])}</ul>'
            '<div id="content" class="narrowcolumn"><div class="post" id="post-123">'
            f"<h2>{t}</h2><small>March 5th, 2024 by admin</small>"
            f'<div class="entry">{body}</div>'
            '<p class="postmetadata">Posted in <a href="/c/books">Books</a>, '
            '<a href="/c/walks">Walks</a> | <a href="#comments">3 Comments »</a></p></div>'
            '<div class="navigation"><div class="alignleft"><a href="/p/1">« '
            f"{html.escape(rng.choice(_EN_HEADLINES))}</a></div>"
            f'<div class="alignright"><a href="/p/3">{html.escape(rng.choice(_EN_HEADLINES))}'
            " »</a></div></div>"
            f'<h3 id="comments">3 Responses to “{t}”</h3>'
            f'<ol class="commentlist">{comments}</ol>'
            '<div id="respond"><h3>Leave a Reply</h3><form action="/post">'
            "<p>Name (required)</p><p>Mail (will not be published)</p><p>Website</p>"
            "</form></div></div>"
            '<div id="sidebar"><ul><li><h2>Recent Posts</h2><ul>'
            f"{_links(_some(_EN_HEADLINES, 5, rng))}</ul></li>"
            "<li><h2>Archives</h2><ul>"
            f"{_links([f'{m} 2024' for m in ('January', 'February', 'March')])}</ul></li>"
            f"<li><h2>Categories</h2><ul>{_links(['Books', 'Walks', 'Garden'])}</ul></li>"
            "</ul></div>"
            '<div id="footer"><p>A Quiet Corner is proudly powered by '
            '<a href="https://wordpress.org/">WordPress</a>. '
            '<a href="/feed">Entries (RSS)</a> and <a href="/comments/feed">Comments (RSS)</a>.'
            "</p></div></div></body></html>"
        )
    if layout == "forum":
        replies = "".join(
            '<table class="plhin"><tr><td class="pls"><div class="pi">'
            f'<a href="/space/{i}">{name}</a></div></td><td class="plc">'
            f'<div class="pi"><strong>{i + 2}#</strong> 发表于 2024-3-5 11:0{i}</div>'
            f'<div class="pct"><div class="t_fsz"><table><tr><td class="t_f">{c}</td></tr>'
            "</table></div></div></td></tr></table>"
            for i, (name, c) in enumerate(
                zip(("路人甲", "书虫"), _some(_ZH_COMMENTS, 2, rng), strict=False)
            )
        )
        message = "<br>".join(html.escape(p) for p in paragraphs)
        return (
            '<!DOCTYPE html><html><head><meta charset="gbk">'
            f"<title>{t} - 读书 - 某某论坛</title></head><body>"
            '<div id="toptb"><a href="#">设为首页</a> <a href="#">收藏本站</a></div>'
            '<div id="hd"><div class="hdc"><h2><a href="/">某某论坛</a></h2></div>'
            f'<div id="nv"><ul>{_links(["门户", "论坛", "群组", "导读", "排行榜", "家园"])}'
            "</ul></div></div>"
            '<div id="pt" class="bm cl"><div class="z"><a href="/">论坛</a> <em>&rsaquo;</em> '
            '<a href="/f/life">生活</a> <em>&rsaquo;</em> '
            '<a href="/f/books">读书</a> <em>&rsaquo;</em> '
            f"{t}</div></div>"
            '<div id="ct" class="wp cl"><div id="postlist" class="pl bm">'
            '<table class="plhin"><tr><td class="pls"><div class="pi">'
            '<a href="/space/1">楼主</a></div><dl><dt>帖子</dt><dd>1234</dd>'
            '<dt>积分</dt><dd>5678</dd></dl><p><a href="/pm/1">发消息</a></p></td>'
            '<td class="plc"><div class="pi"><strong>楼主</strong> 发表于 2024-3-5 10:21</div>'
            f'<h1 class="ts">{t}</h1><div class="pct"><div class="t_fsz"><table><tr>'
            f'<td class="t_f" id="postmessage_1">{message}</td></tr></table></div></div>'
            '<div class="sign">读书使人进步</div></td></tr></table>'
            f"{replies}</div></div>"
            '<div id="ft"><p><a href="/contact">联系我们</a> | <a href="/m">手机版</a></p>'
            "<p>Powered by Discuz! X3.4 &copy; 2001-2024</p></div></body></html>"
        )
    if layout == "news":
        return (
            '<!DOCTYPE html><html><head><meta charset="utf-8">'
            f"<title>{t} | The Daily Example</title></head><body>"
            '<div class="top-bar"><a href="/signin">Sign in</a> '
            '<a href="/subscribe">Subscribe</a></div>'
            '<div class="site-header"><a class="logo" href="/">The Daily Example</a>'
            f'<div class="main-nav"><ul>{_links(_EN_MENU)}</ul></div></div>'
            '<div class="breadcrumbs"><a href="/">Home</a> / <a href="/science">Science</a>'
            "</div>"
            '<div class="page"><div class="story">'
            f'<h1 class="story-title">{t}</h1>'
            '<div class="byline">By Jane Doe, Science correspondent · 5 March 2024</div>'
            f'<div class="story-body">{body}</div>'
            '<div class="share-tools"><a href="#">Facebook</a> <a href="#">Twitter</a> '
            '<a href="#">Email</a></div>'
            '<div class="related-stories"><h2>Related stories</h2><ul>'
            f"{_links(_some(_EN_HEADLINES, 4, rng))}</ul></div></div>"
            '<div class="rail"><div class="most-read"><h2>Most read</h2><ol>'
            f"{_links(_some(_EN_HEADLINES, 8, rng))}</ol></div>"
            '<div class="newsletter-signup">Get our morning briefing in your inbox. '
            '<a href="/newsletters">Sign up</a></div></div></div>'
            f'<div class="site-footer"><ul>{_links(_EN_MENU)}</ul>'
            "<p>© 2024 The Daily Example. All rights reserved.</p></div></body></html>"
        )
    raise ValueError(f"no layout {layout!r}")
