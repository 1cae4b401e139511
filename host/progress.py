"""Progress on stderr while a terminal watches, drawn by rich as pip and most tools draw it:
a bar with the count or the bytes and the time left, or a spinner with the time
waited. Nothing when no one watches (a pipe, a log): the command's closing line says
what happened. The bar goes when the work is done, leaving that closing line alone."""

import sys

from rich import progress as bars
from rich.console import Console

_WHAT = bars.TextColumn("{task.description}")
COLUMNS = {
    "count": (_WHAT, bars.BarColumn(), bars.MofNCompleteColumn(), bars.TimeRemainingColumn()),
    # KiB, as flash counts its kilobytes (1024 bytes); rich's rate column speaks kB only
    "bytes": (_WHAT, bars.BarColumn(), bars.DownloadColumn(binary_units=True), bars.TimeRemainingColumn()),
    "wait": (bars.SpinnerColumn(), _WHAT, bars.TimeElapsedColumn()),
}


class Progress:
    def __init__(self, stream=None):
        self.console = Console(file=stream if stream is not None else sys.stderr)
        self.enabled = self.console.is_terminal
        self._shown = None  # the rich Progress on screen
        self._kind = None
        self._task = None

    def _show(self, kind, what, done=None, total=None):
        if not self.enabled:
            return
        if self._kind == kind:
            self._shown.update(self._task, description=what, completed=done or 0, total=total)
            return
        self.done()
        self._shown = bars.Progress(*COLUMNS[kind], console=self.console, transient=True)
        self._task = self._shown.add_task(what, completed=done or 0, total=total)
        self._kind = kind
        self._shown.start()

    def count(self, what, done, total=None):
        """A bar of done of total things (total None: not known yet)."""
        self._show("count", what, done, total)

    def bytes(self, what, done, total):
        """A bar of done of total bytes."""
        self._show("bytes", what, done, total)

    def wait(self, what):
        """A spinner and the time waited so far."""
        self._show("wait", what)

    def done(self):
        """The bar or spinner gone from the terminal."""
        if self._shown is not None:
            self._shown.stop()
        self._shown = self._kind = self._task = None
