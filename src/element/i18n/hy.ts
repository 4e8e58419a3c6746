import type { Messages } from './types.js';

/**
 * Armenian (Eastern): complete. Sentences end with the Armenian full stop `։` (U+0589); the
 * «՝» (U+055D) introduces a value. A noun after a numeral stays singular, so both plural forms
 * read the same. SBP keeps its Latin abbreviation.
 */
const messages: Messages = {
  region: 'Վճարում',
  start: 'Անցնել վճարման',
  loading: 'Բեռնվում է…',
  retry: 'Կրկին փորձել',
  copy: 'Պատճենել',
  copied: 'Պատճենված է',
  copiedAnnounce: 'Պատճենված է՝ {what}',
  copyFailed: 'Չհաջողվեց պատճենել։ Նշեք տեքստը և պատճենեք ինքներդ։',

  chooseTitle: 'Ընտրեք վճարման եղանակը',
  chooseHint: 'Յուրաքանչյուր եղանակի համար նշված է միջնորդավճարը։',
  fee: 'միջնորդավճար՝ {fee}',
  noFee: 'առանց միջնորդավճարի',
  total: 'Վճարման ենթակա՝ {total}',

  searchingTitle: 'Փնտրում ենք վավերապայմանները',
  searchingText: 'Սովորաբար սա տևում է մի քանի վայրկյան։ Խնդրում ենք չփակել էջը։',

  payTitle: 'Կատարեք փոխանցում',
  amountLabel: 'Փոխանցման գումար',
  amountExact: 'Փոխանցեք հենց այս գումարը մեկ փոխանցմամբ։',
  amountChanged: 'Փոխանցեք հենց {amount}, ոչ թե {requested}։ Ձեր վճարումը մենք նույնականացնում ենք ճշգրիտ գումարով։',
  cardLabel: 'Քարտի համար',
  phoneLabel: 'Հեռախոսահամար',
  accountLabel: 'Հաշվեհամար',
  linkLabel: 'Վճարման հղում',
  holderLabel: 'Ստացող',
  bankLabel: 'Բանկ',
  methodLabel: 'Եղանակ',
  timerLabel: 'Վճարման համար մնացած ժամանակը',
  payBy: 'Վճարեք մինչև {time}',
  minutesLeft: {
    one: 'Վճարման համար մնացել է {n} րոպե',
    other: 'Վճարման համար մնացել է {n} րոպե',
  },
  lastMinute: 'Վճարման համար մնացել է մեկ րոպեից պակաս',
  qrLabel: 'QR կոդ՝ SBP-ով {amount} վճարելու համար',
  qrHint: 'Սկանավորեք այն բանկի հավելվածով',
  openBankApp: 'Բացել բանկի հավելվածում',
  openInBank: 'Բացել {bank} հավելվածը',
  otherBanks: 'Վճարել բանկի հավելվածում',
  iPaid: 'Ես վճարել եմ',
  openForm: 'Բացել վճարման էջը',
  formTitle: 'Վճարման էջ',
  support: 'Աջակցություն',
  returnToShop: 'Վերադառնալ խանութ',

  confirmingTitle: 'Ստուգում ենք ձեր վճարումը',
  confirmingText: 'Սա կարող է տևել մի քանի րոպե։ Չփակեք էջը, արդյունքը կհայտնվի այստեղ։',

  paidTitle: 'Վճարումը ստացված է',
  paidText: '{amount} ստացված է։ Շնորհակալություն։',
  redirectIn: {
    one: 'Վերադառնում ենք խանութ {n} վայրկյանից',
    other: 'Վերադառնում ենք խանութ {n} վայրկյանից',
  },
  redirectNow: 'Վերադառնալ հիմա',

  expiredTitle: 'Ժամանակը սպառվել է',
  expiredText: 'Այս վավերապայմաններն այլևս վավեր չեն։ Դրանցով գումար մի փոխանցեք։',
  renew: 'Ստանալ նոր վավերապայմաններ',

  cancelledTitle: 'Վճարումը չեղարկված է',
  cancelledText: 'Այս վճարումը չեղարկվել է։ Եթե արդեն փոխանցել եք գումարը, դիմեք աջակցության ծառայությանը։',

  errorTitle: 'Տեղի է ունեցել սխալ',
  errors: {
    default: 'Տեղի է ունեցել սխալ։ Խնդրում ենք կրկին փորձել։',
    config: 'Վճարման ձևը ճիշտ կարգավորված չէ։',
    network: 'Կապ չկա։ Ստուգեք ինտերնետը և կրկին փորձեք։',
    timeout: 'Վճարային ծառայությունը չափազանց երկար է պատասխանում։ Կրկին փորձեք։',
    invalid_response: 'Վճարային ծառայությունն անսպասելի պատասխան է ուղարկել։',
    provider_unavailable: 'Վճարային ծառայությունը ժամանակավորապես անհասանելի է։ Կրկին փորձեք մեկ րոպեից։',
    rate_limited: 'Չափազանց շատ փորձեր։ Սպասեք մեկ րոպե և կրկին փորձեք։',
    no_traders: 'Այս պահին հասանելի վավերապայմաններ չկան։ Կրկին փորձեք մեկ րոպեից կամ ընտրեք այլ եղանակ։',
    method_unavailable: 'Այս պատվերի համար հասանելի վճարման եղանակ չկա։',
    no_payment_method: 'Ընտրեք վճարման եղանակը։',
    payment_method_not_found: 'Վճարման այս եղանակը հասանելի չէ։ Ընտրեք մեկ այլը։',
    amount_out_of_limits: 'Այս գումարը հնարավոր չէ վճարել ընտրված եղանակով։ Ընտրեք մեկ այլը։',
    customer_blacklisted: 'Մենք չենք կարող ընդունել այս վճարումը։ Դիմեք աջակցության ծառայությանը։',
    button_not_enabled: 'Այս բանկով վճարումը հասանելի չէ։ Ընտրեք մեկ այլը։',
    form_not_activated: 'Վճարման էջը հասանելի չէ։ Դիմեք խանութին։',
    order_not_found: 'Պատվերը չի գտնվել։',
    session_invalid: 'Վճարման հղումն անվավեր է։',
    session_expired: 'Վճարման սեսիան ավարտվել է։',
    forbidden_origin: 'Այս էջից վճարումներ չեն թույլատրվում։',
    idempotency_conflict: 'Վճարումն արդեն սկսվել է այլ կարգավորումներով։ Թարմացրեք էջը։',
  },
};

export default messages;
