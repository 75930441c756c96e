import type http from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATOR_COOKIE } from '@showroom/contracts/security';
import defaultProfiles from '../app/config/deployment-profiles.json';
import {
  connectSources,
  monitoringIntakeOrigin,
  operatorSignIn,
  pageContentSecurityPolicy,
} from './security';
import { forwardedHeaders } from './api-proxy';

describe('the pages Content-Security-Policy', () => {
  it('names the monitoring intake of a profile with a real Datadog site and no intake proxy', () => {
    const sources = connectSources({
      mine: {
        site: 'datadoghq.eu',
        backendUrl: '/api',
        flagsUrl: null,
        intakeUrl: null,
        allowedTracingUrls: ['https://tracing.mine.example/x'],
      },
      us3: {
        site: 'us3.datadoghq.com',
        backendUrl: 'https://api.us3.example/',
        intakeUrl: '/api/intake',
        flagsUrl: '/api/flags/precompute-assignments',
      },
    });
    expect(sources).toEqual([
      'https://*.datadoghq.eu',
      'https://api.us3.example',
      'https://browser-intake-datadoghq.eu',
      'https://tracing.mine.example',
    ]);
    expect(monitoringIntakeOrigin('datadoghq.com')).toBe('https://browser-intake-datadoghq.com');
    expect(monitoringIntakeOrigin('ap1.datadoghq.com')).toBe(
      'https://browser-intake-ap1-datadoghq.com',
    );
  });

  it("covers every committed profile's absolute addresses", () => {
    const sources = connectSources(defaultProfiles as Record<string, unknown>);
    for (const profile of Object.values(defaultProfiles) as { backendUrl: string }[]) {
      if (profile.backendUrl.startsWith('http')) {
        expect(sources).toContain(new URL(profile.backendUrl).origin);
      }
    }
  });

  it("allows scripts only from this origin and with the response's nonce", () => {
    const policy = pageContentSecurityPolicy('abc123', ['https://browser-intake-datadoghq.com']);
    expect(policy).toContain("script-src 'self' 'nonce-abc123'");
    expect(policy).not.toMatch(/script-src[^;]*unsafe/);
    expect(policy).toContain("connect-src 'self' https://browser-intake-datadoghq.com");
    expect(policy).toContain("worker-src 'self' blob:");
    expect(policy).toContain("media-src 'self' blob:");
    expect(policy).toContain("img-src 'self' data:");
    expect(policy).toContain("frame-ancestors 'none'");
  });
});

describe('operator sign-in', () => {
  let server: http.Server;
  let base: string;

  beforeAll(async () => {
    const app = express();
    app.use(operatorSignIn('the-token'));
    app.use((_request, response) => void response.send('page'));
    server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(() => new Promise((resolve) => server.close(resolve)));

  it('answers the sign-in form on an operator page without the token', async () => {
    const response = await fetch(`${base}/flags`);
    expect(response.status).toBe(401);
    expect(await response.text()).toContain('Operator token');
  });

  it('shows the operator page with the right cookie, not with a wrong one', async () => {
    const right = await fetch(`${base}/inspector/abc`, {
      headers: { cookie: `${OPERATOR_COOKIE}=the-token` },
    });
    expect(await right.text()).toBe('page');
    const wrong = await fetch(`${base}/outbox`, { headers: { cookie: `${OPERATOR_COOKIE}=nope` } });
    expect(wrong.status).toBe(401);
    expect(await wrong.text()).toContain('not valid');
  });

  it('leaves the shop pages alone', async () => {
    expect(await (await fetch(`${base}/department/lighting`)).text()).toBe('page');
  });

  it('turns ?operator= into an HttpOnly SameSite=Strict cookie and drops it from the address', async () => {
    const response = await fetch(`${base}/flags?x=1&operator=the-token`, { redirect: 'manual' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/flags?x=1');
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toContain(`${OPERATOR_COOKIE}=the-token`);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/SameSite=Strict/);
  });

  it('signs in from the form and goes back only to a path of this origin', async () => {
    const post = (returnTo: string) =>
      fetch(`${base}/operator/sign-in`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ operator: 'the-token', returnTo }).toString(),
      });
    const back = await post('/demo');
    expect(back.headers.get('location')).toBe('/demo');
    expect(back.headers.get('set-cookie')).toContain(`${OPERATOR_COOKIE}=the-token`);
    expect((await post('//evil.example/')).headers.get('location')).toBe('/');
    expect((await post('https://evil.example/')).headers.get('location')).toBe('/');
    expect((await post('/\\evil.example/')).headers.get('location')).toBe('/');
  });
});

describe('the /api proxy forwards the operator token', () => {
  const request = (headers: Record<string, string>) =>
    ({ socket: { remoteAddress: '127.0.0.1' }, headers }) as unknown as http.IncomingMessage;

  it("turns the operator cookie into Authorization: Bearer, and keeps the caller's own", () => {
    expect(
      forwardedHeaders(
        request({ cookie: `a=1; ${OPERATOR_COOKIE}=tok%20en; b=2`, host: 'shop.test' }),
      ).authorization,
    ).toBe('Bearer tok en');
    expect(forwardedHeaders(request({ host: 'shop.test' })).authorization).toBeUndefined();
    expect(
      forwardedHeaders(
        request({ cookie: `${OPERATOR_COOKIE}=cookie-token`, authorization: 'Bearer own' }),
      ).authorization,
    ).toBeUndefined();
  });
});
