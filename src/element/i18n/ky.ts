import type { Messages } from './types.js';

/**
 * Kyrgyz (Cyrillic): complete. As in Kazakh, no case ending is ever attached to a placeholder
 * (it would have to agree with the number's last sound); a noun after a numeral stays singular,
 * so both plural forms read the same.
 */
const messages: Messages = {
  region: 'Төлөм',
  start: 'Төлөөгө өтүү',
  loading: 'Жүктөлүүдө…',
  retry: 'Кайра аракет кылуу',
  copy: 'Көчүрүү',
  copied: 'Көчүрүлдү',
  copiedAnnounce: '{what}: көчүрүлдү',
  copyFailed: 'Көчүрүү мүмкүн болгон жок. Текстти белгилеп, өзүңүз көчүрүңүз.',

  chooseTitle: 'Төлөө ыкмасын тандаңыз',
  chooseHint: 'Ар бир ыкманын комиссиясы көрсөтүлгөн.',
  fee: 'комиссия {fee}',
  noFee: 'комиссиясыз',
  total: 'Төлөөгө: {total}',

  searchingTitle: 'Реквизиттерди издеп жатабыз',
  searchingText: 'Адатта бул бир нече секунд алат. Баракты жаппаңыз.',

  payTitle: 'Акча которуңуз',
  amountLabel: 'Которуу суммасы',
  amountExact: 'Так ушул сумманы бир төлөм менен которуңуз.',
  amountChanged: '{requested} эмес, так {amount} которуңуз: төлөмүңүздү так сумма боюнча аныктайбыз.',
  cardLabel: 'Карта номери',
  phoneLabel: 'Телефон номери',
  accountLabel: 'Эсеп номери',
  linkLabel: 'Төлөм шилтемеси',
  holderLabel: 'Алуучу',
  bankLabel: 'Банк',
  methodLabel: 'Ыкма',
  timerLabel: 'Төлөөгө калган убакыт',
  payBy: 'Төлөө мөөнөтү: {time}',
  minutesLeft: {
    one: 'Төлөөгө {n} мүнөт калды',
    other: 'Төлөөгө {n} мүнөт калды',
  },
  lastMinute: 'Төлөөгө бир мүнөттөн аз убакыт калды',
  qrLabel: '{amount} суммасын СБП аркылуу төлөө үчүн QR-код',
  qrHint: 'Банктын тиркемеси аркылуу сканерлеңиз',
  openBankApp: 'Банктын тиркемесинде ачуу',
  openInBank: '{bank} тиркемесин ачуу',
  otherBanks: 'Банктын тиркемесинде төлөө',
  iPaid: 'Мен төлөдүм',
  openForm: 'Төлөм барагын ачуу',
  formTitle: 'Төлөм барагы',
  support: 'Колдоо кызматы',
  returnToShop: 'Дүкөнгө кайтуу',

  confirmingTitle: 'Төлөмүңүздү текшерип жатабыз',
  confirmingText: 'Бул бир нече мүнөткө созулушу мүмкүн. Баракты жаппаңыз: натыйжа ушул жерде чыгат.',

  paidTitle: 'Төлөм кабыл алынды',
  paidText: '{amount} кабыл алынды. Рахмат!',
  redirectIn: {
    one: '{n} секунддан кийин дүкөнгө кайтабыз',
    other: '{n} секунддан кийин дүкөнгө кайтабыз',
  },
  redirectNow: 'Азыр кайтуу',

  expiredTitle: 'Убакыт бүттү',
  expiredText: 'Бул реквизиттер мындан ары жараксыз. Аларга акча которбоңуз.',
  renew: 'Жаңы реквизиттерди алуу',

  cancelledTitle: 'Төлөм жокко чыгарылды',
  cancelledText: 'Бул төлөм жокко чыгарылды. Эгер акчаны которуп койгон болсоңуз, колдоо кызматына кайрылыңыз.',

  errorTitle: 'Ката кетти',
  errors: {
    default: 'Ката кетти. Кайра аракет кылып көрүңүз.',
    config: 'Төлөм формасы туура эмес жөндөлгөн.',
    network: 'Байланыш жок. Интернетти текшерип, кайра аракет кылыңыз.',
    timeout: 'Төлөм кызматы өтө узак жооп берип жатат. Кайра аракет кылыңыз.',
    invalid_response: 'Төлөм кызматы күтүлбөгөн жооп жөнөттү.',
    provider_unavailable: 'Төлөм кызматы убактылуу жеткиликсиз. Бир мүнөттөн кийин кайра аракет кылыңыз.',
    rate_limited: 'Аракеттер өтө көп. Бир мүнөт күтүп, кайра аракет кылыңыз.',
    no_traders: 'Азыр жеткиликтүү реквизиттер жок. Бир мүнөттөн кийин кайталаңыз же башка ыкманы тандаңыз.',
    method_unavailable: 'Бул буйрутма үчүн жеткиликтүү төлөө ыкмасы жок.',
    no_payment_method: 'Төлөө ыкмасын тандаңыз.',
    payment_method_not_found: 'Бул төлөө ыкмасы жеткиликсиз. Башкасын тандаңыз.',
    amount_out_of_limits: 'Бул сумманы тандалган ыкма менен төлөөгө болбойт. Башкасын тандаңыз.',
    customer_blacklisted: 'Бул төлөмдү кабыл ала албайбыз. Колдоо кызматына кайрылыңыз.',
    button_not_enabled: 'Бул банк аркылуу төлөө жеткиликсиз. Башкасын тандаңыз.',
    form_not_activated: 'Төлөм барагы жеткиликсиз. Дүкөнгө кайрылыңыз.',
    order_not_found: 'Буйрутма табылган жок.',
    session_invalid: 'Төлөм шилтемеси жараксыз.',
    session_expired: 'Төлөм сеансы аяктады.',
    forbidden_origin: 'Бул барактан төлөөгө уруксат жок.',
    idempotency_conflict: 'Төлөм башка параметрлер менен башталып калган. Баракты жаңылаңыз.',
  },
};

export default messages;
