import { getMetadataStorage } from 'class-validator';

/** A class whose instances are validated inputs (a DTO). */
export type InputClass = new () => object;

/**
 * Every class with class-validator rules loaded so far (class-validator keeps them in a map by
 * class): import `src/app.module` first to have every input class of every module.
 */
export function inputClasses(): InputClass[] {
  const storage = getMetadataStorage() as unknown as { validationMetadatas: Map<InputClass, unknown> };
  return [...storage.validationMetadatas.keys()];
}

/** The fields of `cls` that carry rules, its parents' included, each once. */
export function fieldsOf(cls: InputClass): string[] {
  return [
    ...new Set(
      getMetadataStorage()
        .getTargetValidationMetadatas(cls, '', false, false, undefined)
        .map((m) => m.propertyName),
    ),
  ];
}
