import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorRef, notFound } from '../../http/errors.js';
import type { CatalogRepository } from './repository.js';
import {
  DEFAULT_PAGE_SIZE,
  DepartmentListSchema,
  DepartmentSlugParamsSchema,
  ListProductsQuerySchema,
  ProductIdParamsSchema,
  ProductPageSchema,
  ProductSchema,
} from '@showroom/contracts/catalog';

export interface CatalogRoutesOptions {
  catalog: CatalogRepository;
}

export const catalogRoutes: FastifyPluginAsyncTypebox<CatalogRoutesOptions> = async (
  app,
  { catalog },
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
        summary: "A page of a department's products",
        params: DepartmentSlugParamsSchema,
        querystring: ListProductsQuerySchema,
        response: { 200: ProductPageSchema, 400: errorRef, 404: errorRef },
      },
    },
    async (request) => {
      const { slug } = request.params;
      const department = await catalog.findDepartment(slug);
      if (!department) throw notFound(`Department "${slug}" not found`);
      const sort = request.query.sort ?? 'featured';
      const limit = request.query.limit ?? DEFAULT_PAGE_SIZE;
      const offset = request.query.offset ?? 0;
      const page = await catalog.listProducts(slug, { sort, limit, offset });
      return { department, ...page, limit, offset, sort };
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
      const product = await catalog.findProduct(request.params.id);
      if (!product) throw notFound(`Product ${request.params.id} not found`);
      return product;
    },
  );
};
