"""Reading a small input file (a puzzle, a token) with bounded work, whatever the path names.

:func:`read_bounded` is the one way qpicross reads a file it was given:

* only a regular file is read, after symlinks are resolved: a device
  (``/dev/zero``, ``/dev/urandom``), a FIFO, a socket or a directory is refused
  with one line, before it is opened (a FIFO is never opened in blocking mode:
  the open uses ``O_NONBLOCK``, and the file is checked again once open);
* at most ``max_bytes + 1`` bytes are read, so a file that grows, or lies
  about its size, cannot make the reader consume more than the limit.

Examples:
    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile(delete=False) as f:
    ...     _ = f.write(b"2,2\\n")
    >>> read_bounded(f.name, 16)
    b'2,2\\n'
    >>> read_bounded(f.name, 2)
    Traceback (most recent call last):
    ...
    qpicross.exceptions.UnreadableFileError: larger than the 2-byte limit
    >>> read_bounded("/dev/zero", 16)
    Traceback (most recent call last):
    ...
    qpicross.exceptions.UnreadableFileError: a character device, not a regular file
    >>> os.unlink(f.name)
"""

from __future__ import annotations

import os
import stat

from qpicross.exceptions import UnreadableFileError

__all__ = ["read_bounded", "UnreadableFileError"]


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
          (stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISSOCK, "a socket"))


def _kind(mode: int) -> str:
    return next((name for test, name in _KINDS if test(mode)), "not a regular file")


def _refuse_irregular(mode: int, path: str, real: str) -> None:
    if not stat.S_ISREG(mode):
        target = f" ({real})" if real != os.path.abspath(path) else ""
        kind = _kind(mode)
        if kind == "a directory":
            raise UnreadableFileError(f"is a directory{target}, not a file")
        raise UnreadableFileError(f"{kind}{target}, not a regular file")


def read_bounded(path: str | os.PathLike, max_bytes: int, *, head: bool = False) -> bytes:
    """The bytes of a regular file of at most ``max_bytes`` bytes.

    Args:
        path: The file; symlinks are followed, and what they point at must be a regular file.
        max_bytes: The largest size accepted.
        head: Return the first ``max_bytes`` bytes of a larger file instead of refusing it.

    Raises:
        UnreadableFileError: For a missing or unreadable file, anything but a
            regular file, or a file above ``max_bytes`` (one line, without the
            file's content).
    """
    path = os.fspath(path)
    try:
        real = os.path.realpath(path)
        _refuse_irregular(os.stat(real).st_mode, path, real)
        fd = os.open(real, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError as exc:
        raise UnreadableFileError(f"cannot read file: {exc.strerror or exc}") from None
    try:
        _refuse_irregular(os.fstat(fd).st_mode, path, real)  # swapped between the check and the open
        chunks, size = [], 0
        while size <= max_bytes:
            chunk = os.read(fd, min(1 << 20, max_bytes + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as exc:
        raise UnreadableFileError(f"cannot read file: {exc.strerror or exc}") from None
    finally:
        os.close(fd)
    if size > max_bytes:
        if head:
            return b"".join(chunks)[:max_bytes]
        raise UnreadableFileError(f"larger than the {max_bytes}-byte limit")
    return b"".join(chunks)
