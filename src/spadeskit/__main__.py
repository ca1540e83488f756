"""Run the ``spadeskit`` command: ``python -m spadeskit demo``."""

import sys

from spadeskit.apps.cli import main

sys.exit(main())
