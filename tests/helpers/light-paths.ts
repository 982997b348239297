/** The ten light endpoints (the gateway answers them itself), in the order the docs list them. */
export const LIGHT_PATHS = [
  '/v1/json-validator',
  '/v1/random-emoji',
  '/v1/time',
  '/v1/hex-to-rgb',
  '/v1/status',
  '/v1/age-calculator',
  '/v1/coin-flip',
  '/v1/sort-array',
  '/v1/scramble',
  '/v1/number-analyzer',
] as const;
