import type { BackingStore } from '../runtime/backing-store.ts';
import type { Clock } from '../runtime/clock.ts';
import type { RandomSource } from '../runtime/random-source.ts';
import { ageCalculatorEndpoint } from './age-calculator/endpoint.ts';
import { coinFlipEndpoint } from './coin-flip/endpoint.ts';
import type { EndpointDefinition } from '../http/endpoint.ts';
import { hexToRgbEndpoint } from './hex-to-rgb/endpoint.ts';
import { jsonValidatorEndpoint } from './json-validator/endpoint.ts';
import { numberAnalyzerEndpoint } from './number-analyzer/endpoint.ts';
import { randomEmojiEndpoint } from './random-emoji/endpoint.ts';
import { scrambleEndpoint } from './scramble/endpoint.ts';
import { sortArrayEndpoint } from './sort-array/endpoint.ts';
import { statusEndpoint } from './status/endpoint.ts';
import { timeEndpoint } from './time/endpoint.ts';

interface UtilityEndpointDependencies {
  clock: Clock;
  random: RandomSource;
  store: BackingStore;
  environment: string;
}

/**
 * The ten light endpoints: answered by the gateway itself, in the order the docs list them. All of
 * them are the `utility` scope of a key.
 */
export function utilityEndpoints(dependencies: UtilityEndpointDependencies): EndpointDefinition[] {
  const { clock, random } = dependencies;
  const endpoints = [
    jsonValidatorEndpoint(),
    randomEmojiEndpoint(random),
    timeEndpoint(clock),
    hexToRgbEndpoint(clock),
    statusEndpoint({ store: dependencies.store, environment: dependencies.environment, clock }),
    ageCalculatorEndpoint(clock),
    coinFlipEndpoint(random, clock),
    sortArrayEndpoint(clock),
    scrambleEndpoint(random, clock),
    numberAnalyzerEndpoint(),
  ];
  return endpoints.map((endpoint) => ({ ...endpoint, scope: 'utility' }));
}
