import { Type } from 'typebox';
import type { ErrorCode, ErrorResponse } from '@showroom/contracts/errors';

/** An expected failure with an HTTP status, a code of the contract and, for 4xx input errors, the field. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/** A 429 answered with `Retry-After` (seconds). */
export class RetryLaterError extends ApiError {
  constructor(
    readonly retryAfterSeconds: number,
    message: string,
  ) {
    super(429, 'RATE_LIMITED', message);
  }
}

export function notFound(message: string): ApiError {
  return new ApiError(404, 'NOT_FOUND', message);
}

export function badRequest(field: string, message: string): ApiError {
  return new ApiError(400, 'VALIDATION_ERROR', message, field);
}

export function conflict(code: ErrorCode, message: string, field?: string): ApiError {
  return new ApiError(409, code, message, field);
}

export function errorBody(code: ErrorCode, message: string, field?: string): ErrorResponse {
  return { error: field === undefined ? { code, message } : { code, message, field } };
}

/** Ref for route response schemas: `{ 400: errorRef, 404: errorRef }`. */
export const errorRef = Type.Ref('ErrorResponse');
