import { getMetadataStorage } from 'class-validator';

type Storage = ReturnType<typeof getMetadataStorage>;
type Lookup = Storage['getTargetValidationMetadatas'];

const installed = new WeakSet<Storage>();

/**
 * class-validator looks up the rules of a class on every validation by scanning
 * every class that has rules (for inherited ones): a cost that grows with the
 * number of input classes and was the largest single item of a simple GET.
 * The rules only change when a decorated class is defined, so the answer is
 * remembered per (class, options) and forgotten whenever a rule is added.
 *
 * This relies on class-validator's internals (its validator asks the storage
 * instance for rules, and rules are only added through these two methods):
 * class-validator is pinned to an exact version and test/library-contracts.spec.ts
 * checks both; docs/decisions.md ("Library internals") has what it buys.
 */
export function cacheValidationMetadata(storage: Storage = getMetadataStorage()): () => void {
  if (installed.has(storage)) return () => undefined;
  installed.add(storage);
  let cache = new Map<unknown, Map<string, ReturnType<Lookup>>>();
  const lookup: Lookup = storage.getTargetValidationMetadatas.bind(storage);
  const addValidation = storage.addValidationMetadata.bind(storage);
  const addConstraint = storage.addConstraintMetadata.bind(storage);

  storage.getTargetValidationMetadatas = (target, schema, always, strictGroups, groups) => {
    let byOptions = cache.get(target);
    if (!byOptions) cache.set(target, (byOptions = new Map()));
    const key = `${schema}\u0000${always}\u0000${strictGroups}\u0000${groups ? groups.join('\u0001') : ''}`;
    let found = byOptions.get(key);
    if (!found) byOptions.set(key, (found = lookup(target, schema, always, strictGroups, groups)));
    return found;
  };
  storage.addValidationMetadata = (metadata) => {
    cache = new Map();
    addValidation(metadata);
  };
  storage.addConstraintMetadata = (metadata) => {
    cache = new Map();
    addConstraint(metadata);
  };
  // Taken away again: class-validator's own methods (from its prototype) answer once more.
  return () => {
    delete (storage as Partial<Storage>).getTargetValidationMetadatas;
    delete (storage as Partial<Storage>).addValidationMetadata;
    delete (storage as Partial<Storage>).addConstraintMetadata;
    installed.delete(storage);
  };
}
