// The kernel's router knows no area: driven here with a toy area of its own (a note board, whose
// "rule" is a list of people allowed), it matches the table the routing chose, decodes parameters,
// answers 405 and 404 from the registry, asks the area's authorisation step with the endpoint's
// rule, parses fields (with the ignored-parameter warning) and hands the handler the context the
// routing built.
import { describe, expect, it } from 'vitest';
import type { Reply } from '../../../src/kernel/http/http.js';
import { errors, reply } from '../../../src/kernel/http/http.js';
import { explainRefusal } from '../../../src/kernel/http/refusal.js';
import type { Endpoint, Outcome, Route } from '../../../src/kernel/http/route.js';
import { dispatch, type Location, type Routing } from '../../../src/kernel/http/router.js';

interface Board {
  up: boolean;
  notes: Record<string, string>;
}
interface Ctx {
  board: Board;
  params: Record<string, string>;
  caller: string | undefined;
}
type Rule = { allowed: string[] };
type Ep = Endpoint<Ctx, Rule, Outcome<Board, { type: string }>, any>;

const routes: Route<Ep>[] = [
  {
    pattern: 'notes/:name',
    methods: {
      GET: { summary: 'read a note', auth: { allowed: ['ann', 'bob'] }, handle: (c) => (c.params.name in c.board.notes ? reply.data({ text: c.board.notes[c.params.name] }) : errors.notFound()) },
      POST: {
        summary: 'write a note',
        auth: { allowed: ['ann'] },
        fields: { text: { type: 'string', required: 'missing text' } },
        handle: (c) => ({ events: [{ type: 'note-written' }], reply: () => reply.data({ wrote: c.params.name, text: c.fields.text }) }),
      },
    },
  },
];

function routing(board: Board, seen: { authorized: [Rule, string | undefined][] }): Routing<Ctx, Rule, Ep> {
  return {
    unavailable: () => (board.up ? null : errors.clusterDown('board')),
    locate: (line): Location<Ep> | Reply => (line.path.startsWith('notes/') ? { routes, path: line.path, unmatched: errors.unsupportedPath } : errors.noNamespace()),
    context: (_l, r) => ({ board, params: r.params, caller: r.token }),
    authorize: (rule, ctx) => {
      seen.authorized.push([rule, ctx.caller]);
      return ctx.caller && rule.allowed.includes(ctx.caller) ? null : errors.permissionDenied();
    },
  };
}

const board: Board = { up: true, notes: { 'hello world': 'hi' } };
const send = (method: string, path: string, token?: string, body?: unknown, b: Board = board) => {
  const seen = { authorized: [] as [Rule, string | undefined][] };
  return { d: dispatch(routing(b, seen), { method, path, token, body }), seen };
};

describe('the kernel router, plugged with a toy area', () => {
  it('matches the pattern, decodes the parameter, authorises with the endpoint rule and answers', () => {
    const { d, seen } = send('GET', '/v1/notes/hello%20world', 'bob');
    expect(d.outcome).toEqual(reply.data({ text: 'hi' }));
    expect(d).toMatchObject({ summary: 'read a note', pattern: 'notes/:name', method: 'GET' });
    expect(seen.authorized).toEqual([[{ allowed: ['ann', 'bob'] }, 'bob']]);
  });

  it('refuses what the area\'s authorisation step refuses, before fields or handler', () => {
    const { d } = send('POST', 'notes/x', 'bob', { text: 'no' });
    expect(explainRefusal(d.outcome as never)).toMatchObject({ code: 'http.permissionDenied' });
  });

  it('parses fields, warns of an ignored parameter, and passes the handler\'s events on', () => {
    const { d } = send('POST', 'notes/x', 'ann', { text: 'yes', colour: 'red' });
    const o = d.outcome as { events: unknown[]; reply: (s: Board) => Reply };
    expect(o.events).toEqual([{ type: 'note-written' }]);
    const r = o.reply(board) as Extract<Reply, { kind: 'data' }>;
    expect(r.data).toEqual({ wrote: 'x', text: 'yes' });
    expect(r.warnings?.join(' ')).toMatch(/colour/);
  });

  it('answers 405 for a method the route lacks, the area\'s refusal for an unmatched path or location, and nothing when down', () => {
    expect(explainRefusal(send('DELETE', 'notes/x', 'ann').d.outcome as never).code).toBe('http.unsupportedOperation');
    expect(explainRefusal(send('GET', 'notes/a/b', 'ann').d.outcome as never).code).toBe('http.unsupportedPath');
    expect(explainRefusal(send('GET', 'elsewhere', 'ann').d.outcome as never).code).toBe('http.noNamespace');
    expect(explainRefusal(send('GET', 'notes/%ZZ', 'ann').d.outcome as never).code).toBe('http.badUrlEscape');
    const down = send('GET', 'notes/x', 'ann', undefined, { ...board, up: false });
    expect(explainRefusal(down.d.outcome as never).code).toBe('http.clusterDown');
    expect(down.seen.authorized).toEqual([]);
  });
});
