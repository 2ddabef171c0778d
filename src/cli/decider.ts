import { SessionError } from '../core/errors';
import { requireText } from './args';

/**
 * Who decides an approval: `--by`, else the login name from the environment ($USER, then $LOGNAME).
 * @throws SessionError E_USAGE for a blank `--by`, or when none is given and the environment names nobody
 */
export function deciderOf(by: string | undefined, env: Readonly<Record<string, string | undefined>>): string {
  if (by !== undefined) return requireText(by, '--by');
  const login = [env.USER, env.LOGNAME].find((name) => name !== undefined && name.trim() !== '');
  if (login === undefined)
    throw new SessionError('E_USAGE', 'Expected `--by NAME` (neither USER nor LOGNAME is set), got none');
  return login;
}
