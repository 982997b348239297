import test from 'ava';
import { ConfigurationError, parseEnvironment } from '@utility-api/infra';
import { DEFAULT_PLANS_TEXT, parsePlans, planOf, templatesAllowed, toPlans, type Plan, plansEnvironmentSchema } from '../../../services/gateway/src/accounts/plans.ts';

/** PLANS and DEFAULT_PLAN as the gateway and `./run keys accounts` read them. */
test('the default PLANS is one free plan, which is the default', (t) => {
  t.deepEqual(parsePlans(DEFAULT_PLANS_TEXT), [{ name: 'free', cards: 1000, requests: 100_000 }]);
  const plans = parseEnvironment(plansEnvironmentSchema, {});
  t.is(plans.defaultPlan.name, 'free');
});

test('several plans; DEFAULT_PLAN picks the default, else the first; an unknown plan name falls back to it', (t) => {
  const text = ' free:cards=10,requests=100 ; pro:cards=0, requests=5, templates=3 ;';
  t.deepEqual(parsePlans(text), [{ name: 'free', cards: 10, requests: 100 }, { name: 'pro', cards: 0, requests: 5, templates: 3 }]);
  t.is(templatesAllowed(planOf(toPlans(parsePlans(text) as Plan[], undefined), 'free')), 25, 'a plan without templates= allows the default');
  t.is(templatesAllowed(planOf(toPlans(parsePlans(text) as Plan[], undefined), 'pro')), 3);
  const plans = parseEnvironment(plansEnvironmentSchema, { PLANS: text, DEFAULT_PLAN: 'pro' });
  t.is(plans.defaultPlan.name, 'pro');
  t.is(planOf(plans, 'free').cards, 10);
  t.is(planOf(plans, 'retired-plan').name, 'pro');
  t.is(parseEnvironment(plansEnvironmentSchema, { PLANS: text }).defaultPlan.name, 'free');
});

test('hostile or mistaken PLANS are refused with a message that shows the format', (t) => {
  for (const [text, message] of [
    ['', /no plan given/],
    ['free', /"free" is not a plan: write `<name>:cards=<n>,requests=<n>`/],
    ['Free:cards=1,requests=1', /is not a plan/],
    ['free:cards=1', /must give cards and requests as whole numbers/],
    ['free:cards=-1,requests=1', /whole numbers/],
    ['free:cards=1.5,requests=1', /whole numbers/],
    ['free:cards=1,requests=1,extra=2', /whole numbers/],
    ['free:cards=1,requests=1,templates=-1', /whole numbers/],
    ['free:cards=1,requests=1,templates=2,extra=2', /whole numbers/],
    ['free:cards=1e400,requests=1', /whole numbers/],
    ['free:cards=1,requests=1;free:cards=2,requests=2', /plan "free" is given twice/],
  ] as const) {
    const parsed = parsePlans(text);
    t.is(typeof parsed, 'string', text);
    t.regex(parsed as string, message, text);
  }
  const error = t.throws(() => parseEnvironment(plansEnvironmentSchema, { PLANS: 'free:cards=1,requests=1', DEFAULT_PLAN: 'gold' }), { instanceOf: ConfigurationError });
  t.deepEqual(error.problems.map((problem) => problem.variable), ['DEFAULT_PLAN']);
  t.regex(error.message, /must be one of the plans in PLANS \(free\)/);
});
