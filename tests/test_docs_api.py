"""The API reference (docs/api/) documents what the site links to: every
function that implements a spec rule (the rules pages link each rule to its
code), every name the package exports, every public module. Read from the
pages' autodoc directives, so it runs in milliseconds without a Sphinx
build; the build itself then checks that each link resolves.

Also: the guide's Markdown pages (docs/library/) are doctested through
pytest's ``--doctest-glob=*.md``, so no other Markdown file may sit under
the test paths, where it would be run as a doctest by accident.
"""

from __future__ import annotations

import importlib
import inspect
import re
import tomllib
from pathlib import Path

from sphinx.pycode import ModuleAnalyzer

import loveletter
from loveletter.rules import CITATIONS

ROOT = Path(__file__).resolve().parent.parent
API = ROOT / "docs" / "api"

#: ``.. autoxxx:: name`` and the option lines under it
_DIRECTIVE = re.compile(r"^\.\. (auto\w+):: (\S+)\n((?:[ ]+:[\w-]+:.*\n)*)", re.M)
_OPTION = re.compile(r":([\w-]+):(.*)")

#: modules the reference leaves out, and why
UNDOCUMENTED_MODULES = {
    # the command line is documented as commands, not as Python
    "loveletter.cli",
    "loveletter.cli_records",
    "loveletter.cli_rules",
    "loveletter.interactive",
    "loveletter.conformance.cli",
    # internals with no use outside the package: caches, the in-process
    # script runner, the generator of the suite's JSON Schemas (the schemas
    # themselves are documented with the suite)
    "loveletter.conformance.execute",
    "loveletter.conformance.schemas",
}
#: packages whose modules write this site rather than belong to the API
UNDOCUMENTED_PACKAGES = ("loveletter.reference",)


def _directives() -> list[tuple[str, str, dict[str, str]]]:
    found = []
    for page in sorted(API.glob("*.md")):
        for kind, name, options in _DIRECTIVE.findall(page.read_text(encoding="utf-8")):
            parsed = {}
            for line in options.splitlines():
                match = _OPTION.search(line)
                assert match is not None
                parsed[match[1]] = match[2].strip()
            found.append((kind, name, parsed))
    return found


def _module_members(name: str, options: dict[str, str]) -> set[str]:
    """The members ``automodule`` documents with these options, as autodoc
    chooses them: ``__all__`` if the module has one, else the public
    functions and classes it defines and the values with a ``#:`` comment;
    undocumented functions and classes only with ``:undoc-members:``."""
    if "members" not in options:
        return set()
    module = importlib.import_module(name)
    commented = {attr for _, attr in ModuleAnalyzer.for_module(name).find_attr_docs()}
    if options["members"]:
        names = [n.strip() for n in options["members"].split(",")]
    elif hasattr(module, "__all__"):
        names = list(module.__all__)
    else:
        names = [
            key
            for key, value in vars(module).items()
            if not key.startswith("_") and (key in commented or _defined_in(value, name))
        ]
    undoc = "undoc-members" in options
    return {
        f"{name}.{key}"
        for key in names
        if undoc or key in commented or getattr(module, key).__doc__
    }


def _defined_in(value: object, module: str) -> bool:
    """A function or class of ``module`` itself, not one it imported."""
    is_code = inspect.isfunction(value) or inspect.isclass(value)
    return is_code and getattr(value, "__module__", None) == module


def _documented() -> set[str]:
    names: set[str] = set()
    for kind, name, options in _directives():
        names.add(name)
        if kind == "automodule":
            names |= _module_members(name, options)
    return names


def test_every_function_citing_a_rule_is_documented() -> None:
    cited = {name for names in CITATIONS.values() for name in names}
    assert len(cited) > 50  # the package's modules are all imported
    missing = sorted(cited - _documented())
    assert not missing, f"add these to docs/api/ (under 'Rule implementations'): {missing}"


def test_every_export_is_documented_under_its_own_module() -> None:
    documented = _documented()
    missing = []
    for name in loveletter.__all__:
        obj = getattr(loveletter, name)
        module = getattr(obj, "__module__", None)
        qualname = getattr(obj, "__qualname__", None)
        if module is None or qualname is None:
            # a value, which does not know its module: any module documenting
            # it under that name (the site's references find it the same way)
            found = [
                documented_name
                for documented_name in documented
                if documented_name.endswith(f".{name}")
                and documented_name != f"loveletter.{name}"
                and getattr(_module_of(documented_name), name, None) is obj
            ]
            if not found:
                missing.append(name)
        elif f"{module}.{qualname}" not in documented:
            missing.append(name)
    assert not missing, f"not in docs/api/: {missing}"


def _module_of(documented_name: str) -> object:
    return importlib.import_module(documented_name.rsplit(".", 1)[0])


def test_the_package_page_lists_every_export() -> None:
    text = (API / "loveletter.md").read_text(encoding="utf-8")
    listed = {
        line.strip().lstrip("~").rsplit(".", 1)[-1]
        for block in re.findall(r"\.\. autosummary::\n\n((?:   \S.*\n)+)", text)
        for line in block.splitlines()
    }
    assert listed == set(loveletter.__all__)


def test_every_public_module_has_a_section() -> None:
    documented = {name for kind, name, _ in _directives() if kind == "automodule"}
    modules = {
        path.relative_to(ROOT).with_suffix("").as_posix().replace("/", ".")
        for path in (ROOT / "loveletter").rglob("*.py")
        if "_data" not in path.parts
    }
    modules = {name.removesuffix(".__init__") for name in modules}
    expected = {
        name
        for name in modules
        if name not in UNDOCUMENTED_MODULES
        and not name.startswith(UNDOCUMENTED_PACKAGES)
        and name != "loveletter.__main__"
    }
    assert sorted(expected - documented) == []


def test_only_the_guide_is_doctested_as_markdown() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    options = config["tool"]["pytest"]["ini_options"]
    assert "--doctest-glob=*.md" in options["addopts"].split()
    stray = [
        str(path.relative_to(ROOT))
        for folder in options["testpaths"]
        if folder != "docs/library"
        for path in (ROOT / folder).rglob("*.md")
    ]
    assert stray == [], "pytest would run these as doctests (--doctest-glob=*.md)"
    assert len(list((ROOT / "docs" / "library").glob("*.md"))) >= 5
