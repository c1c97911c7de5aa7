"""The conformance suite's runner, and this engine behind its protocol.

``loveletter conformance run`` loads the YAML cases of ``conformance/cases``
(:mod:`~loveletter.conformance.cases`), sends each one as a script to an
implementation -- this engine in process, or any program speaking protocol
v1 (:mod:`~loveletter.conformance.protocol`) -- and compares the events,
rejections and observations it reports with the case
(:mod:`~loveletter.conformance.compare`).
"""

from loveletter.conformance.cases import Case, CaseError, load_case, load_suite, select
from loveletter.conformance.protocol import PROTOCOL_VERSION, ProtocolError
from loveletter.conformance.runner import (
    SUITE_ROOT,
    External,
    InProcess,
    Report,
    compare,
    run_case,
    run_suite,
    script_for,
    suite_version,
)

__all__ = [
    "PROTOCOL_VERSION",
    "SUITE_ROOT",
    "Case",
    "CaseError",
    "External",
    "InProcess",
    "ProtocolError",
    "Report",
    "compare",
    "load_case",
    "load_suite",
    "run_case",
    "run_suite",
    "script_for",
    "select",
    "suite_version",
]
