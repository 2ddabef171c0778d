import type { CommandModule } from 'yargs';
import { SessionError } from '../../core/errors';
import { describeMachine, machineMermaid, machineTable } from '../../core/views/machine-description';
import { printJson, type GlobalArgs } from '../context';
import { STORE_OPTIONS } from '../options';

interface Args extends GlobalArgs {
  readonly mermaid: boolean;
  readonly json: boolean;
}

export const machineCommand: CommandModule<GlobalArgs, Args> = {
  command: 'machine',
  describe: 'The phase machine, read from its XState definition: states, moves, final states, the resume guard',
  builder: (yargs) =>
    yargs
      .option('mermaid', { type: 'boolean', default: false, describe: 'A Mermaid stateDiagram-v2' })
      .option('json', { type: 'boolean', default: false, describe: 'Print JSON instead of text' })
      .hide(STORE_OPTIONS[0])
      .hide(STORE_OPTIONS[1]) as never,
  handler: (argv) => {
    if (argv.mermaid && argv.json)
      throw new SessionError('E_USAGE', 'Expected one of `--mermaid` or `--json`, got both');
    const machine = describeMachine();
    if (argv.json) printJson(argv.io, machine);
    else if (argv.mermaid) argv.io.out(machineMermaid(machine));
    else {
      const guards = Object.entries(machine.resume_guards)
        .map(([name, rules]) => `${name} requires:\n${rules.map((rule) => `- ${rule}`).join('\n')}`)
        .join('\n');
      argv.io.out(
        `${machineTable(machine)}\nStarts in ${machine.initial}; final: ${machine.final_states.join(', ')}.\n${guards}\n`,
      );
    }
  },
};
