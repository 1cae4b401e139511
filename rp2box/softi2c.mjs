// The I2C bus lines as GPIOs: pull-up resistors (a released line reads high) and a target
// that ACKs its address. MicroPython's rp2 port sends zero-length writes, which is all that
// i2c.scan() does, by bit-banging the pins (soft I2C), not through the I2C block; without
// pull-ups each address would wait out its clock-stretch timeout.
const FUNC_SIO = 5;

export class SoftI2CTarget {
  constructor(sda, scl, address) {
    this.sda = sda; this.scl = scl; this.address = address;
    this.hold = false; // the target pulls SDA low (its ACK)
    this.phase = 'idle'; this.bits = 0; this.byte = 0; this.acked = false;
    this.lastScl = true; this.lastSda = true;
    this.addresses = []; // addresses seen (for tests)
    const update = () => this._update();
    sda.addListener(update);
    scl.addListener(update);
    this._update();
  }

  static _driven(pin) { return pin.functionSelect === FUNC_SIO && pin.outputEnable && !pin.outputValue; }

  _update() {
    const scl = !SoftI2CTarget._driven(this.scl);
    const master = !SoftI2CTarget._driven(this.sda);
    let sda = master && !this.hold;
    if (scl && this.lastScl && sda !== this.lastSda) {
      if (!sda) { this.phase = 'addr'; this.bits = 0; this.byte = 0; } // START
      else { this.phase = 'idle'; this.hold = false; } // STOP
    } else if (scl && !this.lastScl && this.phase !== 'idle' && this.bits < 8) {
      this.byte = (this.byte << 1) | (master ? 1 : 0);
      this.bits++;
    } else if (!scl && this.lastScl && this.phase !== 'idle') {
      if (this.bits === 8) {
        if (this.phase === 'addr') {
          this.addresses.push(this.byte >> 1);
          this.acked = this.byte >> 1 === this.address;
        }
        this.hold = this.acked; // ACK during the ninth clock
        this.bits = 9;
      } else if (this.bits === 9) {
        this.hold = false;
        this.bits = 0; this.byte = 0;
        this.phase = this.acked ? 'data' : 'idle';
      }
    }
    sda = master && !this.hold;
    this.lastScl = scl; this.lastSda = sda;
    this.scl.setInputValue(scl);
    this.sda.setInputValue(sda);
  }
}
