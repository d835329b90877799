#!/usr/bin/env node
/*
 * ONNX Runtime oracle: runs a model with onnxruntime-node and writes every
 * output as a raw little-endian .bin file plus outputs.json describing them.
 * Used by the importer tests (shapes/dtypes) and by everyone comparing
 * numbers against ORT.
 *
 * Usage
 *   node tests/oracle/ort_run.js MODEL.onnx --meta
 *       Prints JSON {"inputs": [...], "outputs": [...]} with name, dtype and
 *       shape (symbolic dims as strings, unknown dims as null).
 *
 *   node tests/oracle/ort_run.js MODEL.onnx --in NAME=SRC:DTYPE:SHAPE ... --out-dir DIR
 *       Runs the model once and writes DIR/output_<i>.bin and DIR/outputs.json:
 *         {"model": "...", "inputs": [{name, dtype, shape, source}],
 *          "outputs": [{"name": "...", "dtype": "float32", "shape": [1,1000],
 *                       "file": "output_0.bin", "bytes": 4000}]}
 *       Outputs are listed in the model's output order. String outputs are
 *       written as output_<i>.json (a JSON array) instead of raw bytes.
 *
 * --in NAME=SRC:DTYPE:SHAPE (one per model input, all inputs required)
 *   SHAPE  comma-separated dims, empty for a scalar ("sr=fill(16000):int64:")
 *   DTYPE  float32 float64 float16 int8 uint8 int16 uint16 int32 uint32
 *          int64 uint64 bool
 *   SRC    a file path with raw little-endian data of exactly the right size,
 *          or a generator: zeros | ones | fill(V) | rand(LO,HI)
 *          rand draws uniformly from [LO, HI) (integers for integer dtypes)
 *          from a fixed-seed generator (--seed N, default 1), so runs repeat.
 *   The split is done from the right, so paths may contain ':'.
 *
 * Other options
 *   --seed N       seed of rand(...) (default 1)
 *   --threads N    intra-op threads (default 1; the test machines are shared)
 *   --no-opt       disable ORT graph optimizations
 *
 * Exit status: 0 on success; 1 with a message on stderr for bad arguments,
 * model load errors or run errors; 2 for usage errors.
 */
'use strict';

const fs = require('fs');
const path = require('path');

function die(msg, code = 1) {
  process.stderr.write(`ort_run: ${msg}\n`);
  process.exit(code);
}

// ONNX Runtime 1.29+ starts a telemetry uploader when its environment is created (files in $TMPDIR and
// ~/.cache, upload attempts); an oracle opts out unless the caller chose (bench/ort/README.md).
if (process.env.ORT_DISABLE_TELEMETRY === undefined) {
  process.env.ORT_DISABLE_TELEMETRY = '1';
}
let ort;
try {
  ort = require('onnxruntime-node');
} catch (e) {
  die(`cannot load onnxruntime-node (run npm ci --ignore-scripts in the repo): ${e.message}`);
}

const DTYPES = {
  float32: { array: Float32Array, size: 4 },
  float64: { array: Float64Array, size: 8 },
  float16: { array: Uint16Array, size: 2 },
  int8: { array: Int8Array, size: 1 },
  uint8: { array: Uint8Array, size: 1 },
  int16: { array: Int16Array, size: 2 },
  uint16: { array: Uint16Array, size: 2 },
  int32: { array: Int32Array, size: 4 },
  uint32: { array: Uint32Array, size: 4 },
  int64: { array: BigInt64Array, size: 8 },
  uint64: { array: BigUint64Array, size: 8 },
  bool: { array: Uint8Array, size: 1 },
};

function usage() {
  const text = fs.readFileSync(__filename, 'utf8');
  const m = text.match(/\/\*([\s\S]*?)\*\//);
  process.stderr.write(m ? m[1].replace(/^ \* ?/gm, '') : 'see the header of ort_run.js\n');
  process.exit(2);
}

function parseArgs(argv) {
  const a = { model: null, meta: false, inputs: [], outDir: null, seed: 1, threads: 1, opt: true };
  for (let i = 0; i < argv.length; i++) {
    const v = argv[i];
    const next = () => {
      if (i + 1 >= argv.length) die(`${v} needs a value`, 2);
      return argv[++i];
    };
    if (v === '--meta') a.meta = true;
    else if (v === '--in') a.inputs.push(next());
    else if (v.startsWith('--in=')) a.inputs.push(v.slice(5));
    else if (v === '--out-dir') a.outDir = next();
    else if (v.startsWith('--out-dir=')) a.outDir = v.slice(10);
    else if (v === '--seed') a.seed = Number(next());
    else if (v === '--threads') a.threads = Number(next());
    else if (v === '--no-opt') a.opt = false;
    else if (v === '-h' || v === '--help') usage();
    else if (v.startsWith('-')) die(`unknown option ${v}`, 2);
    else if (a.model === null) a.model = v;
    else die(`unexpected argument ${v}`, 2);
  }
  if (a.model === null) usage();
  if (!Number.isInteger(a.seed)) die('--seed must be an integer', 2);
  if (!Number.isInteger(a.threads) || a.threads < 1) die('--threads must be a positive integer', 2);
  if (!a.meta && a.outDir === null) die('--out-dir is required (or use --meta)', 2);
  return a;
}

/* Mulberry32: small, deterministic, good enough for test data. */
function prng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function floatToHalf(f) {
  const b = new DataView(new ArrayBuffer(4));
  b.setFloat32(0, f);
  const x = b.getUint32(0);
  const sign = (x >>> 16) & 0x8000;
  let exp = ((x >>> 23) & 0xff) - 127 + 15;
  const man = x & 0x7fffff;
  if (exp <= 0) return sign;
  if (exp >= 31) return sign | 0x7c00;
  return sign | (exp << 10) | (man >>> 13);
}

function parseInput(spec, rnd) {
  const eq = spec.indexOf('=');
  if (eq <= 0) die(`--in ${spec}: expected NAME=SRC:DTYPE:SHAPE`, 2);
  const name = spec.slice(0, eq);
  const rest = spec.slice(eq + 1);
  const c2 = rest.lastIndexOf(':');
  const c1 = c2 > 0 ? rest.lastIndexOf(':', c2 - 1) : -1;
  if (c1 <= 0) die(`--in ${spec}: expected NAME=SRC:DTYPE:SHAPE`, 2);
  const src = rest.slice(0, c1);
  const dtype = rest.slice(c1 + 1, c2);
  const shapeText = rest.slice(c2 + 1).trim();
  const dt = DTYPES[dtype];
  if (!dt) die(`--in ${name}: unknown dtype ${dtype} (${Object.keys(DTYPES).join(' ')})`, 2);
  const shape = shapeText === '' ? [] : shapeText.split(',').map((d) => {
    const n = Number(d.trim());
    if (!Number.isInteger(n) || n < 0) die(`--in ${name}: bad dim "${d}"`, 2);
    return n;
  });
  const count = shape.reduce((x, y) => x * y, 1);
  if (!Number.isSafeInteger(count) || count > 1 << 30) die(`--in ${name}: ${count} elements is too many`, 2);
  const big = dtype === 'int64' || dtype === 'uint64';
  let data;
  let m;
  if (src === 'zeros' || src === 'ones' || (m = src.match(/^fill\((.*)\)$/))) {
    const v = src === 'zeros' ? 0 : src === 'ones' ? 1 : Number(m[1]);
    if (!Number.isFinite(v)) die(`--in ${name}: bad fill value ${src}`, 2);
    data = new dt.array(count);
    data.fill(big ? BigInt(Math.trunc(v)) : dtype === 'float16' ? floatToHalf(v) : v);
  } else if ((m = src.match(/^rand\(([^,]+),([^)]+)\)$/))) {
    const lo = Number(m[1]);
    const hi = Number(m[2]);
    if (!Number.isFinite(lo) || !Number.isFinite(hi) || !(hi > lo)) die(`--in ${name}: bad range ${src}`, 2);
    data = new dt.array(count);
    const isInt = !dtype.startsWith('float');
    for (let k = 0; k < count; k++) {
      const u = lo + rnd() * (hi - lo);
      if (big) data[k] = BigInt(Math.floor(u));
      else if (dtype === 'float16') data[k] = floatToHalf(u);
      else data[k] = isInt ? Math.floor(u) : u;
    }
  } else {
    let buf;
    try {
      buf = fs.readFileSync(src);
    } catch (e) {
      die(`--in ${name}: cannot read ${src}: ${e.message}`);
    }
    if (buf.length !== count * dt.size) {
      die(`--in ${name}: ${src} has ${buf.length} bytes, ${dtype}[${shape}] needs ${count * dt.size}`);
    }
    const copy = new ArrayBuffer(buf.length);
    new Uint8Array(copy).set(buf);
    data = new dt.array(copy);
  }
  const ortType = dtype === 'bool' ? 'bool' : dtype;
  return { name, dtype, shape, source: src, tensor: new ort.Tensor(ortType, data, shape) };
}

function dimsOf(meta) {
  if (!meta || !meta.isTensor || !Array.isArray(meta.shape)) return null;
  return meta.shape.map((d) => (typeof d === 'number' ? d : d === '' ? null : d));
}

async function main() {
  const a = parseArgs(process.argv.slice(2));
  if (!fs.existsSync(a.model)) die(`model ${a.model} does not exist`);
  const opts = {
    intraOpNumThreads: a.threads,
    interOpNumThreads: 1,
    graphOptimizationLevel: a.opt ? 'all' : 'disabled',
    executionProviders: ['cpu'],
  };
  let session;
  try {
    session = await ort.InferenceSession.create(a.model, opts);
  } catch (e) {
    die(`cannot load ${a.model}: ${e.message}`);
  }
  const metaList = (names, metas) => names.map((n, i) => {
    const md = metas ? metas[i] : undefined;
    return { name: n, dtype: md && md.type ? md.type : null, shape: dimsOf(md) };
  });
  if (a.meta) {
    process.stdout.write(JSON.stringify({
      model: a.model,
      inputs: metaList(session.inputNames, session.inputMetadata),
      outputs: metaList(session.outputNames, session.outputMetadata),
    }, null, 1) + '\n');
    return;
  }
  const rnd = prng(a.seed);
  const feeds = {};
  const inputs = [];
  for (const spec of a.inputs) {
    const inp = parseInput(spec, rnd);
    if (!session.inputNames.includes(inp.name)) {
      die(`--in ${inp.name}: the model has no such input (inputs: ${session.inputNames.join(', ')})`);
    }
    if (feeds[inp.name]) die(`--in ${inp.name} is given twice`);
    feeds[inp.name] = inp.tensor;
    inputs.push({ name: inp.name, dtype: inp.dtype, shape: inp.shape, source: inp.source });
  }
  const missing = session.inputNames.filter((n) => !feeds[n]);
  if (missing.length) die(`missing --in for input(s): ${missing.join(', ')}`);
  let results;
  try {
    results = await session.run(feeds);
  } catch (e) {
    die(`run failed: ${e.message}`);
  }
  fs.mkdirSync(a.outDir, { recursive: true });
  const outputs = session.outputNames.map((n, i) => {
    const t = results[n];
    if (t.type === 'string') {
      /* Strings have no raw layout: written as a JSON array instead. */
      const file = `output_${i}.json`;
      const text = JSON.stringify(Array.from(t.data));
      fs.writeFileSync(path.join(a.outDir, file), text + '\n');
      return { name: n, dtype: t.type, shape: t.dims.map(Number), file, bytes: Buffer.byteLength(text) };
    }
    const file = `output_${i}.bin`;
    const bytes = Buffer.from(t.data.buffer, t.data.byteOffset, t.data.byteLength);
    fs.writeFileSync(path.join(a.outDir, file), bytes);
    return { name: n, dtype: t.type, shape: t.dims.map(Number), file, bytes: bytes.length };
  });
  const desc = { model: path.resolve(a.model), inputs, outputs };
  fs.writeFileSync(path.join(a.outDir, 'outputs.json'), JSON.stringify(desc, null, 1) + '\n');
}

main().catch((e) => die(e && e.stack ? e.stack : String(e)));
