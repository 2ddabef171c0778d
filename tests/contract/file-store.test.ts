import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { FileStore } from '../../src/store/file-store';
import { describeStoreContract } from './store-contract';

// The writer bundled once for the file: each worker process then runs the real FileStore code.
const bundleDir = mkdtempSync(join(tmpdir(), 'agent-session-contract-'));
afterAll(() => rmSync(bundleDir, { recursive: true, force: true }));
let worker: string | undefined;
function workerBundle(): string {
  if (worker !== undefined) return worker;
  const outfile = join(bundleDir, 'worker.cjs');
  buildSync({
    entryPoints: [join(__dirname, 'fixtures', 'file-store-worker.ts')],
    outfile,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    logLevel: 'warning',
  });
  worker = outfile;
  return outfile;
}

/** Runs `node <script> ...args`; resolves with its exit status and stderr. */
function runNode(script: string, args: readonly string[]): Promise<{ status: number | null; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [script, ...args], {
      env: { ...process.env, NODE_EXTRA_CA_CERTS: '' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', fail);
    child.on('close', (status) => done({ status, stderr }));
  });
}

describeStoreContract(
  'FileStore',
  () => {
    const dir = mkdtempSync(join(tmpdir(), 'agent-session-'));
    const root = join(dir, 'store');
    return {
      store: new FileStore(root),
      plantCorrupt: (id) => {
        mkdirSync(join(root, id), { recursive: true });
        writeFileSync(join(root, id, 'state.json'), '{"torn": ');
      },
      concurrentUpdates: async (id, workers, count) => {
        const script = workerBundle();
        const results = await Promise.all(
          Array.from({ length: workers }, (_, w) => runNode(script, [root, id, String(w), String(count)])),
        );
        for (const result of results) expect(result).toEqual({ status: 0, stderr: '' });
      },
      dispose: () => rmSync(dir, { recursive: true, force: true }),
    };
  },
  { multiProcess: true },
);
