import { type RouteConfig, index, layout, route } from '@react-router/dev/routes';

/**
 * Spec §2. Every page but /scenarios sits under the start-up layout, which runs the browser
 * start-up sequence ('init') once per page load.
 */
export default [
  // One sample shopper as JSON, for the start-up's identity; no page.
  route('shoppers/:kind/:day/:index', 'routes/sample-shopper.ts'),
  layout('layouts/scenarios-layout.tsx', [
    route('scenarios', 'routes/scenarios.tsx'),
    route('scenarios/:id/start', 'routes/scenario-start.tsx'),
  ]),
  layout('layouts/startup.tsx', [
    route('home', 'routes/home.tsx'),
    layout('layouts/lcp-layout.tsx', [
      route('department/tables/product/10', 'routes/landing-table.tsx'),
    ]),
    layout('layouts/listing.tsx', [route('department/:dept', 'routes/department.tsx')]),
    layout('layouts/signup-layout.tsx', [
      route('signup', 'routes/signup.tsx'),
      route('signup-verify', 'routes/signup-verify.tsx'),
      route('signin', 'routes/signin.tsx'),
      route('loyalty-signup', 'routes/loyalty-signup.tsx'),
    ]),
    layout('layouts/default.tsx', [
      index('routes/index.tsx'),
      route('department/:dept/product/:product', 'routes/product.tsx'),
      route('search', 'routes/search.tsx'),
      route('cart', 'routes/cart.tsx'),
      route('checkout', 'routes/checkout.tsx'),
      route('order/:orderId', 'routes/order-confirmation.tsx'),
      route('demo', 'routes/demo.tsx'),
      route('flags', 'routes/flags.tsx'),
      route('profile', 'routes/profile.tsx'),
      route('profile-edit', 'routes/profile-edit.tsx'),
      route('profile-payment', 'routes/profile-payment.tsx'),
      route('verification', 'routes/verification.tsx'),
      route('outbox', 'routes/outbox.tsx'),
      route('video-quality-monitoring-demo', 'routes/video-quality-monitoring-demo.tsx'),
      route('inspector', 'routes/inspector.tsx'),
      route('inspector/sessions/:sessionId', 'routes/inspector-session.tsx'),
      route('experiments', 'routes/experiments.tsx'),
      route('experiments/:flagKey', 'routes/experiment.tsx'),
      route('*', 'routes/not-found.tsx'),
    ]),
  ]),
] satisfies RouteConfig;
