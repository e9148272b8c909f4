import { describe, expect, it } from 'vitest';
import { askAssociation, isLinked, isManaged, operationOf, syncStatusOf, type AssociationEvent, type AssociationValue } from '../../../models/sync-association.machine.js';

/** The association after `event`, or null when the machine refuses it. */
function stepAssociation(value: AssociationValue, event: AssociationEvent): AssociationValue | null {
  const answer = askAssociation(value, event);
  return 'next' in answer ? (answer.next as AssociationValue) : null;
}


const LINKED: AssociationValue[] = ['linked.pending', 'linked.synced', 'linked.failedExternal', 'linked.failedClient', 'linked.failedInternal', 'linked.failedUnknown'];
const UNLINKED: AssociationValue[] = [
  'unlinked.none',
  'unlinked.pending',
  'unlinked.failedExternal',
  'unlinked.failedClient',
  'unlinked.failedInternal',
  'unlinked.failedUnknown',
  'unlinked.unsynced',
];

describe('sync association machine: the spec association table', () => {
  it('unlinked → linked on set (a sync is triggered: PENDING)', () => {
    for (const v of UNLINKED) expect(stepAssociation(v, { type: 'set' })).toBe('linked.pending');
    expect(syncStatusOf('linked.pending')).toBe('PENDING');
    expect(operationOf('linked.pending')).toBe('sync');
  });

  it('linked → linked on set: a refresh, which also retries a failed sync', () => {
    for (const v of LINKED) expect(stepAssociation(v, { type: 'set' })).toBe('linked.pending');
  });

  it('linked → unlinked on remove: an unsync is queued', () => {
    for (const v of LINKED) expect(stepAssociation(v, { type: 'remove' })).toBe('unlinked.pending');
    expect(operationOf('unlinked.pending')).toBe('unsync');
    expect(isLinked('unlinked.pending')).toBe(false);
  });

  it('remove of an unlinked association reports success and changes nothing', () => {
    for (const v of UNLINKED) expect(stepAssociation(v, { type: 'remove' })).toBe(v);
  });
});

describe('sync association machine: sync statuses', () => {
  it('a sync that succeeds is SYNCED; one that fails carries the cause and stays queued for a retry', () => {
    for (const v of LINKED) {
      expect(stepAssociation(v, { type: 'attempt.succeeded' })).toBe('linked.synced');
      expect(stepAssociation(v, { type: 'attempt.failed', cause: 'external' })).toBe('linked.failedExternal');
      expect(stepAssociation(v, { type: 'attempt.failed', cause: 'client' })).toBe('linked.failedClient');
      expect(stepAssociation(v, { type: 'attempt.failed', cause: 'internal' })).toBe('linked.failedInternal');
      expect(stepAssociation(v, { type: 'attempt.failed', cause: 'unknown' })).toBe('linked.failedUnknown');
    }
    expect(syncStatusOf('linked.failedInternal')).toBe('INTERNAL_VAULT_ERROR');
    expect(syncStatusOf('linked.failedUnknown')).toBe('UNKNOWN');
    expect(operationOf('linked.failedInternal')).toBe('sync');
    expect(operationOf('linked.failedUnknown')).toBe('sync');
    expect(syncStatusOf('linked.synced')).toBe('SYNCED');
    expect(syncStatusOf('linked.failedExternal')).toBe('EXTERNAL_SERVICE_ERROR');
    expect(syncStatusOf('linked.failedClient')).toBe('CLIENT_SIDE_ERROR');
    expect(operationOf('linked.failedExternal')).toBe('sync');
    expect(operationOf('linked.synced')).toBeNull();
  });

  it('an unsync that succeeds is UNSYNCED; one that fails carries the cause and is retried', () => {
    for (const v of ['unlinked.pending', 'unlinked.failedExternal', 'unlinked.failedClient', 'unlinked.failedInternal', 'unlinked.failedUnknown'] as AssociationValue[]) {
      expect(stepAssociation(v, { type: 'attempt.failed', cause: 'internal' })).toBe('unlinked.failedInternal');
      expect(stepAssociation(v, { type: 'attempt.failed', cause: 'unknown' })).toBe('unlinked.failedUnknown');
      expect(stepAssociation(v, { type: 'attempt.succeeded' })).toBe('unlinked.unsynced');
      expect(stepAssociation(v, { type: 'attempt.failed', cause: 'external' })).toBe('unlinked.failedExternal');
      expect(stepAssociation(v, { type: 'attempt.failed', cause: 'client' })).toBe('unlinked.failedClient');
      expect(operationOf(v)).toBe('unsync');
      expect(isManaged(v)).toBe(true);
    }
    expect(syncStatusOf('unlinked.unsynced')).toBe('UNSYNCED');
    expect(operationOf('unlinked.unsynced')).toBeNull();
  });

  it('a job outcome means nothing to a never-linked or already-unsynced association: refused', () => {
    for (const v of ['unlinked.none', 'unlinked.unsynced'] as AssociationValue[]) {
      expect(stepAssociation(v, { type: 'attempt.succeeded' })).toBeNull();
      expect(stepAssociation(v, { type: 'attempt.failed', cause: 'external' })).toBeNull();
      expect(isManaged(v)).toBe(false);
    }
    expect(syncStatusOf('unlinked.none')).toBeNull();
  });
});
