export { ConfigurationError, parseEnvironment } from './parse-environment.ts';
export type { ConfigurationProblem } from './parse-environment.ts';
export { envBoolean, envCommaList, envInteger, envUrl } from './env-fields.ts';
