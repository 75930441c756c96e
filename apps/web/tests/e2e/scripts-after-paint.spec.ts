import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { PRIORITY_IMAGE_TIMING } from '../../app/lib/priority-image';
import {
  START_SCRIPTS_AFTER_PAINT,
  WAITING_MODULE_TYPE,
} from '../../app/lib/scripts-after-paint.server';
import { expect, test } from './fixtures';

/**
 * The start-up script of decision 022 (app/lib/scripts-after-paint.server.ts) in Chromium, on a
 * document that arrives in two network chunks cut inside the inert module script's text, as a
 * streamed page can be: the parser has put the script element in the document, its text is
 * still on the way. A failed priority image lets the script start at once (a broken-images
 * fault). The server sends the rest only after the start-up script has looked for the module
 * script, so the cut is seen every run.
 */
const WAITING_SELECTOR = `script[type="${WAITING_MODULE_TYPE}"]`;

function documentServer(): Promise<{ url: string; close: () => Promise<void> }> {
  let rest: (() => void) | undefined;
  let looked = false;
  const server = http.createServer((request, response) => {
    if (request.url === '/page') {
      response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      response.write(
        '<!doctype html><html><head><title>cut</title><script>' +
          // Tells the server when the start-up script first looks for the module script.
          'var find=document.querySelector;document.querySelector=function(selector){' +
          'var found=find.call(document,selector);' +
          `if(selector===${JSON.stringify(WAITING_SELECTOR)}&&found&&!window.looked){` +
          'window.looked=true;fetch("/looked",{method:"POST"})}return found};' +
          '</script></head><body><main>' +
          `<img elementtiming="${PRIORITY_IMAGE_TIMING}" src="/missing.png" alt="">` +
          `<script>${START_SCRIPTS_AFTER_PAINT}</script>` +
          `<script type="${WAITING_MODULE_TYPE}" async="">window.ran = 'sta`,
      );
      rest = () => response.end(`rted';</script><p>after</p></main></body></html>`);
      if (looked) rest();
    } else if (request.url === '/looked') {
      looked = true;
      rest?.();
      response.writeHead(204).end();
    } else {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}`,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

test('a module script whose text is still arriving when the priority image fails runs whole, once', async ({
  page,
  consoleWatch,
}) => {
  consoleWatch.allow(/status of 404/);
  const server = await documentServer();
  try {
    await page.goto(`${server.url}/page`);
    await expect.poll(() => page.evaluate(() => (window as { ran?: string }).ran)).toBe('started');
    expect(await page.evaluate(() => (window as { looked?: boolean }).looked)).toBe(true);
    const scripts = await page.evaluate(() =>
      [...document.querySelectorAll('script[type="module"]')].map(
        (script) => (script as HTMLScriptElement).text,
      ),
    );
    expect(scripts).toEqual([`window.ran = 'started';`]);
  } finally {
    await server.close();
  }
});
