import { readFileSync } from 'node:fs';
import { SessionError } from '../core/errors';
import { describeJsonError } from '../core/json-error';
import { parseExport, type ExportDocument } from '../core/transfer';
import { errnoCode, ioError } from '../platform/errno';
import { writeOutputFile } from '../platform/output-file';
import { STDIN_FILE } from './args';

/**
 * Writes an export document to a new file, whole or not at all; an existing file is replaced only with `force`.
 * @throws SessionError E_DUPLICATE (exit 4) when the file exists without `force`, E_IO when it cannot be written
 */
export function writeExportFile(path: string, document: ExportDocument, force = false): void {
  // A temp file linked into place (or, with --force, renamed over the old one): a failed write (a full disk) leaves
  // no file to refuse the retry, and a reader sees the old file or the new, never half of one.
  writeOutputFile(path, `${JSON.stringify(document, null, 2)}\n`, force);
}

/**
 * Reads and validates an export document.
 * @throws SessionError E_USAGE when the file is absent, not JSON or not an export document; E_CORRUPT when its
 *   session is invalid; E_IO when it cannot be read
 */
export function readExportFile(file: string, stdin = 0): ExportDocument {
  let text: string;
  // `-` is stdin, as `--metadata -` and most tools read it (`… export ID | agent-session import -`).
  const fromStdin = file === STDIN_FILE || file === '-';
  const path = fromStdin ? '-' : file;
  try {
    text = fromStdin ? readFileSync(stdin, 'utf8') : readFileSync(path, 'utf8');
  } catch (error) {
    if (errnoCode(error) === 'ENOENT')
      throw new SessionError('E_USAGE', `Expected \`FILE\` to be an existing export file, got \`${path}\` (not found)`);
    throw ioError(error, 'read', path);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    // Where and what, never the text itself (JSON.parse's message quotes it).
    throw new SessionError(
      'E_USAGE',
      `Expected \`${path}\` to be a JSON export document, got a syntax error (${describeJsonError(text)})`,
    );
  }
  return parseExport(raw, `\`${path}\``);
}
