import type { CommandModule } from 'yargs';
import { COMPLETION_SHELLS } from '../completion';
import type { GlobalArgs } from '../context';

interface Args extends GlobalArgs {
  readonly shell?: string;
}

export const completionCommand: CommandModule<GlobalArgs, Args> = {
  command: 'completion [shell]',
  describe:
    'Print a completion script (commands, options, session ids, phases, outcomes); add it to ~/.bashrc or ~/.zshrc',
  builder: (yargs) =>
    yargs.positional('shell', {
      type: 'string',
      describe: `${COMPLETION_SHELLS.join(' or ')} (default: your $SHELL)`,
    }) as never,
  handler: (argv) => {
    // The shell was chosen before parsing (main.ts: yargs reads $SHELL when the parser is built).
    argv.printCompletionScript();
  },
};
