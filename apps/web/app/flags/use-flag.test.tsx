import { renderToString } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { registerFlagClient, type FlagClient } from './flag-store';
import {
  useBooleanFlagDetails,
  useFlagProviderStatus,
  useObjectFlagValue,
  useStringFlagValue,
} from './use-flag';

const DEFAULT_BANNER = { title: 'Furniture for every room' };

function Flags() {
  const status = useFlagProviderStatus();
  const payments = useBooleanFlagDetails('show_payments', false);
  const strategy = useStringFlagValue('recommendations_strategy', 'bestsellers');
  const banner = useObjectFlagValue('home_hero_banner', DEFAULT_BANNER);
  const error = payments.errorCode ?? 'no-error';
  return (
    <p>{`${status} ${payments.value} ${payments.reason} ${error} ${strategy} ${banner.title}`}</p>
  );
}

describe('flag hooks while the server renders (and hydration, which sees the same snapshot)', () => {
  it('render the defaults and NOT_READY without a provider', () => {
    expect(renderToString(<Flags />)).toBe(
      '<p>NOT_READY false DEFAULT no-error bestsellers Furniture for every room</p>',
    );
  });

  it('still render the defaults, and evaluate nothing, with a ready client registered', () => {
    const evaluated: string[] = [];
    const answer = (flagKey: string, value: unknown) => {
      evaluated.push(flagKey);
      return { flagKey, value, reason: 'TARGETING_MATCH', flagMetadata: {} };
    };
    registerFlagClient({
      providerStatus: 'READY',
      getBooleanDetails: (key: string) => answer(key, true),
      getStringDetails: (key: string) => answer(key, 'price-low'),
      getNumberDetails: (key: string) => answer(key, 1),
      getObjectDetails: (key: string) => answer(key, { title: 'From the flag' }),
    } as unknown as FlagClient);
    expect(renderToString(<Flags />)).toBe(
      '<p>NOT_READY false DEFAULT no-error bestsellers Furniture for every room</p>',
    );
    expect(evaluated).toEqual([]);
  });
});
