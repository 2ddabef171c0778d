import { spawn } from 'node:child_process';
import type { CommandModule } from 'yargs';
import { notifyNew } from '../../app/notify';
import { openSessions } from '../../app/stores';
import { recordedAsText } from '../../core/decision';
import { SessionError, show } from '../../core/errors';
import { assertNotAgentShell, decisionOriginOf, type DecisionOrigin } from '../../core/origin';
import { processFacts } from '../../platform/process-facts';
import { recordRunningPage } from '../../platform/running-page';
import { userDataFolder } from '../../platform/user-folders';
import type { Sessions } from '../../service/sessions';
import { ALL_PROJECTS_HELP, contextFor, withAllProjects, type CliContext, type GlobalArgs } from '../context';
import { numberTextOption } from '../options';
import { startServer } from '../serve/server';
import { escapeControl } from '../text';

interface Args extends GlobalArgs {
  readonly port?: string;
  readonly open: boolean;
  readonly 'all-projects': boolean;
}

export const serveCommand: CommandModule<GlobalArgs, Args> = {
  command: 'serve',
  describe:
    'A live page of the sessions on 127.0.0.1, decisions first: approve or reject from the browser (the URL it prints carries a token)',
  builder: (yargs) =>
    withAllProjects(yargs, ALL_PROJECTS_HELP)
      .option('port', numberTextOption('The port on 127.0.0.1 (default: a free one)'))
      .option('open', { type: 'boolean', default: false, describe: 'Open the page in the default browser' }) as never,
  handler: async (argv) => {
    const { io } = argv;
    const port = parsePort(argv.port);
    // The page decides as `approve` does: refused from an AI agent's shell before anything is opened (exit 6).
    const own = decisionOriginOf(processFacts());
    assertNotAgentShell(own, 'serve');
    const origin: DecisionOrigin = { ...own, via: 'browser' };
    const context = contextFor(argv);
    const sessions = openSessions(context, { decisionOrigin: () => origin });
    const log = (line: string) => io.err(`agent-session serve: ${new Date().toISOString()} ${escapeControl(line)}\n`);
    let running;
    try {
      running = await startServer({
        sessions,
        allProjects: argv['all-projects'],
        port,
        log,
        recordedAs: recordedAsText(origin),
      });
    } catch (error) {
      await sessions.close();
      throw error;
    }
    io.out(`${running.url}\n`);
    log(`serving ${argv['all-projects'] ? 'every project' : `project ${sessions.project}`}; Ctrl-C stops`);
    if (!origin.terminal)
      log(`started without a terminal: the page's decisions are recorded as by ${recordedAsText(origin)}`);
    if (argv.open) openBrowser(running.url, log, io.env);
    const forget = recordPage(context.logDir, running.launch.port, io.env, log);
    const stopNotifying = notifyEvery(context, sessions, {
      allProjects: argv['all-projects'],
      page: `http://127.0.0.1:${running.launch.port}/`,
      log,
      env: io.env,
    });
    await new Promise<void>((resolve) => {
      const stop = () => {
        process.removeListener('SIGINT', stop);
        process.removeListener('SIGTERM', stop);
        resolve();
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    await stopNotifying();
    forget();
    await running.close();
    await sessions.close();
    log('stopped');
  },
};

// --- internal ---

/** How often the server looks for new inbox items to tell `notify` of (when it is set). */
const NOTIFY_EVERY_MS = 2_000;

/**
 * With `notify` set, tells it of new inbox items every NOTIFY_EVERY_MS while the server runs (one sweep at a time,
 * each item once: app/notify.ts); returns how to stop, after the sweep under way.
 */
function notifyEvery(
  context: CliContext,
  sessions: Sessions,
  options: {
    allProjects: boolean;
    page: string;
    log: (line: string) => void;
    env: Readonly<Record<string, string | undefined>>;
  },
): () => Promise<void> {
  const setting = context.config.values.notify;
  if (setting === null) return () => Promise.resolve();
  let busy: Promise<void> | null = null;
  const sweep = async () => {
    try {
      const outcomes = await notifyNew(sessions, { setting, logDir: context.logDir, ...options });
      for (const outcome of outcomes)
        options.log(
          `${outcome.ok ? 'notified' : 'notify failed'} ${outcome.id} via ${outcome.target}: ${outcome.detail}`,
        );
    } catch (error) {
      options.log(`notify failed: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  const timer = setInterval(() => {
    busy ??= sweep().finally(() => {
      busy = null;
    });
  }, NOTIFY_EVERY_MS);
  return async () => {
    clearInterval(timer);
    await busy;
  };
}

/**
 * Records this server's page for the notifiers of its store root (platform/running-page.ts: a hook's `notify` links
 * to it); returns how to remove the record. A record that cannot be written is a log line: the page works without it.
 */
function recordPage(
  logDir: string,
  port: number,
  env: Readonly<Record<string, string | undefined>>,
  log: (line: string) => void,
): () => void {
  const folder = userDataFolder(env);
  if (folder === null) return () => undefined;
  try {
    const forget = recordRunningPage(folder, logDir, { port, pid: process.pid });
    return () => {
      try {
        forget();
      } catch (error) {
        log(`could not remove the page's record: ${error instanceof Error ? error.message : String(error)}`);
      }
    };
  } catch (error) {
    log(`notifications will not link to this page (${error instanceof Error ? error.message : String(error)})`);
    return () => undefined;
  }
}

function parsePort(text: string | undefined): number {
  if (text === undefined) return 0;
  const value = /^\d{1,5}$/.test(text.trim()) ? Number(text.trim()) : NaN;
  if (!(value >= 0 && value <= 65535))
    throw new SessionError('E_USAGE', `Expected \`--port\` to be a port number (0-65535), got ${show(text)}`);
  return value;
}

/**
 * Hands the URL to the system's opener, detached, and says when no browser could be opened: no display to open one
 * on (Linux without DISPLAY or WAYLAND_DISPLAY), no opener, or an opener that failed (its exit code). The URL is
 * printed either way.
 */
function openBrowser(
  url: string,
  log: (line: string) => void,
  env: Readonly<Record<string, string | undefined>>,
): void {
  const failed = (why: string) =>
    log(
      `could not open a browser (${why}); open the URL above in a browser on this machine, ` +
        `or from another through an SSH tunnel (ssh -L ${new URL(url).port}:127.0.0.1:${new URL(url).port} …)`,
    );
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['cmd', ['/c', 'start', '""', url]]
        : ['xdg-open', [url]];
  if (process.platform !== 'darwin' && process.platform !== 'win32' && !env.DISPLAY && !env.WAYLAND_DISPLAY) {
    failed('no display: DISPLAY and WAYLAND_DISPLAY are unset');
    return;
  }
  try {
    const child = spawn(command, args, { detached: true, stdio: 'ignore' });
    child.on('error', (error) => failed(`${command}: ${error.message}`));
    child.on('exit', (code, signal) => {
      if (code === 0) log(`asked ${command} to open the page in the default browser`);
      else failed(`${command} ${signal === null ? `exited ${String(code)}` : `was killed by ${signal}`}`);
    });
    child.unref();
  } catch (error) {
    failed(`${command}: ${error instanceof Error ? error.message : String(error)}`);
  }
}
