import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { OFREPProvider } from '@openfeature/ofrep-provider';
import {
  OpenFeature,
  type Client,
  type EvaluationContext,
  type EvaluationDetails,
  type FlagValue,
  type JsonValue,
} from '@openfeature/server-sdk';
import { buildApp, type AppOptions } from '../app.js';
import type { VariationType } from '../modules/flags/ufc.js';

/**
 * The official OFREP server provider (@openfeature/ofrep-provider) on the OpenFeature server SDK,
 * pointed at an app listening on 127.0.0.1 (port 0): what a Node service calling the flag
 * service over OFREP runs (docs/decisions/016-ofrep.md).
 */
export async function listenForOfrep(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** An SDK client of its own domain, so test files and apps do not share a provider. */
export async function ofrepClient(
  domain: string,
  baseUrl: string,
  headers?: Record<string, string>,
): Promise<Client> {
  await OpenFeature.setProviderAndWait(domain, new OFREPProvider({ baseUrl, headers }));
  return OpenFeature.getClient(domain);
}

export interface OfrepHarness {
  app: FastifyInstance;
  client: Client;
  /** Closes the app and forgets every provider. */
  close(): Promise<void>;
}

/**
 * The app on `database`, listening, with an SDK client of domain `domain` on it. OFREP's rate
 * limit is out of the way unless `options.ofrep` sets one: tests send thousands of requests from
 * one address.
 */
export async function startOfrepHarness(
  domain: string,
  options: AppOptions,
  headers?: Record<string, string>,
): Promise<OfrepHarness> {
  const app = await buildApp({
    ...options,
    ofrep: { rateLimitPerMinute: 1_000_000, ...options.ofrep },
  });
  const client = await ofrepClient(domain, await listenForOfrep(app), headers);
  return {
    app,
    client,
    async close() {
      await OpenFeature.clearProviders();
      await app.close();
    },
  };
}

/** A caller's default of each type (what the provider answers when it has no value). */
export const CALLER_DEFAULTS = {
  BOOLEAN: false,
  STRING: '(caller default)',
  INTEGER: -1,
  NUMERIC: -1.5,
  JSON: { callerDefault: true },
} as const satisfies Record<VariationType, JsonValue>;

/** The typed getter a caller of a flag of this type would use (INTEGER and NUMERIC are numbers). */
export function getDetails(
  client: Client,
  key: string,
  type: VariationType,
  defaultValue: unknown,
  context: EvaluationContext,
): Promise<EvaluationDetails<FlagValue>> {
  switch (type) {
    case 'BOOLEAN':
      return client.getBooleanDetails(key, defaultValue as boolean, context);
    case 'STRING':
      return client.getStringDetails(key, defaultValue as string, context);
    case 'INTEGER':
    case 'NUMERIC':
      return client.getNumberDetails(key, defaultValue as number, context);
    case 'JSON':
      return client.getObjectDetails(key, defaultValue as JsonValue, context);
  }
}
