import { Type, type Static } from 'typebox';
import { ERROR_CODES } from './error-codes.js';

// The codes are a module of their own without the schema library, so the browser, which needs
// only the codes, does not load it (docs/decisions/023-one-shell-chunk.md).
export { ERROR_CODES, isErrorCode, type ErrorCode } from './error-codes.js';

/** Every api error answers this shape: `{"error":{"code","message","field"?}}`. */
export const ErrorResponseSchema = Type.Object(
  {
    error: Type.Object({
      code: Type.Enum(ERROR_CODES),
      message: Type.String(),
      field: Type.Optional(Type.String({ description: 'The request field at fault, as a path' })),
    }),
  },
  { $id: 'ErrorResponse', title: 'ErrorResponse' },
);
export type ErrorResponse = Static<typeof ErrorResponseSchema>;
export type ErrorBody = ErrorResponse['error'];
