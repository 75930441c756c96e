import { describe, expect, it } from 'vitest';
import { parseTargetingAttribute, parseTargetingAttributes } from './attributes.js';
import { stringifyLikeProvider } from './test-support.js';

describe('parseTargetingAttribute', () => {
  it.each([
    ['12', 12],
    ['-3.5', -3.5],
    ['0', 0],
    ['true', true],
    ['false', false],
    ['null', null],
    ['{"a":1,"b":[true]}', { a: 1, b: [true] }],
    ['["x",2]', ['x', 2]],
  ])('reads %j back as the value the provider stringified', (raw, value) => {
    expect(parseTargetingAttribute(raw)).toEqual(value);
  });

  it.each([
    'sales',
    '',
    'True',
    'nullish',
    '"quoted"',
    '007',
    '1.0',
    '1e3',
    '12345678901234567890',
    ' 12',
    '{"a": 1}',
    '{not json}',
  ])('keeps %j as the string it is (not what JSON.stringify makes)', (raw) => {
    expect(parseTargetingAttribute(raw)).toBe(raw);
  });

  it('round-trips a shopper context through the provider stringification', () => {
    const context = {
      targetingKey: 'a1b2c3',
      user_email: 'kim@example.com',
      team: 'sales',
      useDiscount: null,
      useNewCheckoutFlow: true,
      orders: 12,
      ratio: 0.25,
    };
    expect(parseTargetingAttributes(stringifyLikeProvider(context))).toEqual(context);
  });
});
