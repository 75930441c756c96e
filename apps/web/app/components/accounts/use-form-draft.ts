import { useCallback, useMemo, useSyncExternalStore } from 'react';
import {
  createDraftStore,
  parseDraft,
  type Draft,
  type DraftStore,
} from '../../accounts/form-drafts';

/** Fired on `window` when this page writes a draft, so every form showing it re-renders. */
const DRAFT_EVENT = 'showroom:draft';

let store: DraftStore | null = null;

/** This page's drafts: session storage, or memory where the browser refuses it. */
function drafts(): DraftStore {
  if (!store) {
    let storage: Storage | null = null;
    try {
      storage = window.sessionStorage;
    } catch {
      // A sandboxed frame may refuse the storage itself: drafts live in memory then.
    }
    store = createDraftStore(storage);
  }
  return store;
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener(DRAFT_EVENT, onChange);
  return () => window.removeEventListener(DRAFT_EVENT, onChange);
}

const changed = () => window.dispatchEvent(new Event(DRAFT_EVENT));

/**
 * A form's draft in session storage, read as an external store: the server and hydration
 * render no draft (so both agree), the browser then shows the stored one. `fields` must be a
 * constant list; secrets are never kept whatever it says (accounts/form-drafts.ts).
 */
export function useFormDraft<F extends string>(form: string, fields: readonly F[]) {
  const raw = useSyncExternalStore(
    subscribe,
    () => drafts().raw(form),
    () => null,
  );
  const draft: Draft<F> | null = useMemo(() => parseDraft(raw, fields), [raw, fields]);
  const save = useCallback(
    (values: Partial<Record<string, unknown>>) => {
      // Merged into the stored draft, so fields saved one after another in one turn all stay.
      drafts().write(form, fields, { ...drafts().read(form, fields), ...values });
      changed();
    },
    [form, fields],
  );
  const clear = useCallback(() => {
    drafts().clear(form);
    changed();
  }, [form]);
  return { draft, save, clear };
}
