import { schemaFaultCheck } from './check';

export const missingKey = schemaFaultCheck(
  {
    code: 'missing-key',
    severity: 'error',
    gate: 'keys',
    title: 'A required argument is absent',
    description: 'The contract lists the argument as required and the call does not pass it. No defaults are assumed: a tool that needs `minutes` must be told the minutes.',
    example: { input: '{"name": "book_room", "arguments": {"room_id": "CS-101", "student": "ada"}}', message: 'book_room is missing minutes (required)' },
  },
  (call, fault) => `${call.name} is missing ${fault.message} (required)`,
);
