"""Entry script of the frozen app: it runs `ui.main:main`, exactly what the `memory-dashboard` console
script runs, so the installed command and the frozen binary behave the same."""

import sys

from ui.main import main

if __name__ == "__main__":
    sys.exit(main())
