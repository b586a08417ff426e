// Replays the parity trace (written by CropWasmTests' ParityTraceTests into .build/wasm-parity/) through the
// committed WebAssembly module with the page's own module (cropkit-engine.js), and fails on the first difference:
// every status equal, every number of every view state within 1e-9 of the native value (relative to its size past
// 1), and the page module's view objects equal to the editor server's JSON (views.json).
//
//   node Tests/Wasm/replay.mjs [.build/wasm-parity/trace.bin] [--wasm FILE]
//
// Prints "parity: N events in S sessions, largest difference D (K of M numbers not bit-identical)" and exits 0, or names the first difference and
// exits 1.
import { readFileSync, existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..", "..");
const args = process.argv.slice(2);
let wasmPath = join(root, "Sources/CropEditor/Resources/web/cropkit-engine.wasm");
const w = args.indexOf("--wasm");
if (w >= 0) { wasmPath = args[w + 1]; args.splice(w, 2); }
const tracePath = args[0] ?? join(root, ".build/wasm-parity/trace.bin");
if (!existsSync(tracePath)) {
  console.error(`parity: no trace at ${tracePath}: run swift test --filter ParityTraceTests first`);
  process.exit(2);
}

const { loadEngine, viewObject, STATE_COUNT } = await import(join(root, "Sources/CropEditor/Resources/web/cropkit-engine.js"));
const engine = await loadEngine(readFileSync(wasmPath));
const bytes = readFileSync(tracePath);
const trace = new Float64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 8);

const TOLERANCE = 1e-9;
let at = 0;
const take = (n) => { const v = trace.subarray(at, at + n); at += n; return v; };
if (take(1)[0] !== 1) { console.error("parity: unknown trace version"); process.exit(2); }
const sessionCount = take(1)[0];
let events = 0, largest = 0, inexact = 0;
const states = [];  // per session, per event: the module's state numbers (for views.json)

function fail(message) {
  console.error(`parity: FAILED: ${message}`);
  process.exit(1);
}

for (let s = 0; s < sessionCount; s++) {
  const parameters = Array.from(take(33));
  const session = engine.createSessionFromNumbers(parameters);
  const eventCount = take(1)[0];
  states.push([]);
  for (let e = 0; e < eventCount; e++) {
    const event = Array.from(take(7));
    const status = take(1)[0];
    const expected = take(STATE_COUNT);
    const got = session.applyNumbers(event);
    if (got !== status) fail(`session ${s} event ${e} [${event}]: status ${got}, native ${status}`);
    const numbers = session.numbers();
    for (let k = 0; k < STATE_COUNT; k++) {
      const diff = Math.abs(numbers[k] - expected[k]) / Math.max(1, Math.abs(expected[k]));
      if (!(diff <= TOLERANCE)) {
        fail(`session ${s} event ${e} [${event}]: state[${k}] = ${numbers[k]}, native ${expected[k]}`);
      }
      largest = Math.max(largest, diff);
      if (!Object.is(numbers[k], expected[k])) inexact++;
    }
    states[s].push(numbers);
    events++;
  }
  session.free();
}
if (at !== trace.length) fail(`trace has ${trace.length - at} numbers left over`);

// The page module's view objects are the editor server's JSON (field names, enums, booleans, nesting).
const viewsPath = join(dirname(tracePath), "views.json");
let compared = 0;
function same(a, b, path) {
  if (typeof b === "number") {
    if (typeof a !== "number" || !(Math.abs(a - b) / Math.max(1, Math.abs(b)) <= TOLERANCE)) fail(`${path}: ${a} vs server ${b}`);
    return;
  }
  if (typeof b !== "object" || b === null) { if (a !== b) fail(`${path}: ${a} vs server ${b}`); return; }
  const keys = new Set([...Object.keys(a ?? {}), ...Object.keys(b)]);
  for (const key of keys) same(a?.[key], b[key], `${path}.${key}`);
}
if (existsSync(viewsPath)) {
  for (const { session, event, view } of JSON.parse(readFileSync(viewsPath, "utf8"))) {
    same(viewObject(states[session][event]), view, `session ${session} event ${event} view`);
    compared++;
  }
}
console.log(`parity: ${events} events in ${sessionCount} sessions, largest difference ${largest.toExponential(2)} ` +
  `(${inexact} of ${events * STATE_COUNT} numbers not bit-identical); ` +
  `${compared} view objects equal the server's JSON`);
