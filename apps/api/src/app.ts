import cookie from '@fastify/cookie';
import cors from '@fastify/cors';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { DatabaseHandle } from './db/database.js';
import { frameworkErrors, registerErrorHandlers } from './http/error-handler.js';
import { registerNulCheck } from './http/nul-characters.js';
import { sqlRateLimitStore } from './http/rate-limit-store.js';
import { registerSecurity } from './http/security.js';
import { trafficRoutes } from './modules/traffic/routes.js';
import { ErrorResponseSchema } from '@showroom/contracts/errors';
import { AUTH_RATE_LIMIT_PER_MINUTE } from '@showroom/contracts/accounts';
import { OFREP_RATE_LIMIT_PER_MINUTE } from '@showroom/contracts/ofrep';
import { ApiError } from './http/errors.js';
import { createOutboxMailer, type Mailer } from './modules/accounts/mailer.js';
import { accountRoutes } from './modules/accounts/routes.js';
import { createAccounts } from './modules/accounts/service.js';
import { createVerifications } from './modules/accounts/verifications.js';
import { loyaltyRoutes } from './modules/loyalty/routes.js';
import { createLoyalty } from './modules/loyalty/service.js';
import { profileRoutes } from './modules/profile/routes.js';
import { createProfiles } from './modules/profile/service.js';
import { createSessionView } from './modules/session/view.js';
import {
  createRetention,
  startRetentionJob,
  type RetentionSettings,
} from './modules/retention/retention.js';
import {
  idOnlyTracer,
  registerRequestTracing,
  tracingChildLoggerFactory,
  type RequestTracer,
} from './http/request-tracing.js';
import { createCatalogRepository } from './modules/catalog/repository.js';
import { catalogRoutes } from './modules/catalog/routes.js';
import { createCatalogSearch } from './modules/catalog/search.js';
import { searchRoutes } from './modules/catalog/search-routes.js';
import { healthRoutes } from './modules/health/routes.js';
import { createFlagEvaluator } from './modules/flags/evaluate.js';
import { ofrepRoutes } from './modules/flags/ofrep-routes.js';
import { precomputeRoutes } from './modules/flags/precompute-routes.js';
import { createFlagsRepository } from './modules/flags/repository.js';
import { flagsRoutes, type FlagsOptions } from './modules/flags/routes.js';
import { startRepeatingJob } from './jobs/repeating-job.js';
import { createExperimentsRepository } from './modules/experiments/repository.js';
import { createExperimentResults } from './modules/experiments/results.js';
import { experimentsRoutes } from './modules/experiments/routes.js';
import { guardRoutes } from './modules/flags/guard-routes.js';
import { createGuardService, type GuardService } from './modules/flags/guard-service.js';
import { createIntakeRepository } from './modules/intake/repository.js';
import { intakeRoutes } from './modules/intake/routes.js';
import { createMonitoringQueries } from './modules/monitoring/queries.js';
import { monitoringRoutes } from './modules/monitoring/routes.js';
import { createMonitoringStore } from './modules/monitoring/store.js';
import { readScenarioCatalogue, type ScenarioCatalogue } from './modules/scenarios/catalogue.js';
import { createScenarioRepository } from './modules/scenarios/repository.js';
import { scenarioRoutes } from './modules/scenarios/routes.js';
import { createScenarioService, scenarioFlagProblem } from './modules/scenarios/service.js';
import { autopilotRoutes } from './modules/autopilot/routes.js';
import { createAutopilotService, type AutopilotService } from './modules/autopilot/service.js';
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
import { createFindSession, createRequireSession } from './modules/session/require-session.js';
import { createRequestFaults } from './modules/faults/request-faults.js';
import { sessionRoutes } from './modules/session/routes.js';
import { createShopperDirectory, type ShopperDirectory } from './modules/session/shoppers.js';

/**
 * Ajv options for every route schema: query strings and params arrive as strings (coerced),
 * defaults fill in. Exported so tests can judge a request with the validator the api uses.
 */
export const AJV_OPTIONS = {
  coerceTypes: 'array',
  removeAdditional: true,
  useDefaults: true,
} as const;

export interface AppOptions {
  database: DatabaseHandle;
  /**
   * Browser origins allowed by CORS (the web app); they may also send writes from another
   * origin than the api's own (the cross-site check, http/security.ts).
   */
  corsOrigins?: string[];
  /**
   * OPERATOR_TOKEN: operator routes (http/security.ts OPERATOR_ROUTES) need
   * `Authorization: Bearer <token>`; unset leaves them open (docs/reliability.md "Security").
   */
  operatorToken?: string;
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
  /** Sends verification codes; default: the database outbox (server.ts passes SMTP when set). */
  mailer?: Mailer;
  /** Sign-up, sign-in and code requests a minute per client; default 10. */
  authRateLimitPerMinute?: number;
  /**
   * OFREP (docs/decisions/016-ofrep.md): API keys a request must present (none: open, as
   * precompute-assignments is) and requests a minute per route and client address.
   */
  ofrep?: { apiKeys?: readonly string[]; rateLimitPerMinute?: number };
  /** The scenario catalogue; default: data/scenarios.json (server.ts reads SCENARIOS_PATH). */
  scenarios?: ScenarioCatalogue;
  /**
   * The retention job (README "Configuration", RETENTION_*): purges once when the app is ready,
   * then every `intervalMs`. Default: off (tests purge by hand); server.ts passes the config.
   */
  retention?: { settings: RetentionSettings; intervalMs: number; now?: () => number };
  /**
   * The autopilot (docs/decisions/018-autopilot.md): its ticker applies due steps every
   * `intervalMs` (default 1000; 0: no ticker, tests tick by hand through `app.autopilot`);
   * `replicaId` names this api in the step lease (default: a random one).
   */
  autopilot?: { intervalMs?: number; replicaId?: string };
  /**
   * Guarded rollouts (docs/decisions/019-guarded-rollouts.md): the checker looks for due guards
   * every `intervalMs` once the app is ready. Default: off (tests call `app.guards.checkDue()`
   * with the flags clock); server.ts passes GUARD_CHECK_INTERVAL_MS.
   */
  guards?: { intervalMs: number };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The guarded-rollout service: tests and tools run a check with `checkDue()`. */
    guards: GuardService;
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The autopilot service: tests drive `tick()` without waiting for the ticker. */
    autopilot: AutopilotService;
  }
}

/** How often the autopilot looks for a due step unless told (AppOptions.autopilot). */
export const AUTOPILOT_TICK_MS = 1_000;

/**
 * The api as a plugin tree: tests build it with `app.inject()`, `server.ts` only listens.
 * Order: external plugins, then app-wide hooks, then module routes.
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: withLogRedaction(options.logger ?? false),
    trustProxy: options.trustProxy ?? false,
    childLoggerFactory: tracingChildLoggerFactory(options.tracer ?? idOnlyTracer),
    ajv: { customOptions: { ...AJV_OPTIONS } },
    frameworkErrors,
  }).withTypeProvider<TypeBoxTypeProvider>();

  await app.register(cors, {
    origin: options.corsOrigins ?? [],
    credentials: true,
    // @fastify/cors allows only GET, HEAD and POST unless told; the cart and session use the rest.
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    // Request headers are allowed as the preflight asks (the plugin's default: OFREP's
    // Authorization, X-API-Key and If-None-Match too); OFREP callers read ETag and Retry-After.
    exposedHeaders: ['Location', 'Idempotent-Replayed', 'ETag', 'Retry-After'],
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
        { name: 'catalog', description: 'Departments, products and search' },
        { name: 'operations', description: 'Health and operations' },
        { name: 'session', description: 'The server session and its sample shopper' },
        { name: 'cart', description: "The session's cart, priced by the server" },
        { name: 'checkout', description: 'Placing orders' },
        { name: 'orders', description: "The session's orders" },
        { name: 'payments', description: 'Saved payment methods' },
        { name: 'accounts', description: 'Sign-up with an e-mailed code, sign-in, the outbox' },
        { name: 'profile', description: "The session's persona, address and e-mail" },
        { name: 'loyalty', description: 'The loyalty programme: points and tiers' },
        { name: 'flags', description: 'Flag service (precompute-assignments) and flag operations' },
        { name: 'intake', description: 'Exposures, flag evaluations and RUM from the SDKs' },
        { name: 'monitoring', description: 'Session inspector: sessions and live counts' },
        { name: 'scenarios', description: 'Scenario catalogue, proofs and change markers' },
        { name: 'traffic', description: "The traffic generators' shared control" },
      ],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  // Only routes that ask for it (sign-up, sign-in, codes) are limited: `config.rateLimit`.
  await app.register(rateLimit, {
    global: false,
    // In SQL, so replicas share the counts (docs/architecture.md "Scaling").
    store: sqlRateLimitStore(options.database.db),
    errorResponseBuilder: (_request, context) =>
      new ApiError(
        429,
        'RATE_LIMITED',
        `Too many attempts: try again in ${Math.ceil(context.ttl / 1000)} seconds`,
      ),
  });

  app.addSchema(ErrorResponseSchema);
  registerErrorHandlers(app);
  registerNulCheck(app);
  registerRequestTracing(app);
  registerSecurity(app, {
    operatorToken: options.operatorToken,
    allowedOrigins: options.corsOrigins ?? [],
  });

  const { database } = options;
  const sessions = createSessionRepository(database.db);
  const requireSession = createRequireSession(sessions);
  const findSession = createFindSession(sessions);
  const now = options.flags?.now ?? Date.now;
  const flags = createFlagsRepository(database.db, now);
  const evaluateFlag = createFlagEvaluator(flags, now);
  // Fault flags, evaluated for the shopper of each request (decision 010).
  const faults = createRequestFaults({
    evaluate: evaluateFlag,
    findSession,
  });

  await app.register(healthRoutes, { database });
  await app.register(catalogRoutes, { catalog: createCatalogRepository(database.db), faults });
  await app.register(searchRoutes, { search: createCatalogSearch(database.db), faults });

  // The cart and checkout ask the flag service for the free-shipping threshold (plain calls).
  const freeShippingThreshold = createFreeShippingThreshold(evaluateFlag);
  const cart = createCartService(database.db, { freeShippingThreshold });
  const gateway = options.paymentGateway ?? createSimulatedGateway();
  const view = createSessionView(cart.counts);
  await app.register(sessionRoutes, {
    requireSession,
    sessions,
    shoppers: options.shopperDirectory ?? createShopperDirectory(),
    view,
  });
  const mailer = options.mailer ?? createOutboxMailer(database.db);
  app.addHook('onClose', async () => mailer.close());
  const verifications = createVerifications({ db: database.db, mailer, secret: sessionSecret });
  const accounts = createAccounts({ db: database.db, sessions, verifications });
  const rateLimitPerMinute = options.authRateLimitPerMinute ?? AUTH_RATE_LIMIT_PER_MINUTE;
  await app.register(accountRoutes, {
    db: database.db,
    requireSession,
    findSession,
    accounts,
    verifications,
    mailer,
    view,
    rateLimitPerMinute,
  });
  await app.register(profileRoutes, {
    requireSession,
    profiles: createProfiles({ db: database.db, accounts, verifications }),
    rateLimitPerMinute,
  });
  await app.register(loyaltyRoutes, { requireSession, loyalty: createLoyalty(database.db) });
  await app.register(cartRoutes, { requireSession, cart, faults });
  await app.register(checkoutRoutes, {
    requireSession,
    faults,
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
  await app.register(ofrepRoutes, {
    flags,
    now,
    apiKeys: options.ofrep?.apiKeys ?? [],
    rateLimitPerMinute: options.ofrep?.rateLimitPerMinute ?? OFREP_RATE_LIMIT_PER_MINUTE,
  });
  await app.register(flagsRoutes, { flags, intake });
  // Tracking events and experiment results (docs/decisions/017-experiment-statistics.md).
  const experiments = createExperimentsRepository(database.db);
  await app.register(experimentsRoutes, {
    experiments,
    results: createExperimentResults({ flags, experiments, now }),
    now,
  });
  const monitoring = createMonitoringStore(database.db, {
    parallelGroups: database.kind === 'postgres' ? 4 : 1,
  });
  await app.register(intakeRoutes, { intake, monitoring, now });
  await app.register(monitoringRoutes, { queries: createMonitoringQueries(database.db, now) });
  await app.register(trafficRoutes, { db: database.db, now });

  const catalogue = options.scenarios ?? readScenarioCatalogue();
  // A scenario may only change flags the service serves, in ways they accept: checked once the
  // flags are loaded, so a bad entry is a warning at start-up rather than a refused start.
  app.addHook('onReady', async () => {
    const served = new Map(
      (await flags.listFlags()).map((stored) => [stored.flag.key, stored.flag]),
    );
    catalogue.keepServable((scenario) => scenarioFlagProblem(scenario, served));
    for (const warning of catalogue.warnings) app.log.warn(warning);
  });
  const scenarioRepository = createScenarioRepository(database.db);
  const guards = createGuardService({
    db: database.db,
    flags,
    addMarker: (marker) => scenarioRepository.addMarker(marker),
    now,
  });
  // A scenario may start a guarded rollout and an autopilot schedule (decision 020); the
  // autopilot, which starts scenarios in turn, is created below.
  const late: { autopilot?: AutopilotService } = {};
  const scenarioService = createScenarioService({
    db: database.db,
    catalogue,
    flags,
    repository: scenarioRepository,
    now,
    guards,
    autopilot: () => {
      if (!late.autopilot) throw new Error('the autopilot is not ready');
      return late.autopilot;
    },
  });
  await app.register(scenarioRoutes, {
    repository: scenarioRepository,
    scenarios: scenarioService,
    db: database.db,
    now,
  });

  app.decorate('guards', guards);
  await app.register(guardRoutes, { guards });
  if (options.guards) {
    const { intervalMs } = options.guards;
    let checker: { stop(): Promise<void> } | undefined;
    app.addHook('onReady', async () => {
      checker = startRepeatingJob(
        async () => {
          // What this replica changed, logged by it: with several replicas, the one that acted
          // (docs/decisions/019-guarded-rollouts.md).
          for (const outcome of await guards.checkDue()) {
            if (outcome.acted && outcome.decision !== 'none') {
              app.log.info({ flag: outcome.flag, decision: outcome.decision }, 'guard acted');
            }
          }
        },
        intervalMs,
        app.log,
        'guard check failed',
      );
    });
    app.addHook('onClose', async () => checker?.stop());
  }

  // The autopilot drives scenarios through the same service (docs/decisions/018-autopilot.md).
  const autopilot = createAutopilotService({
    db: database.db,
    catalogue,
    scenarios: scenarioService,
    repository: scenarioRepository,
    now,
    replicaId: options.autopilot?.replicaId,
  });
  late.autopilot = autopilot;
  app.decorate('autopilot', autopilot);
  await app.register(autopilotRoutes, { autopilot });
  const tickMs = options.autopilot?.intervalMs ?? AUTOPILOT_TICK_MS;
  if (tickMs > 0) {
    let ticker: { stop(): Promise<void> } | undefined;
    app.addHook('onReady', async () => {
      ticker = startRepeatingJob(
        async () => {
          const steps = await autopilot.tick();
          // Logged by the replica that applied them (docs/decisions/018-autopilot.md).
          if (steps.length > 0) {
            app.log.info({ steps, replica: autopilot.replicaId }, 'autopilot applied steps');
          }
        },
        tickMs,
        app.log,
        'autopilot tick failed',
      );
    });
    app.addHook('onClose', async () => ticker?.stop());
  }

  if (options.retention) {
    const { settings, intervalMs, now: retentionNow } = options.retention;
    const retention = createRetention(database.db, settings, retentionNow);
    let job: { stop(): Promise<void> } | undefined;
    app.addHook('onReady', async () => {
      job = startRetentionJob(retention, intervalMs, app.log);
    });
    app.addHook('onClose', async () => job?.stop());
  }

  return app;
}
