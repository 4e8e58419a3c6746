/** The page of the browser benchmark (served by bench/child.ts merchant at /bench.html). */
export const BENCH_PAGE_PATH = '/bench.html';

export const BENCH_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>bench</title>
<script type="module" src="/cdn/paydesk.js"></script>
<script type="module">
const nextFrame = () => new Promise((r) => requestAnimationFrame(() => r(performance.now())));
window.measureElement = (ref) => new Promise((resolve, reject) => {
  const el = document.createElement('paydesk-checkout');
  for (const [k, v] of Object.entries({ endpoint: '/api/paydesk', 'order-ref': ref, 'method-type': 'SBP', locale: 'en' })) el.setAttribute(k, v);
  el.addEventListener('paydesk-error', (e) => reject(new Error(e.detail.code + ': ' + e.detail.message)));
  let t0 = 0;
  const done = async () => {
    const inDom = performance.now() - t0;
    const painted = (await nextFrame()) - t0;
    el.remove();
    resolve({ inDom, painted });
  };
  const watch = () => {
    const root = el.shadowRoot;
    if (root.querySelector('[part~="requisites"]')) return void done();
    const mo = new MutationObserver(() => {
      if (root.querySelector('[part~="requisites"]')) { mo.disconnect(); void done(); }
    });
    mo.observe(root, { childList: true, subtree: true });
  };
  t0 = performance.now();
  document.body.append(el);
  watch();
});
window.measureFetch = async (ref) => {
  const t0 = performance.now();
  const res = await fetch('/api/paydesk/sessions', { method: 'POST', headers: { 'content-type': 'application/json', 'x-paydesk': '1' },
    body: JSON.stringify({ order_ref: ref, method_type: 'SBP' }) });
  const body = await res.json();
  if (res.status !== 201) throw new Error('POST /sessions ' + res.status);
  return performance.now() - t0 + (body.order ? 0 : NaN);
};
window.ready = customElements.whenDefined('paydesk-checkout').then(() => true);
</script></head><body></body></html>`;
