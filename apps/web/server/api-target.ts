/**
 * Where this web server reaches the api: API_URL, else the api's port on this machine. One rule
 * for the /api proxy (server/api-proxy.ts) and the server loaders (app/lib/api.server.ts).
 */
export function apiTarget(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.API_URL?.trim();
  if (configured) return configured.replace(/\/+$/, '');
  return `http://127.0.0.1:${env.API_PORT?.trim() || '3001'}`;
}
