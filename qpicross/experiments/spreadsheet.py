r"""CSV cells that a spreadsheet opens as text: never a formula, never a raw control character.

A puzzle's name comes from its file and a label from the command line; written verbatim into a
results CSV, ``=HYPERLINK(...)`` or ``@SUM(...)`` would run as a formula when the file is opened
in a spreadsheet (CSV injection), and an escape or bidirectional-override character would
reorder or hide what is shown. :func:`csv_cell` makes a text cell safe the way OWASP's CSV
injection advice says: a cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return gets a leading ``'`` (which spreadsheets take as "text", and do not show), and control
characters are written as backslash escapes. :func:`read_cell` takes the ``'`` off again.

Examples:
    >>> csv_cell("=HYPERLINK(\"http://x\")"), csv_cell("-5x5"), csv_cell("star10"), csv_cell(-1.5)
    ('\'=HYPERLINK("http://x")', "'-5x5", 'star10', -1.5)
    >>> csv_cell("evil\x1b[31m\u202e")
    'evil\\x1b[31m\\u202e'
    >>> read_cell(csv_cell("@SUM(A1)")), read_cell("'quoted")
    ('@SUM(A1)', "'quoted")
"""

from __future__ import annotations

import re
from typing import Any

__all__ = ["csv_cell", "read_cell", "FORMULA_STARTS"]

#: First characters that make a spreadsheet read a cell as a formula.
FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")

#: Control characters (C0 but tab, C1, DEL), lone surrogates, line and paragraph separators, bidirectional
#: controls: escaped in a cell.
_UNSAFE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\ud800-\udfff\u2028\u2029\u202a-\u202e\u2066-\u2069]")


def csv_cell(value: Any) -> Any:
    """A value as it goes into a CSV cell: text made safe (see the module docstring), anything else as is."""
    if not isinstance(value, str):
        return value
    text = _UNSAFE.sub(lambda m: m.group().encode("unicode_escape", "backslashreplace").decode("ascii"), value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def read_cell(value: Any) -> Any:
    """A cell read back: the ``'`` that :func:`csv_cell` put before a formula character taken off."""
    if isinstance(value, str) and value.startswith("'") and value[1:2] and value[1:2] in FORMULA_STARTS:
        return value[1:]
    return value
