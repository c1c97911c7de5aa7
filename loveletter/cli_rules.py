"""``loveletter rules``: settle a rules question from the terminal.

It prints the text of the documentation's rules pages, generated from the
spec and the conformance suite this package carries, so it works from an
installed package as well as from a checkout::

    loveletter rules prince                              # a card, every edition
    loveletter rules prince.empty-deck-draws-set-aside   # one rule, its cases told
    loveletter rules --ruling 9                          # a ruling
    loveletter rules --edition premium                   # an edition: cards, tokens, rules
    loveletter rules --edition online                    # the online edition, settings too
    loveletter rules prince --edition premium            # a card in one edition
    loveletter rules empty deck                          # rules mentioning these words
"""

from __future__ import annotations

import argparse
import shutil
import sys
from typing import Any

#: exit status when the query names nothing in the rules
NOT_FOUND = 1


def add_parser(commands: Any) -> None:
    """Add ``rules`` to the ``loveletter`` subcommands."""
    parser = commands.add_parser(
        "rules",
        help="look up the rules: a card, a rule ID, a ruling, an edition, or words",
        description=(
            "Print the rules as the documentation tells them: a card or topic "
            "(prince, Dowager Queen, setup), a rule ID, a case, or words to find in "
            "the rules; --ruling N for a ruling, --edition E for an edition."
        ),
    )
    parser.add_argument("query", nargs="*", help="a card, topic, rule ID, case, or words")
    parser.add_argument("--ruling", type=int, default=None, metavar="N", help="ruling number N")
    parser.add_argument(
        "--edition",
        default=None,
        metavar="E",
        help="one edition only (2019, 2019-classic, premium, online or an alias); alone: its page",
    )
    parser.add_argument(
        "--stories",
        action=argparse.BooleanOptionalAction,
        default=None,
        help="tell each pinning case as a story (default: for one rule, a ruling or a case)",
    )
    parser.add_argument(
        "--width", type=int, default=None, help="wrap at this many columns (default: terminal)"
    )
    parser.set_defaults(handler=_cmd_rules)


def _cmd_rules(args: argparse.Namespace) -> int:
    from loveletter.reference.catalog import catalog
    from loveletter.reference.query import QueryError, answer

    query = " ".join(args.query) if args.query else None
    width = args.width or min(shutil.get_terminal_size((80, 24)).columns, 100)
    try:
        result = answer(
            catalog(), query, ruling=args.ruling, edition=args.edition, stories=args.stories
        )
    except QueryError as error:
        print(f"loveletter rules: {error}", file=sys.stderr)
        return NOT_FOUND
    sys.stdout.write(result.text(width=max(width, 40)))
    return 0
