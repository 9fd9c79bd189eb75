import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsIn, IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';
import { LABEL_MAX, NOTES_MAX, RESOURCE_MAX, RESOURCES_MAX, TITLE_MAX } from '../sprint.constants';

const NO_CONTROL = /^[^\u0000-\u001f\u007f]*$/;
/** Free text may hold line breaks and tabs, nothing else below U+0020. */
const TEXT = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]*$/;

/** An item is addressed by its id, its slug or its nickname. */
export const ITEM_REF = /^(?:[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}|[a-z0-9][a-z0-9-]{0,79})$/;
const UUID = /^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

const trim = () => Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

export function TitleRules() {
  return applyDecorators(
    trim(),
    IsString(),
    IsNotEmpty({ message: 'title must not be empty' }),
    MaxLength(TITLE_MAX),
    Matches(NO_CONTROL, { message: 'title must not contain control characters' }),
  );
}

/** A short one-line label (version, group, track, wave, sprint_name, human_id). */
export function LabelRules(field: string) {
  return applyDecorators(
    trim(),
    IsString(),
    IsNotEmpty({ message: `${field} must not be empty` }),
    MaxLength(LABEL_MAX),
    Matches(NO_CONTROL, { message: `${field} must not contain control characters` }),
  );
}

/** Multi-line free text (notes, reasons). */
export function TextRules(field: string) {
  return applyDecorators(IsString(), MaxLength(NOTES_MAX), Matches(TEXT, { message: `${field} must not contain control characters other than line breaks and tabs` }));
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
    Matches(NO_CONTROL, { each: true, message: `each value in ${field} must not contain control characters` }),
  );
}

/** An integer 0/1 flag; true and false are accepted and stored as 1 and 0. */
export function FlagRules(field: string) {
  return applyDecorators(
    Transform(({ value }) => (value === true ? 1 : value === false ? 0 : value)),
    IsIn([0, 1], { message: `${field} must be 0 or 1 (or a boolean)` }),
  );
}

/** A whole number given in a query string ("25") or as a JSON number. */
export function QueryInt() {
  return Transform(({ value }) => (typeof value === 'string' && /^\d{1,9}$/.test(value) ? Number(value) : value));
}
