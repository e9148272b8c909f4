import { describe, expect, it } from 'vitest';
import { canRole, modeOf, roleAfterAccepted, stepRole, type AcceptedRoleRequest, type RoleEvent, type RoleValue } from '../../models/replication-role.machine.js';

const promote = (f: Partial<Extract<RoleEvent, { type: 'secondary.promote' }>> = {}): RoleEvent => ({ type: 'secondary.promote', operationTokenValid: true, force: false, safetyChecksPass: true, ...f });
const update = (f: { operationTokenValid?: boolean; token?: string; addresses?: string[] }): RoleEvent => ({ type: 'secondary.update-primary', operationTokenValid: f.operationTokenValid ?? true, token: f.token, addresses: f.addresses });

describe('replication role machine: the spec role table', () => {
  it('disabled → primary on primary/enable', () => {
    expect(stepRole('dr', 'disabled', { type: 'primary.enable' })).toBe('primary');
    expect(stepRole('performance', 'disabled', { type: 'primary.enable' })).toBe('primary');
  });

  it('primary → secondary (a demoted former primary, with no primary) on primary/demote', () => {
    expect(stepRole('dr', 'primary', { type: 'primary.demote' })).toBe('secondary.demoted');
    expect(modeOf('secondary.demoted')).toBe('secondary');
  });

  it('primary → disabled on primary/disable', () => {
    expect(stepRole('dr', 'primary', { type: 'primary.disable' })).toBe('disabled');
  });

  it('disabled → secondary on secondary/enable only with a valid activation token', () => {
    expect(stepRole('dr', 'disabled', { type: 'secondary.enable', activationTokenValid: true })).toBe('secondary.following');
    expect(stepRole('dr', 'disabled', { type: 'secondary.enable', activationTokenValid: false })).toBeNull();
  });

  it('secondary → primary on promote: DR needs the operation token, performance does not', () => {
    expect(stepRole('dr', 'secondary.following', promote())).toBe('primary');
    expect(stepRole('dr', 'secondary.following', promote({ operationTokenValid: false }))).toBeNull();
    expect(stepRole('performance', 'secondary.following', promote({ operationTokenValid: false }))).toBe('primary');
  });

  it('promote is refused when the safety checks fail, unless forced', () => {
    expect(stepRole('dr', 'secondary.following', promote({ safetyChecksPass: false }))).toBeNull();
    expect(stepRole('dr', 'secondary.following', promote({ safetyChecksPass: false, force: true }))).toBe('primary');
  });

  it('secondary → disabled on secondary/disable (DR: with the operation token)', () => {
    expect(stepRole('dr', 'secondary.following', { type: 'secondary.disable', operationTokenValid: true })).toBe('disabled');
    expect(stepRole('dr', 'secondary.demoted', { type: 'secondary.disable', operationTokenValid: false })).toBeNull();
    expect(stepRole('performance', 'secondary.demoted', { type: 'secondary.disable', operationTokenValid: false })).toBe('disabled');
  });

  it('update-primary with a token keeps the cluster a secondary that follows the new primary', () => {
    expect(stepRole('dr', 'secondary.following', update({ token: 'jwt' }))).toBe('secondary.following');
    expect(stepRole('dr', 'secondary.demoted', update({ token: 'jwt' }))).toBe('secondary.following');
  });

  it('update-primary with an empty token stays a secondary and forgets its primary', () => {
    expect(stepRole('dr', 'secondary.following', update({ token: '' }))).toBe('secondary.unassigned');
  });

  it('update-primary takes a token or addresses, never both (rule 1)', () => {
    expect(stepRole('dr', 'secondary.following', update({ token: 'jwt', addresses: ['a'] }))).toBeNull();
    expect(stepRole('dr', 'secondary.following', update({}))).toBeNull();
  });

  it('a newly demoted DR secondary refuses addresses: it must be given a token (rule 3)', () => {
    expect(stepRole('dr', 'secondary.demoted', update({ addresses: ['https://west:8201'] }))).toBeNull();
    expect(stepRole('dr', 'secondary.following', update({ addresses: ['https://west:8201'] }))).toBe('secondary.following');
  });

  it('a secondary that forgot its primary refuses addresses too: it must be given a token', () => {
    expect(stepRole('dr', 'secondary.unassigned', update({ addresses: ['https://west:8201'] }))).toBeNull();
    expect(stepRole('performance', 'secondary.unassigned', update({ addresses: ['https://west:8201'] }))).toBeNull();
    expect(stepRole('dr', 'secondary.unassigned', update({ token: 'jwt' }))).toBe('secondary.following');
  });

  it('a secondary must be promoted, not enabled as a primary', () => {
    for (const role of ['secondary.following', 'secondary.demoted', 'secondary.unassigned'] as const) expect(canRole('dr', role, { type: 'primary.enable' })).toBe(false);
  });

  it('calls that do not fit the role are refused', () => {
    expect(canRole('dr', 'disabled', { type: 'primary.demote' })).toBe(false);
    expect(canRole('dr', 'primary', promote())).toBe(false);
    expect(canRole('dr', 'primary', { type: 'secondary.enable', activationTokenValid: true })).toBe(false);
    expect(canRole('dr', 'disabled', update({ token: 'x' }))).toBe(false);
  });
});

// The reducers (evolve) move a role where the machine's transition for the accepted request leads:
// no copy of the table's "To" column outside the machine.
describe('replication role machine: the role an accepted request leads to (what the reducers apply)', () => {
  const rows: [RoleValue, AcceptedRoleRequest, RoleValue][] = [
    ['disabled', { type: 'primary.enable' }, 'primary'],
    ['primary', { type: 'primary.demote' }, 'secondary.demoted'],
    ['primary', { type: 'primary.disable' }, 'disabled'],
    ['disabled', { type: 'secondary.enable' }, 'secondary.following'],
    ['secondary.following', { type: 'secondary.promote', force: false, safetyChecksPass: true }, 'primary'],
    ['secondary.following', { type: 'secondary.promote', force: true, safetyChecksPass: false }, 'primary'],
    ['secondary.demoted', { type: 'secondary.promote', force: false, safetyChecksPass: true }, 'primary'],
    ['secondary.unassigned', { type: 'secondary.disable' }, 'disabled'],
    ['secondary.following', { type: 'secondary.update-primary', via: 'token' }, 'secondary.following'],
    ['secondary.following', { type: 'secondary.update-primary', via: 'addresses' }, 'secondary.following'],
    ['secondary.following', { type: 'secondary.update-primary', via: 'empty-token' }, 'secondary.unassigned'],
    ['secondary.demoted', { type: 'secondary.update-primary', via: 'token' }, 'secondary.following'],
    ['secondary.unassigned', { type: 'secondary.update-primary', via: 'empty-token' }, 'secondary.unassigned'],
  ];
  for (const [from, request, to] of rows)
    it(`${from} + accepted ${request.type}${'via' in request ? ` (${request.via})` : ''} → ${to}, for both kinds`, () => {
      expect(roleAfterAccepted('dr', from, request)).toBe(to);
      expect(roleAfterAccepted('performance', from, request)).toBe(to);
    });

  it('an accepted request the table has no row for (from that role) is an error, never applied', () => {
    expect(() => roleAfterAccepted('dr', 'disabled', { type: 'primary.demote' })).toThrow(/no primary.demote from disabled/);
    expect(() => roleAfterAccepted('dr', 'secondary.following', { type: 'secondary.promote', force: false, safetyChecksPass: false })).toThrow(/no secondary.promote/);
    expect(() => roleAfterAccepted('dr', 'secondary.demoted', { type: 'secondary.update-primary', via: 'addresses' })).toThrow(/no secondary.update-primary/);
  });
});
