import type { CommandModule } from 'yargs';
import { migrateStore } from '../../app/postgres';
import { contextFor, printJson, withJson, type GlobalArgs } from '../context';

interface Args extends GlobalArgs {
  readonly json: boolean;
}

export const migrateCommand: CommandModule<GlobalArgs, Args> = {
  command: 'migrate',
  describe:
    "Create or upgrade the PostgreSQL store's tables (AGENT_SESSION_DATABASE_URL, database_url or --database-url), " +
    'in one transaction; running it again changes nothing',
  builder: (yargs) => withJson(yargs) as never,
  handler: async (argv) => {
    const result = await migrateStore(contextFor(argv).config.values);
    if (argv.json) {
      printJson(argv.io, result);
      return;
    }
    // Each applied step is `<version> <name>`: written `#1 sessions and …`, so the number never reads as a count.
    const count = result.applied.length;
    const steps =
      count === 0
        ? 'already up to date'
        : `applied ${count} migration${count === 1 ? '' : 's'}: ${result.applied.map((step) => `#${step}`).join('; ')}`;
    argv.io.out(`Schema ${result.schema}: version ${result.from} → ${result.to} (${steps})\n`);
  },
};
