"""`python -m app` runs the command-line interface."""

import sys

from app.cli import main

sys.exit(main())
