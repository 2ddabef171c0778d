// Claude Code's sub-agents as the permission hook meets them: the files Claude Code keeps of them, which the hook reads
// to tell whether a request can be answered by anyone (a background sub-agent of a headless run cannot), and the
// request itself.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Writes what Claude Code keeps, under `home`/.claude/projects, of session `session` run headless (`claude -p`) in
 * `cwd` with the background sub-agents `agents` of type `type`: each one's meta file and its transcript's first row
 * (`entrypoint: "sdk-cli"`). Returns the fields a hook's payload has of that session.
 */
export function headlessSubagents(
  home: string,
  cwd: string,
  session: string,
  type: string,
  agents: readonly string[],
): { cwd: string; session_id: string; transcript_path: string } {
  const projectDir = join(home, '.claude', 'projects', cwd.replace(/[^a-zA-Z0-9]/g, '-'));
  mkdirSync(join(projectDir, session, 'subagents'), { recursive: true });
  for (const agent of agents) {
    writeFileSync(
      join(projectDir, session, 'subagents', `agent-${agent}.meta.json`),
      JSON.stringify({ agentType: type, requestShape: 'background', requestNonInteractive: true }),
    );
    // The entrypoint, not the meta file, is what says headless: requestNonInteractive is true interactively too.
    writeFileSync(
      join(projectDir, session, 'subagents', `agent-${agent}.jsonl`),
      `${JSON.stringify({ type: 'user', agentId: agent, isSidechain: true, entrypoint: 'sdk-cli' })}\n`,
    );
  }
  return { cwd, session_id: session, transcript_path: join(projectDir, `${session}.jsonl`) };
}

/** The payload (less the session's fields) of sub-agent `agent`'s request to run Bash with `input`, in default mode. */
export function bashPermissionRequest(agent: string, type: string, input: unknown): Record<string, unknown> {
  return {
    hook_event_name: 'PermissionRequest',
    agent_id: agent,
    agent_type: type,
    permission_mode: 'default',
    tool_name: 'Bash',
    tool_input: input,
  };
}
