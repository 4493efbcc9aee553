"""The progress bar a long command shows on stderr when it is a terminal."""

from __future__ import annotations

import sys
import threading

__all__ = ["Progress"]


class Progress:
    """A progress bar on stderr, only when it is a terminal (tqdm).

    Called as ``progress(done, total)`` or ``progress(done, total, best_energy)``; ``open_ended``: the
    run stops at the first solution, so ``total`` is only a cap and the bar counts reads without it;
    ``clock``: a status line of the label and the elapsed time alone, for a run with nothing to count
    (an exact solver's search), shown from the first call until :meth:`close`. A
    background thread redraws it twice a second, so the elapsed time moves even
    while one long read runs (the structured annealer releases the GIL). Use it as
    a context manager, or call :meth:`close`.
    """

    def __init__(self, label: str, stream=None, unit: str = "read", open_ended: bool = False, clock: bool = False):
        self.label = label
        self.open_ended = open_ended  # a run that stops at the first solution: its cap is no total to show
        self.clock = clock
        self.unit = unit
        self.stream = stream or sys.stderr
        self.enabled = bool(getattr(self.stream, "isatty", lambda: False)())
        self.bar = None
        self._stop = threading.Event()

    def __call__(self, done: int, total: int, best: float | None = None) -> None:
        if not self.enabled:
            return
        if self.bar is None:
            from tqdm import tqdm

            self.bar = tqdm(total=None if self.open_ended or self.clock else total, desc=self.label,
                            file=self.stream, unit=self.unit, leave=False, dynamic_ncols=True, mininterval=0.2,
                            bar_format="{desc}: {elapsed}" if self.clock else None)
            threading.Thread(target=self._tick, daemon=True).start()
        if not self.open_ended and not self.clock:
            self.bar.total = total
        self.bar.n = done
        if best is not None and best != float("inf"):
            self.bar.set_postfix_str(f"best energy {best:g}", refresh=False)
        self.bar.refresh()
        if done >= total and not self.clock:
            self.close()

    def _tick(self) -> None:
        while not self._stop.wait(0.5):
            bar = self.bar
            if bar is not None:
                bar.refresh()

    def close(self) -> None:
        self._stop.set()
        if self.bar is not None:
            self.bar.close()
            self.bar = None

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc) -> None:
        self.close()
