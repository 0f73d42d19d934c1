import { afterAll } from 'vitest';
import { closeSharedBrowser } from './browser';

// Each test file's Chromium (started by its first launch(), tests/e2e/browser.ts) ends with the file.
afterAll(closeSharedBrowser);
