export { codesWithStatus, describeRetryAfter, ERROR_CATALOGUE, ERROR_CODES, errorEntry, isErrorCode, statusesOf, type ErrorCode, type ErrorEntry, type RetryAfterRule } from './error-catalogue.ts';
