import type { SessionState } from '../../core/state';
import type { Sessions } from '../../service/sessions';
import type { Payload } from './claude-schema';
import { type UpdatedInputAnswer } from './continue';
import { type ContextAnswer, type HandlerContext, type HandlerOutcome } from './handler';
/**
 * PreToolUse of the delegation tool: the resume offered, when the agent type delegated to has a session to resume
 * (the delegated agent is linked to it as it starts), saying whether its previous agent could have been continued
 * with its context, and recording that a fresh agent was primed. PreToolUse of SendMessage: continue.ts.
 */
export declare function offer(sessions: Sessions, payload: Payload, context: HandlerContext): Promise<HandlerOutcome<ContextAnswer<'PreToolUse'> | UpdatedInputAnswer>>;
/**
 * The resume decision of a delegation to `agentName`: its newest session when that one may be resumed
 * (the resume rules pass) and no Claude agent is running it; else null.
 */
export declare function approveResume(sessions: Sessions, agentName: string): Promise<SessionState | null>;
