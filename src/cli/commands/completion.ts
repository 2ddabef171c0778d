import type { CommandModule } from 'yargs';
import { COMPLETION_SHELLS } from '../completion';
import type { GlobalArgs } from '../context';
import { STORE_OPTIONS } from '../options';

interface Args extends GlobalArgs {
  readonly shell?: string;
}

export const completionCommand: CommandModule<GlobalArgs, Args> = {
  command: 'completion [shell]',
  describe:
    'Print a completion script (commands, options, session ids, phases, outcomes); add it to ~/.bashrc or ~/.zshrc',
  builder: (yargs) =>
    yargs
      .positional('shell', {
        type: 'string',
        describe: `${COMPLETION_SHELLS.join(' or ')} (default: your $SHELL)`,
      })
      .hide(STORE_OPTIONS[0])
      .hide(STORE_OPTIONS[1]) as never,
  handler: (argv) => {
    // The shell was chosen before parsing (main.ts: yargs reads $SHELL when the parser is built).
    argv.printCompletionScript();
  },
};
