import type { CommandModule } from 'yargs';
import { contextFor, type GlobalArgs } from '../context';
import { printStatusline } from '../statusline';

export const statuslineCommand: CommandModule<GlobalArgs, GlobalArgs> = {
  command: 'statusline',
  describe:
    "One line for Claude Code's statusLine setting: `2 parked · 1 waits for you` (nothing when nothing is parked)",
  builder: (yargs) => yargs,
  handler: async (argv) => {
    await printStatusline(contextFor(argv), argv.io);
  },
};
