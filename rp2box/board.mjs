// The tablemate Pico board around the emulated chip, from a hardware/boards.json profile:
// buttons driven at exact virtual times (idle level included: rp2040js has no pulls),
// the WS2812 chain decoded from its data line, an SSD1306 on I2C, the piezo's PWM read back.
import { SSD1306 } from './ssd1306.mjs';
import { SoftI2CTarget } from './softi2c.mjs';

const CONTROL_BITS = { mode: 8, ok: 9, back: 10 };
const WS2812_ONE_NS = 625; // a high pulse longer than this is a 1 bit (0: ~400 ns, 1: ~800 ns)
const WS2812_LATCH_NS = 50000; // a low this long ends a frame

export class Board {
  constructor(pico, profile) {
    this.pico = pico;
    this.profile = profile;
    this.pins = {}; // snapshot bit -> GPIO
    profile.players.pins.forEach((gpio, i) => { this.pins[i] = gpio; });
    for (const [name, gpio] of Object.entries(profile.controls.pins || {})) this.pins[CONTROL_BITS[name]] = gpio;
    this.activeLow = profile.players.active !== 'high';
    this.down = new Set(); // bits held down (survives a chip reset)
    this.onLeds = null; // (hex "rrggbb..." in strip order, frame) when the strip changed
    this.frameNs = [0, 0]; // virtual ns of the last frame's first rise and last fall
    this.onFrame = null; // (ram, on) from the OLED
    this.onTone = null; // (freq, duty_u16) when the piezo changed
    this.leds = '';
    this.ledWrites = 0;
    this.tone = [0, 0];
    this.attach();
  }

  // (re)connect everything to the current chip (after a reset the peripherals are new)
  attach() {
    const { pico, profile } = this;
    for (const bit of Object.keys(this.pins)) this._drive(Number(bit));
    const o = profile.oled;
    this.oled = null;
    if (o && o.enabled) {
      this.oled = new SSD1306(pico.mcu.i2c[o.i2c], Number(o.address), o.width || 128, o.height || 64);
      this.oled.onFrame = (ram, on) => { if (this.onFrame) this.onFrame(ram, on); };
      this.scanTarget = new SoftI2CTarget(pico.mcu.gpio[o.sda], pico.mcu.gpio[o.scl], Number(o.address));
    } else {
      for (const i2c of pico.mcu.i2c) i2c.onConnect = () => i2c.completeConnect(false);
    }
    this._watchPixels(pico.mcu.gpio[profile.leds.pin], profile.leds.count, profile.leds.color_order || 'GRB');
  }

  _drive(bit) {
    const level = this.down.has(bit) ? !this.activeLow : this.activeLow;
    this.pico.mcu.gpio[this.pins[bit]].setInputValue(level);
  }

  // press (down=true) or release a button now
  set(bit, down) {
    if (!(bit in this.pins)) throw new Error(`no button ${bit}`);
    if (down) this.down.add(bit); else this.down.delete(bit);
    this._drive(bit);
  }

  // the same at an absolute virtual time (ns on the current chip's clock)
  setAt(nanos, bit, down) { return this.pico.at(nanos, () => this.set(bit, down)); }

  _watchPixels(pin, count, order) {
    const clock = this.pico.clock;
    let rise = 0, fall = 0, bits = 0, byte = 0, bytes = [];
    pin.addListener((state) => {
      const now = clock.nanos;
      if (state === 1) { // high
        if (now - fall > WS2812_LATCH_NS) { bytes = []; bits = 0; byte = 0; this.frameNs[0] = now; }
        rise = now;
        return;
      }
      if (state !== 0 || rise === 0) return;
      fall = now;
      byte = (byte << 1) | (now - rise > WS2812_ONE_NS ? 1 : 0);
      if (++bits === 8) {
        bytes.push(byte); bits = 0; byte = 0;
        if (bytes.length === count * 3) { this.frameNs[1] = now; this._pixels(bytes, order); }
      }
    });
  }

  _pixels(bytes, order) {
    let hex = '';
    for (let i = 0; i < bytes.length; i += 3) {
      const px = { [order[0]]: bytes[i], [order[1]]: bytes[i + 1], [order[2]]: bytes[i + 2] };
      for (const c of 'RGB') hex += px[c].toString(16).padStart(2, '0');
    }
    this.ledWrites++;
    if (hex !== this.leds) {
      this.leds = hex;
      if (this.onLeds) this.onLeds(hex);
    }
  }

  // the piezo's PWM: frequency and duty (0, 0 when off); call now and then
  pollTone() {
    const piezo = this.profile.piezo;
    if (!piezo || !piezo.enabled) return;
    const gpio = piezo.pin;
    const pwm = this.pico.mcu.pwm;
    const ch = pwm.channels[(gpio >> 1) & 7];
    let f = 0, duty = 0;
    if (ch.csr & 1) { // enabled
      const top = ch.top + 1;
      const div = (ch.div >> 4) + (ch.div & 0xf) / 16 || 1;
      const cc = gpio & 1 ? ch.cc >>> 16 : ch.cc & 0xffff;
      f = Math.round((this.pico.mcu.clkSys || 125e6) / div / top);
      duty = Math.round((cc / top) * 65535);
      if (duty === 0) f = 0;
    }
    if (!f) duty = 0;
    if (f !== this.tone[0] || duty !== this.tone[1]) {
      this.tone = [f, duty];
      if (this.onTone) this.onTone(f, duty);
    }
  }
}
