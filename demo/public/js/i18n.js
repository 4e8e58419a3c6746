// Texts of the demo pages in English and Russian. Elements carry data-i18n="key" (text) or
// data-i18n-aria="key" (aria-label); apply() fills them in. Keys missing in a table fall back to English.

export const TEXTS = {
  en: {
    'sandbox.pill': 'Sandbox',
    'sandbox.text': 'Test terminal: no real money moves. Drive the order from here.',
    'sandbox.group': 'Sandbox controls',
    'sandbox.complete': 'Simulate payment',
    'sandbox.expire': 'Expire',
    'sandbox.dispute': 'Open dispute',
    'sandbox.values': 'Test values',
    'sandbox.v13': '(amount ending in .13)',
    'sandbox.v13r': 'No available traders — try the “Unavailable item”',
    'sandbox.vbl': 'Customer account is blacklisted (payouts)',
    'sandbox.vuser': 'A user_id with 3 unpaid orders',
    'sandbox.vuserr': 'Anti-fraud refusal (429)',
    'sandbox.done.complete': 'The sandbox marked the order paid.',
    'sandbox.done.expire': 'The sandbox expired the order.',
    'sandbox.done.dispute': 'A dispute was opened for the order.',
    'sandbox.noOrder': 'Start a checkout first.',
    'brand.tag': 'coffee roasters',
    'nav.shop': 'Shop',
    'nav.console': 'Merchant console',
    'tools.lang': 'Language',
    'tools.theme': 'Theme',
    'hero.eyebrow': 'Fresh roast · delivered tomorrow',
    'hero.title': 'Specialty coffee, paid in seconds by SBP',
    'hero.lead':
      'This shop takes payments with paydesk: one custom element on the page, one handler on the server. Pick a product and try every way to pay.',
    'pg.title': 'Checkout settings',
    'pg.lead': 'What the “Buy” buttons open. The code panel at the bottom shows the exact markup.',
    'pg.display': 'Display',
    'pg.inline': 'Inline',
    'pg.modal': 'Modal',
    'pg.mode': 'Integration',
    'pg.hosted': 'Hosted form',
    'pg.method': 'Payment method',
    'pg.choice': 'Shopper picks',
    'pg.sbp': 'SBP QR',
    'pg.card': 'Card transfer',
    'pg.bank': 'Bank button',
    'pg.bankSelect': 'Bank',
    'pg.note.h2h': 'H2H: your server creates the order; the widget shows the requisites, QR and countdown right in your page.',
    'pg.note.order_with_form':
      'order_with_form: an H2H order that also gets a hosted form session — the widget shows the requisites and a link to the form.',
    'pg.note.form': 'Hosted form: the provider’s payment page, embedded by the widget; the shopper picks the method there.',
    'pg.note.unavailable': 'Not available with this provider terminal.',
    'products.title': 'Products',
    'product.buy': 'Buy',
    'product.errorTag': 'error demo',
    'checkout.title': 'Checkout',
    'checkout.cancel': 'Close',
    'checkout.empty': 'Press “Buy” on a product: the checkout opens right here.',
    'code.title': 'Integration code',
    'code.lead': 'Exactly what is on screen now. Copy, paste, done.',
    'code.copy': 'Copy',
    'code.copied': 'Copied to the clipboard',
    'footer.left': 'Obzharka is a demo shop. Payments by paydesk.',
    'footer.support': 'Support',
    'paid.toast': 'Paid! Thank you.',
    'error.generic': 'Something went wrong. Please try again.',
  },
  ru: {
    'sandbox.pill': 'Песочница',
    'sandbox.text': 'Тестовый терминал: настоящие деньги не списываются. Управляйте заказом отсюда.',
    'sandbox.group': 'Управление песочницей',
    'sandbox.complete': 'Имитировать оплату',
    'sandbox.expire': 'Просрочить',
    'sandbox.dispute': 'Открыть спор',
    'sandbox.values': 'Тестовые значения',
    'sandbox.v13': '(сумма с копейками .13)',
    'sandbox.v13r': 'Нет доступных трейдеров — попробуйте «Товар без трейдеров»',
    'sandbox.vbl': 'Счёт клиента в чёрном списке (выплаты)',
    'sandbox.vuser': 'user_id с 3 неоплаченными заказами',
    'sandbox.vuserr': 'Отказ антифрода (429)',
    'sandbox.done.complete': 'Песочница отметила заказ оплаченным.',
    'sandbox.done.expire': 'Песочница просрочила заказ.',
    'sandbox.done.dispute': 'По заказу открыт спор.',
    'sandbox.noOrder': 'Сначала начните оплату.',
    'brand.tag': 'обжарщики кофе',
    'nav.shop': 'Магазин',
    'nav.console': 'Кабинет мерчанта',
    'tools.lang': 'Язык',
    'tools.theme': 'Тема',
    'hero.eyebrow': 'Свежая обжарка · доставим завтра',
    'hero.title': 'Спешелти-кофе с оплатой по СБП за секунды',
    'hero.lead':
      'Этот магазин принимает оплату через paydesk: один элемент на странице и один обработчик на сервере. Выберите товар и попробуйте все способы оплаты.',
    'pg.title': 'Настройки оплаты',
    'pg.lead': 'Что открывают кнопки «Купить». Панель кода внизу показывает точную разметку.',
    'pg.display': 'Показ',
    'pg.inline': 'На странице',
    'pg.modal': 'Окно',
    'pg.mode': 'Интеграция',
    'pg.hosted': 'Платёжная форма',
    'pg.method': 'Способ оплаты',
    'pg.choice': 'Выбор покупателя',
    'pg.sbp': 'QR СБП',
    'pg.card': 'Перевод на карту',
    'pg.bank': 'Кнопка банка',
    'pg.bankSelect': 'Банк',
    'pg.note.h2h': 'H2H: ваш сервер создаёт заказ; виджет показывает реквизиты, QR и таймер прямо на вашей странице.',
    'pg.note.order_with_form':
      'order_with_form: H2H-заказ, к которому создаётся сессия платёжной формы — виджет показывает реквизиты и ссылку на форму.',
    'pg.note.form': 'Платёжная форма: страница провайдера внутри виджета; покупатель выбирает способ оплаты там.',
    'pg.note.unavailable': 'Недоступно с этим терминалом провайдера.',
    'products.title': 'Товары',
    'product.buy': 'Купить',
    'product.errorTag': 'демо ошибки',
    'checkout.title': 'Оплата',
    'checkout.cancel': 'Закрыть',
    'checkout.empty': 'Нажмите «Купить» у товара — оплата откроется здесь.',
    'code.title': 'Код интеграции',
    'code.lead': 'Ровно то, что сейчас на экране. Скопируйте и вставьте.',
    'code.copy': 'Копировать',
    'code.copied': 'Скопировано',
    'footer.left': 'Обжарка — демонстрационный магазин. Оплата через paydesk.',
    'footer.support': 'Поддержка',
    'paid.toast': 'Оплачено! Спасибо.',
    'error.generic': 'Что-то пошло не так. Попробуйте ещё раз.',
  },
};

export function t(lang, key) {
  return TEXTS[lang]?.[key] ?? TEXTS.en[key] ?? key;
}

/** Fills every [data-i18n] and [data-i18n-aria] below root. */
export function apply(lang, root = document) {
  for (const el of root.querySelectorAll('[data-i18n]')) el.textContent = t(lang, el.dataset.i18n);
  for (const el of root.querySelectorAll('[data-i18n-aria]')) el.setAttribute('aria-label', t(lang, el.dataset.i18nAria));
  document.documentElement.lang = lang;
}

/** The page language: ?lang=, then the saved choice, then the browser's. */
export function initialLang() {
  const fromUrl = new URLSearchParams(location.search).get('lang');
  if (fromUrl === 'ru' || fromUrl === 'en') return fromUrl;
  try {
    const saved = localStorage.getItem('obzharka:lang');
    if (saved === 'ru' || saved === 'en') return saved;
  } catch {
    // storage may be unavailable
  }
  return navigator.language?.toLowerCase().startsWith('ru') ? 'ru' : 'en';
}

export function initialTheme() {
  const fromUrl = new URLSearchParams(location.search).get('theme');
  if (fromUrl === 'light' || fromUrl === 'dark') return fromUrl;
  try {
    const saved = localStorage.getItem('obzharka:theme');
    if (saved === 'light' || saved === 'dark') return saved;
  } catch {
    // storage may be unavailable
  }
  return matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
}

export function remember(key, value) {
  try {
    localStorage.setItem(`obzharka:${key}`, value);
  } catch {
    // storage may be unavailable
  }
}

export function formatRub(amount, lang) {
  // Amounts are decimal strings; Intl formats them without going through a float for display
  // (formatting a string keeps every digit in modern engines).
  return new Intl.NumberFormat(lang === 'ru' ? 'ru-RU' : 'en-GB', { style: 'currency', currency: 'RUB', currencyDisplay: 'narrowSymbol' }).format(amount);
}
