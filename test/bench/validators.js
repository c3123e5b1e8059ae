// The floors' validators: one precompiled ajv validator per seed tool, with the checker's ajv options and regex
// engine (re2js), and nothing else. Shared by floor.js and floor-formats.js.
'use strict';
const fs = require('node:fs');
const Ajv = require('ajv').default;
const addFormats = require('ajv-formats').default;
const { RE2JS } = require('re2js');

const re2 = (pattern) => {
  const c = RE2JS.compile(pattern);
  return { test: (s) => c.matcher(s).find() };
};
re2.code = 're2';

function validators(contractsDir) {
  const ajv = new Ajv({ allErrors: true, strict: false, addUsedSchema: false, code: { regExp: re2 } });
  addFormats(ajv);
  const read = (f) => JSON.parse(fs.readFileSync(`${contractsDir}/${f}`, 'utf8'));
  const schemas = {
    ...Object.fromEntries(Object.entries(read('hours.contract.json').tools).map(([k, v]) => [k, v.arguments])),
    ...Object.fromEntries(Object.entries(read('rooms.contract.json').tools).map(([k, v]) => [k, v.arguments])),
    get_weather: read('weather.tools.json')[0].function.parameters,
  };
  return Object.fromEntries(Object.entries(schemas).map(([k, s]) => [k, ajv.compile(s)]));
}

module.exports = { validators };
