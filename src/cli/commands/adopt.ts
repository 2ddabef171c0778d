import type { CommandModule } from 'yargs';
import { SessionError } from '../../core/errors';
import { counted } from '../../core/plural';
import { contextFor, printJson, withJson, type GlobalArgs } from '../context';
import { escapeControl } from '../text';

interface Args extends GlobalArgs {
  readonly ids?: readonly string[];
  readonly unassigned: boolean;
  readonly json: boolean;
}

export const adoptCommand: CommandModule<GlobalArgs, Args> = {
  command: 'adopt [ids..]',
  describe:
    "Give this project to sessions of another project or of none (an older store's, listed as unassigned): " +
    'the ids named, or --unassigned',
  builder: (yargs) =>
    withJson(yargs).positional('ids', { type: 'string', array: true, describe: 'Session ids' }).option('unassigned', {
      type: 'boolean',
      default: false,
      describe: 'Every session of no project (an older store’s)',
    }) as never,
  handler: async (argv) => {
    const ids = [argv.ids ?? []].flat().map(String);
    if (ids.length === 0 && !argv.unassigned)
      throw new SessionError('E_USAGE', 'Expected session ids to adopt or `--unassigned`, got neither');
    const { result, project } = await contextFor(argv).withSessions(async (sessions) => ({
      result: await sessions.adopt({
        ids: await Promise.all(ids.map((id) => sessions.resolveId(id))),
        unassigned: argv.unassigned,
      }),
      project: sessions.project,
    }));
    if (argv.json) {
      printJson(argv.io, { project, adopted: result.adopted, already: result.already });
      return;
    }
    const named = (list: readonly string[]): string => (list.length === 0 ? '' : `: ${list.join(', ')}`);
    argv.io.out(
      `Adopted ${counted(result.adopted.length, 'session')} into the project ${escapeControl(project)}${named(result.adopted)}\n`,
    );
    if (result.already.length > 0) argv.io.out(`Already this project's: ${result.already.join(', ')}\n`);
  },
};
