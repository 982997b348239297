import { spawn } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

export interface CommandOptions {
  env?: NodeJS.ProcessEnv;
  cwd?: string;
  /** Bytes written to the command's standard input. */
  input?: Buffer | string;
  /** Output goes to this file as well (builds print a lot; a failure shows its tail). */
  logFile?: string;
}

export class CommandError extends Error {
  readonly code: number | null;
  readonly output: string;
  constructor(message: string, code: number | null, output: string) {
    super(message);
    this.code = code;
    this.output = output;
  }
}

/** Runs a command to its end and returns its standard output; throws with the output's tail when it fails. */
export async function run(command: string, args: readonly string[], options: CommandOptions = {}): Promise<string> {
  const child = spawn(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
  const log = options.logFile === undefined ? undefined : createWriteStream(options.logFile, { flags: 'a' });
  const stdout: Buffer[] = [];
  const combined: Buffer[] = [];
  child.stdout.on('data', (chunk: Buffer) => {
    stdout.push(chunk);
    combined.push(chunk);
    log?.write(chunk);
  });
  child.stderr.on('data', (chunk: Buffer) => {
    combined.push(chunk);
    log?.write(chunk);
  });
  child.stdin.end(options.input);
  const [code] = (await once(child, 'close')) as [number | null];
  log?.end();
  if (code !== 0) {
    const output = Buffer.concat(combined).toString('utf8');
    const tail = output.trim().split('\n').slice(-30).join('\n');
    throw new CommandError(`${command} ${args.join(' ')} exited with ${code}${options.logFile ? ` (log: ${options.logFile})` : ''}\n${tail}`, code, output);
  }
  return Buffer.concat(stdout).toString('utf8');
}

/** Like `run`, but answers whether the command succeeded instead of throwing. */
export async function succeeds(command: string, args: readonly string[], options: CommandOptions = {}): Promise<boolean> {
  try {
    await run(command, args, options);
    return true;
  } catch (error) {
    if (error instanceof CommandError) return false;
    throw error;
  }
}
