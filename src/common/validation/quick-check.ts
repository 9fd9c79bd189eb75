import { getMetadataStorage, ValidationArguments, ValidationTypes } from 'class-validator';

type Rule = (instance: object, value: unknown) => boolean | undefined;

interface Plan {
  /** Every property with rules: input keys outside it are refused. */
  properties: Set<string>;
  /** Per property: whether its rules apply (its IsOptional-style conditions), and the rules. */
  checks: { property: string; applies: ((instance: object, value: unknown) => boolean)[]; rules: Rule[] }[];
}

const plans = new WeakMap<object, Plan | null>();

/**
 * Whether class-validator would accept `instance` with the options
 * `validateInput` uses (whitelist, forbidNonWhitelisted, no groups), answered
 * by calling the same constraint functions with the same arguments, without
 * its error bookkeeping and promises: the common case (valid input) costs a
 * fraction. `false` means "not known to pass": the caller validates fully,
 * which also writes the exact messages. Classes with rules this does not
 * reproduce (nested objects, promises, groups, IsDefined) always answer `false`.
 *
 * It reads class-validator's rule metadata and calls its constraints as its
 * executor does: class-validator is pinned to an exact version and
 * test/library-contracts.spec.ts checks the shapes relied on (quick-check.spec.ts
 * checks that the answers agree with validate()).
 */
export function passesQuickCheck(instance: object): boolean {
  const plan = planFor(instance.constructor);
  if (!plan) return false;
  for (const key of Object.keys(instance)) if (!plan.properties.has(key)) return false;
  for (const { property, applies, rules } of plan.checks) {
    const value = (instance as Record<string, unknown>)[property];
    if (!applies.every((condition) => condition(instance, value))) continue;
    for (const rule of rules) if (rule(instance, value) !== true) return false;
  }
  return true;
}

function planFor(cls: object): Plan | null {
  let plan = plans.get(cls);
  if (plan === undefined) {
    plan = buildPlan(cls);
    plans.set(cls, plan);
  }
  return plan;
}

function buildPlan(cls: object): Plan | null {
  const storage = getMetadataStorage();
  const metadatas = storage.getTargetValidationMetadatas(cls as new () => object, '', false, false, undefined);
  if (metadatas.length === 0) return null;
  const byProperty = new Map<string, Plan['checks'][number]>();
  for (const metadata of metadatas) {
    if (metadata.groups?.length) return null;
    let check = byProperty.get(metadata.propertyName);
    if (!check) byProperty.set(metadata.propertyName, (check = { property: metadata.propertyName, applies: [], rules: [] }));
    switch (metadata.type) {
      case ValidationTypes.WHITELIST:
        break;
      case ValidationTypes.CONDITIONAL_VALIDATION:
        check.applies.push(metadata.constraints[0] as (instance: object, value: unknown) => boolean);
        break;
      case ValidationTypes.CUSTOM_VALIDATION: {
        const constraints = storage.getTargetValidatorConstraints(metadata.constraintCls);
        if (constraints.some((c) => c.async)) return null;
        for (const constraint of constraints) {
          const validate = (value: unknown, args: ValidationArguments) => constraint.instance.validate(value, args);
          check.rules.push((instance, value) => {
            if (metadata.validateIf && !metadata.validateIf(instance, value)) return true;
            const args: ValidationArguments = {
              targetName: (instance.constructor as { name?: string }).name ?? '',
              property: metadata.propertyName,
              object: instance,
              value,
              constraints: metadata.constraints,
            };
            const items = metadata.each ? eachItems(value) : undefined;
            const results = items ? items.map((item) => validate(item, args)) : [validate(value, args)];
            // A promise (an async rule class-validator would await) is not a known pass.
            return results.every((result) => result === true);
          });
        }
        break;
      }
      default:
        return null;
    }
  }
  return { properties: new Set(byProperty.keys()), checks: [...byProperty.values()] };
}

/** What class-validator checks one by one under `each`: the items of an array, set or map. */
function eachItems(value: unknown): unknown[] | undefined {
  if (Array.isArray(value)) return value;
  if (value instanceof Set) return [...value];
  if (value instanceof Map) return [...value.values()];
  return undefined;
}
