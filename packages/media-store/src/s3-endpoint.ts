export interface S3Endpoint {
  host: string;
  port: number;
  useSSL: boolean;
}

/**
 * `http://127.0.0.1:9000` or `https://s3.example.com` → what the minio client wants. Paths,
 * queries and inline credentials are refused: they would be silently ignored otherwise. Errors
 * never repeat the URL, which may carry a secret.
 */
export function parseS3Endpoint(endpoint: string): S3Endpoint {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new TypeError('S3 endpoint is not a URL (expected e.g. http://127.0.0.1:9000)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError('S3 endpoint must use http or https');
  }
  if (url.username !== '' || url.password !== '') {
    throw new TypeError('S3 endpoint must not contain credentials; pass accessKey and secretKey');
  }
  if ((url.pathname !== '' && url.pathname !== '/') || url.search !== '' || url.hash !== '') {
    throw new TypeError('S3 endpoint must be an origin only (scheme, host, port), without path or query');
  }
  const useSSL = url.protocol === 'https:';
  // URL keeps IPv6 literals bracketed; the client wants the bare address.
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port === '' ? (useSSL ? 443 : 80) : Number(url.port);
  return { host, port, useSSL };
}
