"""The command-line commands (`cardtable.cli` registers each module's)."""

from __future__ import annotations

import signal
import threading


def ctrl_c_interrupts() -> None:
    """Make Ctrl-C raise KeyboardInterrupt in this command, which it turns into its own way out (`play` asks
    before leaving, `simulate` stops and keeps the finished games). Python does so only if SIGINT was not
    ignored when it started, and a program started from a background job (a shell script's `&`, a tool's
    job runner) inherits it ignored: Ctrl-C, or `kill -INT`, then did nothing at all. Only in the main
    thread (signal handlers belong to it); a command run from another thread keeps what it has."""
    if threading.current_thread() is threading.main_thread():
        signal.signal(signal.SIGINT, signal.default_int_handler)
