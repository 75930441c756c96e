/** A minimal valid raw profile for validation tests. */
export function rawProfile(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    applicationId: '00000000-0000-0000-0000-000000000099',
    clientToken: 'pub00000000000000000000000000000099',
    site: 'datadoghq.com',
    service: 'showroom-web',
    env: 'dev',
    backendUrl: 'https://dev-api.test.showroom.example.net',
    ...overrides,
  };
}
