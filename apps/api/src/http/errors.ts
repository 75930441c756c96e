import { Type, type Static } from 'typebox';

/** Every api error answers this shape: `{"error":{"code","message","field"?}}`. */
export const ErrorResponseSchema = Type.Object(
  {
    error: Type.Object({
      code: Type.String(),
      message: Type.String(),
      field: Type.Optional(Type.String()),
    }),
  },
  { $id: 'ErrorResponse', title: 'ErrorResponse' },
);
export type ErrorResponse = Static<typeof ErrorResponseSchema>;

/** An expected failure with an HTTP status, a machine-readable code and, for 4xx input errors, the field. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function notFound(message: string): ApiError {
  return new ApiError(404, 'NOT_FOUND', message);
}

export function badRequest(field: string, message: string): ApiError {
  return new ApiError(400, 'VALIDATION_ERROR', message, field);
}

export function conflict(code: string, message: string, field?: string): ApiError {
  return new ApiError(409, code, message, field);
}

export function errorBody(code: string, message: string, field?: string): ErrorResponse {
  return { error: field === undefined ? { code, message } : { code, message, field } };
}

/** Ref for route response schemas: `{ 400: errorRef, 404: errorRef }`. */
export const errorRef = Type.Ref('ErrorResponse');
