// One vocabulary (src/areas/core/vocabulary.ts): the ids a scenario may expect are exactly the monitors
// the catalogue runs, one each, in the order of invariants.md; the scenario schema offers the same
// lists it imports, nothing restated.
import { describe, expect, it } from 'vitest';
import { describeCatalogue } from '../../src/check/catalogue.js';
import { DESTINATION_TYPES, HAZARD_IDS, INVARIANT_IDS, SERVICE_DESTINATION_TYPES } from '../../src/areas/core/vocabulary.js';
import { DESTINATION_TYPES as SCHEMA_DESTINATION_TYPES, HAZARD_IDS as SCHEMA_HAZARDS, INVARIANT_IDS as SCHEMA_INVARIANTS } from '../../src/scenario/schema.js';
import { destinationTypes } from '../../src/areas/sync/destinations.js';

describe('one vocabulary', () => {
  it('every invariant and hazard id has exactly one monitor, invariants first, in the vocabulary order', () => {
    const entries = describeCatalogue();
    expect(entries.map((e) => e.id)).toEqual([...INVARIANT_IDS, ...HAZARD_IDS]);
    expect(entries.filter((e) => e.kind === 'invariant').map((e) => e.id)).toEqual([...INVARIANT_IDS]);
  });

  it('the scenario schema offers the vocabulary itself', () => {
    expect(SCHEMA_INVARIANTS).toBe(INVARIANT_IDS);
    expect(SCHEMA_HAZARDS).toBe(HAZARD_IDS);
    expect(SCHEMA_DESTINATION_TYPES).toBe(SERVICE_DESTINATION_TYPES);
  });

  it('every destination type of the service is described: the spec\'s and its in-mem test type', () => {
    expect(Object.keys(destinationTypes).sort()).toEqual([...SERVICE_DESTINATION_TYPES].sort());
    expect(SERVICE_DESTINATION_TYPES).toEqual([...DESTINATION_TYPES, 'in-mem']);
  });
});
