import { schemaFaultCheck } from './check';

export const typeDrift = schemaFaultCheck(
  {
    code: 'type-drift',
    severity: 'error',
    gate: 'keys',
    title: "The value's JSON type is not the declared one",
    description: 'Strict typing by default: a boolean is never an integer, `"2"` is a string, and `2.0` or `1e0` written in the trace are not integers (the number is read as written). `"false"` is not a boolean. Nested objects and arrays are checked too.',
    example: { input: '{"name": "get_hours", "arguments": {"building": "Killam", "weekday": true}}', message: 'weekday wanted integer, got boolean true' },
  },
  (_call, fault) => fault.message,
);
