import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

/** Debian's Chromium: the only browser the tests use (never a downloaded one). */
export const CHROMIUM = '/usr/bin/chromium';

/** Whether the browser tests can run here; when not, says why once for `file`. */
export function chromiumAvailable(file: string): boolean {
  const available = existsSync(CHROMIUM);
  if (!available) console.warn(`${file}: skipped, ${CHROMIUM} is not installed (apt-get install -y chromium)`);
  return available;
}

/**
 * Headless Chromium with the flags this workplace needs: no sandbox (root), and no background
 * networking, whose connections the closed network refuses.
 */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}
