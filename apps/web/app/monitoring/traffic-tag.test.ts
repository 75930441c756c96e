import { describe, expect, it } from 'vitest';
import { TRAFFIC_STORAGE_KEY as GENERATOR_KEY } from '@showroom/contracts/traffic';
import { TRAFFIC_STORAGE_KEY } from '../startup/storage-keys';
import { trafficTag } from './traffic-tag';

const storage = (value: string | null) =>
  ({ getItem: (key: string) => (key === TRAFFIC_STORAGE_KEY ? value : null) }) as Storage;

describe('trafficTag', () => {
  it('reads the key the traffic generator writes', () => {
    expect(TRAFFIC_STORAGE_KEY).toBe(GENERATOR_KEY);
  });

  it('answers the profile and run, or null for anything else', () => {
    expect(trafficTag(storage('{"profile":"steady","run":"r1"}'))).toEqual({
      profile: 'steady',
      run: 'r1',
    });
    expect(trafficTag(storage(null))).toBeNull();
    expect(trafficTag(storage('{"profile":"steady"}'))).toBeNull();
    expect(trafficTag(storage('not json'))).toBeNull();
    expect(trafficTag(storage('"steady"'))).toBeNull();
  });
});
