"""`python -m ui`: the same as the installed `memory-dashboard` command (the window and every command)."""

import sys

from ui.main import main

sys.exit(main())
