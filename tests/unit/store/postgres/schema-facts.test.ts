// Migration 3 (issue 45): a store an older version (schema 2) filled gets its stats facts, and stats counts from them
// exactly what a full read counts.
import postgres from 'postgres';
import { DEFAULT_LIMITS } from '../../../../src/core/limits';
import { computeStats, statsOfTally } from '../../../../src/core/views/stats';
import { Sessions } from '../../../../src/service/sessions';
import { MemoryStore } from '../../../../src/store/memory-store';
import { PgStore } from '../../../../src/store/postgres/pg-store';
import { migrate } from '../../../../src/store/postgres/schema';
import { AT_TERMINAL } from '../../../support/origin';
import { describeWithDatabase, freshSchemaName, TEST_DATABASE_URL } from '../../../support/test-database';

describeWithDatabase('PostgreSQL migration 3 (stats facts)', () => {
  const schema = freshSchemaName();
  const admin = postgres(TEST_DATABASE_URL, { max: 1, onnotice: () => undefined });
  afterAll(async () => {
    await admin.unsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await admin.end();
  });

  it('counts the rows schema 2 held: stats after the migration equals a full read', async () => {
    await admin.begin((tx) => migrate((text, params) => tx.unsafe(text, (params ?? []) as never[]), schema, 2));
    // Sessions made by the real service (decisions, a resume, an interruption, outcomes), as version 2 wrote rows.
    const memory = new MemoryStore({ home: null });
    const p = new Sessions({ store: memory, project: 'p1', decisionOrigin: () => AT_TERMINAL });
    const a = (await p.create({ agent_name: 'alpha', purpose: 'm' })).agent_id;
    await p.update(a, { phase: 'approval' });
    await p.approve(a);
    await p.finalize(a, 'completed');
    const b = (await p.create({ agent_name: 'beta', purpose: 'm' })).agent_id;
    await p.update(b, { phase: 'planning', error: 'x' });
    await p.recordResume(b);
    await p.interrupt(b, { error: 'rate_limit' });
    const c = (await p.create({ agent_name: 'alpha', purpose: 'm' })).agent_id;
    await p.finalize(c, 'failed');
    const states = (await memory.list()).flatMap((entry) => (entry.kind === 'valid' ? [entry.state] : []));
    for (const state of states)
      await admin.unsafe(
        `INSERT INTO "${schema}".sessions (id, agent_name, phase, error_count, created_at, last_activity, finalized_at,
          project, state) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::text::jsonb)`,
        [
          state.agent_id,
          state.agent_name,
          state.phase,
          state.error_count,
          state.created_at,
          state.last_updated,
          state.finalized_at ?? null,
          state.project ?? null,
          JSON.stringify(state),
        ],
      );
    const store = new PgStore({ url: TEST_DATABASE_URL, schema });
    try {
      const result = await store.migrate();
      expect({ from: result.from, applied: result.applied }).toEqual({
        from: 2,
        applied: ['3 stats facts and a listing by project'],
      });
      const now = await store.now();
      const options = { now, limits: DEFAULT_LIMITS };
      const answer = await store.stats(undefined, { activeSince: new Date(now.getTime() - 31 * 60_000) });
      const got = statsOfTally(answer.tally, answer.live, options).stats;
      expect(got).toEqual(computeStats(states, options));
      expect(got.overall).toMatchObject({ sessions: 3, completed: 1, failed: 1, approvals: 1, resumes: 1 });
      // The trigger follows later writes: a delete takes its facts with it.
      await store.remove(c);
      const after = statsOfTally((await store.stats(undefined, { activeSince: now })).tally, [], options).stats;
      expect(after.overall.sessions).toBe(2);
    } finally {
      await store.close();
    }
  });
});
