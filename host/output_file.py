"""The files the host tools write where a user said (`-o FILE`, `--plot FILE`).

A path that cannot take the file (a folder, a folder that does not exist) is refused in
one line before any work is done, and a write is made to a temporary file beside the
target and renamed over it: a write that fails leaves neither a half file nor a stray
temporary one.
"""

import os
import tempfile
from pathlib import Path


def check_output_path(path, option="-o", example="output"):
    """CliError (exit 1) when path names a folder or lies in a folder that does not exist."""
    from host.cli import CliError

    path = Path(path)
    if path.is_dir():
        raise CliError("%s %s is a folder: give a file name (e.g. %s)" % (option, path, path / example), 1)
    folder = path.parent
    if not folder.is_dir():
        raise CliError("cannot write %s: the folder %s does not exist" % (path, folder), 1)
    return path


def write_file(path, write, option="-o", example="output"):
    """Call write(binary file) on a temporary file beside path, then rename it to path."""
    from host.cli import CliError

    path = check_output_path(path, option, example)
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix="." + path.name + ".", suffix=".tmp", dir=str(path.parent))
        with os.fdopen(fd, "wb") as f:
            write(f)
        os.chmod(tmp, 0o666 & ~_umask())  # as open() would have made it, not mkstemp's 0600
        os.replace(tmp, path)
    except OSError as e:
        _remove(tmp)
        raise CliError("cannot write %s: %s (nothing was written)" % (path, e.strerror or e), 1)
    except BaseException:
        _remove(tmp)
        raise


def write_text(path, text, option="-o", example="output"):
    write_file(path, lambda f: f.write(text.encode("utf-8")), option, example)


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _remove(tmp):
    if tmp is None:
        return
    try:
        os.unlink(tmp)
    except OSError:
        pass
