"""``python -m c4tui`` runs the same command line as ``c4tui``."""

import sys

from c4tui.cli import main

sys.exit(main())
