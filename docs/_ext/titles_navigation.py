"""Sphinx extension: the theme's navigation tree without copying sections.

Furo asks Sphinx, for every page, for the whole site's table of contents
with titles only. Sphinx deep-copies every section of every page into that
tree and then drops the sections; with the rules and case pages' hundreds
of sections each, that copying was a third of the site's build time. While
the theme builds its tree, this extension lends Sphinx each page's table
of contents already cut as titles-only cuts it (the page's title and the
toctrees under it, nothing else), so the tree is the same and the copying
small. Every other use of the tables of contents (a page's own "on this
page" list) sees them whole. ``tests/test_docs_site.py`` checks that the
navigation lists every page.

Sphinx still resolved that whole tree once for every page, though the
pages of one folder get the same tree but for the marks of the page
itself: its link is "#" and classed "current", and the list items and
lists around it are classed "current" (``_toctree_add_classes``); links
are relative, so the folder matters. The tree is resolved once per folder,
for a name in it that no page has (nothing is marked), and each page's
marks are put in its text (:func:`mark_current`). Where the text is not as
expected (the page linked twice, a list with classes of its own), or the
tree is asked for collapsed (which depends on the page), Sphinx resolves
it for the page as before.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Callable
from typing import Any

from docutils import nodes
from sphinx import addnodes


def titles_only(toc: nodes.Element) -> nodes.Element:
    """``toc`` cut as Sphinx cuts a page's entry for a titles-only
    toctree (``sphinx.environment.adapters.toctree._entries_from_toctree``):
    each top-level item keeps its title and the toctrees found under it."""
    cut = toc.deepcopy()
    for top_level in cut.children:
        if isinstance(top_level, nodes.Element) and len(top_level) > 1:
            subtrees = list(top_level.findall(addnodes.toctree))
            if subtrees:
                top_level[1][:] = subtrees
            else:
                top_level.pop(1)
    return cut


def _cut_tocs(app: Any) -> dict[str, nodes.Element]:
    cut: dict[str, nodes.Element] | None = getattr(app.env, "_titles_only_tocs", None)
    if cut is None:
        cut = {doc: titles_only(toc) for doc, toc in app.env.tocs.items()}
        app.env._titles_only_tocs = cut
    return cut


#: the start and end tags of the tree's lists and items
_LIST_TAG = re.compile(r"<(/?)(ul|li)\b([^>]*)>")
_ITEM_CLASS = re.compile(r' class="(toctree-l\d+)"')
#: what docutils' HTML writer escapes in an attribute
_ATTRIBUTE = str.maketrans({"&": "&amp;", "<": "&lt;", '"': "&quot;", ">": "&gt;", "@": "&#64;"})


def mark_current(tree: str, href: str) -> str | None:
    """``tree``, the navigation's HTML as Sphinx writes it for a page that
    is not in it, marked as Sphinx marks it for the page ``href`` links:
    that link becomes "#" and "current", every item and list around it
    "current". The tree unchanged when no link goes to the page; None when
    the tree is not as expected."""
    link = f'<a class="reference internal" href="{href.translate(_ATTRIBUTE)}">'
    found = tree.count(link)
    if found != 1:
        # Sphinx marks every link to the page, and the lists around them
        # twice where they meet: not worth copying
        return tree if found == 0 else None
    at = tree.index(link)
    around: list[re.Match[str]] = []
    for tag in _LIST_TAG.finditer(tree, 0, at):
        if not tag.group(1):
            around.append(tag)
        elif not around or around.pop().group(2) != tag.group(2):
            return None
    parts: list[str] = []
    done = 0
    for tag in around:
        name, attributes = tag.group(2), tag.group(3)
        if name == "ul" and not attributes:
            marked = '<ul class="current">'
        elif name == "li" and (item := _ITEM_CLASS.fullmatch(attributes)) is not None:
            marked = f'<li class="{item.group(1)} current">'
        else:
            return None
        parts += [tree[done : tag.start()], marked]
        done = tag.end()
    parts += [tree[done:at], '<a class="current reference internal" href="#">']
    return "".join(parts) + tree[at + len(link) :]


#: the name, in a page's folder, of the page the folder's tree is resolved
#: for: no document can be called so (it is no file name)
_NOBODY = "\x00navigation"


def _folder_tree(app: Any, pagename: str, kwargs: dict[str, Any]) -> tuple[str, str] | None:
    """The navigation of ``pagename``'s folder, resolved for a page of the
    folder that is in no toctree, and the link that page has to
    ``pagename``; None where that cannot stand for the page's own."""
    if kwargs.get("collapse", True) is not False:
        return None  # a collapsed tree opens the page's own branch
    nobody = posixpath.join(posixpath.dirname(pagename), _NOBODY)
    if nobody in app.env.all_docs:
        return None
    cache: dict[tuple[str, str], str] = app.env.__dict__.setdefault("_folder_trees", {})
    key = (nobody, repr(sorted(kwargs.items())))
    if key not in cache:
        cache[key] = app.builder._get_local_toctree(nobody, **kwargs)
    return cache[key], app.builder.get_relative_uri(nobody, pagename)


def _lend_cut_tocs(
    app: Any, pagename: str, templatename: str, context: dict[str, Any], doctree: Any
) -> None:
    toctree: Callable[..., str] | None = context.get("toctree")
    if toctree is None:
        return

    def navigation(**kwargs: Any) -> str:
        if not kwargs.get("titles_only"):
            return toctree(**kwargs)
        env = app.env
        whole = env.tocs
        env.tocs = _cut_tocs(app)
        try:
            folder = _folder_tree(app, pagename, kwargs)
            marked = mark_current(*folder) if folder is not None else None
            return marked if marked is not None else toctree(**kwargs)
        finally:
            env.tocs = whole

    context["toctree"] = navigation


def _forget(app: Any, env: Any, *args: Any) -> None:
    # the tables of contents change when pages are read again
    for cached in ("_titles_only_tocs", "_folder_trees"):
        if hasattr(env, cached):
            delattr(env, cached)


def setup(app: Any) -> dict[str, Any]:
    # before the theme's own handler (priority 500), which calls the toctree
    app.connect("html-page-context", _lend_cut_tocs, priority=400)
    app.connect("env-updated", _forget)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
