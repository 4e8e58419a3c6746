/** The page paydesk redirects to after a paid order (redirect_url), and the support page. */
import { applyTexts, initialLang, texts } from '../../../src/ui-shared/i18n.js';
import { STORE_TEXTS } from './texts/store.js';
import { tabPreference } from './tab-prefs.js';

// The language the purchase was made in (this tab), else the usual choice; the theme is set before
// the first paint, by the page's classic script (theme-first.ts).
const lang = tabPreference('lang') ?? initialLang();
applyTexts(texts(STORE_TEXTS, lang));

const ref = new URLSearchParams(location.search).get('ref');
const line = document.querySelector('#thanks-product');
if (line && ref) {
  fetch('/demo/api/config')
    .then((r) => (r.ok ? (r.json() as Promise<{ products?: Array<{ ref: string; title: string; title_en: string }> }>) : null))
    .then((config) => {
      const product = config?.products?.find((p) => p.ref === ref);
      if (product) line.textContent = lang === 'ru' ? product.title : product.title_en;
    })
    .catch(() => undefined);
}
