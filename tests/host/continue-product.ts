// Issue 34's plays with agent-session's own hooks, installed as a newcomer installs them (npm + `agent-session init`),
// against the real Claude Code and the scripted model of continue-model.ts: run 1's sub-agent records a phase with the
// command its start context gave it and stops (parked) or is killed by an HTTP 400 (interrupted); run 2 (a new
// `claude -p`, or `--resume` of run 1's session) continues that very agent with SendMessage: its request carries run
// 1's tool call and result, it records `executing` and stops, the session ends completed, one session in the store.
// Over the limit, run 2 gets a primed fresh agent instead; a decoy id (no session of ours) is never brought.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectSlug } from '../../src/core/claude-transcript';
import {
  hookLog,
  hookLogMark,
  hookLogSince,
  makeHostProject,
  runClaude,
  storeSessions,
  stringsIn,
  type Claude,
  type ClaudeRun,
  type HostProject,
} from './claude-host';
import {
  bashCommands,
  continueScript,
  runMarker,
  sendMessageResults,
  toolResultTexts,
  UPDATE_PLACEHOLDER,
  type MainStep,
} from './continue-model';
import { startModelServer, type MessagesBody, type RecordedRequest } from './model-server';

/** How run 2 reaches the agent, and what the play checks. */
export type ProductShape =
  | { readonly kind: 'continue'; readonly reach: 'new' | 'resume'; readonly park: 'stop' | 'fail400' }
  | { readonly kind: 'over-limit' }
  | { readonly kind: 'decoy' };

export interface ProductResult {
  readonly name: string;
  readonly claude: string;
  readonly problems: string[];
  readonly ms: number;
}

const TYPE = 'terraform-architect';
const DECOY = 'a00000000000dec01';

interface Played {
  readonly run: ClaudeRun;
  readonly requests: RecordedRequest[];
}

/** The first request of the run's sub-agent: its messages. */
function firstSubRequest(requests: readonly RecordedRequest[]): NonNullable<MessagesBody['messages']> {
  return (requests.find((r) => r.role === 'subagent')?.body as MessagesBody | undefined)?.messages ?? [];
}

/** Plays one shape on a fresh project (npm-installed agent-session, `init`). */
export async function playProduct(claude: Claude, npmBin: string, shape: ProductShape): Promise<ProductResult> {
  const name =
    shape.kind === 'continue'
      ? `product, ${shape.reach}, ${shape.park === 'stop' ? 'parked' : 'killed by HTTP 400'}`
      : `product, ${shape.kind}`;
  const started = Date.now();
  const problems: string[] = [];
  const plans: Record<string, MainStep[]> = {};
  const server = await startModelServer(continueScript(plans));
  let project: HostProject | undefined;
  const play = async (label: string, steps: MainStep[], resume?: string): Promise<Played> => {
    plans[label] = steps;
    server.setRun(label);
    const run = await runClaude(claude.path, project!, server.url, label, `${runMarker(label)} go`, 180_000, {
      args: ['--allowedTools', 'Bash', ...(resume === undefined ? [] : ['--resume', resume])],
    });
    const requests = server.requests.filter((r) => r.run === label);
    writeFileSync(join(project!.base, `${label}.requests.json`), JSON.stringify(requests, null, 1));
    const final = run.events.filter((e) => e.type === 'result').at(-1);
    if (run.status !== 0 || run.timedOut || final?.is_error !== false)
      problems.push(
        `run_failed: ${label} status ${run.status} ${JSON.stringify(final)?.slice(0, 300)} ${run.stderr.slice(0, 300)}`,
      );
    return { run, requests };
  };
  try {
    project = makeHostProject('npm', claude, npmBin);
    const nonce = Math.random().toString(16).slice(2, 10);
    const fail = shape.kind === 'continue' && shape.park === 'fail400';
    // Run 1: planning recorded (parked), or executing recorded and then killed by an HTTP 400 (interrupted).
    const run1 = await play('run1', [
      {
        kind: 'agent',
        subagentType: TYPE,
        background: false,
        prompt: fail
          ? `TASK: CMD:${UPDATE_PLACEHOLDER} --phase executing CMD:echo R1-CONTEXT-${nonce}-FAIL400`
          : `TASK: CMD:echo R1-CONTEXT-${nonce} CMD:${UPDATE_PLACEHOLDER} --phase planning`,
      },
      // Claude Code 2.1.332 in `-p` ends a StopFailure hook still running when the run ends (`completed with status
      // 1`, ~0.4 s after the failure): the main agent works on a moment, as a real one does after a delegation.
      ...(fail ? [{ kind: 'bash', command: 'sleep 3' } as MainStep] : []),
      { kind: 'text', text: 'run1 done' },
    ]);
    const sessions1 = storeSessions(project);
    const parked = sessions1[0];
    const agentId = (parked as { claude?: { agent_id?: string; session_id?: string } } | undefined)?.claude?.agent_id;
    const sessionId = (parked as { claude?: { session_id?: string } } | undefined)?.claude?.session_id;
    const wanted = fail ? 'executing' : 'planning';
    if (sessions1.length !== 1 || parked?.phase !== wanted || agentId === undefined || sessionId === undefined)
      problems.push(
        `not_parked: run1 ${JSON.stringify(sessions1).slice(0, 600)}; log ${hookLog(project).slice(-6).join(' | ')}`,
      );
    else {
      if (fail && (parked as { interruption?: { waiting?: boolean } }).interruption?.waiting !== true)
        problems.push(`not_interrupted: run1 ${JSON.stringify(parked).slice(0, 400)}`);
      if (run1.requests.filter((r) => r.role === 'subagent').length === 0) problems.push('no_subagent: run1');
      if (shape.kind === 'over-limit')
        writeFileSync(
          join(project.dir, '.claude', 'agent-session.json'),
          JSON.stringify({ continue_max_transcript_bytes: 1000 }),
        );
      const to = shape.kind === 'decoy' ? DECOY : agentId;
      if (shape.kind === 'decoy') {
        // Another agent's two files in run 1's folder of this Claude project: no session of ours records it.
        const folder = join(project.home, '.claude', 'projects', projectSlug(project.dir), sessionId, 'subagents');
        mkdirSync(folder, { recursive: true });
        writeFileSync(
          join(folder, `agent-${DECOY}.jsonl`),
          `${JSON.stringify({ type: 'user', agentId: DECOY, isSidechain: true, cwd: project.dir })}\n`,
        );
        writeFileSync(join(folder, `agent-${DECOY}.meta.json`), `{"agentType":"${TYPE}","finished":true}`);
      }
      const steps: MainStep[] = [
        { kind: 'tool-search' },
        { kind: 'send', to, message: `CONT run2: CMD:echo R2-CONTINUED CMD:${UPDATE_PLACEHOLDER} --phase executing` },
        // Over the limit the main agent, told so, delegates: a primed fresh agent resumes the session.
        ...(shape.kind === 'over-limit'
          ? [
              {
                kind: 'agent',
                subagentType: TYPE,
                background: false,
                prompt: `TASK2: CMD:${UPDATE_PLACEHOLDER} --phase executing`,
              } as MainStep,
            ]
          : []),
        { kind: 'text', text: 'run2 sent' },
      ];
      const log = hookLogMark(project);
      const run2 = await play(
        'run2',
        steps,
        shape.kind === 'continue' && shape.reach === 'resume' ? sessionId : undefined,
      );
      const lines = hookLogSince(project, log);
      const sent = sendMessageResults(run2.requests);
      const sessions2 = storeSessions(project);
      const session = sessions2[0] as
        | { phase?: string; history?: { event?: string }[]; continuation?: { choice?: string; reason?: string } }
        | undefined;
      const first = firstSubRequest(run2.requests);
      const carried =
        bashCommands(first).some((c) => c.includes(`R1-CONTEXT-${nonce}`)) &&
        toolResultTexts(first).some((t) => t.includes(`R1-CONTEXT-${nonce}`));
      if (shape.kind === 'continue') {
        if (sent.length !== 1 || !/"success":\s*true/.test(sent[0]!))
          problems.push(
            `send_failed: run2 ${JSON.stringify(sent).slice(0, 400)}; log ${lines.join(' | ').slice(0, 800)}`,
          );
        const where = shape.reach === 'resume' ? 'here' : 'earlier';
        if (!lines.some((l) => l.includes(`continue where=${where}`)))
          problems.push(`not_chosen: run2 no "continue where=${where}" in ${lines.join(' | ').slice(0, 800)}`);
        if (!lines.some((l) => l.includes('event="SubagentStart" continued ')))
          problems.push(`not_continued: run2 no continued SubagentStart in ${lines.join(' | ').slice(0, 800)}`);
        if (!carried) problems.push(`context_lost: run2 ${JSON.stringify(bashCommands(first))}`);
        if (!stringsIn(first).some((s) => s.includes('agent-session: this continues session')))
          problems.push('note_lost: run2 the continued agent did not get the session note');
        if (
          sessions2.length !== 1 ||
          session?.phase !== 'completed' ||
          !session.history?.some((h) => h.event === 'continue')
        )
          problems.push(`not_completed: run2 ${JSON.stringify(sessions2).slice(0, 800)}`);
      } else if (shape.kind === 'over-limit') {
        if (!lines.some((l) => l.includes('prime why=over-limit')))
          problems.push(`not_primed: run2 ${lines.join(' | ').slice(0, 800)}`);
        if (sent.length !== 1 || !sent[0]!.includes('No transcript found'))
          problems.push(`continued_over_limit: run2 ${JSON.stringify(sent).slice(0, 400)}`);
        if (carried) problems.push('context_carried: run2 the fresh agent saw run 1');
        if (!stringsIn(first).some((s) => s.includes('this sub-agent resumes session')))
          problems.push('not_primed: run2 the fresh agent was not told the session it resumes');
        if (sessions2.length !== 1 || session?.phase !== 'completed' || session.continuation?.choice !== 'prime')
          problems.push(`not_completed: run2 ${JSON.stringify(sessions2).slice(0, 800)}`);
      } else {
        if (!lines.some((l) => l.includes(`not_ours claude_agent="${DECOY}"`)))
          problems.push(`decoy_looked_at: run2 ${lines.join(' | ').slice(0, 800)}`);
        const here = join(project.home, '.claude', 'projects', projectSlug(project.dir));
        const copies = readdirSync(here, { recursive: true })
          .map(String)
          .filter((f) => f.includes(`agent-${DECOY}.jsonl`));
        if (copies.length !== 1) problems.push(`decoy_brought: run2 ${JSON.stringify(copies)}`);
        if (sent.length !== 1 || !sent[0]!.includes('No transcript found'))
          problems.push(`decoy_continued: run2 ${JSON.stringify(sent).slice(0, 400)}`);
        if (sessions2.length !== 1 || session?.phase !== 'planning')
          problems.push(`decoy_touched: run2 ${JSON.stringify(sessions2).slice(0, 400)}`);
      }
      if (lines.some((l) => / error( |$)/.test(l)))
        problems.push(`hook_error: ${lines.filter((l) => / error/.test(l)).join(' | ')}`);
    }
  } catch (error) {
    problems.push(`play_error: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  }
  await server.close();
  if (problems.length > 0 && project !== undefined) problems.push(`kept_for_inspection: ${project.base}`);
  return { name, claude: claude.version, problems, ms: Date.now() - started };
}
