import { listedSchema, output } from './tool-schema';

describe('listedSchema', () => {
  test('leaves out patterns, minLength 1 and caps of long text; keeps types, required, enums, formats and short caps', () => {
    const full = {
      type: 'object',
      properties: {
        title: { type: 'string', minLength: 1, maxLength: 300, pattern: '^[^\\u0000-\\u001f\\u007f]*$' },
        body: { type: 'string', maxLength: 20000, pattern: '^[^\\u0000-\\u0008\\u000b\\u000c\\u000e-\\u001f\\u007f]*$' },
        owner: { type: 'string', pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$' },
        tags: { type: 'array', maxItems: 20, items: { type: 'string', pattern: '^[a-z]+$' } },
        mode: { type: 'string', enum: ['full', 'brief'] },
        ttl: { type: 'integer', minimum: 60, maximum: 3600 },
      },
      required: ['title'],
      additionalProperties: false,
    };
    expect(listedSchema(full)).toEqual({
      type: 'object',
      properties: {
        title: { type: 'string', maxLength: 300 },
        body: { type: 'string' },
        owner: { type: 'string', format: 'uuid' },
        tags: { type: 'array', maxItems: 20, items: { type: 'string' } },
        mode: { type: 'string', enum: ['full', 'brief'] },
        ttl: { type: 'integer', minimum: 60, maximum: 3600 },
      },
      required: ['title'],
      additionalProperties: false,
    });
  });

  test('output() writes an object schema of typed properties, with nothing required', () => {
    expect(output({ ok: 'boolean', item: ['object', 'null'] })).toEqual({ type: 'object', properties: { ok: { type: 'boolean' }, item: { type: ['object', 'null'] } } });
  });
});
