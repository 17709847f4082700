"""A terminal for the end-to-end suite: the installed ``sia-tui`` in a pseudo-terminal, its
screen read back by pyte (a VT emulator), keys typed as the bytes a terminal sends.

Single-threaded on purpose: the app's output is read (and fed to the emulator) whenever the
test waits or types, so a large paste never deadlocks against a full pty buffer.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import re
import select
import shutil
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import pyte

#: Generous: the CI machine has two cores shared with the rest of the suite. Waits poll
#: the screen and return as soon as the text is there; nothing here measures speed.
WAIT_SECONDS = 60.0

#: What an xterm-compatible terminal sends for each key (no kitty keyboard protocol: the
#: app asks for it, this terminal does not answer, as most terminals do not).
KEYS: Mapping[str, bytes] = {
    "enter": b"\r",
    "tab": b"\t",
    "escape": b"\x1b",
    "backspace": b"\x7f",
    "up": b"\x1b[A",
    "down": b"\x1b[B",
    "right": b"\x1b[C",
    "left": b"\x1b[D",
    "home": b"\x1b[H",
    "end": b"\x1b[F",
    "pagedown": b"\x1b[6~",
    "f1": b"\x1bOP",
    "f2": b"\x1bOQ",
    "f3": b"\x1bOR",
    "f4": b"\x1bOS",
    "f7": b"\x1b[18~",
    "f8": b"\x1b[19~",
    **{f"ctrl+{c}": bytes([ord(c) & 0x1F]) for c in "abcdefghijklmnopqrstuvwxyz"},
}

#: Control sequences, left out of a failure's output tail so that it reads as text.
_ESCAPES = re.compile(r"\x1b(\[[0-9;?<>=]*[ -/]*[@-~]|[()][0-9A-Za-z]|[=>78DEHMc])")

PASTE_START, PASTE_END = b"\x1b[200~", b"\x1b[201~"


class TextScreen(pyte.Screen):
    """A screen of characters only: the suite reads text, so colours and styles are not
    kept (pyte's SGR handling was a third of the emulator's time on sia-tui's output)."""

    def select_graphic_rendition(self, *attrs: int, **_: object) -> None:
        return None


class AppDied(AssertionError):
    """The app ended while the test expected it on screen."""


class Terminal:
    """One ``sia-tui`` process on a pty of ``cols`` x ``rows``, and the screen it drew."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        env: Mapping[str, str],
        cwd: Path,
        cols: int = 80,
        rows: int = 24,
    ) -> None:
        self.argv = list(argv)
        self.screen = TextScreen(cols, rows)
        self._stream = pyte.ByteStream(self.screen)
        self.transcript = bytearray()
        """Every byte the app wrote, for a traceback that scrolled off the screen."""
        self._master, slave = os.openpty()
        _set_size(slave, cols, rows)
        self.proc = subprocess.Popen(
            self.argv,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env=dict(env),
            cwd=cwd,
            close_fds=True,
            start_new_session=True,  # its own process group, stopped as one in close()
        )
        os.close(slave)
        os.set_blocking(self._master, False)

    # -- reading -------------------------------------------------------------------------
    @property
    def text(self) -> str:
        """The screen as it reads now, one line per row."""
        return "\n".join(line.rstrip() for line in self.screen.display)

    @property
    def output(self) -> str:
        return self.transcript.decode("utf-8", "replace")

    def pump(self, seconds: float = 0.05) -> None:
        """Read whatever the app wrote for up to ``seconds`` and feed it to the screen."""
        end = time.monotonic() + seconds
        while True:
            left = end - time.monotonic()
            ready, _, _ = select.select([self._master], [], [], max(left, 0))
            if ready and not self._read():
                return
            if left <= 0:
                return

    def _read(self) -> bool:
        try:
            data = os.read(self._master, 1 << 16)
        except BlockingIOError:
            return True
        except OSError:  # EIO: the app closed the pty (it ended)
            return False
        if not data:
            return False
        self.transcript += data
        self._stream.feed(data)
        return True

    def wait_for(self, *texts: str, timeout: float = WAIT_SECONDS) -> str:
        """Poll the screen until every one of ``texts`` is on it; return the screen."""
        end = time.monotonic() + timeout
        while True:
            self.pump(0.1)
            screen = self.text
            if all(t in screen for t in texts):
                return screen
            if self.proc.poll() is not None:
                self.pump(0.2)
                raise AppDied(self._report(f"the app ended (exit {self.proc.returncode})"))
            if time.monotonic() > end:
                missing = [t for t in texts if t not in screen]
                raise AssertionError(self._report(f"not on screen after {timeout} s: {missing}"))

    def wait_for_any(self, *texts: str, timeout: float = WAIT_SECONDS) -> str:
        """Poll the screen until one of ``texts`` is on it; return that one."""
        end = time.monotonic() + timeout
        while True:
            self.pump(0.1)
            screen = self.text
            for text in texts:
                if text in screen:
                    return text
            self.assert_alive()
            if time.monotonic() > end:
                raise AssertionError(self._report(f"none on screen after {timeout} s: {texts}"))

    def wait_until_gone(self, text: str, timeout: float = WAIT_SECONDS) -> str:
        end = time.monotonic() + timeout
        while True:
            self.pump(0.1)
            if text not in self.text:
                return self.text
            self.assert_alive()
            if time.monotonic() > end:
                raise AssertionError(self._report(f"still on screen after {timeout} s: {text}"))

    def settle(self, seconds: float = 0.5) -> None:
        """Let the app finish drawing what it is drawing (keys are never lost: no assert
        depends on this, only on ``wait_for``)."""
        self.pump(seconds)

    def assert_alive(self) -> None:
        """Running, and nothing it wrote is a Python traceback."""
        self.pump(0.05)
        if self.proc.poll() is not None:
            raise AppDied(self._report(f"the app ended (exit {self.proc.returncode})"))
        assert "Traceback" not in self.output, self._report("a traceback was written")

    def _report(self, what: str) -> str:
        tail = _ESCAPES.sub("", self.output)[-6000:]
        return f"{what}\n--- screen ---\n{self.text}\n--- output (tail) ---\n{tail}"

    # -- typing --------------------------------------------------------------------------
    def write(self, data: bytes) -> None:
        """Send ``data`` as the terminal would, reading the app's output meanwhile."""
        view = memoryview(data)
        while view:
            _, writable, _ = select.select([], [self._master], [], 0.05)
            if writable:
                try:
                    sent = os.write(self._master, view[:4096])
                except BlockingIOError:
                    sent = 0
                view = view[sent:]
            self.pump(0)
            if self.proc.poll() is not None:
                raise AppDied(self._report("the app ended while typed to"))

    def press(self, *keys: str) -> None:
        """Each key by name (``KEYS``), or a single printable character."""
        for key in keys:
            self.write(KEYS[key] if key in KEYS else key.encode())
            self.pump(0.02)

    def type(self, text: str) -> None:
        """Characters one at a time, as a person types them."""
        for char in text:
            self.write(char.encode())
            self.pump(0.01)

    def paste(self, text: str, *, newline: bytes = b"\r") -> None:
        """A bracketed paste. xterm and VTE send a pasted newline as CR; some terminals
        (kitty) keep LF: ``newline`` picks."""
        body = text.replace("\r\n", "\n").encode().replace(b"\n", newline)
        self.write(PASTE_START + body + PASTE_END)

    def click(self, text: str) -> None:
        """A left click on the first character of ``text`` where the screen shows it, sent
        as the SGR mouse report the app asked for (``ESC [ ? 1006 h``)."""
        for row, line in enumerate(self.screen.display):
            col = line.find(text)
            if col >= 0:
                x, y = col + 1, row + 1
                self.write(f"\x1b[<0;{x};{y}M\x1b[<0;{x};{y}m".encode())
                return
        raise AssertionError(self._report(f"nothing to click: {text!r} is not on screen"))

    def resize(self, cols: int, rows: int) -> None:
        """What a terminal does when its window changes: new size, then SIGWINCH."""
        _set_size(self._master, cols, rows)
        self.screen.resize(rows, cols)
        # The pty is not the app's controlling terminal (it runs in its own session), so
        # the kernel does not signal it: the terminal does, as a terminal emulator would.
        os.kill(self.proc.pid, signal.SIGWINCH)

    # -- ending --------------------------------------------------------------------------
    def quit(self, timeout: float = WAIT_SECONDS) -> int:
        """ctrl+q, then the exit status (the app must end by itself)."""
        self.press("ctrl+q")
        end = time.monotonic() + timeout
        while self.proc.poll() is None:
            self.pump(0.1)
            if time.monotonic() > end:
                raise AssertionError(self._report("ctrl+q did not end the app"))
        self.pump(0.1)
        return self.proc.returncode

    def kill(self) -> None:
        """End the app's process group (its own children too), as a crash would."""
        if self.proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(timeout=WAIT_SECONDS)

    def close(self) -> None:
        self.kill()
        with contextlib.suppress(OSError):
            os.close(self._master)


def _set_size(fd: int, cols: int, rows: int) -> None:
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))


def installed_sia_tui() -> str:
    """The ``sia-tui`` console script of this environment (``uv sync`` installs it)."""
    beside = Path(sys.executable).parent / "sia-tui"
    if beside.exists():
        return str(beside)
    found = shutil.which("sia-tui")
    assert found, "the sia-tui console script is not installed: run `uv sync`"
    return found


@dataclass(frozen=True)
class Home:
    """One user's machine: private XDG dirs and HOME, and a working directory."""

    root: Path
    cwd: Path
    env: dict[str, str]

    @property
    def data(self) -> Path:
        return Path(self.env["XDG_DATA_HOME"]) / "sia-tui"

    def run(self, *args: str) -> subprocess.CompletedProcess[str]:
        """``sia-tui ARGS`` as a plain command (no terminal), its output captured."""
        return subprocess.run(
            [installed_sia_tui(), *args],
            env=self.env,
            cwd=self.cwd,
            capture_output=True,
            text=True,
            timeout=WAIT_SECONDS,
            stdin=subprocess.DEVNULL,
        )


#: The ``terminal`` fixture: ``terminal("demo", cols=80, rows=24)`` -> a running app.
StartTerminal = Callable[..., Terminal]
