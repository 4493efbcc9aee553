"""Credentials of the cloud samplers: read with bounded work, checked, and never shown.

* :func:`read_token_file` reads a token the way puzzle files are read
  (:func:`qpicross._files.read_bounded`: a regular file only, at most
  :data:`MAX_TOKEN_BYTES`) and refuses anything but one line of printable ASCII,
  with a message that names the file and never quotes its content (a malformed
  token would otherwise come back inside an HTTP library's error).
* :func:`scrub` removes known tokens, in any quoting, and anything logged as
  ``token=...`` or ``'token': '...'`` from a message.
* :func:`redact_logs` installs :class:`SecretFilter` on the handlers of the root,
  ``dwave`` and ``amplify`` loggers, so that a client with debug logging on
  (``DWAVE_LOG_LEVEL=debug`` logs ``Client init called with: {'token': ...}``)
  writes ``***`` instead.

Examples:
    >>> scrub("Client init called with: {'token': 'ABC-123', 'solver': None}")
    "Client init called with: {'token': '***', 'solver': None}"
    >>> scrub("header value: 'ABC\\\\n123'", "ABC\\n123")
    "header value: '***'"
"""

from __future__ import annotations

import logging
import os
import re

from qpicross._files import UnreadableFileError, read_bounded
from qpicross.samplers.registry import SamplerUnavailableError

__all__ = ["read_token_file", "scrub", "SecretFilter", "redact_logs", "MAX_TOKEN_BYTES", "TOKEN_ENV_VARS"]

#: Largest token file read (bytes): Leap and Amplify tokens are under 100 characters.
MAX_TOKEN_BYTES = 4096
#: Environment variables whose values are credentials (always scrubbed).
TOKEN_ENV_VARS = ("DWAVE_API_TOKEN", "AMPLIFY_TOKEN")
#: Loggers whose handlers get the filter: the root, and the SDKs that add handlers of their own.
_LOGGERS = ("", "dwave", "dwave.cloud", "amplify")

_TOKEN_FIELD = re.compile(r"""(?i)(token['"]?\s*[:=]\s*)(['"]?)([^'"\s,})]+)""")
_TOKEN_TEXT = re.compile(r"[!-~]+")  # one run of printable ASCII, no blank


def read_token_file(path: str | os.PathLike) -> str:
    """The token stored in a file: one line of printable ASCII (surrounding whitespace removed).

    Raises:
        SamplerUnavailableError: For an unreadable, irregular, oversized, binary,
            empty or multi-line file; one line that names the file, not its content.
    """
    name = repr(os.fspath(path))
    try:
        data = read_bounded(path, MAX_TOKEN_BYTES)
    except UnreadableFileError as exc:
        raise SamplerUnavailableError(f"token file {name}: {exc}") from None
    text = data.decode("ascii", "replace").strip()
    if not text:
        raise SamplerUnavailableError(f"token file {name} is empty")
    if not _TOKEN_TEXT.fullmatch(text):
        raise SamplerUnavailableError(f"token file {name} does not hold one token (one line of printable "
                                      "ASCII without blanks); its content is not shown")
    return text


def _variants(token: str) -> set[str]:
    """A token as it may appear in a message: itself, escaped (``repr``), JSON-escaped."""
    return {token, token.encode("unicode_escape").decode("ascii"), repr(token)[1:-1]} - {""}


def scrub(message: object, *tokens: str | None) -> str:
    """``message`` on one line with every credential replaced by ``***``.

    Args:
        message: Text or an exception.
        tokens: Known secrets (None is skipped); the values of :data:`TOKEN_ENV_VARS` are added.
    """
    text = str(message)
    secrets = {t for t in tokens if t} | {os.environ.get(v, "").strip() for v in TOKEN_ENV_VARS}
    for secret in sorted((v for s in secrets if s for v in _variants(s)), key=len, reverse=True):
        text = text.replace(secret, "***")
    text = _TOKEN_FIELD.sub(lambda m: f"{m.group(1)}{m.group(2)}***", text)
    return " ".join(text.split())


class SecretFilter(logging.Filter):
    """A logging filter that rewrites each record through :func:`scrub` (it never drops one)."""

    def __init__(self) -> None:
        super().__init__()
        self.tokens: set[str] = set()

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a malformed record: leave it to logging's own error path
            return True
        clean = scrub(message, *self.tokens)
        if clean != " ".join(message.split()):
            record.msg, record.args = clean, None
        return True


_FILTER = SecretFilter()


def redact_logs(*tokens: str | None) -> SecretFilter:
    """Scrub ``tokens`` (and :data:`TOKEN_ENV_VARS`) from everything the root, ``dwave`` and ``amplify``
    loggers' handlers write from now on; call again after an SDK adds a handler.

    Returns:
        The one filter, installed (idempotent).
    """
    _FILTER.tokens.update(t for t in tokens if t)
    for name in _LOGGERS:
        logger = logging.getLogger(name)
        if _FILTER not in logger.filters:
            logger.addFilter(_FILTER)
        for handler in logger.handlers:
            if _FILTER not in handler.filters:
                handler.addFilter(_FILTER)
    return _FILTER
