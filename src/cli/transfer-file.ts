import { readFileSync } from 'node:fs';
import { SessionError } from '../core/errors';
import { describeJsonError } from '../core/json-error';
import { parseExport, type ExportDocument } from '../core/transfer';
import { errnoCode, ioError } from '../platform/errno';
import { writeNewOutputFile } from '../platform/output-file';

/**
 * Writes an export document to a new file, whole or not at all; an existing file is never overwritten.
 * @throws SessionError E_DUPLICATE when the file exists, E_IO when it cannot be written
 */
export function writeExportFile(path: string, document: ExportDocument): void {
  // A temp file linked into place: a failed write (a full disk) leaves no file to refuse the retry.
  if (!writeNewOutputFile(path, `${JSON.stringify(document, null, 2)}\n`))
    throw new SessionError(
      'E_DUPLICATE',
      `Expected \`--out\` to name a new file, got \`${path}\` which exists (never overwritten)`,
    );
}

/**
 * Reads and validates an export document.
 * @throws SessionError E_USAGE when the file is absent, not JSON or not an export document; E_CORRUPT when its
 *   session is invalid; E_IO when it cannot be read
 */
export function readExportFile(path: string): ExportDocument {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
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
