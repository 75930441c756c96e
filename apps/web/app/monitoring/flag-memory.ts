// The monitoring SDK keeps `feature_flags` per view: a flag evaluated once per page load (route
// experiments, flags read by a layout) would be missing from every later view of a client-side
// navigation, and so from its actions and errors. The flag memory keeps this page's
// evaluations and hands them back when a new view starts, so the SDK records them again there.

export interface FlagMemory {
  /** Remembers an evaluation (the latest value of a key wins). */
  record(key: string, value: unknown): void;
  /**
   * Told the view id of each event the SDK is about to send; answers the evaluations to record
   * again when that view is not the one seen last (and not the page's first view).
   */
  viewSeen(viewId: string | undefined): Array<[string, unknown]>;
}

export function createFlagMemory(): FlagMemory {
  const evaluations = new Map<string, unknown>();
  let lastView: string | undefined;
  return {
    record(key, value) {
      evaluations.set(key, value);
    },
    viewSeen(viewId) {
      if (viewId === undefined || viewId === lastView) return [];
      const first = lastView === undefined;
      lastView = viewId;
      return first ? [] : [...evaluations];
    },
  };
}
