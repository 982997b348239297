import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import test from 'ava';
import { cardFontFiles } from '../../../packages/card/src/fonts/font-files.ts';
import { REPO_ROOT } from '../../helpers/processes.ts';
import { aptPackages, finalStage, instructionsOf, readDockerfile, stageNamed } from '../../support/deploy/dockerfile.ts';

const run = promisify(execFile);
const output = mkdtempSync(join(tmpdir(), 'card-fonts-'));
const systemFonts = cardFontFiles().filter((file) => file.source.startsWith('Debian package '));
const debianPackages = [...new Set(systemFonts.map((file) => file.source.replace('Debian package ', '')))];

test.after.always(() => rmSync(output, { recursive: true, force: true }));

test.serial('collect-card-fonts copies every system font the card registers, at the same path', async (t) => {
  t.true(systemFonts.length > 40, `${systemFonts.length} system fonts`);
  const { stdout } = await run(process.execPath, [join(REPO_ROOT, 'docker/collect-card-fonts.mjs'), output], { cwd: REPO_ROOT });
  t.regex(stdout, new RegExp(`${systemFonts.length} font files`));
  for (const file of systemFonts) {
    t.is(statSync(join(output, file.path)).size, statSync(file.path).size, file.path);
  }
  for (const name of debianPackages) t.true(statSync(join(output, `/usr/share/doc/${name}/copyright`)).isFile(), `${name} copyright`);
});

test.serial('collect-card-fonts refuses to run without an output folder', async (t) => {
  const error = await t.throwsAsync(run(process.execPath, [join(REPO_ROOT, 'docker/collect-card-fonts.mjs')], { cwd: REPO_ROOT }));
  t.is((error as { code?: number }).code, 64);
});

test('renderer image: the fonts stage installs the packages the fonts come from and the runtime gets its output', (t) => {
  const dockerfile = readDockerfile('docker/renderer.Dockerfile');
  const fonts = stageNamed(dockerfile, 'fonts');
  t.deepEqual(
    debianPackages.filter((name) => !aptPackages(fonts).includes(name)),
    [],
  );
  const collect = instructionsOf(fonts, 'RUN').find((step) => step.text.includes('collect-card-fonts.mjs'));
  t.truthy(collect);
  const target = collect!.text.split(/\s+/).at(-1);
  const copies = instructionsOf(finalStage(dockerfile), 'COPY').map((copy) => copy.text);
  t.true(copies.includes(`--from=fonts ${target}/ /`), `the runtime stage copies ${target}/ to /`);
  // The font packages themselves stay out of the runtime image: only the collected files go in.
  t.deepEqual(
    aptPackages(finalStage(dockerfile)).filter((name) => name.startsWith('fonts-')),
    [],
  );
});

test('gateway image: no fonts (the gateway never draws in distributed mode)', (t) => {
  const dockerfile = readDockerfile('docker/gateway.Dockerfile');
  t.false(dockerfile.stages.some((stage) => aptPackages(stage).some((name) => name.startsWith('fonts-'))));
});
