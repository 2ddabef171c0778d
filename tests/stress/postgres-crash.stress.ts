// Guarantee on the PostgreSQL store: a writer killed with SIGKILL at any moment, inside a transaction too, leaves
// nothing half done and nothing held: the server rolls back its transaction and frees its advisory locks when the
// connection drops, so the state is always valid and the next command, and the next hook, succeed at once.
import { join } from 'node:path';
import { newSession } from '../../src/core/session';
import { describeWithDatabase } from '../support/test-database';
import { BIN, killAfter, prng, runBin, seedOf, workerFolder } from './helpers';

const folder = workerFolder();

describeWithDatabase('crashes on the PostgreSQL store', (db) => {
  const dir = (): string => folder.dir;
  const env = () => ({ AGENT_SESSION_DATABASE_URL: db.url, AGENT_SESSION_DATABASE_SCHEMA: db.schema });
  const advisoryLocks = async () =>
    Number((await db.sql("SELECT count(*)::int AS n FROM pg_locks WHERE locktype = 'advisory'"))[0]!.n);

  it('SIGKILL of an updating writer at 40 random moments: always valid, the next update succeeds at once', async () => {
    const random = prng(seedOf('pg crash updates'));
    const store = db.store();
    await store.create(newSession({ agent_id: 'crashy', agent_name: 'crash', purpose: 'p' }, await store.now()));
    let killedWhileWriting = 0;
    for (let round = 0; round < 40; round++) {
      const { lines } = await killAfter(
        [folder.worker, 'crash-updates', join(dir(), 'unused'), 'crashy'],
        random() * 60,
        {
          dir: dir(),
          afterFirstWrite: round % 2 === 0,
          env: env(),
        },
      );
      if (lines > 0) killedWhileWriting++;
      expect((await store.read('crashy'))?.agent_id).toBe('crashy');
      const next = runBin(BIN.cli, ['update', 'crashy', '--metadata', `{"after":${round}}`], {
        dir: dir(),
        env: env(),
      });
      expect({ status: next.status, stderr: next.stderr }).toEqual({ status: 0, stderr: '' });
    }
    expect((await store.read('crashy'))?.metadata.after).toBe(39);
    expect(killedWhileWriting).toBeGreaterThan(0);
  });

  it('SIGKILL of a hook inside its attach transaction at 30 random moments: the locks are freed, one session', async () => {
    const random = prng(seedOf('pg crash attach'));
    const agentId = 'a00000000000000c1';
    const payload = JSON.stringify({
      session_id: 'stress',
      transcript_path: join(dir(), 't.jsonl'),
      cwd: dir(),
      agent_id: agentId,
      agent_type: 'crash-attach',
      hook_event_name: 'SubagentStart',
    });
    for (let round = 0; round < 30; round++)
      await killAfter([BIN.preDelegate], 20 + random() * 150, { dir: dir(), env: env(), input: payload });
    // The server notices a dead client at once on loopback; give it a moment before counting held locks.
    for (let wait = 0; wait < 50 && (await advisoryLocks()) > 0; wait++) await new Promise((r) => setTimeout(r, 100));
    expect(await advisoryLocks()).toBe(0);
    const after = runBin(BIN.preDelegate, [], { dir: dir(), env: env(), input: payload });
    expect(after.status).toBe(0);
    const store = db.store();
    const linked = (await store.list()).filter(
      (entry) => entry.kind === 'valid' && entry.state.claude?.agent_id === agentId,
    );
    expect(linked).toHaveLength(1);
  });
});
