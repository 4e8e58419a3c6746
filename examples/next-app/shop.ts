// shop.ts: the shop's own data (a real shop reads its database here)
const products: Record<string, { title: string; price: string }> = {
  'coffee-beans': { title: 'Coffee beans, 1 kg', price: '1500.00' },
};

export async function findProduct(ref: string) {
  return products[ref] ?? null;
}

export async function markPaid(orderRef: string, orderId: string, late: boolean) {
  console.log(`paid: ${orderRef} (order ${orderId})${late ? ' late' : ''}`);
}
