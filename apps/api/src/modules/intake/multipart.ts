import { badRequest } from '../../http/errors.js';

/**
 * A small `multipart/form-data` reader (RFC 7578) for the SDK's replay and profiling uploads:
 * the whole body is already in memory (bounded by the route's body limit), so the parts are
 * slices of it. No streaming, no files on disk, and a cap on parts and header sizes.
 */
export interface MultipartPart {
  /** The `name` of the part's Content-Disposition. */
  name: string;
  filename: string | null;
  contentType: string | null;
  data: Buffer;
}

/** More parts than the SDKs ever send (replay: 2, profiling: a handful). */
export const MAX_MULTIPART_PARTS = 16;
/** Longest header block of one part. */
const MAX_PART_HEADER_BYTES = 4096;
// RFC 2046 §5.1.1: 1–70 characters from this set, not ending in a space.
const BOUNDARY = /^[0-9A-Za-z'()+_,\-./:=? ]{0,69}[0-9A-Za-z'()+_,\-./:=?]$/;

/** The boundary of a `multipart/form-data; boundary=…` content type; 400 when absent or invalid. */
export function multipartBoundary(contentType: string): string {
  const [type, ...params] = contentType.split(';');
  if (type?.trim().toLowerCase() !== 'multipart/form-data') {
    throw badRequest('content-type', 'content-type must be multipart/form-data');
  }
  for (const param of params) {
    const separator = param.indexOf('=');
    if (separator < 0 || param.slice(0, separator).trim().toLowerCase() !== 'boundary') continue;
    let value = param.slice(separator + 1).trim();
    if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) {
      value = value.slice(1, -1);
    }
    if (BOUNDARY.test(value)) return value;
    break;
  }
  throw badRequest('content-type', 'multipart/form-data needs a valid boundary parameter');
}

/** Splits a multipart body into its parts; 400 naming `body` when it is not well formed. */
export function parseMultipart(body: Buffer, boundary: string): MultipartPart[] {
  const malformed = (problem: string) => badRequest('body', `multipart body ${problem}`);
  const delimiter = Buffer.from(`--${boundary}`, 'latin1');
  const nextDelimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');

  // The first delimiter may follow a preamble; it starts the body or a line.
  let position = body.indexOf(delimiter);
  if (position < 0 || (position > 0 && body.indexOf(nextDelimiter) !== position - 2)) {
    throw malformed('has no opening boundary');
  }
  position += delimiter.length;

  const parts: MultipartPart[] = [];
  for (;;) {
    if (body.subarray(position, position + 2).toString('latin1') === '--') return parts;
    const lineEnd = body.indexOf('\r\n', position);
    if (lineEnd < 0 || body.subarray(position, lineEnd).toString('latin1').trim() !== '') {
      throw malformed('has a boundary line with trailing characters');
    }
    const headersStart = lineEnd + 2;
    const headersEnd = body.indexOf('\r\n\r\n', headersStart);
    if (headersEnd < 0 || headersEnd - headersStart > MAX_PART_HEADER_BYTES) {
      throw malformed(`part ${parts.length + 1} has no end of headers`);
    }
    const dataStart = headersEnd + 4;
    const dataEnd = body.indexOf(nextDelimiter, dataStart);
    if (dataEnd < 0) throw malformed('is missing its closing boundary');
    if (parts.length === MAX_MULTIPART_PARTS) {
      throw malformed(`has more than ${MAX_MULTIPART_PARTS} parts`);
    }
    const headers = parseHeaders(body.subarray(headersStart, headersEnd).toString('utf8'));
    const disposition = parseDisposition(headers.get('content-disposition'));
    if (!disposition) throw malformed(`part ${parts.length + 1} has no form-data name`);
    parts.push({
      ...disposition,
      contentType: headers.get('content-type') ?? null,
      data: body.subarray(dataStart, dataEnd),
    });
    position = dataEnd + nextDelimiter.length;
  }
}

function parseHeaders(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0)
      headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

/** `form-data; name="segment"; filename="abc-1"` → name and filename. */
function parseDisposition(
  value: string | undefined,
): { name: string; filename: string | null } | null {
  if (!value) return null;
  const [type, ...params] = value.split(';');
  if (type?.trim().toLowerCase() !== 'form-data') return null;
  const fields = new Map<string, string>();
  for (const param of params) {
    const match = /^\s*([a-z*]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s";]+))\s*$/i.exec(param);
    if (match?.[1]) {
      fields.set(match[1].toLowerCase(), (match[2] ?? match[3] ?? '').replace(/\\(.)/g, '$1'));
    }
  }
  const name = fields.get('name');
  return name ? { name, filename: fields.get('filename') ?? null } : null;
}
