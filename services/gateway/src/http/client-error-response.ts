import type { Duplex } from 'node:stream';
import { API_CONTENT_SECURITY_POLICY } from './response-headers.ts';

/** What Node itself would answer, by parser error: oversized headers 431, a timed-out request 408, else 400. */
function statusFor(code: string | undefined): { status: number; reason: string; code: string; message: string } {
  if (code === 'HPE_HEADER_OVERFLOW') {
    return { status: 431, reason: 'Request Header Fields Too Large', code: 'headers_too_large', message: 'The request headers are too large.' };
  }
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') {
    return { status: 408, reason: 'Request Timeout', code: 'request_timeout', message: 'The request was not received in time.' };
  }
  return { status: 400, reason: 'Bad Request', code: 'malformed_request', message: 'The request is not valid HTTP.' };
}

/**
 * Requests Node's parser refuses never reach Koa; this gives them the same JSON error body and
 * security headers as every other answer instead of Node's bare status line.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const { status, reason, code, message } = statusFor(error.code);
  const body = JSON.stringify({ error: { status, code, message }, requestId: 'none' });
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Cache-Control: no-store\r\n' +
      'X-Content-Type-Options: nosniff\r\n' +
      `Content-Security-Policy: ${API_CONTENT_SECURITY_POLICY}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}
