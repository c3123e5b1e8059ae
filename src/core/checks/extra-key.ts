import { schemaFaultCheck } from './check';

export const extraKey = schemaFaultCheck(
  {
    code: 'extra-key',
    severity: 'error',
    gate: 'keys',
    title: 'An argument the contract does not declare',
    description: 'The call passes a key that the schema does not list. In the strict profile a schema that omits `additionalProperties` is closed (many tool schemas simply forget it); the json-schema profile follows JSON Schema, where absent means allowed.',
    example: { input: '{"name": "get_weather", "arguments": {"city": "Oslo", "lang": "no"}}', message: 'lang is not declared by get_weather' },
  },
  (call, fault) => `${fault.message} by ${call.name}`,
);
