import { readStoredFlag } from '../startup/query-switches';
import { useStartup } from '../startup/startup-context';
import {
  DEMO_FEATURES,
  effectiveFeatureValue,
  type DemoFeature,
  type EffectiveFeature,
} from './demo-features';
import { isFlagProviderSet } from './flag-store';
import { useBooleanFlagDetails, useFlagProviderStatus } from './use-flag';

/**
 * The effective value of a demo feature (override, else flag service, else false), with where
 * it came from. False during server rendering and hydration, so both render the same page.
 */
export function useDemoFeatureDetails(
  feature: DemoFeature,
): EffectiveFeature & { flagValue: boolean | null } {
  const definition = DEMO_FEATURES.find((candidate) => candidate.feature === feature);
  if (!definition) throw new Error(`Unknown demo feature "${feature}"`);
  const startup = useStartup();
  const status = useFlagProviderStatus();
  const details = useBooleanFlagDetails(definition.flagKey, false);
  const fromService =
    startup !== null && isFlagProviderSet() && status === 'READY' && !details.errorCode
      ? details.value
      : null;
  const override = startup ? readStoredFlag(localStorage, definition.storageKey) : null;
  return { ...effectiveFeatureValue(override, fromService), flagValue: fromService };
}

/** Just the effective value of a demo feature. */
export function useDemoFeature(feature: DemoFeature): boolean {
  return useDemoFeatureDetails(feature).value;
}
