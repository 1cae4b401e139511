// The emulated RP2040 (rp2040js) with what a stock rp2040js lacks for MicroPython's rp2 port:
//  - a boot ROM (bootrom.mjs: this project's model of the RP2040's, its functions run in
//    JavaScript), whose reset enters the UF2's boot2; its flash_range_erase/_program write
//    the 2 MB flash, so littlefs works there (the caller persists it);
//  - PIO stepped in lock-step with the CPU clock, honouring the clock divider and delays
//    (stock rp2040js runs PIO from setTimeout, unrelated to virtual time);
//  - a USB CDC host that holds the device's OUT read until it has data (no empty polls)
//    and queues without limit;
//  - the watchdog reset (machine.reset()) re-creates the chip with the same flash;
//  - FIFO join (SHIFTCTRL FJOIN_RX / FJOIN_TX): the joined FIFO is 8 deep and the other
//    none, flushed when the join changes (stock rp2040js keeps 4 and 4 whatever it says).
// Virtual time: time.ticks_us() on the device equals clock.nanos / 1000 exactly.
import fs from 'fs';
import { Simulator, USBCDC, ConsoleLogger, LogLevel } from 'rp2040js';
import { RomFunctions } from './bootrom.mjs';

export const FLASH_START = 0x10000000;
export const FLASH_SIZE = 2 * 1024 * 1024;
// warp(): at most 2**28 us per step (a quarter of the 2**30 us ticks_us() period; the unix
// box walks a long pause in the same steps), and 20 ms of ordinary running (the LED task's
// period) between two steps
const WARP_STEP_NS = 2 ** 28 * 1000;
const WARP_RUN_NS = 20e6;
const FLASH_LOG = 64;

export function loadUF2(flash, filename) {
  const data = fs.readFileSync(filename);
  let blocks = 0;
  for (let off = 0; off + 512 <= data.length; off += 512) {
    const v = new DataView(data.buffer, data.byteOffset + off, 512);
    if (v.getUint32(0, true) !== 0x0a324655 || v.getUint32(4, true) !== 0x9e5d5157) continue;
    const addr = v.getUint32(12, true);
    const size = v.getUint32(16, true);
    flash.set(data.subarray(off + 32, off + 32 + size), addr - FLASH_START);
    blocks++;
  }
  if (!blocks) throw new Error(`${filename}: no UF2 blocks`);
  return blocks;
}

export class Pico {
  // flash: the 2 MB contents to start from (null: erased), uf2: firmware file written over it
  constructor({ uf2, flash = null, logLevel = LogLevel.Error } = {}) {
    this.logLevel = logLevel;
    this.out = []; // callbacks for bytes from the device's USB CDC
    this.onReset = null; // called after the chip was re-created (peripherals are new)
    this.resets = 0;
    this.nanosBase = 0; // virtual time before the last reset
    this.flashOps = { erase: 0, program: 0 };
    this.flashDirty = false;
    // (kind, addr, count) => null to run the flash op, or how many of its bytes reach the
    // flash before the power goes (0 .. count): a power cut inside or right after the op
    this.flashCut = null;
    this.flashLog = []; // the last FLASH_LOG ops: [kind, addr, count]
    this.powerCut = false; // the CPU stops at once; powerOn() starts the chip again
    this.hostQueue = [];
    this.halted = null; // why the chip stopped for good (the USB bootloader, a fault in the ROM)
    this.rom = new RomFunctions(); // its call counts (rom.calls) run on across chip resets
    this.warpedNs = 0; // virtual time skipped by warp() in all (not paced to wall time)
    const image = new Uint8Array(FLASH_SIZE).fill(0xff);
    if (flash) image.set(flash.subarray(0, FLASH_SIZE));
    if (uf2) loadUF2(image, uf2);
    this._init(image);
  }

  _init(flashData) {
    this.sim = new Simulator();
    this.mcu = this.sim.rp2040;
    this.clock = this.sim.clock;
    this.core = this.mcu.core;
    this.mcu.loadBootrom(this.rom.image); // the core's reset reads its vectors
    this.mcu.onBreak = (n) => this.halt(`bkpt #${n} at ${(this.core.PC >>> 0).toString(16)}`);
    this.mcu.logger = new ConsoleLogger(this.logLevel);
    this.mcu.flash.set(flashData, 0);
    this._resetReq = false;
    this.lastAtNs = 0; // the latest time given to at() on this chip's clock
    this.warpLeftNs = 0; // virtual time still to skip (warp)
    this.warpRanNs = 0; // when the last warp step ended
    this.mcu.peripherals[0x40058].onWatchdogTrigger = () => { this._resetReq = true; };

    this.connected = false;
    this.pendingRead = null;
    const cdc = (this.cdc = new USBCDC(this.mcu.usbCtrl));
    const usb = this.mcu.usbCtrl;
    cdc.onDeviceConnected = () => { this.connected = true; };
    cdc.onSerialData = (buf) => { for (const f of this.out) f(buf); };
    usb.onEndpointRead = (endpoint, size) => {
      if (endpoint !== cdc.outEndpoint) return;
      if (this.hostQueue.length === 0) { this.pendingRead = { endpoint, size }; return; }
      this._deliver(endpoint, size);
    };

    for (const pio of this.mcu.pio) pio.run = () => {}; // stepped from runFor instead
    this._watchPIO();
    this._listPIO();
  }

  get flash() { return this.mcu.flash.subarray(0, FLASH_SIZE); }

  hardReset(image = null) {
    const flash = image ? Uint8Array.from(image.subarray(0, FLASH_SIZE)) : this.mcu.flash.slice(0, FLASH_SIZE);
    this.resets++;
    this.nanosBase += this.clock.nanos;
    this.hostQueue = [];
    this._init(flash);
    if (this.onReset) this.onReset();
  }

  _deliver(endpoint, size) {
    const n = Math.min(size, this.hostQueue.length);
    const buf = new Uint8Array(this.hostQueue.splice(0, n));
    this.mcu.usbCtrl.endpointReadDone(endpoint, buf);
  }

  // bytes from the host to the device
  write(data) {
    const bytes = typeof data === 'string' ? Buffer.from(data, 'latin1') : data;
    for (const b of bytes) this.hostQueue.push(b);
    if (this.pendingRead && this.hostQueue.length) {
      const { endpoint, size } = this.pendingRead;
      this.pendingRead = null;
      this._deliver(endpoint, size);
    }
  }

  // fn at an absolute virtual time (ns since this chip's start)
  at(nanos, fn) {
    const alarm = this.clock.createAlarm(fn);
    alarm.schedule(Math.max(0, nanos - this.clock.nanos));
    this.lastAtNs = Math.max(this.lastAtNs, nanos);
    return alarm;
  }

  // Skip `nanos` of virtual time (a script's long idle pause), as a box whose CPU slept
  // through it would see its clock: in steps of at most WARP_STEP_NS, each taken while the
  // CPU sleeps and after WARP_RUN_NS of ordinary running, so every firmware task makes a
  // pass between two steps (the timer's alarms fire, late, as the clock passes them). The
  // state machines do not run during a step: a program that counts time must be skipped
  // by whole periods of its count (the capture's counter: 2**22 us). False (nothing done)
  // when an event set with at() falls within it.
  warp(nanos) {
    if (!(nanos >= 0) || this.lastAtNs > this.clock.nanos) return false;
    this.warpLeftNs += nanos;
    return true;
  }

  _warpStep() {
    if (this.clock.nanos - this.warpRanNs < WARP_RUN_NS) return false;
    const step = Math.min(this.warpLeftNs, WARP_STEP_NS);
    this.warpLeftNs -= step;
    this.warpedNs += step;
    this.clock.tick(step);
    this.warpRanNs = this.clock.nanos;
    return true;
  }

  // The ROM's flash_range_erase and flash_range_program (addr: an offset into the flash).
  // False when the op never returns: a power cut inside or right after it.
  flashErase(addr, count) { return this._flashOp('erase', addr >>> 0, count >>> 0, 0); }
  flashProgram(addr, src, count) { return this._flashOp('program', addr >>> 0, count >>> 0, src >>> 0); }

  _flashOp(kind, addr, count, src) {
    const { mcu } = this;
    const cut = this.flashCut ? this.flashCut(kind, addr, count) : null;
    if (this.flashLog.push([kind, addr, count]) > FLASH_LOG) this.flashLog.shift();
    // a cut op reaches the flash only in part, from its start: a model of an interrupted
    // erase or page program (on silicon the bits left are less orderly)
    const n = cut === null ? count : Math.max(0, Math.min(cut, count));
    if (kind === 'erase') {
      mcu.flash.fill(0xff, addr, addr + n);
    } else {
      for (let i = 0; i < n; i++) mcu.flash[addr + i] &= mcu.readUint8(src + i); // NOR: 1 -> 0 only
    }
    this.flashOps[kind]++;
    if (n) this.flashDirty = true;
    if (cut !== null) {
      this.powerCut = true; // the op never returns
      this.lastCut = { kind, addr, count, applied: n };
      return false;
    }
    return true;
  }

  // The chip stops for good (runFor returns at once from now on), saying why.
  halt(message) {
    if (!this.halted) this.halted = message;
  }

  // The power back after a cut: a new chip from this flash (default: as the cut left it).
  powerOn(flash = null) {
    this.powerCut = false;
    this.flashCut = null;
    this.hardReset(flash);
  }

  // The enabled state machines, re-read after every write to a PIO block's registers.
  _watchPIO() {
    this._sms = [];
    for (const pio of this.mcu.pio) {
      const write = pio.writeUint32.bind(pio);
      pio.writeUint32 = (offset, value) => { write(offset, value); this._joinFIFOs(pio); this._listPIO(); };
      for (const m of pio.machines) { m._acc = 0; m._stall = 0; }
      this._joinFIFOs(pio);
    }
  }

  // The FIFO depths SHIFTCTRL's join bits ask for (bit 31: RX takes TX's 4 words, bit 30: TX
  // takes RX's); new, empty FIFOs when they change, as the RP2040 flushes them.
  _joinFIFOs(pio) {
    for (const m of pio.machines) {
      const join = m.shiftCtrl >>> 30;
      const rx = join & 2 ? 8 : join & 1 ? 0 : 4;
      const tx = join & 1 ? 8 : join & 2 ? 0 : 4;
      if (m.rxFIFO.size !== rx || m.txFIFO.size !== tx) {
        m.rxFIFO = new m.rxFIFO.constructor(rx);
        m.txFIFO = new m.txFIFO.constructor(tx);
      }
    }
  }

  _listPIO() {
    this._sms = [];
    this._minDiv = 1 << 30;
    for (const pio of this.mcu.pio) {
      for (const m of pio.machines) {
        if (!m.enabled) continue;
        m._div = m.clockDivInt === 0 ? 65536 * 256 : m.clockDivInt * 256 + m.clockDivFrac;
        this._sms.push(m);
        this._minDiv = Math.min(this._minDiv, Math.max(1, m._div >> 8));
      }
    }
  }

  _advancePIO(sysCycles) {
    const sms = this._sms;
    for (let i = 0; i < sms.length; i++) {
      const m = sms[i];
      m._acc += sysCycles * 256;
      let stepped = false;
      while (m._acc >= m._div) {
        m._acc -= m._div;
        if (m._stall > 0) { m._stall--; continue; }
        const c0 = m.cycles;
        m.step();
        stepped = true;
        const extra = m.cycles - c0 - 1; // the executed instruction's delay cycles
        if (extra > 0) m._stall = extra;
      }
      if (stepped) m.pio.checkChangedPins();
    }
  }

  // Run for `nanos` of virtual time, or until stop() is true (checked every ~1000 steps).
  // Returns true if stop() ended it. A power cut (flashCut, or powerCut set) ends it at once.
  runFor(nanos, stop = null) {
    let { core, clock, mcu } = this;
    const { rom } = this;
    let end = clock.nanos + nanos;
    let cnt = 0;
    while (clock.nanos < end) {
      if (this.powerCut || this.halted) return true;
      if (this._resetReq) {
        const left = end - clock.nanos;
        this.hardReset();
        ({ core, clock, mcu } = this);
        end = clock.nanos + left;
      }
      const cycleNs = 1e9 / (mcu.clkSys || 125e6);
      if (core.waiting && this.warpLeftNs > 0 && this._warpStep()) {
        end = Math.max(end, clock.nanos);
        continue;
      }
      if (core.waiting) {
        let n = clock.nanosToNextAlarm;
        if (!(n > 0)) n = 1000;
        n = Math.min(n, end - clock.nanos);
        if (this._sms.length) {
          // PIO runs while the CPU sleeps: one PIO clock at a time until the next alarm, or
          // until the PIO wakes the CPU (an IRQ), so the wake-up is on time
          const cycles = Math.max(1, Math.floor(n / cycleNs));
          const step = this._minDiv;
          let done = 0;
          while (done < cycles) {
            const k = Math.min(step, cycles - done);
            this._advancePIO(k);
            done += k;
            if (!core.waiting) break;
          }
          clock.tick(done * cycleNs);
          cnt += 50;
        } else {
          clock.tick(n);
          cnt += 50;
        }
      } else {
        const stub = rom.stubAt(core.PC);
        const cycles = stub < 0 ? core.executeInstruction() : rom.call(stub, core, mcu, this);
        clock.tick(cycles * cycleNs);
        this._advancePIO(cycles);
        cnt++;
      }
      if (cnt >= 1000) { cnt = 0; if (stop && stop()) return true; }
    }
    return stop ? !!stop() : false;
  }

  get nanos() { return this.clock.nanos; } // since the last reset: what ticks_us() counts
  get totalNanos() { return this.nanosBase + this.clock.nanos; } // monotonic across resets
}
