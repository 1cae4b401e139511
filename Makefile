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
# The stub modules that code reaches, gathered where MYPYPATH can point (mypy refuses
# site-packages itself there, and these are top-level .pyi files without a -stubs package).
RP2_STUBS := .venv/rp2-stubs
RP2_STUB_MODULES := machine.pyi micropython.pyi neopixel.pyi vfs.pyi rp2 _mpy_shed

.PHONY: all run test lint bench flash clean pico

all: test

$(STAMP): pyproject.toml
	test -x $(PY) || python3 -m venv .venv
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	touch $(STAMP)

$(RP2_STUBS): $(STAMP)
	rm -rf $@ $@.tmp && mkdir -p $@.tmp
	site=$$($(PY) -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])'); \
	for m in $(RP2_STUB_MODULES); do test -e "$$site/$$m" && ln -s "$$site/$$m" $@.tmp/$$m || exit 1; done
	mv $@.tmp $@

$(RP2JS): rp2box/package.json rp2box/package-lock.json
	cd rp2box && npm ci --no-audit --no-fund --silent
	touch $(RP2JS)

run: $(STAMP)
	.venv/bin/tablemate sim

# What `tablemate sim --board pico --firmware UF2` needs beside the .venv: rp2040js.
pico: $(STAMP) $(RP2JS)
	@echo "the emulated Pico is ready: .venv/bin/tablemate sim --board pico --firmware RPI_PICO.uf2"


# The tests that boot the emulated Pico: mostly node's CPU while the rest mostly wait on
# pipes and sleeps, so the two halves run side by side on two cores.
PICO_TESTS := tests/host/test_pico_box.py tests/host/test_pico_scripts.py

# Every step runs even when one before it failed (one flaky host test must not hide the
# MicroPython half); the summary names the failed steps and the target fails at the end.
test: $(STAMP) $(RP2_STUBS) $(RP2JS)
	@set -o pipefail; failed=""; \
	echo "== ruff"; .venv/bin/ruff check . || failed="$$failed ruff"; \
	echo "== mypy: the rp2 board code against micropython-rp2-stubs"; \
	MYPYPATH=$(RP2_STUBS) .venv/bin/mypy $(RP2_CODE) || failed="$$failed mypy"; \
	echo "== mpy-cross (every device file)"; \
	$(PY) -m host.device_files --compile-check || failed="$$failed mpy-cross"; \
	echo "== pytest (CPython; the emulated Pico's tests alongside, in a process of their own)"; \
	$(PY) -m pytest -p no:cacheprovider -rs $(PICO_TESTS) > .venv/pytest-pico.log 2>&1 & pico=$$!; \
	$(PY) -m pytest -p no:cacheprovider --durations=12 $(PICO_TESTS:%=--ignore=%) | tee .venv/pytest.log \
		|| failed="$$failed pytest"; \
	echo "== pytest (CPython, the emulated Pico)"; \
	wait $$pico || failed="$$failed pytest-pico"; cat .venv/pytest-pico.log; \
	echo "== the same shared tests under micropython (one process per module)"; \
	$(PY) tests/run_micropython.py --heapsize $(MPY_HEAP) | tee .venv/mpytest.log || failed="$$failed micropython"; \
	echo "== summary"; \
	echo "cpython:     $$(tail -n 1 .venv/pytest.log)"; \
	echo "pico:        $$(tail -n 1 .venv/pytest-pico.log)"; \
	grep -m 1 -o "emulated Pico not run: .*" .venv/pytest-pico.log || true; \
	tail -n 1 .venv/mpytest.log; \
	if [ -n "$$failed" ]; then echo "FAILED:$$failed"; exit 1; fi

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
