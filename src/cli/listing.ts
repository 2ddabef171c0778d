import type { ListEntry } from '../service/sessions';
import type { SessionState } from '../core/state';
import { counted } from '../core/plural';
import type { CliIo } from './context';

/**
 * The valid states of a listing, and a warning on stderr for the corrupt ones (their agent, phase and times are
 * unknown, so they cannot be counted or shown): `stats`, `pending` and `report` say what they left out.
 */
export function validStates(entries: readonly ListEntry[], io: CliIo, leftOut = 'left out'): SessionState[] {
  const states: SessionState[] = [];
  let corrupt = 0;
  for (const entry of entries) {
    if (entry.kind === 'valid') states.push(entry.state);
    else corrupt += 1;
  }
  if (corrupt > 0) io.err(`warning: ${counted(corrupt, 'corrupt session')} ${leftOut} (see \`agent-session list\`)\n`);
  return states;
}
