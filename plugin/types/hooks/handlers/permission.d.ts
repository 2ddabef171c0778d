import type { Sessions } from '../../service/sessions';
import type { Payload } from './claude-schema';
import type { HandlerContext, HandlerOutcome } from './handler';
/**
 * The host's answer to one permission request (Claude Code's; Codex reads it alike): `allow` lets that one call run
 * without a prompt; `deny` with a message gives the sub-agent's model exactly that text as the call's error result.
 */
export interface PermissionAnswer {
    readonly hookSpecificOutput: {
        readonly hookEventName: 'PermissionRequest';
        readonly decision: {
            readonly behavior: 'allow';
        } | {
            readonly behavior: 'deny';
            readonly message: string;
        };
    };
}
/**
 * PermissionRequest: the host is about to ask the user (or, for a background sub-agent that cannot ask, to deny)
 * whether a tool call may run. It fires only when a prompt would be shown: tool calls the user already allowed never
 * start this hook. Answered here, in this order, and only for a sub-agent (its payload carries `agent_id`):
 * 1. its own recording command: Bash running exactly the command its start context gave it (its recording words,
 *    `cli` and `update` or Codex's `record` entry, its session id, recording options only: core/recording-command.ts) on the session linked to that very
 *    agent (core/claude-link.ts isRecordingAgent): `allow`;
 * 2. the call the user approved for its session (issue 33, core/permission.ts): the same tool with a deep-equal input,
 *    from the same folder (the payload's `cwd`), a grant not spent nor expired, in this project and host: `allow`, and
 *    the grant spent in the same locked write;
 * 3. a call of any tool nobody can answer (`permission_inbox`, default `background`: a headless run, by what Claude
 *    Code tells the hook in its environment, else by the sub-agent's files, service/agent-launch.ts): recorded in its
 *    session, which waits in approval, and `deny` with a message naming the inbox item (the host would deny it
 *    anyway: the answer only adds where it waits).
 * Anything else gets no answer, so the host's own flow decides (a person is asked where one can be).
 * @returns the answer and the log note; the answer is null when the request is not ours to decide
 */
export declare function permissionRequest(sessions: Sessions, payload: Payload, context: HandlerContext): Promise<HandlerOutcome<PermissionAnswer>>;
