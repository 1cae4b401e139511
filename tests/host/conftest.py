"""Fixtures shared by the host tests."""

import pytest

from host import virtual_device as vd
from host.serial_client import DeviceClient
from tests.host import fuzz_frames


@pytest.fixture
def device(tmp_path):
    """The firmware's serial link (real Link, Settings, Journal with 20 records) served by
    micropython behind a PtyRelay: a box without buttons."""
    relay = fuzz_frames.start_link_harness(tmp_path, records=20)
    try:
        fuzz_frames.wait_ready(relay.port)
        yield relay
    finally:
        relay.stop()


@pytest.fixture(scope="module")
def sim_box(tmp_path_factory):
    """The virtual box (the firmware on the unix port) on a fresh image, answering on its
    serial port, with its world channel (sim_box.world): one per test module."""
    image = tmp_path_factory.mktemp("sim-box") / "box.img"
    exe = vd.micropython_path()
    vd.prepare_image(exe, vd.DEFAULT_HEAPSIZE, image, True)
    device = vd.VirtualDevice(exe, image)
    device.start()
    device.connect_world()
    try:
        with DeviceClient(device.port, timeout=5.0):
            pass
        yield device
    finally:
        device.stop()
