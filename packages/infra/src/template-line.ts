import { pino, type DestinationStream, type Level, type Logger } from 'pino';

type PinoInternals = Record<symbol, unknown>;

/**
 * A writer for one hot log line whose fields the caller serialises itself (`,"a":1,"b":"x"`): it
 * writes what `logger[level](fields, message)` would (the logger's level field, its time function
 * and bindings, then the fields, then the message) straight to the logger's destination, skipping
 * pino's generic walk over a fresh object. Only for flat fields that hold no secret: no formatter
 * or redaction runs on them. Nothing is written while the level is off. A destination that needs
 * pino's per-line metadata (a multistream), or a logger whose line pino lays out differently (a
 * mixin, another message key), gets the line from pino itself.
 */
export function templateLineWriter(logger: Logger, level: Level, message: string): (fields: string) => void {
  const internals = logger as unknown as PinoInternals;
  const stream = internals[pino.symbols.streamSym] as (DestinationStream & PinoInternals) | undefined;
  const time = internals[pino.symbols.timeSym];
  const bindings = internals[pino.symbols.chindingsSym];
  const bindingsText = typeof bindings === 'string' ? bindings : '';
  const formatters = internals[pino.symbols.formattersSym] as { level?: { name?: string } } | undefined;
  const templated =
    stream !== undefined &&
    stream[Symbol.for('pino.metadata')] !== true &&
    typeof time === 'function' &&
    typeof bindings === 'string' &&
    internals[pino.symbols.messageKeySym] === 'msg' &&
    internals[pino.symbols.mixinSym] === undefined &&
    (logger as { msgPrefix?: string }).msgPrefix === undefined &&
    // pino's own level formatter writes `"level":<number>`; a custom one may write anything.
    formatters?.level?.name === 'level';
  const head = `{"level":${logger.levels.values[level]}`;
  const tail = `,"msg":${JSON.stringify(message)}}\n`;
  const readTime = time as () => string;
  return (fields) => {
    if (!logger.isLevelEnabled(level)) return;
    if (templated) stream.write(`${head}${readTime()}${bindingsText}${fields}${tail}`);
    else logger[level](JSON.parse(`{${fields.slice(1)}}`) as Record<string, unknown>, message);
  };
}
