"""`tablemate flash [--port PATH] [--dry-run]`: put the current firmware onto a box or the virtual device.

1. Break into the board's REPL through mpremote (Ctrl-C, raw REPL, no soft reset) and
   read, in one go, its .mpy version (sys.implementation._mpy), platform, the files
   under engine/ firmware/ hardware/ and the manifest of hashes `.manifest.json` that
   the last flash left in the filesystem root.
2. Compile every device .py with mpy-cross for that .mpy version (-march from the
   board's architecture when the sub-versions match; plain bytecode otherwise), except
   boot.py and main.py, which MicroPython runs by name. Each file is named by its device
   path (-s), so the output does not depend on where the checkout is. Compiled files
   are cached.
3. Copy only the files whose hash differs from the manifest (or that are missing),
   each to a temp name then renamed, and remove stale ones (a module's old .py would
   shadow its new .mpy). The manifest is written last: a flash cut half-way is
   completed by the next one.
4. Restart the firmware and check that it answers hello over the serial protocol.

Sharing the port: mpremote and the protocol use the same serial line, one at a time
(both open it exclusively). Breaking into the REPL stops the running app (the link
turns a 0x03 byte into KeyboardInterrupt), so flash always restarts it, after
--dry-run too. On a board the restart is a soft reset from the friendly REPL (boot.py
then main.py run with a fresh heap), and flash waits for the new firmware's hello.
The virtual device is the unix port, which has no soft reset: flash unmounts the image
and ends the MicroPython process (sys.exit in the raw REPL). `tablemate sim` restarts
its firmware process on the same port, as a board resets, and flash waits for the new
firmware's hello (a sim that has been left stopped ends with its process instead, and
`tablemate sim --image SAME` starts the new firmware). Restarting inside the same
process is not an option: the old app's heap and its world connection are still held there.
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
from host.cli import CliError
from host.device_files import DEVICE_PACKAGES, ROOT, ROOT_SCRIPTS, device_files, mpy_cross_cmd
from host.port_select import add_port_argument, resolve_port
from host.serial_client import DeviceClient, LinkError, PortError, mpy_info, open_port
from host.sync import Progress

MANIFEST = ".manifest.json"
MANIFEST_VERSION = 1
WRITE_CHUNK = 1024  # bytes per write on the device (mpremote's default is 256)
HELLO_WAIT_S = 20.0  # for the restarted firmware to answer
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
    info = {"mpy": None, "platform": None, "cwd": None, "files": {}, "manifest": manifest if sep else None}
    for line in head.splitlines():
        key, _, rest = line.partition(" ")
        if key == "file":
            size, _, path = rest.partition(" ")
            info["files"][path] = int(size)
        elif key == "mpy":
            info["mpy"] = int(rest) if rest.lstrip("-").isdigit() and int(rest) >= 0 else None
        elif key in ("platform", "cwd"):
            info[key] = rest
    return info


# The unix port has no soft reset: unmount the image cleanly and end the process.
_END_PROCESS = """
import os, sys
try:
    import vfs
    os.chdir('/')
    if %r != '/':
        vfs.umount(%r)
except Exception:
    pass
sys.exit(0)
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
        cmd = mpy_cross_cmd() + ["-o", str(out), "-s", dest[:-4] + ".py"]
        if march:
            cmd.append("-march=" + march)
        res = subprocess.run(cmd + [str(src)], capture_output=True, text=True)
        if res.returncode != 0:
            raise CliError("mpy-cross failed on %s: %s" % (src, (res.stderr or res.stdout).strip()), 1)
        compiled = out.read_bytes()
    tmp_cached = cached.with_suffix(".tmp%d" % os.getpid())
    tmp_cached.write_bytes(compiled)
    os.replace(tmp_cached, cached)
    return compiled


def build(march, root=None, cache_dir=None, backend="rp2"):
    """{device path: bytes} of everything the device needs, compiled for march."""
    cache_dir = Path(cache_dir) if cache_dir else paths.data_dir() / "mpy-cache"
    cache_dir.mkdir(parents=True, exist_ok=True)
    tool_id = "%d.%d" % mpy_cross_version()
    files = target_files(root, backend)
    workers = max(2, os.cpu_count() or 2)
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        datas = list(pool.map(lambda f: _compile_cached(f[0], f[1], march, cache_dir, tool_id), files))
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


def make_plan(local, device_files_sizes, manifest_text, board_mpy, march):
    """What to copy and remove so the device holds exactly `local` (device path -> bytes)."""
    old = parse_manifest(manifest_text)
    hashes = {path: sha(data) for path, data in local.items()}
    copy, unchanged = [], []
    for path in sorted(local):
        on_device = device_files_sizes.get(path)
        if old.get(path) == hashes[path] and on_device == len(local[path]):
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

    def probe(self):
        self.exec(_FREE_HEAP % (tuple(DEVICE_PACKAGES),))
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
                self.transport.exec_raw_no_follow(_END_PROCESS % (root, root))
            else:
                self.transport.exit_raw_repl()
                serial.write(b"\x04")  # soft reset in the friendly REPL: boot.py, main.py
                self.transport.read_until(1, b"soft reboot", timeout=5)
        except self._error as e:
            raise CliError("could not restart the firmware: %s" % e, 1)
        finally:
            self.close()

    def close(self):
        if self.transport is not None:
            try:
                self.transport.close()
            except OSError:
                pass
            self.transport = None


def wait_for_firmware(port, timeout=HELLO_WAIT_S, while_port_exists=False):
    """The hello reply of the restarted firmware.

    CliError if it does not answer in time; with while_port_exists, None as soon as the
    port is gone (a virtual device that ended and is not restarted by its sim).
    """
    deadline = time.monotonic() + timeout
    last = None
    while time.monotonic() < deadline:
        if while_port_exists and not os.path.exists(port):
            return None
        try:
            with DeviceClient(port, timeout=1.0) as dev:
                return dev.info
        except LinkError as e:
            last = e
            time.sleep(0.2)
    if while_port_exists:
        return None
    raise CliError("files are on the board, but the firmware does not answer after the restart: %s" % last, 1)


def _kb(n):
    return "%.1f KB" % (n / 1024.0)


def flash(port, dry_run=False, out=print, progress=None, root=None, verify=True, cache_dir=None):
    """Flash the board on port; returns a dict of figures (files copied/removed, bytes, seconds, ...).

    "restarted" is "reset" for a board, "ended" for the unix port's process (the virtual
    device), "ended+restarted" when its sim brought it back on the same port.
    """
    started = time.monotonic()
    board = RawRepl(port)
    try:
        info = board.probe()
        march = compile_target(info.get("mpy"))
        # the unix port is the virtual device: it also gets unixbox/ (a Pico never does)
        backend = "unix" if info.get("platform") in UNIX_PLATFORMS else "rp2"
        local = build(march, root, cache_dir, backend)
        plan = make_plan(local, info.get("files") or {}, info.get("manifest"), info.get("mpy"), march)
        size = sum(len(local[p]) for p in plan.copy)
        mpy = mpy_info(info.get("mpy"))
        out("board on %s: %s, mpy v%d.%d (%s), files in %s"
            % (port, info.get("platform"), *mpy, info.get("cwd")))
        out("%d to copy (%s), %d to remove, %d unchanged" % (len(plan.copy), _kb(size), len(plan.remove),
                                                           len(plan.unchanged)))
        if dry_run:
            for p in plan.copy:
                out("  would copy   %s (%s)" % (p, _kb(len(local[p]))))
            for p in plan.remove:
                out("  would remove %s" % p)
        elif plan.changes():
            _apply(board, plan, local, size, progress, out)
        platform = info.get("platform")
    except BaseException:
        board.close()
        raise
    board.restart(platform, info.get("cwd") or "/")
    written = time.monotonic() - started
    unix = platform in UNIX_PLATFORMS
    hello = None
    if verify:
        hello = wait_for_firmware(port, HELLO_WAIT_S, while_port_exists=unix)
    restarted = ("ended+restarted" if hello else "ended") if unix else "reset"
    return {"copied": 0 if dry_run else len(plan.copy), "removed": 0 if dry_run else len(plan.remove),
            "bytes": 0 if dry_run else size, "unchanged": len(plan.unchanged), "seconds": written,
            "hello": hello, "restarted": restarted, "plan": plan}


def _apply(board, plan, local, size, progress, out):
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
                progress.show(_bar(base + written, size) + " %d/%d %s" % (i + 1, len(plan.copy), p))
        board.write(p, local[p], shown)
        done += len(local[p])
        if progress and not progress.enabled:
            out("  copied %s (%s)" % (p, _kb(len(local[p]))))
    for p in plan.remove:
        board.remove(p)
        out("  removed %s" % p)
    board.write(MANIFEST, (json.dumps(plan.manifest, sort_keys=True, separators=(",", ":")) + "\n").encode())
    if progress:
        progress.done()


def _bar(done, total, width=24):
    filled = int(width * done / total) if total else width
    return "[%s%s] %3d%%" % ("#" * filled, "-" * (width - filled), 100 * done // total if total else 100)


def add_parser(subparsers):
    p = subparsers.add_parser("flash", help="compile and copy the firmware onto a box or the virtual device",
                              description=__doc__.split("\n\n")[0])
    add_port_argument(p)
    p.add_argument("--dry-run", action="store_true", help="list what would change; write nothing")
    p.set_defaults(func=run)


def run(args):
    port = resolve_port(args.port)
    res = flash(port, dry_run=args.dry_run, progress=Progress())
    if args.dry_run:
        print("dry run: nothing written")
    else:
        print("flashed %d files (%s), removed %d, %d unchanged in %.1f s"
              % (res["copied"], _kb(res["bytes"]), res["removed"], res["unchanged"], res["seconds"]))
    if res["hello"]:
        print("firmware %s answers on %s" % (res["hello"].get("firmware"), port))
    elif res["restarted"] == "ended":
        print("the virtual device's MicroPython process has ended (the unix port has no soft reset): "
              "start `tablemate sim` again with the same --image to run the new firmware")
    return 0
