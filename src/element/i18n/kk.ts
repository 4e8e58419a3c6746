import type { Messages } from './types.js';

/**
 * Kazakh (Cyrillic): complete. Turkic case endings would have to agree with the last sound of a
 * number, so placeholders are never followed by an ending: `{time}` and `{amount}` stand before a
 * noun or a postposition that carries it (`{amount} сомасын`, `Төлем мерзімі: {time}`).
 * A noun after a numeral stays singular, so both plural forms read the same.
 */
const messages: Messages = {
  region: 'Төлем',
  start: 'Төлеуге өту',
  loading: 'Жүктелуде…',
  retry: 'Қайталап көру',
  copy: 'Көшіру',
  copied: 'Көшірілді',
  copiedAnnounce: '{what}: көшірілді',
  copyFailed: 'Көшіру мүмкін болмады. Мәтінді белгілеп, қолмен көшіріңіз.',

  chooseTitle: 'Төлем тәсілін таңдаңыз',
  chooseHint: 'Әр тәсілдің комиссиясы көрсетілген.',
  fee: 'комиссия {fee}',
  noFee: 'комиссиясыз',
  total: 'Төлеуге: {total}',

  searchingTitle: 'Реквизиттерді іздеп жатырмыз',
  searchingText: 'Әдетте бұл бірнеше секунд алады. Бетті жаппаңыз.',

  payTitle: 'Аударым жасаңыз',
  amountLabel: 'Аударым сомасы',
  amountExact: 'Дәл осы соманы бір төлеммен аударыңыз.',
  amountChanged: '{requested} емес, дәл {amount} аударыңыз: төлеміңізді нақты сома бойынша анықтаймыз.',
  cardLabel: 'Карта нөмірі',
  phoneLabel: 'Телефон нөмірі',
  accountLabel: 'Шот нөмірі',
  linkLabel: 'Төлем сілтемесі',
  holderLabel: 'Алушы',
  bankLabel: 'Банк',
  methodLabel: 'Тәсіл',
  timerLabel: 'Төлеуге қалған уақыт',
  payBy: 'Төлем мерзімі: {time}',
  minutesLeft: {
    one: 'Төлеуге {n} минут қалды',
    other: 'Төлеуге {n} минут қалды',
  },
  lastMinute: 'Төлеуге бір минуттан аз уақыт қалды',
  qrLabel: '{amount} сомасын СБП арқылы төлеуге арналған QR-код',
  qrHint: 'Банк қосымшасы арқылы сканерлеңіз',
  openBankApp: 'Банк қосымшасында ашу',
  openInBank: '{bank} қосымшасын ашу',
  otherBanks: 'Банк қосымшасында төлеу',
  iPaid: 'Мен төледім',
  openForm: 'Төлем бетін ашу',
  formTitle: 'Төлем беті',
  support: 'Қолдау қызметі',
  returnToShop: 'Дүкенге оралу',

  confirmingTitle: 'Төлеміңізді тексеріп жатырмыз',
  confirmingText: 'Бұл бірнеше минутқа созылуы мүмкін. Бетті жаппаңыз: нәтиже осында көрсетіледі.',

  paidTitle: 'Төлем қабылданды',
  paidText: '{amount} қабылданды. Рақмет!',
  redirectIn: {
    one: '{n} секундтан кейін дүкенге ораламыз',
    other: '{n} секундтан кейін дүкенге ораламыз',
  },
  redirectNow: 'Қазір оралу',

  expiredTitle: 'Уақыт бітті',
  expiredText: 'Бұл реквизиттер енді жарамсыз. Оларға ақша аудармаңыз.',
  renew: 'Жаңа реквизиттерді алу',

  cancelledTitle: 'Төлем болдырылмады',
  cancelledText: 'Бұл төлем болдырылмады. Егер ақшаны аударып қойсаңыз, қолдау қызметіне хабарласыңыз.',

  errorTitle: 'Қате орын алды',
  errors: {
    default: 'Қате орын алды. Қайталап көріңіз.',
    config: 'Төлем формасы дұрыс бапталмаған.',
    network: 'Байланыс жоқ. Интернетті тексеріп, қайталап көріңіз.',
    timeout: 'Төлем сервисі тым ұзақ жауап беріп жатыр. Қайталап көріңіз.',
    invalid_response: 'Төлем сервисі күтпеген жауап жіберді.',
    provider_unavailable: 'Төлем сервисі уақытша қолжетімсіз. Бір минуттан кейін қайталап көріңіз.',
    rate_limited: 'Әрекет саны тым көп. Бір минут күтіп, қайталап көріңіз.',
    no_traders: 'Қазір қолжетімді реквизиттер жоқ. Бір минуттан кейін қайталаңыз немесе басқа тәсілді таңдаңыз.',
    method_unavailable: 'Бұл тапсырыс үшін қолжетімді төлем тәсілі жоқ.',
    no_payment_method: 'Төлем тәсілін таңдаңыз.',
    payment_method_not_found: 'Бұл төлем тәсілі қолжетімсіз. Басқасын таңдаңыз.',
    amount_out_of_limits: 'Бұл соманы таңдалған тәсілмен төлеу мүмкін емес. Басқасын таңдаңыз.',
    customer_blacklisted: 'Бұл төлемді қабылдай алмаймыз. Қолдау қызметіне хабарласыңыз.',
    button_not_enabled: 'Бұл банк арқылы төлеу қолжетімсіз. Басқасын таңдаңыз.',
    form_not_activated: 'Төлем беті қолжетімсіз. Дүкенге хабарласыңыз.',
    order_not_found: 'Тапсырыс табылмады.',
    session_invalid: 'Төлем сілтемесі жарамсыз.',
    session_expired: 'Төлем сеансы аяқталды.',
    forbidden_origin: 'Бұл беттен төлеуге рұқсат жоқ.',
    idempotency_conflict: 'Төлем басқа параметрлермен басталып қойған. Бетті жаңартыңыз.',
  },
};

export default messages;
