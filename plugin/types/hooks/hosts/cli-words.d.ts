import type { CliPlace } from './adapter';
/** The words that run the CLI on `root`: its program (cliProgram), `--dir`, the root. */
export declare function cliWords(io: CliPlace, root: string): string[];
/**
 * The words that run the CLI: the sibling bundle, run by the node running this hook, both by absolute path; from
 * sources (no bundle), `agent-session` on PATH. Installed as a Claude Code plugin too (this bin is
 * `${CLAUDE_PLUGIN_ROOT}/dist`): Claude Code puts the plugins' `bin/` folders after the user's PATH, so a bare
 * `agent-session` (and the `node` its shebang names) would run whichever comes first (an older global install, a
 * project's `node_modules/.bin`, a planted file), and the recording command the PermissionRequest hook allows must
 * name exactly this plugin's file. A GUI-started host may lack the shell's nvm or volta PATH as well.
 */
export declare function cliProgram(io: CliPlace): string[];
