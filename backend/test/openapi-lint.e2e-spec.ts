import { Document, Spectral } from '@stoplight/spectral-core';
import * as Parsers from '@stoplight/spectral-parsers';
import { oas } from '@stoplight/spectral-rulesets';
import { readFileSync } from 'node:fs';
import { OPENAPI_FILE } from '../src/openapi';

/** docs/openapi.json under Spectral's `spectral:oas` ruleset (its recommended rules): no error, no warning. */
describe('the OpenAPI document (Spectral spectral:oas)', () => {
  it('has no error and no warning', async () => {
    const spectral = new Spectral();
    spectral.setRuleset({ extends: [[oas as never, 'recommended']] });
    const results = await spectral.run(new Document(readFileSync(OPENAPI_FILE, 'utf8'), Parsers.Json, OPENAPI_FILE));
    // Severity 0 is an error, 1 a warning; information and hints may stay.
    const problems = results.filter((r) => r.severity <= 1).map((r) => `${r.code} at ${r.path.join('.')}: ${r.message}`);
    expect(problems).toEqual([]);
  });
});
