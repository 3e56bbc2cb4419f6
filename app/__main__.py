"""`python -m app`: the command line alone (no window; `memory-dashboard` or `python -m ui` has it)."""

import sys

from app.cli import main

sys.exit(main())
