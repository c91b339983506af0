/**
 * SHA-256 of a file on a worker thread, so hashing a large input runs beside the job's own
 * work instead of after it (the calling thread serves DuckDB's TypeScript functions).
 */
import { Worker } from 'node:worker_threads';

const WORKER_SOURCE = `
const { createHash } = require('node:crypto');
const { createReadStream } = require('node:fs');
const { parentPort, workerData } = require('node:worker_threads');
const hash = createHash('sha256');
createReadStream(workerData.path, { highWaterMark: 1 << 20 })
  .on('data', (c) => hash.update(c))
  .on('error', (e) => { throw e; })
  .on('end', () => parentPort.postMessage(hash.digest('hex')));
`;

export function sha256InBackground(path: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { path } });
    worker.once('message', (hex: string) => resolve(hex));
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`hashing ${path} stopped (exit code ${code})`));
    });
  });
}
