/**
 * Binding as the family's consoles call it: POST /api/oauth/email/bind {email, code} and POST
 * /api/oauth/wechat/bind {code} (the query is read too), with GET still working; a real local SMTP
 * listener receives the codes and a stand-in plays the wechat-server.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { forEachDatabase } from '../helpers/databases.js';
import type { ApiClient, TestGateway } from '../helpers/gateway.js';
import { mailGateway } from '../helpers/mail-gateway.js';
import { codeOf, type TestSmtp } from '../helpers/smtp.js';
import { WECHAT_TOKEN, startOAuthStandIn, type OAuthStandIn } from '../helpers/upstreams/oauth.js';
import { PASSWORD } from '../helpers/users.js';

let standIn: OAuthStandIn;
const hostsBefore = process.env.ALLOW_PRIVATE_HOSTS;
beforeAll(async () => {
  standIn = await startOAuthStandIn();
  // The stand-in runs on loopback: the operator names it as a trusted private host.
  process.env.ALLOW_PRIVATE_HOSTS = '127.0.0.1';
});
afterAll(async () => {
  if (hostsBefore === undefined) delete process.env.ALLOW_PRIVATE_HOSTS;
  else process.env.ALLOW_PRIVATE_HOSTS = hostsBefore;
  await standIn?.close();
});

await forEachDatabase('bindings by POST', (kind) => {
  const gw = mailGateway(kind, { EmailDomainRestrictionEnabled: 'false', TurnstileCheckEnabled: 'false' });
  let tg: TestGateway;
  let smtp: TestSmtp;
  let seq = 0;

  const row = (id: number) => tg.gateway.ctx.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

  async function newUser(): Promise<{ id: number; client: ApiClient }> {
    const username = `bp${++seq}`;
    expect((await gw.root.post('/api/user/', { username, password: PASSWORD })).body.success).toBe(true);
    const client = tg.client();
    const login = await client.login(username, PASSWORD);
    return { id: login.body.data.id as number, client };
  }

  async function mailedCode(client: ApiClient, email: string): Promise<string> {
    const sent = smtp.messages.length;
    expect((await client.get(`/api/verification?email=${encodeURIComponent(email)}`)).body.success).toBe(true);
    return codeOf(await smtp.waitFor(email, { after: sent }));
  }

  beforeAll(async () => {
    ({ tg, smtp } = gw);
    await gw.setOption('WeChatServerAddress', standIn.wechatAddress);
    await gw.setOption('WeChatServerToken', WECHAT_TOKEN);
    await gw.setOption('WeChatAuthEnabled', true);
  });

  it('binds an e-mail posted as JSON, as the family sends it', async () => {
    const { id, client } = await newUser();
    const code = await mailedCode(client, 'posted@example.com');
    const wrong = await client.post('/api/oauth/email/bind', { email: 'posted@example.com', code: 'ZZZZZZ' });
    expect(wrong.body).toMatchObject({ success: false, code: 'account.code_invalid' });
    const res = await client.post('/api/oauth/email/bind', { email: 'posted@example.com', code });
    expect(res.body).toEqual({ success: true, message: '绑定成功！', data: 'posted@example.com' });
    expect((await row(id)).email).toBe('posted@example.com');
  });

  it('reads the e-mail and code from the query of a POST, and GET still binds', async () => {
    const first = await newUser();
    const code = await mailedCode(first.client, 'query@example.com');
    const query = `email=${encodeURIComponent('query@example.com')}&code=${encodeURIComponent(code)}`;
    expect((await first.client.post(`/api/oauth/email/bind?${query}`, {})).body.success).toBe(true);
    expect((await row(first.id)).email).toBe('query@example.com');

    const second = await newUser();
    const again = await mailedCode(second.client, 'get@example.com');
    const got = await second.client.get(`/api/oauth/email/bind?email=get@example.com&code=${encodeURIComponent(again)}`);
    expect(got.body.success).toBe(true);
    expect((await tg.client().post('/api/oauth/email/bind', { email: 'x@example.com', code: 'ABCDEF' })).status).toBe(401);
  });

  it('binds WeChat with the code posted as JSON or in the query, and GET still binds', async () => {
    const posted = await newUser();
    const res = await posted.client.post('/api/oauth/wechat/bind', { code: standIn.wechatCode(`openid-post-${kind}`) });
    expect(res.body).toMatchObject({
      success: true,
      message: '绑定成功！',
      data: { id: posted.id, wechat_id: `openid-post-${kind}` },
    });
    const taken = await (
      await newUser()
    ).client.post('/api/oauth/wechat/bind', { code: standIn.wechatCode(`openid-post-${kind}`) });
    expect(taken.body.success).toBe(false);

    const inQuery = await newUser();
    const byQuery = await inQuery.client.post(`/api/oauth/wechat/bind?code=${standIn.wechatCode(`openid-q-${kind}`)}`, {});
    expect(byQuery.body.data.wechat_id).toBe(`openid-q-${kind}`);

    const byGet = await newUser();
    const got = await byGet.client.get(`/api/oauth/wechat/bind?code=${standIn.wechatCode(`openid-get-${kind}`)}`);
    expect(got.body.data.wechat_id).toBe(`openid-get-${kind}`);
    expect((await byGet.client.post('/api/oauth/wechat/bind', {})).body).toMatchObject({ success: false, message: '无效的参数' });
    expect((await tg.client().post('/api/oauth/wechat/bind', { code: '1' })).status).toBe(401);
  });
});
