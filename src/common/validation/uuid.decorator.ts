import { IsUUID } from 'class-validator';

/**
 * An id given as a UUID (any version): a project, session, task, note ... id.
 * Anything else is refused with `<field> must be a UUID` (`each value in
 * <field> must be a UUID` for `each`), the field named by class-validator.
 */
export const Uuid = (options: { each?: boolean } = {}): PropertyDecorator =>
  options.each ? IsUUID('all', { each: true, message: 'each value in $property must be a UUID' }) : IsUUID('all', { message: '$property must be a UUID' });
