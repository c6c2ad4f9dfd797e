/**
 * Route schemas compiled at first use (server/http/schema-compilers.ts) answer exactly as Fastify's
 * own compilers do, and every route schema of the gateway compiles (SCHEMA_PRECOMPILE=true).
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, describe, expect, it } from 'vitest';
import { schemaCompilers } from '../../server/http/schema-compilers.js';
import { finiteKeyword } from '../../server/http/validation.js';
import { startTestGateway } from '../helpers/gateway.js';

const body = {
  type: 'object',
  required: ['n'],
  properties: { n: { type: 'integer', minimum: 1 }, tag: { type: 'string', default: 'none' } },
} as const;
const querystring = { type: 'object', properties: { page: { type: 'integer' } } } as const;
const response = {
  200: { type: 'object', properties: { n: { type: 'integer' }, tag: { type: 'string' }, page: { type: 'integer' } } },
};

function app(compilers: 'fastify' | 'lazy' | 'eager', broken = false): FastifyInstance {
  const a = Fastify({
    ajv: { plugins: [finiteKeyword] },
    ...(compilers === 'fastify' ? {} : { schemaController: { compilersFactory: schemaCompilers(compilers === 'eager') } }),
  });
  a.post('/echo', { schema: { body, querystring, response } }, async (req) => ({
    ...(req.body as object),
    page: (req.query as { page?: number }).page,
    secret: 'not in the schema',
  }));
  if (broken) a.post('/broken', { schema: { body: { type: 'no-such-type' } } }, async () => ({ ok: true }));
  return a;
}

describe('route schemas compiled at first use', () => {
  const apps: FastifyInstance[] = [];
  afterAll(() => Promise.all(apps.map((a) => a.close())));

  it('validates, coerces, fills defaults and serializes as Fastify does', async () => {
    const calls = [
      { url: '/echo?page=3', payload: { n: 2 } },
      { url: '/echo?page=x', payload: { n: 2 } },
      { url: '/echo', payload: { n: 0 } },
      { url: '/echo', payload: { tag: 'a' } },
      { url: '/echo', payload: 'not json', headers: { 'content-type': 'application/json' } },
    ];
    const answers = async (a: FastifyInstance) => {
      const out = [];
      for (const c of calls) {
        const res = await a.inject({ method: 'POST', ...c });
        out.push({ status: res.statusCode, body: res.json() });
      }
      return out;
    };
    const fastify = app('fastify');
    const lazy = app('lazy');
    const lazyAgain = app('lazy');
    apps.push(fastify, lazy, lazyAgain);
    const expected = await answers(fastify);
    expect(expected[0]).toEqual({ status: 200, body: { n: 2, tag: 'none', page: 3 } });
    expect(expected.slice(1).map((a) => a.status)).toEqual([400, 400, 400, 400]);
    expect(await answers(lazy)).toEqual(expected);
    // A second instance in the same process shares what the first compiled, with the same answers.
    expect(await answers(lazyAgain)).toEqual(expected);
  });

  it('compiles a route only when it is first called (a broken schema fails there, not at start)', async () => {
    const eager = app('eager', true);
    apps.push(eager);
    await expect(eager.ready()).rejects.toThrow(/no-such-type|schema is invalid/i);
    const lazy = app('lazy', true);
    apps.push(lazy);
    await lazy.ready();
    expect((await lazy.inject({ method: 'POST', url: '/echo', payload: { n: 1 } })).statusCode).toBe(200);
    expect((await lazy.inject({ method: 'POST', url: '/broken', payload: {} })).statusCode).toBe(500);
  });

  it("compiles every one of the gateway's route schemas with SCHEMA_PRECOMPILE=true", async () => {
    const tg = await startTestGateway('sqlite', { SCHEMA_PRECOMPILE: 'true' });
    try {
      expect((await tg.client().get('/api/status')).body.success).toBe(true);
    } finally {
      await tg.close();
    }
  });
});
