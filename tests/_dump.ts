import { writeFileSync } from 'node:fs';
import { startTestGateway } from './helpers/test-gateway.ts';
const gw = await startTestGateway();
const doc = await (await fetch(`${gw.url}/v1/openapi.json`)).json();
writeFileSync('/tmp/oa/openapi.json', JSON.stringify(doc, null, 2));
await gw.close();
process.exit(0);
