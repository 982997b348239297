import { InvalidXMLError, S3Error } from 'minio';
import { StorageUnavailableError, type StorageUnavailableReason } from './storage-errors.ts';

const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'EHOSTDOWN',
  'ENETUNREACH', 'ENETDOWN', 'EADDRNOTAVAIL', 'ERR_SSL_WRONG_VERSION_NUMBER',
]);
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT']);
const SERVER_ERROR_CODES = new Set(['InternalError', 'ServiceUnavailable', 'SlowDown', 'XMinioServerNotInitialized']);
const NOT_FOUND_CODES = new Set(['NotFound', 'NoSuchKey']);
const UNSUPPORTED_CODES = new Set(['NotImplemented', 'MethodNotAllowed', 'XNotImplemented']);

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** The object (not the bucket) does not exist. */
export function isObjectNotFound(error: unknown): boolean {
  return error instanceof S3Error && NOT_FOUND_CODES.has(codeOf(error) ?? '');
}

/** The server does not implement the call (s3rver, some S3 look-alikes). */
export function isNotImplemented(error: unknown): boolean {
  return error instanceof S3Error && UNSUPPORTED_CODES.has(codeOf(error) ?? '');
}

export function isAccessDenied(error: unknown): boolean {
  return error instanceof S3Error && codeOf(error) === 'AccessDenied';
}

/** A pooled keep-alive socket the server had already closed: safe to retry once on a fresh one. */
export function isStaleConnection(error: unknown): boolean {
  const code = codeOf(error);
  return code === 'ECONNRESET' || code === 'EPIPE';
}

function reasonFor(error: unknown): StorageUnavailableReason | undefined {
  const code = codeOf(error);
  if (error instanceof S3Error) return code !== undefined && SERVER_ERROR_CODES.has(code) ? 'server_error' : 'rejected';
  if (error instanceof InvalidXMLError) return 'server_error';
  if (code !== undefined && TIMEOUT_CODES.has(code)) return 'timeout';
  if (code !== undefined && UNREACHABLE_CODES.has(code)) return 'unreachable';
  // Other socket-level failures (TLS alerts, parser errors) still mean we cannot talk to the store.
  if (code !== undefined && /^(E[A-Z]+|ERR_(SSL|TLS|HTTP|SOCKET|STREAM)_[A-Z_]+|HPE_[A-Z_]+)$/.test(code)) return 'unreachable';
  // With retries disabled, minio turns a retryable 5xx status into this plain Error.
  if (error instanceof Error && /^Request failed after \d+ retries/.test(error.message)) return 'server_error';
  return undefined;
}

/**
 * Storage failures become `StorageUnavailableError` (message public-safe, original in `cause`).
 * Anything else, such as a TypeError from a bug of ours, is returned unchanged so it is not
 * disguised as an outage.
 */
export function toStorageError(error: unknown): unknown {
  if (error instanceof StorageUnavailableError) return error;
  const reason = reasonFor(error);
  return reason === undefined ? error : new StorageUnavailableError(reason, { cause: error });
}
