"""A child process behind a serial-port-like pty, relayed by a thread (what
`socat PTY,link=PATH,raw,echo=0 EXEC:cmd,pty,raw,echo=0` does, without socat).

    child stdin/stdout <-> [child pty] <-> relay thread <-> [public pty] <-> client (pyserial, mpremote)

- Both ptys are raw with echo off. The child's stderr goes to a log file (or nowhere),
  never into the serial stream.
- The relay keeps its own fd on the public slave open, so clients can open and close
  the port again and again without hangups or EIO.
- Towards the public side the relay never blocks: output nobody reads stays in the
  kernel (about 18 KB on Linux) plus at most `backlog` bytes here, then the oldest
  bytes are dropped and counted, as a USB serial port drops output no host reads.
  Towards the child it applies back-pressure instead (stops reading the client), so
  requests are never lost.
- restart(argv) replaces the child (a reset of the box) behind the same public pty:
  an open client keeps its port.
- cut() stops relaying (bytes in flight are lost: the line went dead); with
  hangup=True the public pty is closed too, so an open client sees the port vanish,
  as when a USB cable is pulled. resume() relays again, on a new pty after a hangup,
  re-pointing the `link` symlink so clients reconnect by the same path. The child
  keeps running throughout.
"""

import errno
import os
import pty
import select
import subprocess
import threading
import tty

_CHUNK = 4096
_CHILD_BACKLOG = 64 * 1024


def _open_raw_pty():
    master, slave = pty.openpty()
    tty.setraw(slave)  # raw, no echo, no signals, no CR/LF mangling
    os.set_blocking(master, False)
    return master, slave


class PtyRelay:
    def __init__(self, link=None, stderr_path=None, backlog=4096):
        """link: optional symlink path that always points at the current public pty."""
        self.link = link
        self.stderr_path = stderr_path
        self.backlog = backlog
        self.proc = None
        self.pts = None  # the public pty's /dev/pts/N
        self.bytes_to_child = 0
        self.bytes_to_port = 0
        self.dropped = 0
        self._child_master = None
        self._pub_master = None
        self._pub_slave = None
        self._thread = None
        self._stopping = False
        self._wake_r, self._wake_w = os.pipe()

    # ---- public API

    @property
    def port(self):
        """The path clients open: the link if one was asked for, else the pty itself."""
        return self.link or self.pts

    def start(self, argv, env=None, cwd=None):
        """Spawn argv on the child pty and start relaying; returns self."""
        if self.proc is not None:
            raise RuntimeError("PtyRelay already started")
        self._spawn(argv, env, cwd)
        self._open_public()
        self._start_thread()
        return self

    def restart(self, argv, env=None, cwd=None):
        """End the child (if it still runs) and spawn argv in its place; the public pty stays."""
        if self.proc is None:
            raise RuntimeError("PtyRelay not started")
        self._stop_thread()
        self._end_child()
        self._spawn(argv, env, cwd)
        self._start_thread()
        return self

    def _spawn(self, argv, env, cwd):
        master, slave = _open_raw_pty()
        err = open(self.stderr_path, "ab") if self.stderr_path else subprocess.DEVNULL
        try:
            self.proc = subprocess.Popen(argv, stdin=slave, stdout=slave, stderr=err, env=env, cwd=cwd,
                                         start_new_session=True, close_fds=True)
        except BaseException:
            os.close(master)
            raise
        finally:
            os.close(slave)  # the child holds it now: when the child is gone, reads give EIO
            if err is not subprocess.DEVNULL:
                err.close()
        self._child_master = master

    def _end_child(self, timeout=3.0):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout)
        if self._child_master is not None:
            os.close(self._child_master)
            self._child_master = None

    def running(self):
        """True while relaying."""
        return self._thread is not None and self._thread.is_alive()

    def cut(self, hangup=False):
        """Stop relaying now; bytes in flight are lost. hangup=True also closes the public pty."""
        self._stop_thread()
        if hangup:
            self._close_public()

    def resume(self):
        """Relay again after cut() (on a fresh public pty if it was hung up)."""
        if self.proc is None:
            raise RuntimeError("PtyRelay not started")
        if self._pub_master is None:
            self._open_public()
        if not self.running():
            self._start_thread()

    def stop(self, timeout=3.0):
        """Stop relaying, end the child (terminate, then kill) and release every pty."""
        self._stop_thread()
        self._close_public()
        self._end_child(timeout)
        for fd in (self._wake_r, self._wake_w):
            try:
                os.close(fd)
            except OSError:
                pass
        self._wake_r = self._wake_w = -1

    def stats(self):
        return {"to_child": self.bytes_to_child, "to_port": self.bytes_to_port, "dropped": self.dropped}

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
        return False

    # ---- the public pty

    def _open_public(self):
        self._pub_master, self._pub_slave = _open_raw_pty()
        self.pts = os.ttyname(self._pub_slave)
        if self.link:
            tmp = self.link + ".new"
            if os.path.lexists(tmp):
                os.unlink(tmp)
            os.symlink(self.pts, tmp)
            os.replace(tmp, self.link)

    def _close_public(self):
        if self.link and os.path.islink(self.link):
            os.unlink(self.link)
        for fd in (self._pub_master, self._pub_slave):
            if fd is not None:
                os.close(fd)
        self._pub_master = self._pub_slave = None

    # ---- the relay thread

    def _start_thread(self):
        self._stopping = False
        self._thread = threading.Thread(target=self._run, name="pty-relay", daemon=True)
        self._thread.start()

    def _stop_thread(self):
        if self._thread is None:
            return
        self._stopping = True
        os.write(self._wake_w, b"x")
        self._thread.join()
        self._thread = None
        while True:  # empty the wake pipe for the next run
            r, _, _ = select.select([self._wake_r], [], [], 0)
            if not r:
                break
            os.read(self._wake_r, 64)

    def _run(self):
        child = self._child_master
        pub = self._pub_master
        to_child = bytearray()
        to_port = bytearray()
        child_open = True
        poller = select.poll()
        poller.register(self._wake_r, select.POLLIN)
        while not self._stopping:
            if child_open:
                poller.register(child, select.POLLIN | (select.POLLOUT if to_child else 0))
            want_in = select.POLLIN if len(to_child) < _CHILD_BACKLOG else 0
            poller.register(pub, want_in | (select.POLLOUT if to_port else 0))
            for fd, ev in poller.poll(1000):
                if fd == child:
                    if ev & select.POLLOUT and to_child:
                        self.bytes_to_child += self._write(child, to_child)
                    if ev & (select.POLLIN | select.POLLHUP | select.POLLERR):
                        data = self._read(child)
                        if data is None:  # the child and everything it started are gone
                            child_open = False
                            poller.unregister(child)
                            to_child = bytearray()
                        else:
                            to_port += data
                elif fd == pub:
                    if ev & select.POLLOUT and to_port:
                        self.bytes_to_port += self._write(pub, to_port)
                    if ev & select.POLLIN:
                        data = self._read(pub)
                        if data and child_open:
                            to_child += data
            if to_port:  # try at once: most writes go straight through
                self.bytes_to_port += self._write(pub, to_port)
            if len(to_port) > self.backlog:
                extra = len(to_port) - self.backlog
                del to_port[:extra]
                self.dropped += extra
            if to_child and child_open:
                self.bytes_to_child += self._write(child, to_child)

    @staticmethod
    def _read(fd):
        """Bytes read (b"" if none ready), or None at end of stream."""
        try:
            data = os.read(fd, _CHUNK)
        except BlockingIOError:
            return b""
        except OSError as e:
            if e.errno == errno.EIO:
                return None
            raise
        return data if data else None

    @staticmethod
    def _write(fd, buf):
        """Write what the fd takes now from the front of buf; returns the count."""
        try:
            n = os.write(fd, buf)
        except BlockingIOError:
            return 0
        except OSError as e:
            if e.errno == errno.EIO:
                return 0
            raise
        del buf[:n]
        return n
