// Validators of Contract Guard's own file formats (contract files, fixtures, the config), compiled on first use
// rather than when their module loads: three ajv instances, each compiling the draft-07 meta-schema to check our
// schema, were 70 ms of every CLI start, whatever the command needed. Our schemas are fixed files (valid: every
// test that reads a contract, fixture or config compiles them), so ajv does not check them again.
import Ajv, { type ValidateFunction } from 'ajv';

export function lazyValidator(schema: object): () => ValidateFunction {
  let validate: ValidateFunction | undefined;
  return () => (validate ??= new Ajv({ allErrors: false, strict: false, validateSchema: false }).compile(schema));
}
