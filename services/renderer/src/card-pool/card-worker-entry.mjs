// Worker threads on Node 20 do not run the parent's `--import tsx`, so the TypeScript loader is
// registered here before the real worker module loads.
import { register } from 'tsx/esm/api';

register();
await import('./card-worker.ts');
