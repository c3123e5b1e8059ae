import { schemaFaultCheck } from './check';

export const constraint = schemaFaultCheck(
  {
    code: 'constraint',
    severity: 'error',
    gate: 'keys',
    title: 'Well typed, but outside policy',
    description: 'The value has the right type but breaks a constraint of the schema: enum, const, minimum/maximum, minLength/maxLength, pattern, format, item counts, or a oneOf/anyOf with no matching shape. A value with the wrong type gets type-drift only.',
    example: { input: '{"name": "book_room", "arguments": {"room_id": "CS-101", "minutes": 180, "student": "ada"}}', message: 'minutes wanted one of 30, 60, 90, 120, got number 180' },
  },
  (_call, fault) => fault.message,
);
