import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const CLI = fileURLToPath(new URL('../../../src/sandbox/cli.ts', import.meta.url));

test('the CLI listens on 127.0.0.1 with the given key and logs one line per request', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--port', '0', '--api-key', 'cli_key', '--no-seed'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PAYDESK_SANDBOX_API_KEY: '' },
  });
  let out = '';
  const waiters = new Set<() => void>();
  child.stdout.on('data', (chunk: Buffer) => {
    out += chunk.toString();
    for (const w of [...waiters]) w();
  });
  /** Resolves when everything printed so far matches `pattern`. */
  const waitFor = (pattern: RegExp) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const onExit = (code: number | null) => reject(new Error(`CLI exited with ${code}: ${out}`));
      const check = () => {
        const m = pattern.exec(out);
        if (!m) return;
        waiters.delete(check);
        child.off('exit', onExit);
        resolve(m);
      };
      waiters.add(check);
      child.once('exit', onExit);
      check();
    });
  try {
    const [, url] = await waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)[\s\S]*OpenAPI:.*\n/);
    assert.match(out, /API key \(main terminal\): cli_key/);
    const unauthorized = await fetch(`${url}/api/v1/finance/balance`);
    assert.equal(unauthorized.status, 401);
    const ok = await fetch(`${url}/api/v1/finance/balance`, { headers: { 'X-API-Key': 'cli_key' } });
    assert.equal(ok.status, 200);
    assert.equal((await ok.json()).deposit.available, '250000.00');
    const form = await fetch(`${url}/api/v1/form/create`, {
      method: 'POST',
      headers: { 'X-API-Key': 'cli_key', 'Content-Type': 'application/json' },
      body: JSON.stringify({ order_data: { client_order_id: 'cli', order_side: 'Buy', amount: '1000.00' } }),
    });
    const formUrl: string = (await form.json()).form_data.form_url;
    assert.ok(formUrl.startsWith(`${url}/pay?session_id=`), 'form_url points at the listening port');
    await waitFor(/GET \/api\/v1\/finance\/balance 200 .*\n/);
    assert.match(out, /GET \/api\/v1\/finance\/balance 401 /);
  } finally {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
});

test('the CLI refuses a bad port with a clear message', async () => {
  const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--port', 'abc'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stderr.on('data', (c: Buffer) => (err += c.toString()));
  const [code] = await once(child, 'exit');
  assert.equal(code, 2);
  assert.match(err, /--port must be an integer/);
});

test('the CLI refuses a preset key, a non-http webhook URL or a bad public URL with one line, not a stack trace', async () => {
  for (const [args, message] of [
    [['--api-key', 'sandbox_with_form'], /preset terminal/],
    [['--webhook-url', 'ftp://merchant.example/hook'], /webhookUrl must be an http\(s\) URL/],
    [['--public-url', 'sandbox.example'], /publicUrl must be an http\(s\) URL/],
  ] as const) {
    const child = spawn(process.execPath, ['--import', 'tsx', CLI, '--port', '0', '--no-seed', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    assert.equal(code, 2, args.join(' '));
    assert.match(err.split('\n')[0]!, /^sandbox: /);
    assert.match(err, message);
    assert.doesNotMatch(err, /\n\s+at /, 'no stack trace');
  }
});
