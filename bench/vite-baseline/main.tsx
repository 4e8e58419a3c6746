// The "real network" benchmark's React baseline (bench/network.ts): the Vite + React example's page
// without paydesk, doing the least any widget must do: POST /sessions and paint the account. Built
// with the example's own Vite config and dependencies, so the difference to the example app is paydesk.
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';

// Vite writes VITE_PAYDESK_ENDPOINT into index.html's <body data-endpoint> at build time.
const endpoint = document.body.dataset.endpoint!;

function App() {
  const [account, setAccount] = useState('');
  useEffect(() => {
    void fetch(`${endpoint}/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-paydesk': '1' },
      body: JSON.stringify({ order_ref: 'coffee-beans', method_type: 'SBP' }),
    })
      .then((r) => r.json())
      .then((b: { order: { requisites: { holder_account: string } } }) => setAccount(b.order.requisites.holder_account));
  }, []);
  return (
    <main>
      <h1>Coffee beans, 1 kg</h1>
      <div id="account">{account}</div>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<App />);
