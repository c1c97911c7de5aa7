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
    "titles_navigation",
]

source_suffix = {".md": "markdown"}
root_doc = "index"
exclude_patterns = [
    "_build",
    "README.md",
    "premium-design.md",
    "online-design.md",
    "**/_fragments/**",
]

myst_enable_extensions = ["colon_fence", "deflist", "attrs_inline", "attrs_block"]
myst_heading_anchors = 3

nitpicky = True

html_theme = "furo"
html_title = "loveletter"
html_static_path = ["_static"]
html_css_files = ["loveletter.css"]

# --- API reference (autodoc) -------------------------------------------------
# docs/api/ documents every module by its real name (loveletter.engine.push);
# docs/library/ is the guide. Both link to the Python docs for standard types
# through a small local inventory, since the build has no network.

# Imported here, not at the top, to keep this section self-contained.
import importlib  # noqa: E402
import types  # noqa: E402
import zlib  # noqa: E402
from pathlib import PurePath  # noqa: E402
from typing import Any  # noqa: E402

autodoc_typehints = "signature"
autodoc_member_order = "bysource"
extensions.append("sphinx.ext.autosummary")
autosummary_generate = False  # the summary tables link to the module pages, no stub pages

PYTHON_DOCS = "https://docs.python.org/3"
#: the standard names our signatures and docstrings use, in objects.inv v2 lines
PYTHON_NAMES = HERE / "_intersphinx" / "python.txt"
intersphinx_mapping: dict[str, tuple[str, str | None]] = {}
nitpick_ignore: list[tuple[str, str]] = []
# numpy's own documentation is not at hand offline: the fast simulator's
# array types (and the private aliases numpy's annotations expand to) stay
# unlinked
nitpick_ignore_regex = [("py:class", r"numpy(\..*)?")]
# the same for the PettingZoo adapter's base class and spaces
nitpick_ignore_regex += [("py:class", r"(pettingzoo|gymnasium)(\..*)?")]
# and for the OpenSpiel games' base classes (pyspiel.Game, pyspiel.State)
nitpick_ignore_regex += [("py:class", r"pyspiel(\..*)?")]


def _write_python_inventory(app: Any, config: Any) -> None:
    """Write the stdlib inventory from PYTHON_NAMES into the build's doctree
    folder and point intersphinx at it: a generated file in the source tree
    would have to be kept in step by hand."""
    body = "".join(
        line + "\n"
        for line in PYTHON_NAMES.read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    )
    header = "# Sphinx inventory version 2\n# Project: Python\n# Version: 3\n"
    header += "# The remainder of this file is compressed using zlib.\n"
    path = Path(app.doctreedir) / "python-stdlib.inv"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(header.encode() + zlib.compress(body.encode()))
    config.intersphinx_mapping["python"] = (PYTHON_DOCS, str(path))


def _python_target(target: str, module: str | None) -> object:
    """What ``target`` names as Python would read it: a dotted path in the
    package, else a name in ``module`` (the docstring's own). Nothing
    outside the package is imported."""
    parts = target.lstrip(".~").split(".")
    if parts[0] == "loveletter":
        for cut in range(len(parts), 0, -1):
            try:
                obj: object = importlib.import_module(".".join(parts[:cut]))
            except ImportError:
                continue
            for part in parts[cut:]:
                obj = getattr(obj, part)
            return obj
    if module is None or not module.startswith("loveletter"):
        raise LookupError(target)
    obj = importlib.import_module(module)
    for part in parts:
        obj = getattr(obj, part)
    return obj


def _documented_names(obj: object, target: str) -> list[str]:
    """The names ``obj`` may be documented under: where it is defined, or,
    for a value (which does not know its module), every loveletter module
    holding it under the target's last name."""
    if isinstance(obj, types.ModuleType):
        return [obj.__name__]
    module = getattr(obj, "__module__", None)
    qualname = getattr(obj, "__qualname__", None)
    if isinstance(module, str) and isinstance(qualname, str):
        return [f"{module}.{qualname}"]
    attr = target.rsplit(".", 1)[-1]
    return [
        f"{name}.{attr}"
        for name, mod in sorted(sys.modules.items())
        if name.startswith("loveletter") and getattr(mod, attr, None) is obj
    ]


def _resolve_by_python(app: Any, env: Any, node: Any, contnode: Any) -> Any:
    """Resolve a Python reference the domain did not find to where its
    object is documented: ``loveletter.push`` (the name users type) is
    documented as ``loveletter.engine.push``, and a docstring's short
    ``IllegalCommand`` means the class its module imported."""
    if node.get("refdomain") != "py":
        return None
    target = node["reftarget"]
    try:
        obj = _python_target(target, node.get("py:module"))
    except (LookupError, AttributeError, ImportError, ValueError):
        return None
    domain = env.domains["py"]
    for name in _documented_names(obj, target):
        if name.startswith("loveletter") and name != target and name in domain.objects:
            return domain.resolve_xref(
                env, node["refdoc"], app.builder, node["reftype"], name, node, contnode
            )
    return None


def _trim_doctest_blocks(app: Any, doctree: Any) -> None:
    """Drop the blank line that ends each ``pycon`` block: doctest needs it
    (a closing fence right after an output line would be read as output),
    the reader does not."""
    from docutils import nodes

    for block in doctree.findall(nodes.literal_block):
        text = block.astext()
        if block.get("language") == "pycon" and text.endswith("\n"):
            # rawsource too: Sphinx highlights a block only if the two agree
            block.rawsource = text.rstrip("\n")
            block.children = [nodes.Text(block.rawsource)]


def _drop_unhelpful_values(app: Any, doctree: Any) -> None:
    """Leave a documented value out of its signature when it is longer than
    a line (a registry, a table of every card's rules: the [source] link
    shows it, where it reads better) or is a path, which would be the path
    on the machine that built the site."""
    from sphinx import addnodes

    for annotation in list(doctree.findall(addnodes.desc_annotation)):
        parts = [child for child in annotation.children if child.astext().strip()]
        if not parts or not isinstance(parts[0], addnodes.desc_sig_punctuation):
            continue
        text = annotation.astext()
        if parts[0].astext() == "=" and (len(text) > 80 or "Path(" in text):
            annotation.parent.remove(annotation)


def _name_path_defaults(
    app: Any, what: str, name: str, obj: Any, options: Any, signature: str | None, returns: str
) -> tuple[str | None, str] | None:
    """Write a default that is a path as the module constant it comes from
    (``root: Path = SUITE_ROOT``): its value is the path on the machine that
    built the site. (autodoc_preserve_defaults would do it, but it writes
    the defaults of attrs classes as attrs' generated code.)"""
    module = sys.modules.get(getattr(obj, "__module__", None) or "")
    if not signature or "Path(" not in signature or module is None:
        return None
    for key, value in vars(module).items():
        if isinstance(value, PurePath) and not key.startswith("_"):
            signature = signature.replace(repr(value), key)
    return signature, returns


def setup(app: Any) -> None:
    # before intersphinx reads its mapping (config-inited, priority 800)
    app.connect("config-inited", _write_python_inventory, priority=400)
    app.connect("missing-reference", _resolve_by_python)
    app.connect("doctree-read", _trim_doctest_blocks)
    app.connect("doctree-read", _drop_unhelpful_values)
    app.connect("autodoc-process-signature", _name_path_defaults)
