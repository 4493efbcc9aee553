"""``python -m qpicross`` is the ``qpicross`` command."""

import sys

try:
    from .cli import main
except KeyboardInterrupt:  # Ctrl-C while the command line itself loads: one line, as main() answers it later
    print("qpicross: error: interrupted", file=sys.stderr)
    sys.exit(130)

sys.exit(main())
