// Chromium for the e2e run: where it is and how it starts (tests/e2e/global-setup.ts starts the
// run's browser servers with these; tests/e2e/browser.ts connects to them).

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const BROWSER_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Chromium's fake camera and microphone, granted without a prompt, and autoplay without a gesture (live video, uploads). */
export const FAKE_MEDIA = ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream', '--autoplay-policy=no-user-gesture-required'];
