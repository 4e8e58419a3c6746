// app/page.tsx
import { Checkout } from './checkout.tsx';

export default function Page() {
  return (
    <main>
      <h1>Coffee beans, 1 kg</h1>
      <Checkout orderRef="coffee-beans" />
    </main>
  );
}
