import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ApiError, errorRef, notFound } from '../../http/errors.js';
import type { RequestFaults } from '../faults/request-faults.js';
import { filtersOf } from './filters.js';
import type { CatalogRepository } from './repository.js';
import {
  DEFAULT_PAGE_SIZE,
  DepartmentListSchema,
  DepartmentSlugParamsSchema,
  ListProductsQuerySchema,
  MAX_RECOMMENDATION_CANDIDATES,
  ProductIdParamsSchema,
  ProductPageSchema,
  ProductSchema,
  RecommendationCandidatesSchema,
} from '@showroom/contracts/catalog';
import type { ImageHint } from '@showroom/contracts/faults';

export interface CatalogRoutesOptions {
  catalog: CatalogRepository;
  /** Fault flags aimed at the shopper of the request (decision 010). */
  faults: RequestFaults;
}

/** Products with the shopper's image hint (an image fault flag), unchanged without one. */
export function withImageHint<T extends object>(
  products: T[],
  hint: ImageHint | undefined,
): (T & { imageHint?: ImageHint })[] {
  return hint ? products.map((product) => ({ ...product, imageHint: hint })) : products;
}

export const catalogRoutes: FastifyPluginAsyncTypebox<CatalogRoutesOptions> = async (
  app,
  { catalog, faults },
) => {
  app.get(
    '/departments',
    {
      schema: {
        tags: ['catalog'],
        summary: 'All departments, in shop order, with their product counts',
        response: { 200: DepartmentListSchema },
      },
    },
    async () => ({ departments: await catalog.listDepartments() }),
  );

  app.get(
    '/departments/:slug/products',
    {
      schema: {
        tags: ['catalog'],
        summary: "A page of a department's products, filtered, with its facets",
        description:
          'Filters: price range, colours, materials, in stock (repeatable ones as repeated keys). ' +
          'Facets count the matches with every other filter applied but not their own.',
        params: DepartmentSlugParamsSchema,
        querystring: ListProductsQuerySchema,
        response: { 200: ProductPageSchema, 400: errorRef, 404: errorRef },
      },
    },
    async (request) => {
      const { slug } = request.params;
      await faults.delay(request, 'fault_product_api_latency_ms');
      const department = await catalog.findDepartment(slug);
      if (!department) throw notFound(`Department "${slug}" not found`);
      const sort = request.query.sort ?? 'featured';
      const limit = request.query.limit ?? DEFAULT_PAGE_SIZE;
      const offset = request.query.offset ?? 0;
      const filters = filtersOf(request.query);
      const [page, hint] = await Promise.all([
        catalog.listProducts(slug, { sort, limit, offset, filters }),
        faults.imageHint(request),
      ]);
      return {
        department,
        ...page,
        products: withImageHint(page.products, hint),
        limit,
        offset,
        sort,
      };
    },
  );

  app.get(
    '/products/:id',
    {
      schema: {
        tags: ['catalog'],
        summary: 'One product with its special edition',
        params: ProductIdParamsSchema,
        response: { 200: ProductSchema, 400: errorRef, 404: errorRef },
      },
    },
    async (request) => {
      await faults.delay(request, 'fault_product_api_latency_ms');
      const [product, hint] = await Promise.all([
        catalog.findProduct(request.params.id),
        faults.imageHint(request),
      ]);
      if (!product) throw notFound(`Product ${request.params.id} not found`);
      return hint ? { ...product, imageHint: hint } : product;
    },
  );

  app.get(
    '/products/:id/recommendations',
    {
      schema: {
        tags: ['catalog'],
        summary: 'What "You may also like" chooses from: the other products of its department',
        description:
          `At most ${MAX_RECOMMENDATION_CANDIDATES}, in featured order; the browser orders them by ` +
          'the recommendations_strategy flag. 503 SERVICE_UNAVAILABLE while the ' +
          'fault_recommendations_error fault flag is aimed at the shopper.',
        params: ProductIdParamsSchema,
        response: {
          200: RecommendationCandidatesSchema,
          400: errorRef,
          404: errorRef,
          503: errorRef,
        },
      },
    },
    async (request) => {
      if (await faults.value(request, 'fault_recommendations_error')) {
        const error = new ApiError(
          503,
          'SERVICE_UNAVAILABLE',
          'Recommendations are not available right now',
        );
        request.trace?.span.recordError(error, {
          'fault.flag': 'fault_recommendations_error',
          'fault.value': true,
        });
        request.log.warn(
          { 'fault.flag': 'fault_recommendations_error', productId: request.params.id },
          'recommendations failed: fault flag',
        );
        throw error;
      }
      const [products, hint] = await Promise.all([
        catalog.listRecommendationCandidates(request.params.id, MAX_RECOMMENDATION_CANDIDATES),
        faults.imageHint(request),
      ]);
      if (!products) throw notFound(`Product ${request.params.id} not found`);
      return { products: withImageHint(products, hint) };
    },
  );
};
