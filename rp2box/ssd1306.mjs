// An SSD1306 OLED on the emulated I2C bus: ACKs its address, keeps the 1 KB frame buffer
// (horizontal addressing, column and page ranges) and reports it after every transfer
// that wrote display data. Other addresses NAK at once, so i2c.scan() returns quickly.

// Commands followed by argument bytes (all others take none).
const ARGS = { 0x20: 1, 0x21: 2, 0x22: 2, 0x81: 1, 0x8d: 1, 0xa8: 1, 0xd3: 1, 0xd5: 1, 0xd9: 1, 0xda: 1, 0xdb: 1 };

export class SSD1306 {
  constructor(i2c, address = 0x3c, width = 128, height = 64) {
    this.address = address;
    this.width = width;
    this.pages = height >> 3;
    this.ram = new Uint8Array(width * this.pages);
    this.on = false;
    this.onFrame = null; // (ram, on) after a transfer that changed the picture
    this.col0 = 0; this.col1 = width - 1; this.page0 = 0; this.page1 = this.pages - 1;
    this.col = 0; this.page = 0;
    this._cmd = []; // command being collected
    this._active = false; this._first = false; this._data = false; this._dirty = false;
    i2c.onStart = () => i2c.completeStart();
    i2c.onConnect = (addr, mode) => {
      this._active = addr === this.address && mode === 0; // writes only
      this._first = true;
      i2c.completeConnect(addr === this.address);
    };
    i2c.onWriteByte = (b) => { if (this._active) this._byte(b); i2c.completeWrite(this._active); };
    i2c.onReadByte = () => i2c.completeRead(0x00); // status: ready
    i2c.onStop = () => {
      this._active = false;
      if (this._dirty && this.onFrame) this.onFrame(this.ram, this.on);
      this._dirty = false;
      i2c.completeStop();
    };
  }

  _byte(b) {
    if (this._first) { this._first = false; this._data = (b & 0x40) !== 0; return; } // control byte
    if (this._data) { this._pixel(b); return; }
    this._cmd.push(b);
    const need = ARGS[this._cmd[0]] || 0;
    if (this._cmd.length > need) { this._command(this._cmd); this._cmd = []; }
  }

  _pixel(b) {
    const i = this.page * this.width + this.col;
    if (this.ram[i] !== b) { this.ram[i] = b; this._dirty = true; }
    if (++this.col > this.col1) {
      this.col = this.col0;
      if (++this.page > this.page1) this.page = this.page0;
    }
  }

  _command(c) {
    switch (c[0]) {
      case 0x21: this.col0 = this.col = c[1] % this.width; this.col1 = c[2] % this.width; break;
      case 0x22: this.page0 = this.page = c[1] % this.pages; this.page1 = c[2] % this.pages; break;
      case 0xae: case 0xaf:
        if (this.on !== (c[0] === 0xaf)) { this.on = c[0] === 0xaf; this._dirty = true; }
        break;
      default: break;
    }
  }

  // rows of '#'/'.' (for tests and logs)
  text() {
    const rows = [];
    for (let y = 0; y < this.pages * 8; y++) {
      let s = '';
      for (let x = 0; x < this.width; x++) s += (this.ram[(y >> 3) * this.width + x] >> (y & 7)) & 1 ? '#' : '.';
      rows.push(s);
    }
    return rows;
  }
}
