"""The ``qpicross`` command: a thin layer over the Python API.

Each sub-command lives in its own module of this package with two functions,
``add_parser(subparsers)`` and ``run(args) -> int``; :data:`COMMANDS` lists them.

Exit codes (:data:`EXIT_CODES`): 0 success, 1 the run found no solution, 2 bad input or usage (every
:class:`~qpicross.exceptions.QpicrossError`), 70 an internal error, a bug in qpicross (``EX_SOFTWARE`` of
sysexits.h: one line says so and how to report it, ``--debug`` prints its traceback), 130 on Ctrl-C, 141 and no
message when the reader of standard output has gone (``| head``). A script tells a miss (1) from a crash (70).
"""

from __future__ import annotations

import _thread
import argparse
import errno
import importlib
import os
import re
import signal
import sys
import threading
from collections.abc import Sequence

__all__ = ["main", "COMMANDS"]

#: Sub-command modules, in the order ``--help`` lists them.
COMMANDS = ["anneal", "solve", "generate", "show", "info", "bench", "tune", "export"]


class _Parser(argparse.ArgumentParser):
    """Argument errors as one line (``qpicross: error: ...``, exit 2); ``--help`` keeps the usage."""

    def _print_message(self, message: str, file=None) -> None:
        # argparse drops an OSError here (help lost without a word on a full disk or a closed pipe): raise it
        if message:
            (file or sys.stderr).write(message)

    def error(self, message: str):
        from qpicross.exceptions import UsageError

        command = self.prog.split(" ", 1)[1] + ": " if " " in self.prog else ""
        flag = re.match(r"argument (\S+?)(?:/\S+)?: (?=must |wants )", message)
        if flag:  # "argument --reads: must be ..." -> "--reads must be ..."
            message = f"{flag.group(1)} {message[flag.end():]}"
        raise UsageError(f"{command}{message} (see --help)")


def build_parser() -> argparse.ArgumentParser:
    from qpicross import __version__

    parser = _Parser(
        prog="qpicross",
        description="Picross puzzles (nonograms) as QUBO problems, solved by annealing.",
    )
    parser.add_argument("--version", action="version", version=f"qpicross {__version__}")
    parser.add_argument("--debug", action="store_true",
                        help="on an internal error (a bug in qpicross, exit status 70), print its traceback as well")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in COMMANDS:
        module = importlib.import_module(f".{name}", __name__)
        command = module.add_parser(sub)
        command.add_argument("--max-memory", default=None, metavar="SIZE",
                             help="memory the size guard lets this command plan for, e.g. 2G (default: "
                                  "QPICROSS_MAX_MEMORY, else a quarter of the machine's memory)")
        command.set_defaults(_run=module.run)
    return parser


def _run_with_limit(args: argparse.Namespace) -> int:
    """Run a command with ``--max-memory`` in force (through the environment, so workers see it too)."""
    if args.max_memory is None:
        return int(args._run(args))
    from qpicross.exceptions import UsageError
    from qpicross.model.size import parse_memory

    try:
        parse_memory(args.max_memory)
    except ValueError as exc:
        raise UsageError(f"--max-memory: {exc}") from None
    saved = {key: os.environ.get(key) for key in ("QPICROSS_MAX_MEMORY", "QPICROSS_MAX_COUPLERS")}
    os.environ["QPICROSS_MAX_MEMORY"] = args.max_memory
    os.environ.pop("QPICROSS_MAX_COUPLERS", None)  # the option wins over the older variable
    try:
        return int(args._run(args))
    finally:
        for key, value in saved.items():
            if value is None:
                os.environ.pop(key, None)
            else:
                os.environ[key] = value


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code.

    Every Ctrl-C, from the first import on, ends in one line and exit status 130: the command's
    modules (numpy, numba, dimod...) are imported here, inside the handler, not when this module is,
    and a Ctrl-C that C code swallowed (numba compiling a kernel calls back into Python through
    ctypes, which drops the exception) is raised again. Called as the process's command (``argv``
    None), it ignores Ctrl-C once the work is done, so a late one cannot cut the exit short.
    """
    hook = sys.unraisablehook
    sys.unraisablehook = _reraise_swallowed_interrupt(hook)
    process = argv is None and threading.current_thread() is threading.main_thread()
    if process:
        signal.signal(signal.SIGINT, _note_interrupt)
    try:
        code = _main(argv)
    except Exception as exc:
        # A Ctrl-C inside an extension module's import surfaces as another exception (numpy raises ImportError):
        # once a Ctrl-C has arrived, whatever it broke is answered as the interrupt it was. Anything else that
        # reached here is a bug of qpicross's, never the user's mistake.
        if _INTERRUPTS:
            code = _answer_interrupt(process)
        else:
            code = _internal_error(exc, "--debug" in list(sys.argv[1:] if argv is None else argv))
    except KeyboardInterrupt:
        code = _answer_interrupt(process)
    finally:
        sys.unraisablehook = hook
    if process:
        signal.signal(signal.SIGINT, signal.SIG_IGN)  # the command's process: a late Ctrl-C must not cut its exit short
        if code == 130:
            _exit_interrupted(code)
    return code


def _exit_interrupted(code: int) -> None:
    """End an interrupted process now: its exit handlers run (Dask clients close, worker processes are
    joined) and its streams are flushed, but the interpreter's teardown is skipped, where objects a
    Ctrl-C left half-built (numba's ``PassBuilder``) print "Exception ignored" lines after the last one.
    The exit handlers may free such objects too (llvmlite's ``ObjectRef``): what their ``__del__`` raises
    is not printed either, the command has already said in one line how it ended. Output files were written
    and closed before the command returned."""
    import atexit

    sys.unraisablehook = lambda unraisable: None
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


#: The Ctrl-Cs this process has received (while :func:`main` runs as the process's command).
_INTERRUPTS: list[int] = []


def _note_interrupt(signum, frame):
    """SIGINT: noted, then raised as Python's own handler does."""
    _INTERRUPTS.append(signum)
    raise KeyboardInterrupt


def _answer_interrupt(process: bool) -> int:
    if process:  # answered once: a Ctrl-C delivered again (a swallowed one raised anew) must not cut the exit
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    _discard_stdout()
    return _interrupted()


def _interrupted() -> int:
    return _fail("interrupted", 130)


def _fail(message: str, code: int = 2) -> int:
    """``qpicross: error: MESSAGE`` on stderr, importing nothing (and nothing when stderr cannot be written)."""
    try:
        print(f"qpicross: error: {message}", file=sys.stderr, flush=True)
    except OSError:
        pass
    return code


def _reraise_swallowed_interrupt(previous):
    def hook(unraisable) -> None:
        if isinstance(unraisable.exc_value, KeyboardInterrupt):  # lost in a callback: raise it where it can act
            # From another thread, a moment later: raised here, it would only be lost again.
            threading.Timer(0.01, _thread.interrupt_main).start()
            return
        if _INTERRUPTS:  # after a Ctrl-C, an object it left half-built failing in __del__: its doing, answered
            return
        previous(unraisable)
    return hook


def _main(argv: Sequence[str] | None) -> int:
    if list(sys.argv[1:] if argv is None else argv) == ["--version"]:  # without importing every command
        from qpicross import __version__

        try:
            print(f"qpicross {__version__}", flush=True)
        except OSError as exc:
            _discard_stdout()
            return _os_error(exc, _fail)
        return 0
    from qpicross.exceptions import QpicrossError

    from ._terminal import error

    parser = build_parser()
    try:
        try:
            args = parser.parse_args(argv)
        except SystemExit:  # --help printed: a full disk or a closed pipe shows here
            sys.stdout.flush()
            raise
        code = _run_with_limit(args)
        sys.stdout.flush()  # a full disk or a closed pipe shows here, not after main() has returned
        return code
    except QpicrossError as exc:  # the user's mistake, or what this machine lacks: one line
        return error(str(exc))
    except OSError as exc:  # writing the output failed (/dev/full, a full disk, a closed pipe), or a file did
        _discard_stdout()
        return _os_error(exc, error)


#: What each exit status of the command says.
EXIT_CODES = {0: "solved (or done)", 1: "no solution found", 2: "bad input or usage",
              70: "internal error: a bug in qpicross", 130: "interrupted", 141: "standard output closed"}
#: The status of an internal error (sysexits.h's EX_SOFTWARE), apart from 1, so that a script tells a crash from a miss.
EXIT_INTERNAL_ERROR = 70


def _internal_error(exc: Exception, debug: bool) -> int:
    """One line naming an unexpected exception as a bug (exit :data:`EXIT_INTERNAL_ERROR`) and how to report it;
    its traceback too with ``--debug``."""
    if debug:
        import traceback

        traceback.print_exception(exc, file=sys.stderr)
    where = "" if debug else " (run again with --debug for the traceback)"
    from ._terminal import error

    return error(f"internal error, a bug in qpicross: {type(exc).__name__}: {exc}{where}; please report it with "
                 f"the command line, its --debug output and qpicross --version", code=EXIT_INTERNAL_ERROR)


#: The exit status when the reader of standard output has gone (``qpicross ... | head``): no message, the status
#: of a process ended by SIGPIPE, as a shell reports ``yes | head``'s.
_CLOSED_PIPE = 128 + 13

#: What a failed write of standard output raises.
_WRITE_ERRORS = (errno.ENOSPC, errno.EIO, errno.EDQUOT, errno.EFBIG, errno.EBADF)


def _os_error(exc: OSError, error) -> int:
    """One line for an operating-system error that reached the command line: a file's, or stdout's."""
    if exc.errno == errno.EPIPE:  # the reader has gone (``| head``): nothing to say to anyone, as Unix tools do
        return _CLOSED_PIPE
    if exc.filename is not None:
        return error(f"{exc.filename}: {exc.strerror or exc}")
    if exc.errno in _WRITE_ERRORS:
        return error(f"cannot write standard output: {exc.strerror or exc}")
    return error(exc.strerror or str(exc) or type(exc).__name__)


def _discard_stdout() -> None:
    """Point standard output at the null device: what is still buffered must not fail again at exit."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # no real file behind sys.stdout (a test's capture)
        pass


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
