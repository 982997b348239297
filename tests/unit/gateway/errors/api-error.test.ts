import test from 'ava';
import { MAX_LISTED_PROBLEMS, validationError, type FieldProblem } from '../../../../services/gateway/src/http/api-error.ts';

test('a validation error summarizes the first problem and counts the others', (t) => {
  const error = validationError([
    { in: 'query', field: 'count', message: 'must be a whole number' },
    { in: 'query', field: 'isSymbol', message: 'must be true or false' },
  ]);
  t.is(error.status, 400);
  t.is(error.code, 'invalid_request');
  t.is(error.message, "Invalid query parameter 'count': must be a whole number (and 1 more problem)");
  t.is(error.details?.length, 2);
});

test('problem lists are capped with a count of the rest', (t) => {
  const problems = (count: number): FieldProblem[] =>
    Array.from({ length: count }, (_, index) => ({ in: 'body', field: `array.${index}`, message: 'must contain only numbers' }));
  t.deepEqual(validationError(problems(3)).details, problems(3));
  t.deepEqual(validationError(problems(MAX_LISTED_PROBLEMS)).details, problems(MAX_LISTED_PROBLEMS));
  const capped = validationError(problems(MAX_LISTED_PROBLEMS + 1)).details ?? [];
  t.is(capped.length, MAX_LISTED_PROBLEMS + 1);
  t.deepEqual(capped.at(-1), { in: 'body', field: 'array', message: '1 more problem not listed' });
  const many = validationError(problems(10_000)).details ?? [];
  t.is(many.length, MAX_LISTED_PROBLEMS + 1);
  t.deepEqual(many.slice(0, MAX_LISTED_PROBLEMS), problems(MAX_LISTED_PROBLEMS));
  t.is(many.at(-1)?.message, `${10_000 - MAX_LISTED_PROBLEMS} more problems not listed`);
});

