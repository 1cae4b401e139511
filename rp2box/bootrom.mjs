// The RP2040 boot ROM as this project models it: the 16 KB image rp2040js maps at 0x0 and the
// functions behind it, written from the RP2040 datasheet's boot ROM chapter (its layout, lookup
// tables and function descriptions) and from what the pico-sdk looks up there.
//
// The image holds what code on the chip reads: the vector table (initial SP, reset), the magic
// 'M' 'u' 0x01 and the version byte at 0x10..0x13, the 16-bit pointers at 0x14 (function
// table), 0x16 (data table) and 0x18 (rom_table_lookup), the two tables of (code, pointer)
// half-words ending in code 0, the soft-float and soft-double tables and a copyright string.
// Each function is a stub `bkpt #n; bx lr` the emulator never executes: a call that lands on
// one runs its JavaScript here instead (RomFunctions.call) and returns to LR. Only
// debug_trampoline is real Thumb code (blx r7; bkpt #0).
//
// Semantics, from the datasheet: bit and memory functions as named; flash functions erase and
// program through the owner's hooks (the board's flash), the others (connect, exit XIP, flush,
// enter command XIP) leave nothing to do in an emulator whose flash is plain memory. The float
// and double functions follow the ARM EABI (float in r0, double in r0:r1, a second one in r1 or
// r2:r3; an int n in the next free register): add, sub, mul, div and sqrt are IEEE 754 results
// rounded to nearest even, with denormal operands read as zero and denormal results flushed to
// a zero of their sign; conversions to integers round towards -Infinity and clamp to the
// result's range; conversions to floats round to nearest even; sqrt of a negative number and
// ln of x <= 0 give -Infinity; fcmp/dcmp give -1, 0 or 1; fsin returns the cosine in r1 too
// and the 0x48 entries give sine and cosine (float: r0, r1; double: r0:r1, r2:r3), as the
// SDK's sincosf/sincos read them. The scientific functions use JavaScript's Math (within an
// ulp or so of the silicon's, which is itself not correctly rounded).

export const ROM_SIZE = 16 * 1024;
export const ROM_VERSION = 3; // B2 silicon: sincos at 0x48 of both float tables
export const INITIAL_SP = 0x20042000;
export const BOOT2_START = 0x10000000;
const STUB_BASE = 0x100;
const STUB_BYTES = 4;

const code = (s) => s.charCodeAt(0) | (s.charCodeAt(1) << 8);

// ---- IEEE helpers (bit patterns <-> numbers)
const f32 = new Float32Array(1);
const u32 = new Uint32Array(f32.buffer);
const f64 = new Float64Array(1);
const u64 = new Uint32Array(f64.buffer); // [lo, hi] on every little-endian host node runs on

export function floatFromBits(bits) { u32[0] = bits; return f32[0]; }
export function bitsFromFloat(x) { f32[0] = x; return u32[0]; }
export function doubleFromWords(lo, hi) { u64[0] = lo; u64[1] = hi; return f64[0]; }
export function wordsFromDouble(x) { f64[0] = x; return [u64[0], u64[1]]; }

const MIN_NORMAL_F = 2 ** -126;
const MIN_NORMAL_D = 2 ** -1022;

// operands: a denormal reads as a zero of its sign
function argF(bits) {
  return (bits & 0x7f800000) === 0 ? (bits >>> 31 ? -0 : 0) : floatFromBits(bits);
}
function argD(lo, hi) {
  return (hi & 0x7ff00000) === 0 ? (hi >>> 31 ? -0 : 0) : doubleFromWords(lo, hi);
}
// results: rounded to single (double) precision, a denormal flushed to a zero of its sign
function resF(x) {
  const r = Math.fround(x);
  return bitsFromFloat(r !== 0 && Math.abs(r) < MIN_NORMAL_F ? (r < 0 ? -0 : 0) : r);
}
function resD(x) {
  return wordsFromDouble(x !== 0 && Math.abs(x) < MIN_NORMAL_D ? (x < 0 ? -0 : 0) : x);
}

// x * 2**k exactly (while the result is representable), for any integer k
function mulPow2(x, k) {
  while (k > 1000) { x *= 2 ** 1000; k -= 1000; }
  while (k < -1000) { x *= 2 ** -1000; k += 1000; }
  return x * 2 ** k;
}

// v * 2**-n rounded to p significant bits, nearest even (v: BigInt); an exact double
function roundBig(v, n, p) {
  if (v === 0n) return 0;
  const neg = v < 0n;
  let mag = neg ? -v : v;
  const len = mag.toString(2).length;
  let shift = 0;
  if (len > p) {
    shift = len - p;
    const rem = mag & ((1n << BigInt(shift)) - 1n);
    const half = 1n << BigInt(shift - 1);
    mag >>= BigInt(shift);
    if (rem > half || (rem === half && (mag & 1n))) mag += 1n;
  }
  const r = mulPow2(Number(mag), shift - n);
  return neg ? -r : r;
}

// floor(x), clamped to [lo, hi]; NaN reads as an infinity of its sign
function toInt(x, lo, hi, negNaN) {
  if (Number.isNaN(x)) return negNaN ? lo : hi;
  const f = Math.floor(x);
  return f < lo ? lo : f > hi ? hi : f;
}
const I32 = [-(2 ** 31), 2 ** 31 - 1];
const U32 = [0, 2 ** 32 - 1];
const I64 = [-(2n ** 63n), 2n ** 63n - 1n];
const U64 = [0n, 2n ** 64n - 1n];
function toInt64(x, [lo, hi], negNaN) {
  if (Number.isNaN(x)) return negNaN ? lo : hi;
  if (x === Infinity) return hi;
  if (x === -Infinity) return lo;
  const f = BigInt(Math.floor(x));
  return f < lo ? lo : f > hi ? hi : f;
}
const words64 = (v) => [Number(BigInt.asUintN(64, v) & 0xffffffffn), Number(BigInt.asUintN(64, v) >> 32n)];
const int64 = (lo, hi) => BigInt.asIntN(64, (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0));
const uint64 = (lo, hi) => (BigInt(hi >>> 0) << 32n) | BigInt(lo >>> 0);
const cmp = (a, b) => (a < b ? -1 : a === b ? 0 : 1); // unordered (a NaN): 1
const sqrt = (x) => (x < 0 ? -Infinity : Math.sqrt(x)); // -0 stays -0
const ln = (x) => (x <= 0 ? -Infinity : Math.log(x));

// ---- the soft-float and soft-double tables: [offset, name, (r, c) => result words]
// r: the core's registers; a float result is one word, a double two, sincos four.
const F = (r, i) => argF(r[i]);
const D = (r, i) => argD(r[i], r[i + 1]);
const n1 = (r) => r[1] | 0;
const n2 = (r) => r[2] | 0;
const sign = (bits) => bits >>> 31;
const sfTable = [
  [0x00, 'fadd', (r) => [resF(F(r, 0) + F(r, 1))]],
  [0x04, 'fsub', (r) => [resF(F(r, 0) - F(r, 1))]],
  [0x08, 'fmul', (r) => [resF(F(r, 0) * F(r, 1))]],
  [0x0c, 'fdiv', (r) => [resF(F(r, 0) / F(r, 1))]],
  [0x10, null], // deprecated fcmp_fast and fcmp_fast_flags: stubs that stop the chip
  [0x14, null],
  [0x18, 'fsqrt', (r) => [resF(sqrt(F(r, 0)))]],
  [0x1c, 'float2int', (r) => [toInt(F(r, 0), ...I32, sign(r[0])) >>> 0]],
  [0x20, 'float2fix', (r) => [toInt(mulPow2(F(r, 0), n1(r)), ...I32, sign(r[0])) >>> 0]],
  [0x24, 'float2uint', (r) => [toInt(F(r, 0), ...U32, sign(r[0])) >>> 0]],
  [0x28, 'float2ufix', (r) => [toInt(mulPow2(F(r, 0), n1(r)), ...U32, sign(r[0])) >>> 0]],
  [0x2c, 'int2float', (r) => [resF(r[0] | 0)]],
  [0x30, 'fix2float', (r) => [resF(roundBig(BigInt(r[0] | 0), n1(r), 24))]],
  [0x34, 'uint2float', (r) => [resF(r[0] >>> 0)]],
  [0x38, 'ufix2float', (r) => [resF(roundBig(BigInt(r[0] >>> 0), n1(r), 24))]],
  [0x3c, 'fcos', (r) => [resF(Math.cos(F(r, 0)))]],
  [0x40, 'fsin', (r) => [resF(Math.sin(F(r, 0))), resF(Math.cos(F(r, 0)))]],
  [0x44, 'ftan', (r) => [resF(Math.tan(F(r, 0)))]],
  [0x48, 'fsincos', (r) => [resF(Math.sin(F(r, 0))), resF(Math.cos(F(r, 0)))]],
  [0x4c, 'fexp', (r) => [resF(Math.exp(F(r, 0)))]],
  [0x50, 'fln', (r) => [resF(ln(F(r, 0)))]],
  [0x54, 'fcmp', (r) => [cmp(F(r, 0), F(r, 1)) >>> 0]],
  [0x58, 'fatan2', (r) => [resF(Math.atan2(F(r, 0), F(r, 1)))]],
  [0x5c, 'int642float', (r) => [resF(roundBig(int64(r[0], r[1]), 0, 24))]],
  [0x60, 'fix642float', (r) => [resF(roundBig(int64(r[0], r[1]), n2(r), 24))]],
  [0x64, 'uint642float', (r) => [resF(roundBig(uint64(r[0], r[1]), 0, 24))]],
  [0x68, 'ufix642float', (r) => [resF(roundBig(uint64(r[0], r[1]), n2(r), 24))]],
  [0x6c, 'float2int64', (r) => words64(toInt64(F(r, 0), I64, sign(r[0])))],
  [0x70, 'float2fix64', (r) => words64(toInt64(mulPow2(F(r, 0), n1(r)), I64, sign(r[0])))],
  [0x74, 'float2uint64', (r) => words64(toInt64(F(r, 0), U64, sign(r[0])))],
  [0x78, 'float2ufix64', (r) => words64(toInt64(mulPow2(F(r, 0), n1(r)), U64, sign(r[0])))],
  [0x7c, 'float2double', (r) => resD(F(r, 0))],
];
const sdTable = [
  [0x00, 'dadd', (r) => resD(D(r, 0) + D(r, 2))],
  [0x04, 'dsub', (r) => resD(D(r, 0) - D(r, 2))],
  [0x08, 'dmul', (r) => resD(D(r, 0) * D(r, 2))],
  [0x0c, 'ddiv', (r) => resD(D(r, 0) / D(r, 2))],
  [0x10, null],
  [0x14, null],
  [0x18, 'dsqrt', (r) => resD(sqrt(D(r, 0)))],
  [0x1c, 'double2int', (r) => [toInt(D(r, 0), ...I32, sign(r[1])) >>> 0]],
  [0x20, 'double2fix', (r) => [toInt(mulPow2(D(r, 0), n2(r)), ...I32, sign(r[1])) >>> 0]],
  [0x24, 'double2uint', (r) => [toInt(D(r, 0), ...U32, sign(r[1])) >>> 0]],
  [0x28, 'double2ufix', (r) => [toInt(mulPow2(D(r, 0), n2(r)), ...U32, sign(r[1])) >>> 0]],
  [0x2c, 'int2double', (r) => resD(r[0] | 0)],
  [0x30, 'fix2double', (r) => resD(mulPow2(r[0] | 0, -n1(r)))],
  [0x34, 'uint2double', (r) => resD(r[0] >>> 0)],
  [0x38, 'ufix2double', (r) => resD(mulPow2(r[0] >>> 0, -n1(r)))],
  [0x3c, 'dcos', (r) => resD(Math.cos(D(r, 0)))],
  [0x40, 'dsin', (r) => resD(Math.sin(D(r, 0)))],
  [0x44, 'dtan', (r) => resD(Math.tan(D(r, 0)))],
  [0x48, 'dsincos', (r) => [...resD(Math.sin(D(r, 0))), ...resD(Math.cos(D(r, 0)))]],
  [0x4c, 'dexp', (r) => resD(Math.exp(D(r, 0)))],
  [0x50, 'dln', (r) => resD(ln(D(r, 0)))],
  [0x54, 'dcmp', (r) => [cmp(D(r, 0), D(r, 2)) >>> 0]],
  [0x58, 'datan2', (r) => resD(Math.atan2(D(r, 0), D(r, 2)))],
  [0x5c, 'int642double', (r) => resD(roundBig(int64(r[0], r[1]), 0, 53))],
  [0x60, 'fix642double', (r) => resD(roundBig(int64(r[0], r[1]), n2(r), 53))],
  [0x64, 'uint642double', (r) => resD(roundBig(uint64(r[0], r[1]), 0, 53))],
  [0x68, 'ufix642double', (r) => resD(roundBig(uint64(r[0], r[1]), n2(r), 53))],
  [0x6c, 'double2int64', (r) => words64(toInt64(D(r, 0), I64, sign(r[1])))],
  [0x70, 'double2fix64', (r) => words64(toInt64(mulPow2(D(r, 0), n2(r)), I64, sign(r[1])))],
  [0x74, 'double2uint64', (r) => words64(toInt64(D(r, 0), U64, sign(r[1])))],
  [0x78, 'double2ufix64', (r) => words64(toInt64(mulPow2(D(r, 0), n2(r)), U64, sign(r[1])))],
  [0x7c, 'double2float', (r) => [resF(D(r, 0))]],
];
const FLOAT_TABLE_BYTES = 0x80;

// Rough cycle costs, so virtual time passes over a call about as on silicon
const CYCLES = { bits: 8, float: 70, double: 150, sci: 1500, call: 20 };

const popcount = (x) => { let n = 0; for (; x; x &= x - 1) n++; return n; };
function reverse32(x) {
  let r = 0;
  for (let i = 0; i < 32; i++) { r = (r << 1) | (x & 1); x >>>= 1; }
  return r >>> 0;
}
const clz32 = (x) => Math.clz32(x);
const ctz32 = (x) => (x === 0 ? 32 : 31 - Math.clz32(x & -x));

function fill(mcu, dst, byte, n) {
  for (let i = 0; i < n; i++) mcu.writeUint8(dst + i, byte);
}
function copy(mcu, dst, src, n) {
  for (let i = 0; i < n; i++) mcu.writeUint8(dst + i, mcu.readUint8(src + i));
}

// [code, name, (r, ctx) => result words | undefined (r0..r3 as they were), cycles(r)]
// ctx: { mcu, owner } where owner has flashErase(addr, count), flashProgram(addr, src,
// count) (false: the op never returns, e.g. a power cut) and halt(message).
const funcTable = [
  ['P3', 'popcount32', (r) => [popcount(r[0])], () => CYCLES.bits],
  ['R3', 'reverse32', (r) => [reverse32(r[0])], () => CYCLES.bits],
  ['L3', 'clz32', (r) => [clz32(r[0])], () => CYCLES.bits],
  ['T3', 'ctz32', (r) => [ctz32(r[0])], () => CYCLES.bits],
  ['MS', 'memset', (r, { mcu }) => { fill(mcu, r[0], r[1] & 0xff, r[2]); return [r[0]]; }, (r) => CYCLES.call + r[2]],
  ['S4', 'memset4', (r, { mcu }) => { fill(mcu, r[0], r[1] & 0xff, r[2]); return [r[0]]; }, (r) => CYCLES.call + (r[2] >>> 2)],
  ['MC', 'memcpy', (r, { mcu }) => { copy(mcu, r[0], r[1], r[2]); return [r[0]]; }, (r) => CYCLES.call + 2 * r[2]],
  ['C4', 'memcpy44', (r, { mcu }) => { copy(mcu, r[0], r[1], r[2]); return [r[0]]; }, (r) => CYCLES.call + (r[2] >>> 1)],
  ['IF', 'connect_internal_flash', () => undefined, () => CYCLES.call],
  ['EX', 'flash_exit_xip', () => undefined, () => CYCLES.call],
  ['RE', 'flash_range_erase', (r, { owner }) => (owner.flashErase(r[0], r[1]) ? undefined : null), () => CYCLES.call],
  ['RP', 'flash_range_program', (r, { owner }) => (owner.flashProgram(r[0], r[1], r[2]) ? undefined : null), () => CYCLES.call],
  ['FC', 'flash_flush_cache', () => undefined, () => CYCLES.call],
  ['CX', 'flash_enter_cmd_xip', () => undefined, () => CYCLES.call],
  ['UB', 'reset_to_usb_boot', (r, { owner }) => {
    owner.halt('the firmware rebooted into the USB bootloader (BOOTSEL, e.g. machine.bootloader()), '
               + 'which the emulated Pico does not have: it stops');
    return null;
  }, () => CYCLES.call],
  ['WV', 'wait_for_vector', (r, { owner }) => {
    owner.halt('wait_for_vector is where core 1 waits to be launched; the emulated RP2040 runs core 0 only');
    return null;
  }, () => CYCLES.call],
];
const HALT = ['halt', (r, { owner }) => {
  owner.halt('a deprecated soft-float entry (fcmp_fast) was called: the model has none');
  return null;
}, () => 0];

const sciNames = new Set(['fcos', 'fsin', 'ftan', 'fsincos', 'fexp', 'fln', 'fatan2',
  'dcos', 'dsin', 'dtan', 'dsincos', 'dexp', 'dln', 'datan2']);

// ---- the image
export class RomFunctions {
  constructor() {
    const bytes = new Uint8Array(ROM_SIZE);
    const view = new DataView(bytes.buffer);
    this.image = new Uint32Array(bytes.buffer);
    this.stubs = []; // [name, fn, cycles]
    this.calls = {}; // name -> calls since the counts were last read
    let at = STUB_BASE;
    const stub = (name, fn, cycles) => {
      const addr = at;
      const n = this.stubs.length;
      view.setUint16(addr, 0xbe00 | n, true); // bkpt #n
      view.setUint16(addr + 2, 0x4770, true); // bx lr
      this.stubs.push([name, fn, cycles]);
      at += STUB_BYTES;
      return addr | 1;
    };
    const half = (v) => { view.setUint16(at, v, true); at += 2; };
    const word = (v) => { view.setUint32(at, v >>> 0, true); at += 4; };
    const align = () => { at = (at + 3) & ~3; };

    // the boot: the reset vector's stub enters the UF2's boot2 (which vectors into flash)
    const reset = stub('reset', (r, { core }) => {
      core.LR = 0; // boot2 returns into the flash's vector table when entered with lr = 0
      core.PC = BOOT2_START;
      return null;
    }, () => 0);
    const fault = stub('fault', (r, { owner, core }) => {
      owner.halt(`an exception reached the ROM's vector table (lr ${(core.LR >>> 0).toString(16)})`);
      return null;
    }, () => 0);
    const lookup = stub('rom_table_lookup', (r, { mcu }) => {
      for (let p = r[0]; ; p += 4) {
        const c = mcu.readUint16(p);
        if (c === 0) return [0];
        if (c === (r[1] & 0xffff)) return [mcu.readUint16(p + 2)];
      }
    }, () => CYCLES.call);
    const funcs = funcTable.map(([c, name, fn, cycles]) => [code(c), stub(name, fn, cycles)]);
    const halt = stub(...HALT);
    const table = (entries, kind) => entries.map(([, name, fn]) => (name === null ? halt
      : stub(name, fn, () => (sciNames.has(name) ? CYCLES.sci : CYCLES[kind]))));
    const sf = table(sfTable, 'float');
    const sd = table(sdTable, 'double');
    this.stubsEnd = at;

    // debug_trampoline: calls r7 with r0..r3, then bkpt #0 for the debugger
    align();
    const trampoline = at | 1;
    half(0x47b8); // blx r7
    half(0xbe00); // bkpt #0
    const trampolineEnd = at;
    funcs.push([code('DT'), trampoline], [code('DE'), trampolineEnd]);

    const floatTable = (ptrs) => {
      align();
      half(FLOAT_TABLE_BYTES / 4); // the table's size in words, 2 bytes before it
      half(0);
      const start = at;
      for (const p of ptrs) word(p);
      return start;
    };
    const sfAt = floatTable(sf);
    const sdAt = floatTable(sd);
    const copyright = at;
    for (const ch of 'tablemate RP2040 boot ROM model\0') bytes[at++] = ch.charCodeAt(0);
    align();
    const gitRevision = at;
    word(0);
    const pairs = (list) => { const start = at; for (const [c, p] of list) { half(c); half(p); } half(0); return start; };
    const funcsAt = pairs(funcs);
    const dataAt = pairs([[code('SF'), sfAt], [code('SD'), sdAt], [code('CR'), copyright], [code('GR'), gitRevision]]);
    if (at > ROM_SIZE) throw new Error('the boot ROM image outgrew 16 KB');

    view.setUint32(0x00, INITIAL_SP, true);
    view.setUint32(0x04, reset, true);
    view.setUint32(0x08, fault, true); // NMI
    view.setUint32(0x0c, fault, true); // HardFault
    bytes.set([0x4d, 0x75, 0x01, ROM_VERSION], 0x10); // 'M' 'u' 0x01, version
    view.setUint16(0x14, funcsAt, true);
    view.setUint16(0x16, dataAt, true);
    view.setUint16(0x18, lookup, true);
  }

  // The stub at pc (thumb bit clear), or -1
  stubAt(pc) {
    if (pc < STUB_BASE || pc >= this.stubsEnd || (pc - STUB_BASE) % STUB_BYTES) return -1;
    return (pc - STUB_BASE) / STUB_BYTES;
  }

  name(index) { return this.stubs[index][0]; }

  // Run stub `index` on the core: results into r0.., then return to LR (unless the function
  // moved PC itself or stopped the chip). Returns the cycles it took.
  call(index, core, mcu, owner) {
    const [name, fn, cycles] = this.stubs[index];
    this.calls[name] = (this.calls[name] || 0) + 1;
    const r = core.registers;
    const n = cycles(r);
    const out = fn(r, { core, mcu, owner });
    if (out === null) return n;
    if (out) for (let i = 0; i < out.length; i++) r[i] = out[i] >>> 0;
    core.PC = core.LR & ~1;
    return n;
  }
}
