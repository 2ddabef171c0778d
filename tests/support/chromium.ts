// The real Chromium for the page tests (the report's and serve's), driven by playwright-core: launching it, and what
// each test asks of every page it opens (no console error, no dialog, nothing scrolling sideways).
import { existsSync } from 'node:fs';
import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium (.ci/run installs it when missing), or the one AGENT_SESSION_CHROMIUM names. */
export const CHROMIUM = process.env.AGENT_SESSION_CHROMIUM ?? '/usr/bin/chromium';

/** Chromium, launched headless with the flags this machine needs. */
export async function launchChromium(): Promise<Browser> {
  if (!existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM} (apt-get install -y chromium)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    // No sandbox as root, no GPU, and nothing that reaches for the network.
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
}

/**
 * Adds to `problems` each console error or warning, uncaught error and dialog of `page` (a dialog is dismissed, so the
 * page goes on): a test expects the list empty, since a page that works says nothing there.
 */
export function collectProblems(page: Page, problems: string[]): void {
  page.on('console', (message) => {
    if (message.type() === 'error' || message.type() === 'warning') problems.push(message.text());
  });
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.message()}`);
    void dialog.dismiss();
  });
}

/** The width of the page's whole document: above the window's width, the page scrolls sideways. */
export function scrollWidth(page: Page): Promise<number> {
  // The callback runs in the page, where `document` is; this project's TypeScript has no DOM types.
  return page.evaluate(
    () =>
      (globalThis as unknown as { document: { documentElement: { scrollWidth: number } } }).document.documentElement
        .scrollWidth,
  );
}
