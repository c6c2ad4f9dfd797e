/**
 * A measuring pass-through in front of a stand-in upstream: a request to `/<lane>/rest` goes on to
 * `<target>/rest` unchanged and its answer streams back, while the gauge counts, per lane, the
 * requests in flight (and their peak), the requests served and the headers they carried. Channels
 * pointed at different lanes (`${gauge.url}/a`, `${gauge.url}/b`) share one stand-in and are
 * measured apart.
 */
import { createServer, request, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Lane {
  active: number;
  peak: number;
  served: number;
  headers: IncomingHttpHeaders[];
}

export interface Gauge {
  url: string;
  lane(name: string): Lane;
  close(): Promise<void>;
}

export async function startGauge(target: string): Promise<Gauge> {
  const lanes = new Map<string, Lane>();
  const lane = (name: string): Lane => {
    let l = lanes.get(name);
    if (!l) lanes.set(name, (l = { active: 0, peak: 0, served: 0, headers: [] }));
    return l;
  };
  const to = new URL(target);
  const server = createServer((req, res) => {
    const [, name = '', ...rest] = (req.url ?? '/').split('/');
    const l = lane(name);
    l.active += 1;
    l.peak = Math.max(l.peak, l.active);
    l.served += 1;
    l.headers.push(req.headers);
    let done = false;
    const finish = () => {
      if (done) return;
      done = true;
      l.active -= 1;
    };
    const upstream = request(
      { host: to.hostname, port: to.port, method: req.method, path: `/${rest.join('/')}`, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
        // The stand-in cut its answer: so is this one.
        answer.once('close', () => {
          if (!answer.complete) res.destroy();
        });
      },
    );
    upstream.on('error', () => res.destroy());
    // The gateway hung up (its client left): the stand-in is told too.
    res.once('close', () => {
      finish();
      upstream.destroy();
    });
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    lane,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
