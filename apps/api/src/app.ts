import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { DatabaseHandle } from './db/database.js';
import { registerErrorHandlers } from './http/error-handler.js';
import { ErrorResponseSchema } from '@showroom/contracts/errors';
import {
  idOnlyTracer,
  registerRequestTracing,
  tracingChildLoggerFactory,
  type RequestTracer,
} from './http/request-tracing.js';
import { createCatalogRepository } from './modules/catalog/repository.js';
import { catalogRoutes } from './modules/catalog/routes.js';
import { healthRoutes } from './modules/health/routes.js';
import { createFlagEvaluator } from './modules/flags/evaluate.js';
import { precomputeRoutes } from './modules/flags/precompute-routes.js';
import { createFlagsRepository } from './modules/flags/repository.js';
import { flagsRoutes, type FlagsOptions } from './modules/flags/routes.js';
import { createIntakeRepository } from './modules/intake/repository.js';
import { intakeRoutes } from './modules/intake/routes.js';
import { createMonitoringQueries } from './modules/monitoring/queries.js';
import { monitoringRoutes } from './modules/monitoring/routes.js';
import { createMonitoringStore } from './modules/monitoring/store.js';
import { DEVELOPMENT_SESSION_SECRET } from './config.js';
import { cartRoutes } from './modules/cart/routes.js';
import { createFreeShippingThreshold } from './modules/cart/free-shipping.js';
import { createCartService } from './modules/cart/service.js';
import { createCheckout } from './modules/checkout/place-order.js';
import { checkoutRoutes } from './modules/checkout/routes.js';
import { createOrdersRepository } from './modules/orders/repository.js';
import { ordersRoutes } from './modules/orders/routes.js';
import { createSimulatedGateway, type PaymentGateway } from './modules/payments/gateway.js';
import { withLogRedaction } from './modules/payments/log-redaction.js';
import { createPaymentsRepository } from './modules/payments/repository.js';
import { paymentMethodRoutes } from './modules/payments/routes.js';
import { createSessionRepository } from './modules/session/repository.js';
import { createRequireSession } from './modules/session/require-session.js';
import { sessionRoutes } from './modules/session/routes.js';
import { createShopperDirectory, type ShopperDirectory } from './modules/session/shoppers.js';

export interface AppOptions {
  database: DatabaseHandle;
  /** Browser origins allowed by CORS (the web app). */
  corsOrigins?: string[];
  logger?: FastifyServerOptions['logger'];
  /** Signs session cookies; production passes config.sessionSecret (SESSION_SECRET). */
  sessionSecret?: string;
  /** Sample shoppers for PUT /session/shopper; default: data/shoppers/*.json, read lazily. */
  shopperDirectory?: ShopperDirectory;
  /** Payment gateway; default: the simulated one. */
  paymentGateway?: PaymentGateway;
  /**
   * Trust X-Forwarded-* from a TLS-terminating proxy, so `request.protocol` is https there
   * and the session cookie gets Secure. Fastify's `trustProxy` values; default false.
   */
  trustProxy?: FastifyServerOptions['trustProxy'];
  /** Flag service options (a pinned clock in tests). */
  flags?: FlagsOptions;
  /**
   * Starts each request's server span under the browser's trace; default: ids for log
   * correlation only. server.ts passes an OTLP exporter when OTEL_EXPORTER_OTLP_ENDPOINT is set.
   */
  tracer?: RequestTracer;
}

/**
 * The api as a plugin tree: tests build it with `app.inject()`, `server.ts` only listens.
 * Order: external plugins, then app-wide hooks, then module routes.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: withLogRedaction(options.logger ?? false),
    trustProxy: options.trustProxy ?? false,
    childLoggerFactory: tracingChildLoggerFactory(options.tracer ?? idOnlyTracer),
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: true, useDefaults: true } },
  }).withTypeProvider<TypeBoxTypeProvider>();

  await app.register(cors, {
    origin: options.corsOrigins ?? [],
    credentials: true,
    // @fastify/cors allows only GET, HEAD and POST unless told; the cart and session use the rest.
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    exposedHeaders: ['Location', 'Idempotent-Replayed'],
  });
  const sessionSecret = options.sessionSecret ?? DEVELOPMENT_SESSION_SECRET;
  await app.register(cookie, { secret: sessionSecret });
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Showroom api',
        description: 'Catalog, cart, checkout, accounts, feature flags and telemetry intake.',
        version: '0.1.0',
      },
      tags: [
        { name: 'catalog', description: 'Departments and products' },
        { name: 'operations', description: 'Health and operations' },
        { name: 'session', description: 'The server session and its sample shopper' },
        { name: 'cart', description: "The session's cart, priced by the server" },
        { name: 'checkout', description: 'Placing orders' },
        { name: 'orders', description: "The session's orders" },
        { name: 'payments', description: 'Saved payment methods' },
        { name: 'flags', description: 'Flag service (precompute-assignments) and flag operations' },
        { name: 'intake', description: 'Exposures, flag evaluations and RUM from the SDKs' },
        { name: 'monitoring', description: 'Session inspector: sessions and live counts' },
      ],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  app.addSchema(ErrorResponseSchema);
  registerErrorHandlers(app);
  registerRequestTracing(app);

  const { database } = options;
  await app.register(healthRoutes, { database });
  await app.register(catalogRoutes, { catalog: createCatalogRepository(database.db) });

  const sessions = createSessionRepository(database.db);
  const requireSession = createRequireSession(sessions);
  const now = options.flags?.now ?? Date.now;
  const flags = createFlagsRepository(database.db, now);
  // The cart and checkout ask the flag service for the free-shipping threshold (plain calls).
  const freeShippingThreshold = createFreeShippingThreshold(createFlagEvaluator(flags, now));
  const cart = createCartService(database.db, { freeShippingThreshold });
  const gateway = options.paymentGateway ?? createSimulatedGateway();
  await app.register(sessionRoutes, {
    requireSession,
    sessions,
    shoppers: options.shopperDirectory ?? createShopperDirectory(),
    countCart: cart.counts,
  });
  await app.register(cartRoutes, { requireSession, cart });
  await app.register(checkoutRoutes, {
    requireSession,
    checkout: createCheckout({
      db: database.db,
      gateway,
      fingerprintSecret: sessionSecret,
      freeShippingThreshold,
    }),
  });
  await app.register(ordersRoutes, { requireSession, orders: createOrdersRepository(database.db) });
  await app.register(paymentMethodRoutes, {
    requireSession,
    payments: createPaymentsRepository(database.db),
    gateway,
  });

  const intake = createIntakeRepository(database.db);
  await app.register(precomputeRoutes, { flags, now });
  await app.register(flagsRoutes, { flags, intake });
  const monitoring = createMonitoringStore(database.db);
  await app.register(intakeRoutes, { intake, monitoring, now });
  await app.register(monitoringRoutes, { queries: createMonitoringQueries(database.db, now) });

  return app;
}
