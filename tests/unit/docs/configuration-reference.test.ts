import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import test from 'ava';
import { GATEWAY_ENVIRONMENT_VARIABLES } from '../../../services/gateway/src/config.ts';
import { RENDERER_ENVIRONMENT_VARIABLES } from '../../../services/renderer/src/config.ts';
import { REPO_ROOT } from '../../helpers/processes.ts';

/**
 * docs/configuration.md is written by hand; the variables are spread over the services' and the
 * packages' config modules. These checks keep the page and the schemas naming the same variables.
 */
const page = readFileSync(join(REPO_ROOT, 'docs/configuration.md'), 'utf8');
/** The variables a table row is about: the backquoted names of its first cell. */
const rowVariables = [...page.matchAll(/^\| ([^|]+) \|/gm)].flatMap((row) => [...row[1]!.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((name) => name[1]!));

test("the gateway's table has one row for each variable it reads, and none for another", (t) => {
  const repeated = rowVariables.filter((name, index) => rowVariables.indexOf(name) !== index);
  t.deepEqual(repeated, []);
  t.deepEqual([...rowVariables].sort(), [...GATEWAY_ENVIRONMENT_VARIABLES].sort());
});

test('every variable the renderer reads is named on the page', (t) => {
  t.deepEqual(RENDERER_ENVIRONMENT_VARIABLES.filter((name) => !page.includes(`\`${name}\``)), []);
});
