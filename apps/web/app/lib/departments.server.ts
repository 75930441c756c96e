import type { AppLoadContext } from 'react-router';
import { apiGet } from './api.server';
import type { Department } from '@showroom/contracts/catalog';

const byPageLoad = new WeakMap<AppLoadContext, Promise<Department[]>>();

/**
 * The department list, asked of the api once per page load however many of its loaders need
 * it (the root loader for the navbar, the home page for its featured products). The loaders of
 * one page load share their `context` object — a new one per incoming request (the web
 * server's getLoadContext) — while each gets its own copy of the Request.
 */
export function loadDepartments(request: Request, context: AppLoadContext): Promise<Department[]> {
  let departments = byPageLoad.get(context);
  if (departments === undefined) {
    departments = apiGet<{ departments: Department[] }>('/departments', request).then(
      (body) => body.departments,
    );
    byPageLoad.set(context, departments);
  }
  return departments;
}
