// The page paydesk redirects to after a paid order (redirect_url), and the support page.
import { apply, initialLang, initialTheme } from './i18n.js';

const lang = initialLang();
document.documentElement.dataset.theme = initialTheme();
apply(lang);

const ref = new URLSearchParams(location.search).get('ref');
const line = document.querySelector('#thanks-product');
if (line && ref) {
  fetch('/demo/api/config')
    .then((r) => (r.ok ? r.json() : null))
    .then((config) => {
      const product = config?.products.find((p) => p.ref === ref);
      if (product) line.textContent = lang === 'ru' ? product.title : product.title_en;
    })
    .catch(() => undefined);
}
