"""`python -m c4tui`: the same as the `c4tui` command."""

import sys

from c4tui.cli import main

sys.exit(main())
