// docs/requirements.md §8 messages, exactly. Their own module: the page
// bundle logs when the flag provider chunk cannot load, without the provider's code.
export const FLAG_INIT_ERROR = 'Failed to initialize feature flags provider:';
export const FLAG_SYNC_WARNING = 'Failed to sync user context with OpenFeature:';
export const PROVIDER_READY_TIMEOUT_WARNING = 'Provider ready timeout - proceeding anyway';
