"""Run the ``spadeskit`` command: ``python -m spadeskit demo``."""

import sys

from .cli import main

sys.exit(main())
