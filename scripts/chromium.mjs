// Launch flags for Debian's Chromium on a closed network (no sandbox as root, no GPU, no
// background connections that the machine would refuse): the browser tests
// (apps/web/playwright.config.ts), the bench's Lighthouse and first-visit runs and the traffic
// generator (tools/traffic) use the same ones.
export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
