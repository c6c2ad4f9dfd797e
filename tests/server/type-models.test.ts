import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setupRoot, startTestGateway, type ApiClient, type TestGateway } from '../helpers/gateway.js';

describe('GET /api/models', () => {
  let tg: TestGateway;
  let root: ApiClient;
  beforeAll(async () => {
    tg = await startTestGateway('sqlite');
    root = await setupRoot(tg);
  });
  afterAll(async () => tg?.close());

  it('maps channel types to the models they serve, for admins', async () => {
    const res = await root.get('/api/models');
    expect(res.body.success).toBe(true);
    expect(res.body.data['1']).toContain('gpt-4o');
    expect(res.body.data['14']).toContain('claude-3-5-sonnet-20241022');
    expect((await tg.client().get('/api/models')).status).toBe(401);
  });
});
