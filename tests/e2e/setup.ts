import { afterAll } from 'vitest';
import { closeSharedBrowser } from './browser';

// Each test file's connection to the run's Chromium (made by its first launch(), tests/e2e/browser.ts)
// ends with the file, and with it every context the file left open.
afterAll(closeSharedBrowser);
