"""Sphinx configuration for the loveletter documentation.

The rules pages (rules/, rulings/, editions/, cases/, edge-cases) are not in
the repository: docs/_ext/loveletter_pages.py writes them from spec/ and
conformance/ when the build starts, so they cannot drift from the spec.
Build with ``make docs`` (warnings are errors, references nitpicky).
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE / "_ext"))
sys.path.insert(0, str(HERE.parent))

project = "loveletter"
author = "the loveletter developers"
copyright = "2026, the loveletter developers"

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.intersphinx",
    "sphinx.ext.viewcode",
    # ours: each writes or renders part of the site (see its docstring)
    "loveletter_pages",
    "schema_pages",
    "diagrams",
]

source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build", "README.md", "premium-design.md", "**/_fragments/**"]

myst_enable_extensions = ["colon_fence", "deflist", "attrs_inline", "attrs_block"]
myst_heading_anchors = 3

nitpicky = True

html_theme = "furo"
html_title = "loveletter"
html_static_path = ["_static"]
html_css_files = ["loveletter.css"]

# --- API reference (autodoc) -------------------------------------------------
autodoc_typehints = "signature"
autodoc_member_order = "bysource"
intersphinx_mapping: dict[str, tuple[str, str | None]] = {}
nitpick_ignore: list[tuple[str, str]] = []
