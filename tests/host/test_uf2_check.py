"""What `sim --board pico` says of the firmware file it is given, without a real UF2:
UF2 files written here block by block, each wrong in one way."""

import pytest

from host import rp2box
from host.cli import CliError

GOOD_TEXT = b"\x00MicroPython v1.28.0 on 2026-12-01; Raspberry Pi Pico with RP2040\x00"


def uf2(path, payload, family=rp2box.RP2040_FAMILY, flags=rp2box.UF2_FAMILY_PRESENT):
    chunks = [payload[i:i + 256] for i in range(0, len(payload), 256)] or [b""]
    out = bytearray()
    for n, chunk in enumerate(chunks):
        block = bytearray(512)
        for at, magic in rp2box.UF2_MAGICS:
            block[at:at + 4] = magic.to_bytes(4, "little")
        block[8:12] = flags.to_bytes(4, "little")
        block[12:16] = (0x10000000 + 256 * n).to_bytes(4, "little")
        block[16:20] = len(chunk).to_bytes(4, "little")
        block[20:24] = n.to_bytes(4, "little")
        block[24:28] = len(chunks).to_bytes(4, "little")
        block[28:32] = family.to_bytes(4, "little")
        block[32:32 + len(chunk)] = chunk
        out += block
    path.write_bytes(bytes(out))
    return path


# the build string split across two blocks is still found
LONG = b"\xff" * 230 + GOOD_TEXT


@pytest.mark.parametrize("payload, family, problem", [
    (LONG, rp2box.RP2040_FAMILY, None),
    (LONG, 0x68ED2B88, "a UF2 for another chip (family 0x68ed2b88), not the RP2040"),
    (b"\xff" * 600, rp2box.RP2040_FAMILY, "an RP2040 UF2 but not MicroPython"),
    (GOOD_TEXT.replace(b"Raspberry Pi Pico", b"Pimoroni Tiny"), rp2box.RP2040_FAMILY,
     "MicroPython for another RP2040 board, not the RPI_PICO"),
    (GOOD_TEXT.replace(b"v1.28.0", b"v1.19.1"), rp2box.RP2040_FAMILY,
     "MicroPython v1.19; the emulated Pico is checked with v1.28"),
])
def test_each_wrong_file_is_named_in_one_line(tmp_path, payload, family, problem):
    path = uf2(tmp_path / "fw.uf2", payload, family)
    assert rp2box.uf2_problem(path) == problem
    if problem is None:
        assert rp2box.find_uf2(path) == path.resolve()
        return
    with pytest.raises(CliError) as err:
        rp2box.find_uf2(path)
    assert problem in str(err.value) and "\n" not in str(err.value)


def test_a_file_that_is_no_uf2_and_no_file_at_all(tmp_path, monkeypatch):
    notes = tmp_path / "notes.uf2"
    notes.write_text("not firmware\n" * 100)
    with pytest.raises(CliError, match="notes.uf2: not a UF2 file \\(--firmware\\)"):
        rp2box.find_uf2(notes)
    monkeypatch.setenv(rp2box.UF2_ENV, str(tmp_path / "gone.uf2"))
    with pytest.raises(CliError, match="gone.uf2: no such UF2 file \\(\\$TABLEMATE_PICO_UF2\\)"):
        rp2box.find_uf2()
    monkeypatch.delenv(rp2box.UF2_ENV)
    with pytest.raises(CliError, match="micropython.org/download/RPI_PICO"):
        rp2box.find_uf2()
