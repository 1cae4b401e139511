# tablemate: every entry point sets itself up (a .venv with pinned versions).
SHELL   := /bin/bash
PY      := .venv/bin/python
MPY     := .venv/bin/micropython
# A Pico-like heap budget for the MicroPython half of the tests (an RP2040 build has ~190 KB free).
MPY_HEAP ?= 192k
STAMP   := .venv/.installed
# rp2040js (pinned by rp2box/package-lock.json) for the emulated Pico; npm from Debian's nodejs/npm.
RP2JS   := rp2box/node_modules/.package-lock.json
# Modules that talk to rp2 hardware: type-checked against the MicroPython rp2 stubs.
RP2_CODE := firmware/board_pico.py firmware/pio_capture.py

.PHONY: all run test lint bench flash clean

all: test

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv .venv
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

$(RP2JS): rp2box/package.json rp2box/package-lock.json
	cd rp2box && npm ci --no-audit --no-fund --silent
	touch $(RP2JS)

run: $(STAMP)
	.venv/bin/tablemate sim

test: $(STAMP) $(RP2JS)
	@set -eo pipefail; \
	echo "== ruff"; .venv/bin/ruff check . ; \
	echo "== mypy: the rp2 board code against micropython-rp2-stubs"; \
	.venv/bin/mypy --check-untyped-defs --ignore-missing-imports --follow-imports=silent $(RP2_CODE); \
	echo "== mpy-cross (every device file)"; $(PY) -m host.device_files --compile-check; \
	echo "== pytest (CPython)"; $(PY) -m pytest -p no:cacheprovider | tee .venv/pytest.log; \
	echo "== the same shared tests under micropython (one process per module)"; \
	$(PY) tests/run_micropython.py --heapsize $(MPY_HEAP) | tee .venv/mpytest.log; \
	echo "== summary"; \
	echo "cpython:     $$(tail -n 1 .venv/pytest.log)"; \
	tail -n 1 .venv/mpytest.log

lint: $(STAMP)
	.venv/bin/ruff check .

bench: $(STAMP)
	$(PY) -m host.bench

# The pin tables, BOM table, LED figures and wiring SVG, from hardware/boards.json and bom.csv.
.PHONY: hardware
hardware: $(STAMP)
	$(PY) -m host.hardware_docs

flash: $(STAMP)
	.venv/bin/tablemate flash $(if $(PORT),--port $(PORT))

clean:
	rm -rf .venv rp2box/node_modules build *.egg-info .pytest_cache .ruff_cache
