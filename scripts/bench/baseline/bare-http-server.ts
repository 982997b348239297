import { createServer } from 'node:http';
import { cannedRoutesFromEnv, portFromEnv } from './canned-routes.ts';

/**
 * The floor for the light endpoints: node:http alone doing the work any server must do for them,
 * reading and parsing the JSON body of a POST and serialising the answer, nothing else.
 */
const routes = new Map(cannedRoutesFromEnv().map((route) => [`${route.method} ${route.path}`, JSON.parse(route.body) as unknown]));

const server = createServer((request, response) => {
  const key = `${request.method} ${request.url?.split('?')[0]}`;
  const answer = routes.get(key);
  if (answer === undefined) {
    response.writeHead(404).end();
    return;
  }
  const chunks: Buffer[] = [];
  request.on('data', (chunk: Buffer) => chunks.push(chunk));
  request.on('end', () => {
    if (chunks.length > 0) JSON.parse(Buffer.concat(chunks).toString('utf8'));
    const bytes = JSON.stringify(answer);
    response.writeHead(200, { 'Content-Type': 'application/json; charset=utf-8', 'Content-Length': Buffer.byteLength(bytes) });
    response.end(bytes);
  });
});
server.keepAliveTimeout = 5_000;
server.listen(portFromEnv(), '127.0.0.1', () => console.log('bare http server listening'));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
