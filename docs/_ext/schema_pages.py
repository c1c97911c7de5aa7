"""Reference pages for implementers, generated from the conformance suite.

On ``builder-inited`` this writes MyST Markdown into
``docs/implementers/reference/`` (gitignored): one page per JSON Schema of
``conformance/schema/`` (the case format, the replay start format, each
protocol message), a page of the definitions every schema shares (cards,
seats, events, commands, rejection kinds), a vocabulary page and an index
with the suite's versions from ``conformance/suite.yaml``.

Each schema, definition and nested object gets a stable label
(``schema-<page>[-<path>]``, shared definitions ``schema-def-<name>``), and
each field type links to the definition it refers to. Every explanation
is the schema's own ``description`` (written in
``loveletter/conformance/schemas.py``, released with the suite): a field,
a definition or an event or command type without one is reported as a
warning, which fails the (``-W``) build. A variant's field restating its
definition's (an event's ``type``) takes the definition's description.

A file is rewritten only when its content changes, so an incremental build
re-reads nothing when the suite has not changed.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

JSON = Any

ROOT = Path(__file__).resolve().parents[2]
SUITE = ROOT / "conformance"
OUT = ROOT / "docs" / "implementers" / "reference"

#: the protocol messages in the order an exchange uses them (a message file
#: not listed here still gets its page, after these)
MESSAGE_ORDER = ("start", "started", "run", "result", "skipped", "errored", "stop")

#: the shared definitions, in the order the definitions page shows them
DEF_ORDER = ("card", "cards", "seat", "command", "event", "rejection")


# --- small helpers ----------------------------------------------------------------


def literal(value: JSON) -> str:
    """A JSON value as inline code; a string bare unless it reads as another type."""
    if isinstance(value, str) and not re.fullmatch(r"-?[0-9.eE+]+|true|false|null|", value):
        text = value
    else:
        text = json.dumps(value)
    return f"`{text}`"


def code(name: str) -> str:
    return f"`{name}`"


def cell(text: str) -> str:
    """Text safe inside a Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def ref(label: str, text: str) -> str:
    return f"{{ref}}`{text.replace('<', '&lt;')} <{label}>`"


def slugify(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def discriminated(schema: Mapping[str, JSON]) -> list[tuple[str, Mapping[str, JSON]]]:
    """The ``type`` variants of an ``allOf`` of ``if type == X then ...``."""
    variants: list[tuple[str, Mapping[str, JSON]]] = []
    for part in schema.get("allOf", ()):
        condition = part.get("if", {}).get("properties", {}).get("type", {})
        if "const" in condition and "then" in part:
            variants.append((str(condition["const"]), part["then"]))
    return variants


def is_object(schema: Mapping[str, JSON]) -> bool:
    return "properties" in schema and schema.get("type", "object") == "object"


# --- the model -------------------------------------------------------------------


@dataclass(frozen=True)
class Schema:
    """One schema file of ``conformance/schema/``."""

    file: str  # relative to conformance/schema, with forward slashes
    data: Mapping[str, JSON]

    @property
    def stem(self) -> str:
        return self.file.removesuffix(".json")

    @property
    def slug(self) -> str:
        return slugify(self.stem)

    @property
    def label(self) -> str:
        return f"schema-{self.slug}"

    @property
    def page(self) -> str:
        return f"{self.stem}.md"

    @property
    def message(self) -> str | None:
        """The message type, for a protocol message schema."""
        const = self.data.get("properties", {}).get("type", {}).get("const")
        return const if self.stem.startswith("protocol-") and isinstance(const, str) else None


def load_schemas(suite: Path) -> list[Schema]:
    root = suite / "schema"
    found = [
        Schema(path.relative_to(root).as_posix(), json.loads(path.read_text(encoding="utf-8")))
        for path in sorted(root.rglob("*.json"))
    ]

    def order(schema: Schema) -> tuple[int, int, str]:
        if schema.message is None:
            return (0 if schema.stem.startswith("case") else 1, 0, schema.file)
        known = schema.message in MESSAGE_ORDER
        rank = MESSAGE_ORDER.index(schema.message) if known else len(MESSAGE_ORDER)
        return (2, rank, schema.file)

    return sorted(found, key=order)


def shared_definitions(schemas: Sequence[Schema]) -> dict[str, Mapping[str, JSON]]:
    """The ``$defs`` that every schema carries identically, and whose own
    references are shared too."""
    if not schemas:
        return {}
    first = schemas[0].data.get("$defs", {})
    shared = {
        name: body
        for name, body in first.items()
        if all(s.data.get("$defs", {}).get(name) == body for s in schemas)
    }
    while True:
        mixed = {name for name, body in shared.items() if set(references(body)) - set(shared)}
        if not mixed:
            return shared
        shared = {name: body for name, body in shared.items() if name not in mixed}


def references(schema: JSON) -> Iterator[str]:
    """The names of the definitions ``schema`` refers to."""
    if isinstance(schema, dict):
        for key, value in schema.items():
            if key == "$ref" and isinstance(value, str):
                yield value.rsplit("/", 1)[-1]
            else:
                yield from references(value)
    elif isinstance(schema, list):
        for item in schema:
            yield from references(item)


@dataclass
class Descriptions:
    """Reads the schemas' descriptions and remembers what has none."""

    missing: list[str] = field(default_factory=list)

    def get(
        self, scope: str, path: str, schema: Mapping[str, JSON] | None, *, required: bool
    ) -> str:
        """The description of ``schema`` (``path`` within ``scope``: a
        schema's stem, or ``def`` for the shared definitions); when it has
        none and ``required``, ``path`` is listed as missing."""
        text = schema.get("description") if schema is not None else None
        if isinstance(text, str) and text.strip():
            return text.strip()
        if required:
            self.missing.append(f"{scope}:{path}" if path else f"{scope}: (the schema itself)")
        return ""


# --- rendering one schema ---------------------------------------------------------------


@dataclass
class Section:
    """A nested object waiting for its own table."""

    label: str
    title: str
    path: str
    schema: Mapping[str, JSON]


class Renderer:
    """Renders the objects of one schema (or of the shared definitions) as
    Markdown tables, linking ``$ref`` to the definitions' labels."""

    def __init__(
        self,
        scope: str,
        label: str,
        def_label: Callable[[str], str],
        descriptions: Descriptions,
        used_labels: set[str],
    ) -> None:
        self.scope = scope  # where a missing description is, for the warning
        self.label = label  # this schema's label, the prefix of its sections'
        self.def_label = def_label
        self.descriptions = descriptions
        self.used_labels = used_labels
        #: canonical JSON of an object -> its section's label and path
        self.rendered: dict[str, tuple[str, str]] = {}
        self.pending: list[Section] = []

    # labels -------------------------------------------------------------------------

    def new_label(self, path: str) -> str:
        base = f"{self.label}-{slugify(path)}" if slugify(path) else self.label
        label, n = base, 2
        while label in self.used_labels:
            label, n = f"{base}-{n}", n + 1
        self.used_labels.add(label)
        return label

    def section_for(self, path: str, title: str, schema: Mapping[str, JSON]) -> str:
        """A link to the section for a nested object, queued if new (an
        object the same as one already queued links to that one)."""
        key = json.dumps(schema, sort_keys=True)
        if key not in self.rendered:
            label = self.new_label(path)
            self.rendered[key] = (label, path)
            self.pending.append(Section(label, title, path, schema))
        label, text = self.rendered[key]
        return ref(label, text)

    # types ----------------------------------------------------------------------------

    def type_of(self, schema: Mapping[str, JSON], path: str) -> str:
        """A readable type, linking definitions and nested objects."""
        if "$ref" in schema:
            name = str(schema["$ref"]).rsplit("/", 1)[-1]
            return ref(self.def_label(name), name)
        if "const" in schema:
            return f"{literal(schema['const'])} (constant)"
        if "enum" in schema:
            return "one of " + ", ".join(literal(v) for v in schema["enum"])
        for key in ("anyOf", "oneOf"):
            if key in schema:
                return self.alternatives(schema[key], path)
        if is_object(schema):
            return f"object: {self.section_for(path, code(path), schema)}"
        kind = schema.get("type")
        if isinstance(kind, list):
            return " or ".join(str(k) for k in kind)
        if kind in ("integer", "number"):
            return self.number(schema, str(kind))
        if kind == "string":
            return self.string(schema)
        if kind == "array":
            return self.array(schema, path)
        if kind == "object":
            required = schema.get("required", [])
            if required:
                names = ", ".join(code(n) for n in required)
                return f"object with {names}" + (" (all required)" if len(required) > 1 else "")
            return "object"
        if isinstance(kind, str):
            return kind
        return "any value"

    def alternatives(self, options: Sequence[Mapping[str, JSON]], path: str) -> str:
        rendered: list[str] = []
        objects = [o for o in options if is_object(o)]
        for n, option in enumerate(options, 1):
            if is_object(option):
                name = self.variant_name(option, n if len(objects) > 1 else 0)
                title = f"{code(path)} {name}".strip()
                rendered.append(self.section_for(f"{path} {name}".strip(), title, option))
            else:
                rendered.append(self.type_of(option, path))
        if len(rendered) == 2 and rendered[1] == "null":
            return f"{rendered[0]} or null"
        return "one of: " + "; ".join(rendered)

    @staticmethod
    def variant_name(schema: Mapping[str, JSON], n: int) -> str:
        if n == 0:
            return ""
        required = schema.get("required", [])
        return f"with {required[0]}" if required else f"(form {n})"

    @staticmethod
    def number(schema: Mapping[str, JSON], kind: str) -> str:
        if "minimum" in schema and "maximum" in schema:
            return f"{kind} from {schema['minimum']} to {schema['maximum']}"
        bounds = []
        if "minimum" in schema:
            bounds.append(f"≥ {schema['minimum']}")
        if "exclusiveMinimum" in schema:
            bounds.append(f"> {schema['exclusiveMinimum']}")
        if "maximum" in schema:
            bounds.append(f"≤ {schema['maximum']}")
        if "exclusiveMaximum" in schema:
            bounds.append(f"< {schema['exclusiveMaximum']}")
        return " ".join([kind, *bounds])

    @staticmethod
    def string(schema: Mapping[str, JSON]) -> str:
        low, high = schema.get("minLength"), schema.get("maxLength")
        if low is not None and high is not None:
            text = f"string of {low} to {high} characters"
        elif high is not None:
            text = f"string of at most {high} characters"
        elif low == 1:
            text = "non-empty string"
        elif low is not None:
            text = f"string of at least {low} characters"
        else:
            text = "string"
        if "pattern" in schema:
            text += f" matching `{schema['pattern']}`"
        return text

    def array(self, schema: Mapping[str, JSON], path: str) -> str:
        if "prefixItems" in schema:
            parts = [self.type_of(p, f"{path}[]") for p in schema["prefixItems"]]
            text = f"[{', '.join(parts)}]"
        elif "items" in schema:
            items = schema["items"]
            inner = self.type_of(items, f"{path}[]")
            low, high = schema.get("minItems"), schema.get("maxItems")
            if "oneOf" in items:
                return f"array, each item {inner}"
            if low is not None and low == high and 2 <= low <= 3:
                return "[" + ", ".join([inner] * low) + "]"
            if " or " in inner or inner.startswith("one of") or inner.startswith("array"):
                inner = f"({inner})"
            text = f"array of {inner}"
        else:
            text = "array"
        low, high = schema.get("minItems"), schema.get("maxItems")
        if "prefixItems" not in schema:
            if low is not None and low == high:
                text += f" (exactly {low})"
            elif low is not None and high is not None:
                text += f" ({low} to {high} items)"
            elif low:
                text += f" (at least {low})"
            elif high is not None:
                text += f" (at most {high})"
        if schema.get("uniqueItems"):
            text += ", no repeats"
        return text

    # constraints ---------------------------------------------------------------------

    def describe(self, schema: Mapping[str, JSON], path: str) -> str:
        """A condition or a constraint, as a phrase."""
        phrases: list[str] = []
        constants = {n for n, sub in schema.get("properties", {}).items() if "const" in sub}
        present = [n for n in schema.get("required", []) if n not in constants]
        if present:
            names = " and ".join(code(n) for n in present)
            phrases.append(f"{names} {'is' if len(present) == 1 else 'are'} given")
        negated = schema.get("not", {})
        if negated.get("required"):
            phrases.append(" and ".join(code(n) for n in negated["required"]) + " is absent")
        for name, sub in schema.get("properties", {}).items():
            where = f"{path}.{name}" if path else name
            if "const" in sub:
                phrases.append(f"{code(name)} is {literal(sub['const'])}")
            elif sub.get("maxItems") == 0:
                phrases.append(f"{code(name)} is empty")
            elif set(sub) == {"minItems"}:
                phrases.append(f"{code(name)} has at least {plural(sub['minItems'], 'item')}")
            else:
                phrases.append(f"{code(name)} is {self.type_of(sub, where)}")
        return "; ".join(phrases) or "anything"

    def constraints(self, schema: Mapping[str, JSON], path: str) -> list[str]:
        lines: list[str] = []
        low, high = schema.get("minProperties"), schema.get("maxProperties")
        if low == high == 1:
            lines.append("Give exactly one of these fields.")
        elif low:
            lines.append(f"Give at least {plural(low, 'field')}.")
        if "if" in schema:
            condition = self.describe(schema["if"], path)
            text = f"If {condition}: {self.describe(schema['then'], path)}."
            if "else" in schema:
                text += f" Otherwise: {self.describe(schema['else'], path)}."
            lines.append(text)
        for key, head in (("oneOf", "Exactly one of these holds"), ("anyOf", "At least one holds")):
            if key in schema and not all(is_object(o) for o in schema[key]):
                lines.append(f"{head}:")
                lines.append("\n".join(f"- {self.describe(o, path)}" for o in schema[key]))
        if schema.get("additionalProperties") is False:
            lines.append("No other fields are allowed.")
        elif "properties" in schema:
            lines.append("Other fields are allowed.")
        return lines

    # tables -----------------------------------------------------------------------------

    def table(
        self,
        schema: Mapping[str, JSON],
        path: str,
        required: Sequence[str] = (),
        restated: Mapping[str, JSON] | None = None,
    ) -> list[str]:
        """``restated``: the definition's own fields, which a variant's
        field of the same name restates (its description is theirs)."""
        needed = set(required) | set(schema.get("required", []))
        rows = ["| Field | Type | Required | Description |", "|---|---|---|---|"]
        for name, sub in schema.get("properties", {}).items():
            where = f"{path}.{name}" if path else name
            base = (restated or {}).get(name)
            described = sub if "description" in sub or base is None else base
            text = self.descriptions.get(self.scope, where, described, required=True)
            flag = "required" if name in needed else "optional"
            kind = self.type_of(sub, where)
            rows.append(f"| {code(name)} | {cell(kind)} | {flag} | {cell(text)} |")
        return rows

    def object(self, schema: Mapping[str, JSON], path: str) -> list[str]:
        """The table of an object, its constraints, then its nested objects."""
        lines = [*self.table(schema, path), ""]
        for constraint in self.constraints(schema, path):
            lines += [constraint, ""]
        return lines

    def nested(self, level: str) -> list[str]:
        """The sections of the nested objects queued so far (and theirs)."""
        lines: list[str] = []
        while self.pending:
            section, later = self.pending[0], self.pending[1:]
            self.pending = []
            lines += [f"({section.label})=", f"{level} {section.title}", ""]
            note = self.descriptions.get(self.scope, section.path, section.schema, required=False)
            if note:
                lines += [note, ""]
            path = section.path.split(" with ")[0].split(" (form")[0]
            lines += self.object(section.schema, path)
            # depth first: this object's own nested objects come next
            self.pending += later
        return lines

    def variants(self, name: str, schema: Mapping[str, JSON], level: str, prefix: str) -> list[str]:
        """The sections of a definition's ``type`` variants (events, commands),
        labelled ``<prefix>-<type>``."""
        lines: list[str] = []
        base_required = schema.get("required", [])
        for kind, then in discriminated(schema):
            label = f"{prefix}-{slugify(kind)}"
            self.used_labels.add(label)
            lines += [f"({label})=", f"{level} {code(kind)}", ""]
            note = self.descriptions.get(self.scope, f"{name}.{kind}", then, required=True)
            if note:
                lines += [note, ""]
            base = schema.get("properties", {})
            lines += [*self.table(then, f"{name}.{kind}", base_required, base), ""]
            lines += self.nested(level + "#")
        return lines


# --- pages ---------------------------------------------------------------------------


@dataclass
class Site:
    """Everything the pages are made from."""

    suite: Path
    schemas: list[Schema]
    shared: dict[str, Mapping[str, JSON]]
    versions: dict[str, str]
    descriptions: Descriptions
    labels: set[str] = field(default_factory=set)
    problems: list[str] = field(default_factory=list)

    def def_label(self, schema: Schema | None) -> Callable[[str], str]:
        def label(name: str) -> str:
            if schema is None or name in self.shared:
                return f"schema-def-{slugify(name)}"
            return f"{schema.label}-def-{slugify(name)}"

        return label

    def renderer(self, schema: Schema | None) -> Renderer:
        if schema is None:
            scope, label = "def", "schema-def"
        else:
            scope, label = schema.stem, schema.label
        return Renderer(scope, label, self.def_label(schema), self.descriptions, self.labels)


def read_versions(suite: Path) -> dict[str, str]:
    data = yaml.safe_load((suite / "suite.yaml").read_text(encoding="utf-8"))
    return {key: str(data[key]) for key in ("version", "case_format", "protocol")}


def schema_page(site: Site, schema: Schema) -> str:
    data = schema.data
    r = site.renderer(schema)
    self_label = r.new_label("")
    if schema.message is not None:
        heading = f"Message {code(schema.message)}"
    elif schema.stem.startswith("case"):
        heading = "Case format"
    elif schema.stem.startswith("replay"):
        heading = "Replay start format"
    else:
        heading = schema.stem
    lines = [f"({self_label})=", f"# {heading}", ""]
    lines += [
        f"Generated from `conformance/schema/{schema.file}` (suite {site.versions['version']}).",
        "",
        "```{list-table}",
        ":class: schema-facts",
        "",
        "* - Title",
        f"  - {data.get('title', '(none)')}",
    ]
    if "$id" in data:
        lines += ["* - `$id`", f"  - `{data['$id']}`"]
    if "$schema" in data:
        lines += ["* - Dialect", f"  - `{data['$schema']}`"]
    lines += ["```", ""]
    intro = site.descriptions.get(r.scope, "", data, required=True)
    if intro:
        lines += [intro, ""]
    lines += r.object(data, "")
    lines += r.nested("##")
    defs = data.get("$defs", {})
    if defs:
        lines += [f"({r.new_label('definitions')})=", "## Definitions", ""]
        shared = [n for n in defs if n in site.shared]
        if shared:
            links = ", ".join(ref(site.def_label(None)(n), n) for n in shared)
            lines += [
                f"The schema carries the definitions {links}, the same in every schema of "
                f"the suite: see {ref('schema-defs', 'Shared definitions')}.",
                "",
            ]
        own = site.renderer(schema)
        for name, body in defs.items():
            if name not in site.shared:
                lines += definition(site, own, name, body, "###")
    return "\n".join(lines).rstrip() + "\n"


def definition(
    site: Site, r: Renderer, name: str, body: Mapping[str, JSON], level: str
) -> list[str]:
    label = r.def_label(name)
    site.labels.add(label)
    lines = [f"({label})=", f"{level} {code(name)}", ""]
    note = site.descriptions.get(r.scope, name, body, required=True)
    if note:
        lines += [note, ""]
    variants = discriminated(body)
    if variants:
        kinds = ", ".join(ref(f"{label}-{slugify(k)}", k) for k, _ in variants)
        lines += [
            f"An object whose `type` is one of {plural(len(variants), 'type')}: {kinds}."
            " The other fields depend on the type; the schema requires only"
            f" {', '.join(code(n) for n in body.get('required', []))}.",
            "",
        ]
        lines += r.variants(name, body, level + "#", label)
    elif is_object(body):
        lines += r.object(body, name)
        lines += r.nested(level + "#")
    elif "enum" in body:
        lines += [f"One of these {len(body['enum'])} values:", ""]
        lines += [f"- {literal(v)}" for v in body["enum"]]
        lines += [""]
    else:
        lines += [f"Type: {r.type_of(body, name)}.", ""]
        lines += r.nested(level + "#")
    return lines


def definitions_page(site: Site) -> str:
    r = site.renderer(None)
    site.labels.add("schema-defs")
    lines = [
        "(schema-defs)=",
        "# Shared definitions",
        "",
        "Every schema of the suite carries these definitions (`$defs`), identically;"
        " the other reference pages link here.",
        "",
    ]
    names = sorted(site.shared, key=lambda n: (DEF_ORDER + (n,)).index(n))
    for name in names:
        lines += definition(site, r, name, site.shared[name], "##")
    return "\n".join(lines).rstrip() + "\n"


def enum_of(schema: Mapping[str, JSON], *path: str) -> list[JSON]:
    node: JSON = schema
    for key in path:
        node = node[key]
    return list(node["enum"])


def readme_table(readme: str, heading: str) -> dict[str, str]:
    """The first table after ``heading`` in the README: first column -> last."""
    start = readme.find(f"\n{heading}\n")
    if start < 0:
        return {}
    rows: dict[str, str] = {}
    started = False
    for line in readme[start:].splitlines()[1:]:
        if line.startswith("|"):
            started = True
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            key = cells[0].strip("`")
            if set(cells[0]) <= {"-", ":"} or not key or key == cells[0]:
                continue
            rows[key] = cells[-1]
        elif started:
            break
    return rows


def vocabulary_page(site: Site) -> str:
    shared = site.shared
    lines = [
        "(schema-vocabulary)=",
        "# Vocabulary",
        "",
        "Every name below is part of the contract between the suite and an"
        " implementation. The lists are generated from the schemas' enumerations"
        " (and checked against `loveletter/conformance/vocabulary.py`, the names our"
        " engine uses); the explanations come from the tables of"
        " `conformance/README.md` in the repository.",
        "",
    ]
    site.labels.add("schema-vocabulary")
    readme = (site.suite / "README.md").read_text(encoding="utf-8")
    case = next((s.data for s in site.schemas if s.stem == "case-v1"), None)

    def section(label: str, title: str, intro: str) -> None:
        site.labels.add(label)
        nonlocal lines
        lines += [f"({label})=", f"## {title}", "", intro, ""]

    if case is not None:
        rulesets = enum_of(case, "properties", "ruleset")
        section(
            "schema-vocabulary-rulesets",
            "Rulesets",
            'A case names one of these (a string: in YAML, quote `"2019"`):',
        )
        lines += [f"- {literal(v)}" for v in rulesets] + [""]
    if "card" in shared:
        cards = enum_of(shared, "card")
        section(
            "schema-vocabulary-cards",
            "Cards",
            f"{len(cards)} card names, written exactly so"
            f" ({ref('schema-def-card', 'card')}); a card's value depends on the edition:",
        )
        lines += [", ".join(literal(v) for v in cards) + ".", ""]
    if "command" in shared:
        meanings = readme_table(readme, "### Commands")
        section(
            "schema-vocabulary-commands",
            "Command types",
            f"The commands a case gives ({ref('schema-def-command', 'command')}):",
        )
        lines += ["| Type | Fields | Meaning |", "|---|---|---|"]
        for kind, then in discriminated(shared["command"]):
            fields = ", ".join(code(f) for f in then.get("properties", {}) if f != "type")
            link = ref(f"schema-def-command-{slugify(kind)}", kind)
            lines.append(f"| {link} | {cell(fields)} | {cell(meanings.get(kind, ''))} |")
        lines += [""]
    if "event" in shared:
        section(
            "schema-vocabulary-events",
            "Event types",
            f"The events an implementation reports ({ref('schema-def-event', 'event')}):",
        )
        lines += ["| Type | Fields |", "|---|---|"]
        for kind, then in discriminated(shared["event"]):
            fields = ", ".join(code(f) for f in then.get("properties", {}) if f != "type")
            link = ref(f"schema-def-event-{slugify(kind)}", kind)
            lines.append(f"| {link} | {cell(fields) or '(none)'} |")
        lines += [""]
    if "rejection" in shared:
        when = readme_table(readme, "### Rejection kinds")
        section(
            "schema-vocabulary-rejections",
            "Rejection kinds",
            "An illegal command is refused with exactly one of these kinds"
            f" ({ref('schema-def-rejection', 'rejection')}):",
        )
        lines += ["| Kind | When |", "|---|---|"]
        for kind in enum_of(shared, "rejection"):
            lines.append(f"| {literal(kind)} | {cell(when.get(kind, ''))} |")
        lines += [""]
    if case is not None:
        checks = case["properties"]["steps"]["items"]["oneOf"][1]["properties"]["checks"]
        section(
            "schema-vocabulary-decisions",
            "Decisions",
            "What a game waits for (the `decision` of a state):",
        )
        lines += [f"- {literal(v)}" for v in checks["properties"]["decision"]["enum"]] + [""]
    started = next((s.data for s in site.schemas if s.message == "started"), None)
    if started is not None:
        can = readme_table(readme, "### Capabilities")
        section(
            "schema-vocabulary-capabilities",
            "Capabilities",
            "What an implementation may declare in its handshake"
            f" ({ref('schema-protocol-v1-started', 'started')}); one that declares"
            " none offers them all:",
        )
        lines += ["| Capability | The implementation can |", "|---|---|"]
        for name in enum_of(started, "properties", "capabilities", "items"):
            lines.append(f"| {literal(name)} | {cell(can.get(name, ''))} |")
        lines += [""]
    return "\n".join(lines).rstrip() + "\n"


def index_page(site: Site) -> str:
    v = site.versions
    site.labels.add("schema-reference")
    lines = [
        "(schema-reference)=",
        "# Reference",
        "",
        "These pages are generated from the conformance suite when the site is built:",
        "they cannot disagree with the schemas the runner validates against.",
        "",
        "```{list-table}",
        ":header-rows: 1",
        "",
        "* - Suite version",
        "  - Case format",
        "  - Protocol",
        f"* - {v['version']}",
        f"  - {v['case_format']}",
        f"  - {v['protocol']}",
        "```",
        "",
        "| Page | Schema file | Schema title |",
        "|---|---|---|",
    ]
    for schema in site.schemas:
        title = cell(str(schema.data.get("title", "")))
        lines.append(f"| {{ref}}`{schema.label}` | `{schema.file}` | {title} |")
    lines += [
        f"| {ref('schema-defs', 'Shared definitions')} | (`$defs` of every schema) | |",
        f"| {ref('schema-vocabulary', 'Vocabulary')} | (the enumerations) | |",
        "",
        "```{toctree}",
        ":maxdepth: 1",
        "",
        "vocabulary",
        *[s.stem for s in site.schemas],
        "definitions",
        "```",
    ]
    return "\n".join(lines) + "\n"


def check_consistency(site: Site) -> None:
    """The schemas against the engine's vocabulary and suite.yaml."""
    try:
        from loveletter.conformance import vocabulary
    except ImportError as error:  # pragma: no cover - the docs build has it
        site.problems.append(f"cannot import loveletter.conformance.vocabulary: {error}")
        return
    shared = site.shared

    def same(what: str, schema_names: Sequence[JSON], engine_names: Sequence[str]) -> None:
        if set(schema_names) != set(engine_names):
            only_schema = sorted(set(map(str, schema_names)) - set(engine_names))
            only_engine = sorted(set(engine_names) - set(map(str, schema_names)))
            site.problems.append(
                f"{what}: only in the schemas {only_schema}, only in vocabulary.py {only_engine}"
            )

    if "card" in shared:
        same("card names", enum_of(shared, "card"), sorted(vocabulary.CARD_NAMES))
    if "rejection" in shared:
        same("rejection kinds", enum_of(shared, "rejection"), sorted(vocabulary.REJECTION_KINDS))
    for name, table in (("event", vocabulary.EVENT_FIELDS), ("command", vocabulary.COMMAND_FIELDS)):
        if name not in shared:
            continue
        variants = dict(discriminated(shared[name]))
        same(f"{name} types", list(variants), list(table))
        for kind, fields in table.items():
            if kind in variants:
                listed = [f for f in variants[kind].get("properties", {}) if f != "type"]
                same(f"fields of {name} {kind}", listed, list(fields))
    started = next((s.data for s in site.schemas if s.message == "started"), None)
    if started is not None:
        offered = enum_of(started, "properties", "capabilities", "items")
        same("capabilities", offered, list(vocabulary.CAPABILITIES))
    start = next((s.data for s in site.schemas if s.message == "start"), None)
    if start is not None:
        protocol = start["properties"]["protocol"].get("const")
        if str(protocol) != site.versions["protocol"]:
            site.problems.append(
                f"suite.yaml says protocol {site.versions['protocol']},"
                f" protocol-v1/start.json {protocol}"
            )
    case = next((s.data for s in site.schemas if s.stem == "case-v1"), None)
    if case is not None:
        formats = [str(f) for f in case["properties"]["format"]["enum"]]
        if site.versions["case_format"] not in formats:
            site.problems.append(
                f"suite.yaml says case format {site.versions['case_format']},"
                f" case-v1.json reads {formats}"
            )


@dataclass
class Generated:
    """The pages (path relative to the output directory -> text), and what
    the build should warn about."""

    pages: dict[str, str]
    #: ``<schema>:<path>`` of each field, definition or type without a description
    undescribed: list[str]
    problems: list[str]


def generate(suite: Path = SUITE) -> Generated:
    schemas = load_schemas(suite)
    site = Site(suite, schemas, shared_definitions(schemas), read_versions(suite), Descriptions())
    pages = {"index.md": index_page(site), "vocabulary.md": vocabulary_page(site)}
    for schema in schemas:
        pages[schema.page] = schema_page(site, schema)
    pages["definitions.md"] = definitions_page(site)
    check_consistency(site)
    # a shared definition is rendered once, but a field missing its
    # description may be met on several pages: name it once
    return Generated(pages, list(dict.fromkeys(site.descriptions.missing)), site.problems)


def write_pages(pages: Mapping[str, str], out: Path) -> list[Path]:
    """Write each page whose text changed; remove pages no longer generated.
    Returns the files written or removed."""
    changed: list[Path] = []
    for name, text in pages.items():
        path = out / name
        if path.is_file() and path.read_text(encoding="utf-8") == text:
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        changed.append(path)
    wanted = {out / name for name in pages}
    for path in sorted(out.rglob("*.md")) if out.is_dir() else []:
        if path not in wanted:
            path.unlink()
            changed.append(path)
    return changed


def iter_messages(generated: Generated) -> Iterator[str]:
    for where in generated.undescribed:
        yield f"schema_pages: no description in the schema for {where}"
    for problem in generated.problems:
        yield f"schema_pages: {problem}"


def _on_builder_inited(app: Any) -> None:
    from sphinx.util import logging

    logger = logging.getLogger(__name__)
    generated = generate()
    for message in iter_messages(generated):
        logger.warning(message)
    write_pages(generated.pages, OUT)


def setup(app: Any) -> dict[str, Any]:
    app.connect("builder-inited", _on_builder_inited)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
