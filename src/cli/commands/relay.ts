import type { CommandModule } from 'yargs';
import { askRelayOf, serveRelay, type RelayStatus } from '../../app/relay-server';
import { contextFor, printJson, withJson, type GlobalArgs } from '../context';
import { escapeControl } from '../text';

interface Args extends GlobalArgs {
  readonly action: 'status' | 'stop' | 'serve';
  readonly json: boolean;
}

const ACTIONS = ['status', 'stop', 'serve'] as const;

export const relayCommand: CommandModule<GlobalArgs, Args> = {
  command: 'relay <action>',
  describe:
    "The PostgreSQL hooks' local relay (it holds their connection): status, stop, or serve (run it in the foreground)",
  builder: (yargs) =>
    withJson(yargs).positional('action', {
      choices: ACTIONS,
      describe: 'status: is it running, since when, how many clients; stop: ask it to stop; serve: run it here',
    }) as never,
  handler: async (argv) => {
    const { io } = argv;
    const config = contextFor(argv).config.values;
    if (argv.action === 'serve') {
      const outcome = await serveRelay(config, io.env, (line) =>
        io.err(`agent-session relay: ${new Date().toISOString()} ${escapeControl(line)}\n`),
      );
      if (outcome === 'already_running') io.err('agent-session relay: already running; nothing to do\n');
      return;
    }
    const report = await askRelayOf(config, io.env, argv.action);
    const { reply } = report;
    if (argv.json) {
      printJson(io, {
        store: report.location,
        socket: report.socket,
        running: reply.running,
        ...(reply.running
          ? argv.action === 'status'
            ? { status: reply.value }
            : { stopping: true }
          : { why: reply.why }),
      });
      return;
    }
    if (!reply.running) {
      io.out(`Relay for ${report.location}: not running (${reply.why})\n`);
      return;
    }
    if (argv.action === 'stop') {
      io.out(`Relay for ${report.location}: stopping (it finishes its clients' requests first)\n`);
      return;
    }
    const status = reply.value as RelayStatus;
    io.out(
      `Relay for ${report.location}: running, pid ${status.pid}, since ${status.started_at}, ` +
        `${status.clients_served} client${status.clients_served === 1 ? '' : 's'} served, ${status.clients_now} now; ` +
        `stops after ${status.idle_timeout_seconds} s without a client\n` +
        `Socket: ${report.socket}\n` +
        (status.last_error === null ? '' : `Last error: ${escapeControl(status.last_error)}\n`),
    );
  },
};
