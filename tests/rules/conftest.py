"""Let pytest rewrite the asserts of the helper module, for readable diffs."""

from __future__ import annotations

import pytest

pytest.register_assert_rewrite(f"{__package__}._helpers")
