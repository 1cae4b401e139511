// The emulated Pico as a process: USB CDC serial on stdin/stdout (host/rp2box.py puts it
// behind a pty), the flash persisted in an image file, and the world channel (buttons in;
// LEDs, OLED and piezo out: JSON lines, as unixbox/world.py speaks them) on the TCP port
// in $TABLEMATE_WORLD when set. Beyond unixbox/world.py's messages, for exact timing:
//   {"t": "edge", "b", "down", "at_us": T}  the edge at virtual microsecond T (ticks_us()
//                                           on the board is T mod 2**30); an error reply
//                                           when T has already passed
//   {"t": "now"} -> {"t": "now", "us": T, "total_us": U}  the virtual microsecond now (U:
//                                           since the box started, across chip resets)
//   {"t": "flash_ops"} -> {"t": "flash_ops", "erase": E, "program": P, "log": [[kind, addr,
//                                           count], ...]}  ops since start, the last 64 of them
//   {"t": "cut", "after_ops": N, "applied": B, "kind": K, "block": A}
//                                           a power cut at the Nth flash op from now (counting
//                                           only erases or programs with kind, only those in
//                                           the 4 KB block at flash offset A with block), once
//                                           B bytes of it reached the flash (default: all of
//                                           it; 0: before it). The CPU stops there, the
//                                           flash image is saved as it stands and {"t": "cut",
//                                           "us", "erase", "program", "op": {kind, addr, count,
//                                           applied}} sent; the chip stays off
//   {"t": "power_on"}                       the chip starts again from the saved image
//   {"t": "warp", "us": N} -> the same back  skip N us of virtual time while the chip sleeps
//                                           (pico.mjs warp(): long idle pauses of a script)
//   node box.mjs UF2 FLASH_IMAGE BOARDS_JSON PROFILE
// Virtual time is paced to wall time (never ahead of it, and at most MAX_BEHIND_NS behind);
// the emulator is slower than a Pico, so in practice it runs as fast as it can.
import fs from 'fs';
import net from 'net';
import { Pico, FLASH_SIZE } from './pico.mjs';
import { Board } from './board.mjs';

const [uf2, image, boardsPath, profileName] = process.argv.slice(2);
if (!profileName) {
  process.stderr.write('usage: node box.mjs UF2 FLASH_IMAGE BOARDS_JSON PROFILE\n');
  process.exit(2);
}
const profile = JSON.parse(fs.readFileSync(boardsPath, 'utf8')).profiles[profileName];
const SAVE_EVERY_MS = 1000;

function saveFlash(pico) {
  const tmp = `${image}.tmp${process.pid}`;
  fs.writeFileSync(tmp, pico.flash);
  fs.renameSync(tmp, image);
  pico.flashDirty = false;
}

const flash = fs.existsSync(image) ? fs.readFileSync(image) : null;
if (flash && flash.length !== FLASH_SIZE) {
  process.stderr.write(`box: ${image} is ${flash.length} bytes, not a ${FLASH_SIZE}-byte flash image\n`);
  process.exit(3);
}
const pico = new Pico({ uf2, flash });
const board = new Board(pico, profile);
pico.onReset = () => board.attach();
pico.out.push((buf) => process.stdout.write(Buffer.from(buf)));
process.stdin.on('data', (chunk) => pico.write(chunk));

// ---- the world channel
let world = null;
const send = (msg) => { if (world) world.write(JSON.stringify(msg) + '\n'); };
// us: the virtual microsecond the frame ended; write_us: how long the data line took
// (machine.bitstream holds interrupts off for all of it)
board.onLeds = (rgb) => send({
  t: 'leds', rgb, us: Math.floor(board.frameNs[1] / 1000),
  write_us: Math.round((board.frameNs[1] - board.frameNs[0]) / 1000),
});
// us: the virtual microsecond the frame's last transfer ended
board.onFrame = (ram, on) => {
  const w = board.oled.width, h = board.oled.pages * 8;
  send({ t: 'oled', w, h, fb: Buffer.from(on ? ram : new Uint8Array(ram.length)).toString('base64'), lines: [],
    us: Math.floor(pico.nanos / 1000) });
};
board.onTone = (f, duty) => send({ t: 'tone', f, duty });
// ---- power cuts
let cutReported = false;
function armCut(msg) {
  if (pico.powerCut || pico.flashCut) throw new Error('a power cut is already armed or in effect');
  if (!(Number.isInteger(msg.after_ops) && msg.after_ops >= 1)) throw new Error('a cut needs after_ops, an int >= 1');
  let left = msg.after_ops;
  const block = msg.block === undefined ? -1 : Math.floor(msg.block / 4096);
  pico.flashCut = (kind, addr, count) => {
    if ((msg.kind && kind !== msg.kind) || (block >= 0 && Math.floor(addr / 4096) !== block)) return null;
    return --left > 0 ? null : (msg.applied === undefined ? count : msg.applied);
  };
}
function reportCut() {
  cutReported = true;
  saveFlash(pico);
  send({ t: 'cut', us: Math.floor(pico.nanos / 1000), erase: pico.flashOps.erase, program: pico.flashOps.program,
         op: pico.lastCut });
}
function powerOn() {
  if (!pico.powerCut) throw new Error('power_on: the power was not cut');
  cutReported = false;
  pico.powerOn(fs.readFileSync(image));
}

function onWorld(msg) {
  if (msg.t === 'edge' && msg.at_us !== undefined) {
    // an edge that arrives after its instant would be played late: refused, never shifted
    if (msg.at_us * 1000 < pico.nanos) {
      send({ t: 'error', msg: `edge at_us ${msg.at_us} is in the past (now ${Math.floor(pico.nanos / 1000)})` });
    } else board.setAt(msg.at_us * 1000, msg.b, !!msg.down);
  }
  else if (msg.t === 'edge') board.set(msg.b, !!msg.down);
  else if (msg.t === 'warp') {
    // skip us of virtual time while the chip sleeps (pico.mjs warp()); refused while an
    // edge is still to come
    if (pico.warp(msg.us * 1000)) send({ t: 'warp', us: msg.us });
    else send({ t: 'error', msg: `warp of ${msg.us} us refused: an edge is still to come or the amount is bad` });
  }
  else if (msg.t === 'now') send({ t: 'now', us: Math.floor(pico.nanos / 1000), total_us: Math.floor(pico.totalNanos / 1000) });
  else if (msg.t === 'flash_ops') send({ t: 'flash_ops', ...pico.flashOps, log: pico.flashLog });
  else if (msg.t === 'cut') armCut(msg);
  else if (msg.t === 'power_on') powerOn();
  else if (msg.t === 'quit') finish();
  else if (msg.t === 'time') { /* a Pico's clock is set by the host's sync, not here */ }
  else if (msg.t === 'sync') send({ t: 'sync', id: msg.id });
  else send({ t: 'error', msg: `unknown message type ${JSON.stringify(msg.t)}` });
}
if (process.env.TABLEMATE_WORLD) {
  world = net.connect(Number(process.env.TABLEMATE_WORLD), '127.0.0.1');
  let buf = '';
  world.on('connect', () => send(JSON.parse(process.env.TABLEMATE_HELLO || '{"t":"hello","board":"pico"}')));
  world.on('data', (d) => {
    buf += d.toString();
    const lines = buf.split('\n');
    buf = lines.pop();
    for (const line of lines) {
      try { onWorld(JSON.parse(line)); } catch (e) { send({ t: 'error', msg: String(e.message || e) }); }
    }
  });
  world.on('close', () => finish());
  world.on('error', () => {});
}

// ---- run
let stopping = false;
function finish() {
  if (stopping) return;
  stopping = true;
  saveFlash(pico);
  process.exit(0);
}
process.stdin.on('end', finish);
process.on('SIGTERM', finish);
process.on('SIGINT', finish);
process.on('SIGHUP', finish);

// When the emulator fell behind wall time (a loaded machine, a busy stretch of the chip), it
// does not catch up in a burst of idle time: a client that read the clock and sent edges a
// few hundred ms ahead would find them overtaken. Debt beyond this is forgiven.
const MAX_BEHIND_NS = 50e6;
const wall0 = process.hrtime.bigint();
let forgivenNs = 0;
let lastSave = Date.now();
function loop() {
  if (stopping) return;
  if (pico.powerCut) { // off until power_on
    if (!cutReported) reportCut();
    setTimeout(loop, 10);
    return;
  }
  const paced = pico.totalNanos - pico.warpedNs; // a warp is not waited for
  let wallNs = Number(process.hrtime.bigint() - wall0) - forgivenNs;
  if (wallNs - paced > MAX_BEHIND_NS) {
    forgivenNs += wallNs - paced - MAX_BEHIND_NS;
    wallNs = paced + MAX_BEHIND_NS;
  }
  if (paced > wallNs) {
    setTimeout(loop, Math.max(1, Math.floor((paced - wallNs) / 1e6)));
    return;
  }
  pico.runFor(2e6); // 2 ms of virtual time per slice, then node's own I/O
  board.pollTone();
  if (pico.flashDirty && Date.now() - lastSave > SAVE_EVERY_MS) {
    lastSave = Date.now();
    saveFlash(pico);
  }
  setImmediate(loop);
}
loop();
