"""`tablemate flash [--port PATH] [--dry-run] [--wait S]`: put the current firmware onto a box or a sim.

1. Ask the running firmware, over the serial protocol, for its files with their sizes
   and SHA-256 (`files` op), the manifest the last flash left (`manifest` op), its .mpy
   version (hello), platform and free room. A firmware that does not answer (a bare
   MicroPython board, a stopped app) or predates those ops is asked through mpremote's
   raw REPL instead (Ctrl-C, no soft reset): one probe prints the same facts.
2. Compile every device .py with mpy-cross for that .mpy version (-march from the
   board's architecture when the sub-versions match; plain bytecode otherwise), except
   boot.py and main.py, which MicroPython runs by name. Each file is named by its device
   path (-s), so the output does not depend on where the checkout is. Compiled files
   are cached.
3. Plan: copy the files whose content differs (by the device's own hashes when it gave
   them, else by the manifest and sizes) or that are missing, remove stale ones (a
   module's old .py would shadow its new .mpy). --dry-run stops here: it lists the plan
   and leaves the box running as it was (no raw REPL, no restart).
4. Check the filesystem has room for the copies, then break into the raw REPL and copy,
   each file to a temp name then renamed. The manifest is written last: a flash cut
   half-way is completed by the next one; a Ctrl-C names the files written so far and
   exits with status 130.
5. Restart the firmware and wait (--wait, default 60 s: a board's boot with a large
   journal takes a while) until it answers hello, showing that it waits. Exit 1 if it
   does not answer.

Sharing the port: mpremote and the protocol use the same serial line, one at a time
(both open it exclusively). Breaking into the REPL stops the running app (the link
turns a 0x03 byte into KeyboardInterrupt), so a flash that did so always restarts it.
On a board the restart is a soft reset from the friendly REPL (boot.py then main.py run
with a fresh heap). The virtual device is the unix port, which has no soft reset: flash
unmounts the image and ends the MicroPython process with EXIT_RESTART, the status that
asks `tablemate sim` to start the firmware again on the same port, as a board resets
(never counted as a crash). Restarting inside the same process is not an option: the old
app's heap and its world connection are still held there.
"""

import concurrent.futures
import hashlib
import json
import os
import re
import subprocess
import tempfile
import time
from pathlib import Path

from host import paths
from host.cli import CliError, Interrupted
from host.device_files import DEVICE_PACKAGES, ROOT, ROOT_SCRIPTS, compile_file, device_files, mpy_cross_cmd
from host.port_select import add_port_argument, resolve_port
from host.progress import Progress
from host.serial_client import DeviceClient, DeviceError, LinkError, PortError, mpy_info, open_port
from host.virtual_device import EXIT_RESTART
from host.words import count

MANIFEST = ".manifest.json"
MANIFEST_VERSION = 1
WRITE_CHUNK = 1024  # bytes per write on the device (mpremote's default is 256)
HELLO_WAIT_S = 60.0  # for the restarted firmware to answer (a Pico with a full journal boots slowly)
UNIX_PLATFORMS = ("linux", "darwin")

# Frees what the stopped app holds (the firmware restarts after a flash anyway): a
# stopped app leaves little heap, and the probe and the copies need some.
_FREE_HEAP = """
import sys, gc
for _tm_n in list(sys.modules):
    if _tm_n in ('boot', 'main') or _tm_n.split('.')[0] in %r:
        del sys.modules[_tm_n]
gc.collect()
"""

# One line per fact, streamed (no big dict or string on the device's heap).
_PROBE = """
import sys, os
print('mpy', getattr(sys.implementation, '_mpy', -1))
print('platform', sys.platform)
print('cwd', os.getcwd())
try:
    _tm_s = os.statvfs('.')
    print('free', _tm_s[1], _tm_s[1] * _tm_s[4])
except Exception:
    pass
def _tm_walk(d):
    try:
        it = list(os.ilistdir(d) if d else os.ilistdir())
    except OSError:
        return
    for e in it:
        p = d + '/' + e[0] if d else e[0]
        if e[1] & 0x4000:
            if d:
                _tm_walk(p)
        else:
            print('file', e[3] if len(e) > 3 else -1, p)
for _tm_d in %r:
    _tm_walk(_tm_d)
_tm_walk('')
try:
    _tm_h = open(%r, 'rb')
except OSError:
    _tm_h = None
if _tm_h:
    print('manifest')
    while True:
        _tm_b = _tm_h.read(256)
        if not _tm_b:
            break
        print(_tm_b.decode(), end='')
    _tm_h.close()
"""


def parse_probe(text):
    """The probe's output -> {"mpy", "platform", "cwd", "files": {path: size}, "manifest": text|None}."""
    text = text.replace("\r\n", "\n")  # a board's REPL prints CRLF, the unix port LF
    head, sep, manifest = text.partition("\nmanifest\n")
    info = {"mpy": None, "platform": None, "cwd": None, "files": {}, "manifest": manifest if sep else None,
            "hashes": None, "block": None, "free": None}
    for line in head.splitlines():
        key, _, rest = line.partition(" ")
        if key == "free":
            block, _, free = rest.partition(" ")
            if block.isdigit() and free.isdigit():
                info["block"], info["free"] = int(block), int(free)
        elif key == "file":
            size, _, path = rest.partition(" ")
            info["files"][path] = int(size)
        elif key == "mpy":
            info["mpy"] = int(rest) if rest.lstrip("-").isdigit() and int(rest) >= 0 else None
        elif key in ("platform", "cwd"):
            info[key] = rest
    return info


# The unix port has no soft reset: unmount the image cleanly and end the process with the
# status that asks its sim for a restart.
_END_PROCESS = """
import os, sys
try:
    import vfs
    os.chdir('/')
    if %r != '/':
        vfs.umount(%r)
except Exception:
    pass
sys.exit(%d)
"""


# ---------------------------------------------------------------- local side


def mpy_cross_version():
    """(version, sub-version) of the .mpy files mpy-cross emits."""
    res = subprocess.run(mpy_cross_cmd() + ["--version"], capture_output=True, text=True)
    m = re.search(r"mpy v(\d+)\.(\d+)", res.stdout + res.stderr)
    if not m:
        raise CliError("cannot tell which .mpy version mpy-cross emits: %r" % (res.stdout or res.stderr), 1)
    return int(m.group(1)), int(m.group(2))


def compile_target(board_mpy, emitted=None):
    """The -march to use for a board's sys.implementation._mpy (None for plain bytecode).

    CliError when the board cannot load what this mpy-cross emits.
    """
    info = mpy_info(board_mpy)
    if info is None:
        raise CliError("the board did not report its .mpy version (sys.implementation._mpy)", 1)
    version, sub, arch = info
    emitted = emitted or mpy_cross_version()
    if version != emitted[0]:
        raise CliError("the board loads .mpy v%d but this mpy-cross emits v%d.%d: use a MicroPython "
                       "firmware of the same generation as the pinned mpy-cross" % (version, *emitted), 1)
    # Native code also needs the same sub-version; bytecode only the same version.
    if sub != emitted[1] or arch == "none" or arch.startswith("arch"):
        return None
    return arch


def target_files(root=None, backend="rp2"):
    """[(source Path, device path)] for a box of this backend: .py compiled to .mpy except the
    scripts run by name."""
    out = []
    for src, dest in device_files(root or ROOT, backend):
        if src.suffix == ".py" and dest not in ROOT_SCRIPTS:
            dest = dest[:-3] + ".mpy"
        out.append((src, dest))
    return out


def _compile_cached(src, dest, march, cache_dir, tool_id):
    data = src.read_bytes()
    if not dest.endswith(".mpy"):
        return data
    # the name embedded for tracebacks is part of the output, so part of the key
    key = hashlib.sha256(b"\0".join([tool_id.encode(), (march or "").encode(), dest.encode(), data])
                         ).hexdigest()
    cached = cache_dir / (key + ".mpy")
    if cached.exists():
        return cached.read_bytes()
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.mpy"
        ok, msg = compile_file(src, out, march, name=dest[:-4] + ".py")
        if not ok:
            raise CliError("mpy-cross failed on %s: %s" % (src, msg), 1)
        compiled = out.read_bytes()
    tmp_cached = cached.with_suffix(".tmp%d" % os.getpid())
    tmp_cached.write_bytes(compiled)
    os.replace(tmp_cached, cached)
    return compiled


def build(march, root=None, cache_dir=None, backend="rp2", progress=None):
    """{device path: bytes} of everything the device needs, compiled for march (a bar on
    progress: a first compile of every file takes a while on a busy machine)."""
    cache_dir = Path(cache_dir) if cache_dir else paths.data_dir() / "mpy-cache"
    cache_dir.mkdir(parents=True, exist_ok=True)
    tool_id = "%d.%d" % mpy_cross_version()
    files = target_files(root, backend)
    workers = max(2, os.cpu_count() or 2)
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        jobs = [pool.submit(_compile_cached, src, dest, march, cache_dir, tool_id) for src, dest in files]
        if progress:
            for done, _job in enumerate(concurrent.futures.as_completed(jobs), 1):
                progress.count("compiling with mpy-cross", done, len(jobs))
            progress.done()
        datas = [job.result() for job in jobs]
    return {dest: data for (src, dest), data in zip(files, datas, strict=True)}


def sha(data):
    return hashlib.sha256(data).hexdigest()


class Plan:
    def __init__(self, copy, remove, unchanged, manifest):
        self.copy = copy  # [device path]
        self.remove = remove  # [device path]
        self.unchanged = unchanged  # [device path]
        self.manifest = manifest  # the manifest to write afterwards

    def changes(self):
        return bool(self.copy or self.remove)


def parse_manifest(text):
    """The files dict of a manifest text; {} when there is none or it is unreadable."""
    if not text:
        return {}
    try:
        m = json.loads(text)
    except ValueError:
        return {}
    files = m.get("files") if isinstance(m, dict) else None
    return files if isinstance(files, dict) else {}


def make_plan(local, device_files_sizes, manifest_text, board_mpy, march, device_hashes=None):
    """What to copy and remove so the device holds exactly `local` (device path -> bytes).

    device_hashes ({path: sha256 hex}, from the firmware's `files` op) decide what is
    unchanged by content; without them the manifest's hash and the size do."""
    old = parse_manifest(manifest_text)
    hashes = {path: sha(data) for path, data in local.items()}
    copy, unchanged = [], []
    for path in sorted(local):
        on_device = device_files_sizes.get(path)
        if device_hashes is not None:
            same = device_hashes.get(path) == hashes[path]
        else:
            same = old.get(path) == hashes[path] and on_device == len(local[path])
        if same:
            unchanged.append(path)
        else:
            copy.append(path)
    remove = []
    for path in sorted(device_files_sizes):
        if path in local:
            continue
        in_package = path.split("/")[0] in DEVICE_PACKAGES and "/" in path
        code = path.endswith(".py") or path.endswith(".mpy")
        if (in_package and code) or path in old:
            remove.append(path)
    manifest = {"version": MANIFEST_VERSION, "mpy": board_mpy, "march": march, "files": hashes}
    return Plan(copy, remove, unchanged, manifest)


# ---------------------------------------------------------------- the board


class RawRepl:
    """An mpremote session in the board's raw REPL."""

    def __init__(self, port):
        from mpremote.transport import TransportError
        from mpremote.transport_serial import SerialTransport

        self.port = port
        self.transport = None
        self._error = TransportError
        real = os.path.realpath(port)
        if not os.path.exists(real):
            raise CliError("no such port: %s" % port, 1)
        try:
            self.transport = SerialTransport(real, exclusive=True)
        except TransportError:
            # mpremote says only "failed to access": open it ourselves for the reason.
            try:
                open_port(real).close()
            except PortError as e:
                raise CliError(str(e), 1)
            raise CliError("cannot open %s" % port, 1)
        try:
            self.transport.enter_raw_repl(soft_reset=False)
        except TransportError:
            self.close()
            raise CliError("no MicroPython REPL answers on %s (is it a MicroPython board?)" % port, 1)

    def exec(self, code):
        try:
            return self.transport.exec(code)
        except self._error as e:
            raise CliError("the board failed: %s" % (str(e).strip().splitlines() or ["?"])[-1], 1)

    def free_heap(self):
        self.exec(_FREE_HEAP % (tuple(DEVICE_PACKAGES),))

    def probe(self):
        self.free_heap()
        out = self.exec(_PROBE % (tuple(DEVICE_PACKAGES), MANIFEST))
        try:
            return parse_probe(out.decode())
        except (ValueError, UnicodeError):
            raise CliError("unexpected answer from the board: %r" % out[:80], 1)

    def mkdirs(self, dirs):
        if dirs:
            self.exec("import os\nfor d in %r:\n try:\n  os.mkdir(d)\n except OSError:\n  pass"
                      % (sorted(dirs),))

    def write(self, path, data, progress=None):
        tmp = path + ".tmp"
        try:
            self.transport.fs_writefile(tmp, data, chunk_size=WRITE_CHUNK, progress_callback=progress)
        except (self._error, OSError) as e:
            raise CliError("writing %s failed: %s" % (path, e), 1)
        # rename over the old file (atomic on littlefs); FAT needs the old one removed first
        self.exec("import os\ntry:\n os.rename(%r, %r)\nexcept OSError:\n os.remove(%r)\n os.rename(%r, %r)"
                  % (tmp, path, path, tmp, path))

    def remove(self, path):
        self.exec("import os\ntry:\n os.remove(%r)\nexcept OSError:\n pass" % path)

    def restart(self, platform, root):
        """Soft-reset a board; end the unix port's process (see the module docstring). Closes the session."""
        serial = self.transport.serial
        try:
            if platform in UNIX_PLATFORMS:
                self.transport.exec_raw_no_follow(_END_PROCESS % (root, root, EXIT_RESTART))
            else:
                self.transport.exit_raw_repl()
                serial.write(b"\x04")  # soft reset in the friendly REPL: boot.py, main.py
                self.transport.read_until(1, b"soft reboot", timeout=5)
        except self._error as e:
            raise CliError("could not restart the firmware: %s" % e, 1)
        finally:
            self.close()

    def leave(self):
        """Back to the friendly REPL the board was found at, without a reset. Closes the session."""
        try:
            self.transport.exit_raw_repl()
        except (self._error, OSError):
            pass
        finally:
            self.close()

    def close(self):
        if self.transport is not None:
            try:
                self.transport.close()
            except OSError:
                pass
            self.transport = None


def device_inventory(port, timeout=3.0):
    """(facts, answered): the running firmware's own account of its files, in parse_probe's
    shape plus "hashes" and "hello"; facts is None when no firmware answers the protocol
    (answered False) or it predates the `files` op (answered True). Nothing is stopped."""
    try:
        dev = DeviceClient(port, timeout=timeout).open()
    except PortError as e:
        raise CliError(str(e), 1)
    except LinkError:
        return None, False
    try:
        facts = {"mpy": dev.info.get("mpy"), "files": {}, "hashes": {}, "hello": dev.info}
        after = ""
        while True:
            page = dev.request("files", after=after) if after else dev.request("files")
            for path, size, digest in page["files"]:
                facts["files"][path] = size
                facts["hashes"][path] = digest
            for key in ("platform", "cwd", "block", "free"):
                facts[key] = page.get(key)
            if not page.get("more") or not page["files"]:
                break
            after = page["files"][-1][0]
        pieces, size = [], None
        while size is None or sum(len(p) for p in pieces) < size:
            part = dev.request("manifest", offset=len("".join(pieces).encode()))
            size = part["size"]
            if not part["text"]:
                break
            pieces.append(part["text"])
        facts["manifest"] = "".join(pieces) if size else None
        return facts, True
    except DeviceError as e:
        if e.code == "unknown_op":
            return None, True
        raise CliError("the firmware on %s could not list its files: %s" % (port, e), 1)
    except (LinkError, KeyError, TypeError, ValueError) as e:
        raise CliError("the firmware on %s gave no usable file list: %s" % (port, e), 1)
    finally:
        dev.close()


def wait_for_firmware(port, timeout=HELLO_WAIT_S, out=None, progress=None):
    """The hello reply of the restarted firmware; CliError if it does not answer within timeout
    seconds. Says that it waits (a line, and a running count on a terminal)."""
    started = time.monotonic()
    deadline = started + timeout
    last = None
    if out:
        out("waiting up to %.0f s for the firmware to answer on %s ..." % (timeout, port))
    try:
        while time.monotonic() < deadline:
            if progress:
                progress.wait("waiting for the firmware on %s" % port)
            if not os.path.exists(port):
                last = "the port is gone"
                time.sleep(0.2)
                continue
            try:
                with DeviceClient(port, timeout=1.0) as dev:
                    return dev.info
            except LinkError as e:
                last = e
                time.sleep(0.2)
    finally:
        if progress:
            progress.done()
    raise CliError("the files are on the board, but the firmware did not answer within %.0f s of its restart"
                   " (%s): see its output with `mpremote connect %s repl`, or try a longer --wait"
                   % (timeout, last, port), 1)


def _kb(n):
    return "%.1f KB" % (n / 1024.0)


def _blocks(n, block):
    return -(-n // block)


def room_needed(plan, local, sizes, block):
    """Bytes of free room the copies need: what the new files add over the old ones, plus the
    largest new file (written beside its old copy before the rename), in whole blocks."""
    block = block or 4096
    grow = 0
    for p in plan.copy:
        grow += _blocks(len(local[p]), block) - _blocks(sizes.get(p, 0), block)
    biggest = max((_blocks(len(local[p]), block) for p in plan.copy), default=0)
    return (max(grow, 0) + biggest + 2) * block  # 2: the manifest and littlefs's metadata


def flash(port, dry_run=False, out=print, progress=None, root=None, verify=True, cache_dir=None,
          wait=HELLO_WAIT_S):
    """Flash the board on port; returns a dict of figures (files copied/removed, bytes, seconds, ...).

    "restarted" is None when the box was left running (a dry run), "reset" for a board,
    "ended+restarted" for the unix port's process (the virtual device), which its sim starts again.
    """
    started = time.monotonic()
    board = plan = None
    written = []  # the device paths copied so far: a Ctrl-C names them
    try:
        facts, answered = device_inventory(port)
        if facts is None:
            # no firmware that can list its files: ask through the raw REPL, which stops an app
            board = RawRepl(port)
            facts = board.probe()
        march = compile_target(facts.get("mpy"))
        platform = facts.get("platform")
        unix = platform in UNIX_PLATFORMS
        # the unix port is the virtual device: it also gets unixbox/ (a Pico never does)
        local = build(march, root, cache_dir, "unix" if unix else "rp2", progress)
        sizes = facts.get("files") or {}
        plan = make_plan(local, sizes, facts.get("manifest"), facts.get("mpy"), march, facts.get("hashes"))
        size = sum(len(local[p]) for p in plan.copy)
        mpy = mpy_info(facts.get("mpy"))
        out("board on %s: %s, mpy v%d.%d (%s), files in %s"
            % (port, platform, *mpy, facts.get("cwd")))
        out("%d to copy (%s), %d to remove, %d unchanged" % (len(plan.copy), _kb(size), len(plan.remove),
                                                           len(plan.unchanged)))
        need = room_needed(plan, local, sizes, facts.get("block"))
        free = facts.get("free")
        if dry_run:
            for p in plan.copy:
                out("  would copy   %s (%s)" % (p, _kb(len(local[p]))))
            for p in plan.remove:
                out("  would remove %s" % p)
            if isinstance(free, int) and plan.copy:
                out("room: %s needed, %s free" % (_kb(need), _kb(free)))
        else:
            if plan.changes() and isinstance(free, int) and free < need:
                raise CliError("not enough room on the board: the copies need %s, %s is free; nothing was"
                               " changed (sync the box, so its journal can make room, or remove files)"
                               % (_kb(need), _kb(free)), 1)
            if board is None:
                board = RawRepl(port)
                board.free_heap()
            if plan.changes():
                _apply(board, plan, local, size, progress, out, written)
    except KeyboardInterrupt:
        if board is not None:
            board.close()
        if progress:
            progress.done()
        raise Interrupted(_interrupted_words(board is not None, written, len(plan.copy) if plan else 0))
    except BaseException:
        if board is not None:
            board.close()
        if progress:
            progress.done()  # the bar gone and the cursor back before the error is said
        raise
    restarted = None
    try:
        if board is not None and (not dry_run or answered):
            # the REPL stopped a running app (or the files changed): start the firmware again
            board.restart(platform, facts.get("cwd") or "/")
            restarted = "ended+restarted" if unix else "reset"
        elif board is not None:
            board.leave()  # a board found at its REPL is left at its REPL
        seconds = time.monotonic() - started
        hello = facts.get("hello")
        if verify and restarted:
            hello = wait_for_firmware(port, wait, out, progress)
    except KeyboardInterrupt:
        raise Interrupted("flash interrupted after every file was written (%s), while the firmware restarted:"
                          " `tablemate status` tells when it answers; if it does not, run `tablemate flash`"
                          " again" % count(len(written), "file"))
    return {"copied": 0 if dry_run else len(plan.copy), "removed": 0 if dry_run else len(plan.remove),
            "bytes": 0 if dry_run else size, "unchanged": len(plan.unchanged), "seconds": seconds,
            "hello": hello, "restarted": restarted, "plan": plan, "need": need, "free": free}


def _interrupted_words(stopped, written, total, named=8):
    """What a Ctrl-C before the restart left on the box, and how to go on."""
    if not stopped:
        return "flash interrupted before anything was written: the box runs as it was"
    if not written:
        files = "before any file was written"
    else:
        shown = ", ".join(written[:named]) + (" and %d more" % (len(written) - named) if len(written) > named
                                              else "")
        files = "after writing %d of %s: %s" % (len(written), count(total, "file"), shown)
    return ("flash interrupted %s; the box's firmware stays stopped at its REPL until `tablemate flash`"
            " runs again, which copies the rest and restarts it" % files)


def _apply(board, plan, local, size, progress, out, written):
    dirs = set()
    for p in plan.copy:
        parts = p.split("/")[:-1]
        for i in range(1, len(parts) + 1):
            dirs.add("/".join(parts[:i]))
    board.mkdirs(dirs)
    done = 0
    for i, p in enumerate(plan.copy):
        def shown(written, total, i=i, p=p, base=done):
            if progress:
                progress.bytes("%d/%d %s" % (i + 1, len(plan.copy), p), base + written, size)
        board.write(p, local[p], shown)
        written.append(p)
        done += len(local[p])
        if progress and not progress.enabled:
            out("  copied %s (%s)" % (p, _kb(len(local[p]))))
    for p in plan.remove:
        board.remove(p)
        out("  removed %s" % p)
    board.write(MANIFEST, (json.dumps(plan.manifest, sort_keys=True, separators=(",", ":")) + "\n").encode())
    if progress:
        progress.done()


def add_parser(subparsers):
    p = subparsers.add_parser("flash", help="compile and copy the firmware onto a box or the virtual device",
                              description=__doc__.split("\n\n")[0])
    add_port_argument(p)
    p.add_argument("--dry-run", action="store_true",
                   help="list what would change; write nothing and leave the box running")
    p.add_argument("--wait", type=float, default=HELLO_WAIT_S, metavar="S",
                   help="seconds the firmware gets to answer after its restart (default %(default).0f)")
    p.set_defaults(func=run)


def summary(res):
    """The line a flash ends with: what it copied and removed."""
    return "flashed %s (%s), removed %d, %d unchanged in %.1f s" % (
        count(res["copied"], "file"), _kb(res["bytes"]), res["removed"], res["unchanged"], res["seconds"])


def run(args):
    if not args.wait > 0:
        raise CliError("--wait must be a number of seconds above 0, got %s" % args.wait)
    port = resolve_port(args.port)
    res = flash(port, dry_run=args.dry_run, progress=Progress(), wait=args.wait)
    if args.dry_run:
        print("dry run: nothing written%s" % ("" if res["restarted"] else ", the box kept running"))
    else:
        print(summary(res))
    if res["hello"] and res["restarted"]:
        print("firmware %s answers on %s" % (res["hello"].get("firmware"), port))
    return 0
