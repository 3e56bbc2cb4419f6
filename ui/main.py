"""The installed `memory-dashboard` command (and `python -m ui`, and the frozen binary): the command line
with the window's hooks wired in by plain imports, so `app/` never has to find the window itself."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from app.cli import main as cli_main
from ui.cli_hooks import HOOKS


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command line; with no command, the window."""
    return cli_main(argv, gui=HOOKS)


if __name__ == "__main__":
    sys.exit(main())
