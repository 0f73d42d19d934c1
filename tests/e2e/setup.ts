import { afterAll, afterEach } from 'vitest';
import { closeSharedBrowser, describeOpenPages, useServer } from './browser';

// A failed test says what its open pages showed (tests/e2e/browser.ts describeOpenPages).
afterEach(async ({ task }) => {
  if (task.result?.state === 'fail') console.log(`What the open pages showed when "${task.name}" failed:\n${await describeOpenPages()}`);
});

// Each test file's connection to the run's Chromium (made by its first launch(), tests/e2e/browser.ts)
// ends with the file, and with it every context the file left open.
afterAll(closeSharedBrowser);

// Modules stay loaded from one file to the next (isolate: false): a file that chose the second
// server must not leave the next file talking to it.
afterAll(() => useServer(null));
