import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';
import { NoControlChars } from '../../../common/validation/no-control-chars.decorator';
import { Title } from '../../../common/validation/title.decorator';
import { LABEL_MAX, NOTES_MAX, RESOURCE_MAX, RESOURCES_MAX, TITLE_MAX } from '../sprint.constants';

/** An item is addressed by its id, its slug or its nickname. */
export const ITEM_REF = /^(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[a-z0-9][a-z0-9-]{0,79})$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** The sprint routes answer a title or label that is too long in class-validator's words, as they always have. */
const SPRINT_WORDING = { classValidatorLengthMessage: true };

/** An item's title. */
export const TitleRules = () => Title('title', TITLE_MAX, SPRINT_WORDING);

/** A short one-line label (version, group, track, wave, sprint_name, human_id). */
export const LabelRules = (field: string) => Title(field, LABEL_MAX, SPRINT_WORDING);

/** Multi-line free text (notes, reasons). */
export function TextRules(field: string) {
  return applyDecorators(
    IsString(),
    MaxLength(NOTES_MAX),
    NoControlChars(field, { allow: 'multiLine', message: `${field} must not contain control characters other than line breaks and tabs` }),
  );
}

export function ItemRefRules(field: string) {
  return applyDecorators(IsString({ message: `${field} must be a UUID, slug or nickname` }), Matches(ITEM_REF, { message: `${field} must be a UUID, slug or nickname` }));
}

export function ResourcesRules(field: string) {
  return applyDecorators(
    IsArray(),
    ArrayMaxSize(RESOURCES_MAX),
    IsString({ each: true }),
    IsNotEmpty({ each: true }),
    MaxLength(RESOURCE_MAX, { each: true }),
    NoControlChars(field, { each: true }),
  );
}

/** An integer 0/1 flag; true and false are accepted and stored as 1 and 0. */
export function FlagRules(field: string) {
  return applyDecorators(
    Transform(({ value }) => (value === true ? 1 : value === false ? 0 : value)),
    IsIn([0, 1], { message: `${field} must be 0 or 1 (or a boolean)` }),
  );
}
