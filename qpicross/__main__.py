"""``python -m qpicross`` is the ``qpicross`` command."""

import sys

from .cli import main

sys.exit(main())
