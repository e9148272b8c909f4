// The kernel's router knows no area: driven here with a toy area of its own (a note board, whose
// "rule" is a list of people allowed), it matches the table the routing chose, decodes parameters,
// answers 405 and 404 from the registry, asks the area's authorisation step with the endpoint's
// rule, parses fields (with the ignored-parameter warning) and hands the handler the context the
// routing built.
import { describe, expect, it } from 'vitest';
import type { Reply } from '../../../src/kernel/http/http.js';
import { errors, reply } from '../../../src/kernel/http/http.js';
import { explainRefusal } from '../../../src/kernel/refusal.js';
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

  it('takes the first route of the table that matches, literal or not', () => {
    const ep = (summary: string): Ep => ({ summary, auth: { allowed: ['ann'] }, handle: () => reply.data(summary) });
    // Literal paths are found by lookup, the others in table order: the order must still decide.
    const table: Route<Ep>[] = [
      { pattern: 'notes/:name/x', methods: { GET: ep('first, a parameter') } },
      { pattern: 'notes/a/x', methods: { GET: ep('second, literal') } },
      { pattern: 'notes/b/x', methods: { GET: ep('third, literal') } },
      { pattern: 'notes/b/*rest', methods: { GET: ep('fourth, the rest') } },
      { pattern: 'notes/b/x', methods: { GET: ep('fifth, the same literal again') } },
      { pattern: 'notes/c', methods: { GET: ep('sixth, literal') } },
    ];
    const at = (path: string, routes = table) => {
      const r: Routing<Ctx, Rule, Ep> = { ...routing(board, { authorized: [] }), locate: (line) => ({ routes, path: line.path, unmatched: errors.unsupportedPath }) };
      return dispatch(r, { method: 'GET', path, token: 'ann' });
    };
    expect(at('notes/a/x')).toMatchObject({ summary: 'first, a parameter', pattern: 'notes/:name/x' });
    expect(at('notes/b/x')).toMatchObject({ summary: 'first, a parameter' });
    expect(at('notes/b/y')).toMatchObject({ summary: 'fourth, the rest' });
    expect(at('notes/b')).toMatchObject({ summary: 'fourth, the rest' });
    expect(at('notes/c')).toMatchObject({ summary: 'sixth, literal', pattern: 'notes/c' });
    expect(at('notes/c/')).toMatchObject({ outcome: errors.unsupportedPath() });
    // Without the first route, the first literal one wins over the later ones.
    expect(at('notes/b/x', table.slice(1))).toMatchObject({ summary: 'third, literal' });
  });

  it('hands the handler the fields with the routing\'s context, a frozen one too', () => {
    let seen: unknown;
    const table: Route<Ep>[] = [{ pattern: 'notes/:name', methods: { POST: { summary: 's', auth: { allowed: ['ann'] }, fields: { text: { type: 'string' } }, handle: (c) => ((seen = c), reply.empty()) } } }];
    for (const freeze of [false, true]) {
      const base = routing(board, { authorized: [] });
      const r: Routing<Ctx, Rule, Ep> = {
        ...base,
        locate: (line) => ({ routes: table, path: line.path, unmatched: errors.unsupportedPath }),
        context: (l, q) => (freeze ? Object.freeze(base.context(l, q)) : base.context(l, q)),
      };
      dispatch(r, { method: 'POST', path: 'notes/x', token: 'ann', body: { text: 'hi' } });
      expect(seen).toMatchObject({ board, caller: 'ann', fields: { text: 'hi' } });
    }
  });
});
