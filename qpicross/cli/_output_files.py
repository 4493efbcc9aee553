"""Files a command writes: checked before a long run, written atomically, never overwritten without ``--force``."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from qpicross.exceptions import UsageError
from qpicross.names import FIGURE_SUFFIXES

__all__ = ["PLOT_SUFFIXES", "check_output_path", "save_plot", "write_output"]


def _new_file_mode(path: Path) -> int:
    if path.exists():
        return path.stat().st_mode & 0o7777
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


#: Figure formats the ``--plot`` options accept (those :func:`~qpicross.plot.save_figure` writes).
PLOT_SUFFIXES = FIGURE_SUFFIXES


def check_output_path(path: str | os.PathLike, force: bool, suffixes: tuple[str, ...] | None = None) -> Path:
    """Fail early (before any long run) if an output file would be refused.

    Only a regular file (or a new one) is ever written: ``--force`` replaces a regular file, never a
    device, a pipe or a socket. The folder is tried with an empty temporary file, so a folder the
    command may not write into is refused now rather than after a long run.

    Raises:
        UsageError: If ``path`` is a directory or lies in a folder that does not exist or cannot be
            written, exists and ``force`` is false, exists and is not a regular file, or its extension
            is not one of ``suffixes``.
    """
    path = Path(path)
    if suffixes is not None and path.suffix.lower() not in suffixes:
        raise UsageError(f"{path}: unsupported extension {path.suffix!r}; use one of {', '.join(suffixes)}")
    if path.is_dir():
        raise UsageError(f"{path} is a directory; name a file")
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise UsageError(f"cannot write {path}: no such directory {directory}")
    if path.exists() or path.is_symlink():
        if not force:
            raise UsageError(f"{path} exists; pass --force to overwrite it")
        if not path.is_file():
            raise UsageError(f"{path} exists and is not a regular file (a device, pipe or socket); "
                             f"name a regular file or a new one")
    try:
        fd, probe = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".probe", dir=directory)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
    return path


def save_plot(fig, path: str | os.PathLike, force: bool) -> Path:
    """Save a matplotlib figure atomically through :func:`write_output`."""
    from qpicross.plot import save_figure

    check_output_path(path, force, PLOT_SUFFIXES)
    return write_output(path, lambda tmp: save_figure(fig, tmp), force)


def _move_into_place_unless_taken(tmp: Path, path: Path) -> None:
    """``tmp`` renamed to ``path`` unless a file took ``path`` meanwhile (another run that wrote the same new
    file): a hard link is made atomically only where no file is, then the temporary name goes. Where the file
    system has no hard links, a rename after a last look (a narrower window, not none)."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        raise UsageError(f"{path} appeared while this command ran (another run wrote it?); it was left as it is: "
                         "pass --force to overwrite it") from None
    except OSError:  # no hard links here (some network and FAT file systems)
        if path.exists() or path.is_symlink():
            raise UsageError(f"{path} appeared while this command ran; it was left as it is: pass --force to "
                             "overwrite it") from None
        os.replace(tmp, path)
        return
    tmp.unlink()


def write_output(
    path: str | os.PathLike, content: bytes | str | Callable[[Path], object], force: bool
) -> Path:
    """Write a file the command produces atomically, refusing to overwrite without ``--force``.

    The content goes to a temporary file in the same directory (keeping the
    extension, so writers that infer the format from it still work), which is
    then renamed over ``path`` with :func:`os.replace`: a reader never sees a
    half-written file, and an interrupted write leaves the old file intact.

    Args:
        path: Where the file goes.
        content: Bytes or text, or a function called with the temporary path
            that writes the file there (e.g. ``lambda p: fig.savefig(p)``).
        force: Overwrite an existing file.

    Returns:
        ``path`` as a :class:`~pathlib.Path`.

    Without ``force``, a file that appears at ``path`` while the content is written (another run writing the
    same new file) is left as it is, and this one refused (:func:`_move_into_place_unless_taken`).

    Raises:
        UsageError: If ``path`` exists (or appears meanwhile) and ``force`` is false, or cannot be written.
    """
    path = check_output_path(path, force)
    if path.is_dir():
        raise UsageError(f"{path} is a directory")
    directory = path.parent if str(path.parent) else Path(".")
    if not directory.is_dir():
        raise UsageError(f"cannot write {path}: no such directory {directory}")
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=f".tmp{path.suffix}", dir=directory)
    except OSError as exc:
        raise UsageError(f"cannot write {path}: {exc.strerror or exc}") from None
    tmp = Path(tmp_name)
    try:
        with os.fdopen(fd, "wb") as handle:
            if isinstance(content, (bytes, str)):
                handle.write(content.encode("utf-8") if isinstance(content, str) else content)
        if callable(content):
            content(tmp)
        os.chmod(tmp, _new_file_mode(path))  # mkstemp makes 0600; give the mode a plain open() would
        if force:
            os.replace(tmp, path)
        else:
            _move_into_place_unless_taken(tmp, path)
    except UsageError:  # a file took the path meanwhile: said as it is
        raise
    except (OSError, ValueError) as exc:  # the message names the user's file, never the temporary one
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        reason = reason.replace(str(tmp), str(path)).replace(tmp.name, path.name)
        raise UsageError(reason if reason.startswith(str(path)) else f"cannot write {path}: {reason}") from None
    finally:
        if tmp.exists():
            tmp.unlink()
    return path
