import { describe, expect, it } from 'vitest';
import {
  describeMarker,
  describeShopper,
  formatDuration,
  formatFlags,
  formatShare,
  formatTime,
  plural,
  sessionLimit,
} from './monitoring';

describe('session inspector formatting', () => {
  it('shows durations in ms below a second, in seconds above, and a dash when unmeasured', () => {
    expect(formatDuration(820.4)).toBe('820 ms');
    expect(formatDuration(1234.56)).toBe('1.23 s');
    expect(formatDuration(null)).toBe('–');
  });

  it('shows shares as whole percents', () => {
    expect(formatShare(0.2)).toBe('20 %');
    expect(formatShare(null)).toBe('–');
  });

  it('shows every variant a session saw, flag by flag', () => {
    expect(formatFlags({ instant_pay: ['a', 'b'], show_loaf: ['off'] })).toBe(
      'instant_pay: a, b · show_loaf: off',
    );
    expect(formatFlags({})).toBe('–');
  });

  it('names the shopper: sample shopper with id, placeholder by name, or anonymous', () => {
    expect(describeShopper({ id: 'a1b2c3d4', name: 'ada.lovelace', team: 'engineering' })).toBe(
      'ada.lovelace · engineering (a1b2c3d4)',
    );
    expect(describeShopper({ id: null, name: 'John Doe', team: null })).toBe('John Doe');
    expect(describeShopper(null)).toBe('anonymous');
  });

  it('reads ?limit= from 1 to 500, else lists 50', () => {
    expect(sessionLimit('200')).toBe(200);
    expect([null, '', '0', '501', '2.5', 'all'].map(sessionLimit)).toEqual([
      50, 50, 50, 50, 50, 50,
    ]);
  });

  it('formats UTC times and counts', () => {
    expect(formatTime(Date.UTC(2026, 0, 15, 9, 5, 7))).toBe('09:05:07');
    expect(plural(1, 'session')).toBe('1 session');
    expect(plural(3, 'session')).toBe('3 sessions');
  });

  it('describes a guard marker with the numbers that moved it', () => {
    const marker = {
      id: 'guard:3',
      kind: 'guard' as const,
      subject: 'new_checkout_flow',
      action: 'tripped',
      operator: 'guard',
      at: 0,
      before: { percentage: 25 },
      after: {
        percentage: 0,
        control: { value: 0, sessions: 8 },
        treatment: { value: 0.5, sessions: 8 },
        margin: 0.05,
      },
      flags: ['new_checkout_flow'],
    };
    expect(describeMarker(marker)).toBe(
      'guard new_checkout_flow tripped by guard: rollout 0 %, treatment 0.5 (8 sessions) vs control 0 (8 sessions), margin 0.05',
    );
    expect(describeMarker({ ...marker, action: 'completed', after: null })).toBe(
      'guard new_checkout_flow completed by guard: –',
    );
  });

  it("names an autopilot step's position and the scenarios it turned on and off", () => {
    const marker = {
      id: 'autopilot:4',
      kind: 'autopilot' as const,
      subject: 'busy',
      action: 'step',
      operator: 'autopilot',
      at: 0,
      before: null,
      after: { step: 2, of: 8, turnOn: ['slow-cart-query', 'payment-failures'], turnOff: [] },
      flags: [],
    };
    expect(describeMarker(marker)).toBe(
      'autopilot busy step 3/8 by autopilot: on slow-cart-query, payment-failures',
    );
    expect(
      describeMarker({ ...marker, after: { step: 3, of: 8, turnOn: [], turnOff: ['x'] } }),
    ).toBe('autopilot busy step 4/8 by autopilot: off x');
    expect(describeMarker({ ...marker, action: 'pause', after: null })).toBe(
      'autopilot busy pause by autopilot',
    );
  });
});
