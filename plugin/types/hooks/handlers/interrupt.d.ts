import type { Sessions } from '../../service/sessions';
import type { Payload } from './claude-schema';
import { type HandlerOutcome } from './handler';
/**
 * Interrupt: each foreground sub-agent of the main session that has not finished (service/cut-agents.ts) has its
 * session stopped and interrupted (kind `user_stopped`, `permission_denied` or `turn_interrupted`), only while its
 * link runs: a SubagentStop that came first wins, one that comes later keeps the session open (core `stopOutcome`).
 * One agent that cannot be written (a lock kept taken) does not keep the others from being recorded.
 */
export declare function interrupt(sessions: Sessions, payload: Payload): Promise<HandlerOutcome<never>>;
