// Experiment results' constants without schemas: the web's experiment pages import them without
// pulling typebox's schema builders into shared chunks (the product page's first-visit budget,
// apps/web/bundle-budget.json), as monitoring-constants.ts does for the inspector.

/** Every interval of the results is a 95 % interval. */
export const EXPERIMENT_CONFIDENCE = 0.95;

/** The sample-ratio-mismatch check warns when its chi-square p-value is below this. */
export const SRM_P_THRESHOLD = 0.001;

/** Most points of a variant's cumulative-conversion series. */
export const EXPERIMENT_SERIES_MAX_POINTS = 100;
