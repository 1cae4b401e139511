"""Fixtures shared by the host tests."""

import pytest

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
