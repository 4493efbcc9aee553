"""``python -m qpicross`` is the ``qpicross`` command."""

import sys

answered = False  # whether main() runs, and so answers a Ctrl-C itself
try:
    from .cli import main

    answered = True
    code = main()
except KeyboardInterrupt:
    # Ctrl-C while the command line itself loads: one line, as main() answers it later; or a Ctrl-C delivered
    # again in the instant after main() answered one: its line is printed, the exit status is the same
    if not answered:
        print("qpicross: error: interrupted", file=sys.stderr)
    code = 130
sys.exit(code)
