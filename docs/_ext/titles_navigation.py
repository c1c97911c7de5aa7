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
"""

from __future__ import annotations

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
            return toctree(**kwargs)
        finally:
            env.tocs = whole

    context["toctree"] = navigation


def _forget(app: Any, env: Any, *args: Any) -> None:
    # the tables of contents change when pages are read again
    if hasattr(env, "_titles_only_tocs"):
        del env._titles_only_tocs


def setup(app: Any) -> dict[str, Any]:
    # before the theme's own handler (priority 500), which calls the toctree
    app.connect("html-page-context", _lend_cut_tocs, priority=400)
    app.connect("env-updated", _forget)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
