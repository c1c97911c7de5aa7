"""``python -m loveletter``: the ``loveletter`` command."""

import sys

from loveletter.cli import main

sys.exit(main())
