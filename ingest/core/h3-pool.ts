/**
 * H3 cells on every core. DuckDB calls TypeScript scalar functions on Node's one JavaScript
 * thread, where h3-js's latLngToCell (about 1.5 µs a point) would use a single core while the
 * other waits. The pool splits each vector: worker threads take equal shares through shared
 * memory while the calling thread computes its own share, then waits for theirs (Atomics,
 * no message round trip). Cells come back as two 32-bit halves, written straight into the
 * caller's output, so no string or BigInt is made per row on the calling thread.
 */
import { availableParallelism } from 'node:os';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { latLngToCell } from 'h3-js';

/** Control word states. */
const IDLE = 0;
const WORK = 1;
const DONE = 2;
const STOP = 3;

/** Lat/lng in, cell halves out; one block of shared memory per worker. */
interface Slot {
  worker: Worker;
  ctrl: Int32Array; // [state, count, resolution]
  lat: Float64Array;
  lng: Float64Array;
  out: Uint32Array; // lo, hi per point; 0,0 for a point with no cell
  capacity: number;
}

// The worker body, plain JavaScript so it runs the same under tsx, vitest and node.
const WORKER_SOURCE = `
const { workerData } = require('node:worker_threads');
const { latLngToCell } = require(workerData.h3Path);
const { ctrl, lat, lng, out } = workerData;
for (;;) {
  Atomics.wait(ctrl, 0, ${IDLE});
  const state = Atomics.load(ctrl, 0);
  if (state === ${STOP}) break;
  if (state !== ${WORK}) continue;
  const n = ctrl[1], res = ctrl[2];
  for (let i = 0; i < n; i++) {
    let h = null;
    try { h = latLngToCell(lat[i], lng[i], res); } catch { h = null; }
    out[2 * i] = h === null ? 0 : parseInt(h.slice(-8), 16);
    out[2 * i + 1] = h === null ? 0 : parseInt(h.slice(0, -8), 16);
  }
  Atomics.store(ctrl, 0, ${DONE});
  Atomics.notify(ctrl, 0);
}
`;

/**
 * Writes the cell of (lat, lng) as lo/hi halves at out[2i], out[2i+1]; a point with no cell
 * (NaN, out of range) gives 0, 0, which no H3 index is (its mode bits are never 0).
 */
function cellHalves(lat: number, lng: number, res: number, out: Uint32Array, i: number): void {
  let h: string | null = null;
  try {
    h = latLngToCell(lat, lng, res);
  } catch {
    h = null;
  }
  out[2 * i] = h === null ? 0 : parseInt(h.slice(-8), 16);
  out[2 * i + 1] = h === null ? 0 : parseInt(h.slice(0, -8), 16);
}

/** A worker share takes milliseconds; this long means the worker is gone. */
const WORKER_TIMEOUT_MS = 30_000;

export class H3Pool {
  private readonly slots: Slot[] = [];
  private closed = false;

  /** `workers` extra threads; default: one per core beyond the calling thread's. */
  constructor(workers = Math.max(0, availableParallelism() - 1), capacity = 4096) {
    const h3Path = createRequire(import.meta.url).resolve('h3-js');
    for (let w = 0; w < workers; w++) {
      const ctrl = new Int32Array(new SharedArrayBuffer(3 * 4));
      const lat = new Float64Array(new SharedArrayBuffer(capacity * 8));
      const lng = new Float64Array(new SharedArrayBuffer(capacity * 8));
      const out = new Uint32Array(new SharedArrayBuffer(capacity * 8));
      const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { h3Path, ctrl, lat, lng, out } });
      worker.unref();
      this.slots.push({ worker, ctrl, lat, lng, out, capacity });
    }
  }

  get threads(): number {
    return this.slots.length + 1;
  }

  /**
   * Cells of n points at `res`: out receives lo/hi halves per point (0, 0 for a point with no
   * cell). Blocks the calling thread until every share is done.
   */
  cells(lat: ArrayLike<number>, lng: ArrayLike<number>, n: number, res: number, out: Uint32Array): void {
    if (this.closed) throw new Error('H3Pool is closed');
    const parts = this.slots.length + 1;
    const share = Math.ceil(n / parts);
    // Small vectors are not worth waking a thread for.
    const used = n < 256 ? [] : this.slots.filter((s, k) => (k + 1) * share < n && s.capacity >= share);
    const mine = used.length === 0 ? n : share;
    used.forEach((s, k) => {
      const from = (k + 1) * share;
      const count = Math.min(share, n - from);
      for (let i = 0; i < count; i++) {
        s.lat[i] = lat[from + i];
        s.lng[i] = lng[from + i];
      }
      s.ctrl[1] = count;
      s.ctrl[2] = res;
      Atomics.store(s.ctrl, 0, WORK);
      Atomics.notify(s.ctrl, 0);
    });
    for (let i = 0; i < mine; i++) cellHalves(lat[i], lng[i], res, out, i);
    used.forEach((s, k) => {
      const started = Date.now();
      while (Atomics.load(s.ctrl, 0) !== DONE) {
        Atomics.wait(s.ctrl, 0, WORK, 1000);
        if (Date.now() - started > WORKER_TIMEOUT_MS) throw new Error('H3 worker thread stopped answering');
      }
      const from = (k + 1) * share;
      const count = Math.min(share, n - from);
      out.set(s.out.subarray(0, 2 * count), 2 * from);
      Atomics.store(s.ctrl, 0, IDLE);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const s of this.slots) {
      Atomics.store(s.ctrl, 0, STOP);
      Atomics.notify(s.ctrl, 0);
    }
    await Promise.all(this.slots.map((s) => s.worker.terminate()));
  }
}
