import { describe, expect, it } from 'vitest';
import { askRole, isRoleMove, modeOf, NO_ROW, stepRole, type RoleEvent, type RoleValue } from '../../models/replication-role.machine.js';

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
    for (const role of ['secondary.following', 'secondary.demoted', 'secondary.unassigned'] as const) expect(askRole('dr', role, { type: 'primary.enable' })).toEqual({ refused: NO_ROW });
  });

  it('calls that do not fit the role are refused', () => {
    expect(askRole('dr', 'disabled', { type: 'primary.demote' })).toEqual({ refused: NO_ROW });
    expect(askRole('dr', 'primary', promote())).toEqual({ refused: NO_ROW });
    expect(askRole('dr', 'primary', { type: 'secondary.enable', activationTokenValid: true })).toEqual({ refused: NO_ROW });
    expect(askRole('dr', 'disabled', update({ token: 'x' }))).toEqual({ refused: NO_ROW });
  });

  // Each refusal names the guard that failed, which the handler maps to its registered refusal.
  it('names the rule that refused: A.1 both or neither, A.3 addresses after demotion, the safety checks', () => {
    expect(askRole('dr', 'secondary.following', update({ token: 'jwt', addresses: ['a'] }))).toEqual({ refused: 'notBothTokenAndAddresses' });
    expect(askRole('performance', 'secondary.following', update({}))).toEqual({ refused: 'tokenOrAddresses' });
    // An empty token beside addresses is no token: the addresses are used.
    expect(askRole('dr', 'secondary.following', update({ token: '', addresses: ['a'] }))).toEqual({ next: 'secondary.following', actions: [] });
    expect(askRole('dr', 'secondary.demoted', update({ addresses: ['a'] }))).toEqual({ refused: 'tokenAfterDemotion' });
    expect(askRole('dr', 'secondary.unassigned', update({ addresses: ['a'] }))).toEqual({ refused: 'tokenWithoutPrimary' });
    expect(askRole('dr', 'secondary.following', promote({ safetyChecksPass: false }))).toEqual({ refused: 'safetyChecksPassOrForced' });
    expect(askRole('dr', 'secondary.following', promote({ operationTokenValid: false }))).toEqual({ refused: 'hasOperationTokenIfDr' });
  });
});

// The reducers (evolve) apply the role the handler's question to the machine returned, as the event
// records it; replay refuses a recorded move that is no row of the machine's table (isRoleMove reads
// the machine's own state nodes).
describe('replication role machine: the moves the table has (what replay accepts from a history)', () => {
  const rows: [RoleValue, RoleEvent['type'], RoleValue][] = [
    ['disabled', 'primary.enable', 'primary'],
    ['primary', 'primary.demote', 'secondary.demoted'],
    ['primary', 'primary.disable', 'disabled'],
    ['disabled', 'secondary.enable', 'secondary.following'],
    ['secondary.following', 'secondary.promote', 'primary'],
    ['secondary.demoted', 'secondary.promote', 'primary'],
    ['secondary.unassigned', 'secondary.disable', 'disabled'],
    ['secondary.following', 'secondary.update-primary', 'secondary.following'],
    ['secondary.following', 'secondary.update-primary', 'secondary.unassigned'],
    ['secondary.demoted', 'secondary.update-primary', 'secondary.following'],
    ['secondary.unassigned', 'secondary.update-primary', 'secondary.unassigned'],
  ];
  for (const [from, type, to] of rows)
    it(`${from} + ${type} → ${to} is a row of the table`, () => {
      expect(isRoleMove(from, type, to)).toBe(true);
    });

  it('moves the table does not have are not rows', () => {
    expect(isRoleMove('disabled', 'primary.demote', 'secondary.demoted')).toBe(false);
    expect(isRoleMove('primary', 'primary.enable', 'primary')).toBe(false);
    expect(isRoleMove('secondary.demoted', 'secondary.update-primary', 'primary')).toBe(false);
    expect(isRoleMove('secondary.following', 'secondary.promote', 'disabled')).toBe(false);
  });

  it('agrees with stepRole: every answer stepRole gives is a row isRoleMove accepts', () => {
    const roles: RoleValue[] = ['disabled', 'primary', 'secondary.following', 'secondary.demoted', 'secondary.unassigned'];
    const events: RoleEvent[] = [
      { type: 'primary.enable' }, { type: 'primary.demote' }, { type: 'primary.disable' },
      { type: 'secondary.enable', activationTokenValid: true },
      { type: 'secondary.promote', operationTokenValid: true, force: true, safetyChecksPass: false },
      { type: 'secondary.disable', operationTokenValid: true },
      { type: 'secondary.update-primary', operationTokenValid: true, token: 'x' },
      { type: 'secondary.update-primary', operationTokenValid: true, token: '' },
      { type: 'secondary.update-primary', operationTokenValid: true, addresses: ['a'] },
    ];
    let moves = 0;
    for (const kind of ['dr', 'performance'] as const)
      for (const from of roles)
        for (const e of events) {
          const to = stepRole(kind, from, e);
          if (to !== null) (moves++, expect(isRoleMove(from, e.type, to)).toBe(true));
        }
    expect(moves).toBeGreaterThan(20);
  });
});
