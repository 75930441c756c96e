import type { AppLoadContext } from 'react-router';
import { apiGet } from './api.server';
import type { Department } from '@showroom/contracts/catalog';

/**
 * How long this web server reuses the department list (the navbar on every page). Departments
 * change only with a new catalog seed; a page asks the api for what changes (a product and its
 * stock) every time.
 */
export const DEPARTMENTS_TTL_MS = 10_000;

const byPageLoad = new WeakMap<AppLoadContext, Promise<Department[]>>();
let shared: { departments: Promise<Department[]>; until: number } | undefined;

/**
 * The department list for a page load, however many of its loaders need it (the root loader for
 * the navbar, the home page for its featured products): their `context` object is one per
 * incoming request (the web server's getLoadContext). Page loads within DEPARTMENTS_TTL_MS of
 * each other share one answer; a failed ask is not reused.
 */
export function loadDepartments(
  context: AppLoadContext,
  now: number = Date.now(),
): Promise<Department[]> {
  let departments = byPageLoad.get(context);
  if (departments === undefined) {
    if (shared === undefined || shared.until <= now) {
      // Not tied to one request (no cookie, no abort signal): other page loads share it.
      const asked = apiGet<{ departments: Department[] }>('/departments').then(
        (body) => body.departments,
      );
      const entry = { departments: asked, until: now + DEPARTMENTS_TTL_MS };
      shared = entry;
      asked.catch(() => {
        if (shared === entry) shared = undefined;
      });
    }
    departments = shared.departments;
    byPageLoad.set(context, departments);
  }
  return departments;
}
