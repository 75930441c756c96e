import { TRAFFIC_STORAGE_KEY } from '../startup/storage-keys';

/**
 * The traffic generator's tag of this browser session (tools/traffic sets it in session storage
 * before the first page): its profile and run, or null for a real visitor.
 */
export function trafficTag(storage: Storage): { profile: string; run: string } | null {
  try {
    const tag = JSON.parse(storage.getItem(TRAFFIC_STORAGE_KEY) ?? 'null') as Record<
      string,
      unknown
    >;
    return typeof tag?.profile === 'string' && typeof tag.run === 'string'
      ? { profile: tag.profile.slice(0, 60), run: tag.run.slice(0, 60) }
      : null;
  } catch {
    return null;
  }
}
