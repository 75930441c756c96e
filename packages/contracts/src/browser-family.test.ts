import { describe, expect, it } from 'vitest';
import { detectBrowserFamily } from './browser-family.js';

const UA = {
  chrome:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  headlessChromium:
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/156.0.0.0 Safari/537.36',
  firefox: 'Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0',
  safari:
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_7_1) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15',
  edge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.2903.70',
  opera:
    'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0',
  chromeIos:
    'Mozilla/5.0 (iPhone; CPU iPhone OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1',
  operaPresto: 'Opera/9.80 (Windows NT 6.1; WOW64) Presto/2.12.388 Version/12.18',
  edgeWithoutChromeToken: 'Mozilla/5.0 (Windows NT 10.0) Edge/18.19582',
  curl: 'curl/8.5.0',
};

describe('detectBrowserFamily', () => {
  it('R-4.19 detects Chrome, Firefox and Safari', () => {
    expect(detectBrowserFamily(UA.chrome)).toBe('Chrome');
    expect(detectBrowserFamily(UA.headlessChromium)).toBe('Chrome');
    expect(detectBrowserFamily(UA.firefox)).toBe('Firefox');
    expect(detectBrowserFamily(UA.safari)).toBe('Safari');
  });

  it('R-4.19 Chromium Edge and Opera report Chrome: Chrome is checked first', () => {
    expect(detectBrowserFamily(UA.edge)).toBe('Chrome');
    expect(detectBrowserFamily(UA.opera)).toBe('Chrome');
  });

  it('R-4.19 Chrome on iOS has no "Chrome" token and reports Safari', () => {
    expect(detectBrowserFamily(UA.chromeIos)).toBe('Safari');
  });

  it('R-4.19 Edge and Opera are reached without the Chrome, Firefox and Safari tokens', () => {
    expect(detectBrowserFamily(UA.edgeWithoutChromeToken)).toBe('Edge');
    expect(detectBrowserFamily(UA.operaPresto)).toBe('Opera');
  });

  it('R-4.19 anything else is Other', () => {
    expect(detectBrowserFamily(UA.curl)).toBe('Other');
    expect(detectBrowserFamily('')).toBe('Other');
  });
});
