// What rp2box/board.mjs makes of a boards.json profile, found by driving it, not by reading
// its code: the board model around a stand-in chip whose GPIOs, I2C blocks and PWM slices
// record what the model does with them. Prints one JSON object (tests/host/test_hardware_docs.py
// compares it with host.pinmap):
//   buttons      {bit: GPIO the model drives when that button is pressed}
//   active_low   the level a pressed button drives
//   led_data     the GPIO whose WS2812 waveform the model decodes; led_count, color_order
//   oled         {i2c, sda, scl, address}: the I2C block it answers on and the bus scan's lines
//   piezo_pwm    the PWM slice and channel ("3 A") the model reads the tone from
//   node rp2box_pins.mjs BOARDS_JSON PROFILE
import fs from 'fs';
import { Board } from '../../rp2box/board.mjs';

const [boardsPath, name] = process.argv.slice(2);
const profile = JSON.parse(fs.readFileSync(boardsPath, 'utf8')).profiles[name];
const GPIOS = 30;
const SLICES = 8;

function fakeGpio(index) {
  return {
    index, level: null, listeners: [], functionSelect: 0, outputEnable: false, outputValue: false,
    setInputValue(v) { this.level = v; },
    addListener(fn) { this.listeners.push(fn); },
    emit(state) { for (const fn of this.listeners) fn(state); },
  };
}

const clock = { nanos: 1e6 };
// every PWM half gets its own compare value: the duty the model reads names the half it read
const top = 1000;
const channels = [];
for (let s = 0; s < SLICES; s++) {
  const a = (2 * s + 1) * 10, b = (2 * s + 2) * 10;
  channels.push({ csr: 1, top: top - 1, div: 16, cc: (b << 16) | a });
}
const pico = {
  clock,
  mcu: {
    gpio: Array.from({ length: GPIOS }, (_, i) => fakeGpio(i)),
    i2c: [{ index: 0 }, { index: 1 }],
    pwm: { channels },
    clkSys: 125e6,
  },
  at() {},
};
const board = new Board(pico, profile);
const out = { buttons: {}, active_low: null };

// buttons: press each bit the model knows, see which GPIO changed level
for (const bit of Object.keys(board.pins)) {
  const before = pico.mcu.gpio.map((g) => g.level);
  board.set(Number(bit), true);
  const changed = pico.mcu.gpio.filter((g, i) => g.level !== before[i]);
  if (changed.length !== 1) throw new Error(`button ${bit} changed ${changed.length} pins`);
  out.buttons[bit] = changed[0].index;
  out.active_low = changed[0].level === false;
  board.set(Number(bit), false);
}

// the LED chain: a WS2812 frame (G R B bytes per LED, distinct values) on each pin in turn
function sendFrame(gpio, bytes) {
  clock.nanos += 100000; // a latch gap first
  for (const byte of bytes) {
    for (let k = 7; k >= 0; k--) {
      gpio.emit(1);
      clock.nanos += (byte >> k) & 1 ? 800 : 400;
      gpio.emit(0);
      clock.nanos += 450;
    }
  }
}
let frame = null;
board.onLeds = (hex) => { frame = hex; };
const wire = [0x10, 0x20, 0x30]; // the three bytes on the wire, in wire order
for (const gpio of pico.mcu.gpio) {
  if (!gpio.listeners.length) continue;
  for (let count = 1; count <= 64 && frame === null; count++) {
    const bytes = [];
    for (let i = 0; i < count; i++) bytes.push(...wire);
    sendFrame(gpio, bytes);
    if (frame !== null) {
      out.led_data = gpio.index;
      out.led_count = count;
      // which colour each wire byte became: the model's colour order
      const px = [frame.slice(0, 2), frame.slice(2, 4), frame.slice(4, 6)].map((h) => parseInt(h, 16));
      out.color_order = wire.map((b) => 'RGB'[px.indexOf(b)]).join('');
    }
  }
  if (frame !== null) break;
}

// the OLED: the I2C block that got a target, and the lines the bus scan listens on
if (board.oled) {
  const bus = pico.mcu.i2c.find((b) => typeof b.onConnect === 'function');
  out.oled = {
    i2c: bus.index,
    sda: board.scanTarget.sda.index,
    scl: board.scanTarget.scl.index,
    address: board.oled.address,
  };
}

// the piezo: the duty the model reads back names the PWM half
if (profile.piezo && profile.piezo.enabled) {
  let tone = null;
  board.onTone = (f, duty) => { tone = duty; };
  board.pollTone();
  const cc = Math.round((tone / 65535) * top);
  const half = cc / 10 - 1;
  out.piezo_pwm = `${half >> 1} ${half & 1 ? 'B' : 'A'}`;
}
process.stdout.write(JSON.stringify(out) + '\n');
