/** The storefront's own stylesheet (and src/ui-shared/base.css, which it imports), as the page loads it. */
export async function storeStyles(): Promise<HTMLLinkElement> {
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = new URL('../../../demo/public/css/store.css', import.meta.url).href;
  const loaded = new Promise((resolve, reject) => {
    link.onload = resolve;
    link.onerror = reject;
  });
  document.head.append(link);
  await loaded;
  return link;
}
