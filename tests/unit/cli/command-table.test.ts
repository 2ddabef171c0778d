import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import yargs, { type Argv } from 'yargs';
import { COMMAND_TABLE, lazyCommand } from '../../../src/cli/command-table';

const commandFiles = readdirSync(join(__dirname, '../../../src/cli/commands')).filter((file) => file.endsWith('.ts'));

describe('the command table', () => {
  it('has one entry per module in src/cli/commands, each loading its own', () => {
    const loaded = COMMAND_TABLE.map((entry) => entry.load());
    expect(new Set(loaded).size).toBe(commandFiles.length);
    expect(COMMAND_TABLE.map((entry) => entry.command.split(' ')[0]).sort()).toEqual(
      commandFiles.map((file) => file.replace(/\.ts$/, '')).sort(),
    );
  });

  // yargs lists, suggests and checks commands by the table's heads: they must be the modules' own, word for word.
  it.each(COMMAND_TABLE.map((entry) => [entry.command, entry] as const))('%s: the head is its module’s', (_, entry) => {
    const module = entry.load();
    expect(entry.command).toBe(module.command);
    expect(entry.describe).toBe(module.describe);
    expect(entry.aliases).toEqual(module.aliases);
    expect(typeof module.builder).toBe('function');
  });
});

describe('lazyCommand', () => {
  it('loads nothing until yargs builds or runs the command, then hands over to the module', async () => {
    let loads = 0;
    const calls: string[] = [];
    const command = lazyCommand({
      command: 'probe <id>',
      describe: 'A probe',
      load: () => {
        loads += 1;
        return {
          command: 'probe <id>',
          describe: 'A probe',
          builder: (y: Argv) => y.option('flag', { type: 'boolean' }) as never,
          handler: (argv: { id?: unknown; flag?: unknown }) =>
            void calls.push(`${String(argv.id)} ${String(argv.flag)}`),
        } as never;
      },
    });
    const parser = yargs()
      .command(command as never)
      .strict()
      .exitProcess(false);
    expect(loads).toBe(0);
    await parser.parseAsync(['probe', 'x1', '--flag']);
    expect(calls).toEqual(['x1 true']);
    expect(loads).toBeGreaterThan(0);
  });

  it('keeps an alias', () => {
    expect(lazyCommand({ command: 'a', aliases: ['b'], describe: 'd', load: () => ({}) as never }).aliases).toEqual([
      'b',
    ]);
  });
});
