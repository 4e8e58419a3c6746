import type { Messages } from './types.js';

/**
 * Uzbek (Latin script, 1995 alphabet): complete. Oʻ and gʻ are written with U+02BB (ʻ), as the
 * official orthography has it, not with an ASCII apostrophe. A noun after a numeral stays
 * singular, so both plural forms read the same. "Bank" is also the Uzbek word.
 */
const messages: Messages = {
  region: 'Toʻlov',
  start: 'Toʻlovga oʻtish',
  loading: 'Yuklanmoqda…',
  retry: 'Qayta urinish',
  copy: 'Nusxa olish',
  copied: 'Nusxa olindi',
  copiedAnnounce: '{what}: nusxa olindi',
  copyFailed: 'Nusxa olib boʻlmadi. Matnni belgilab, oʻzingiz nusxa oling.',

  chooseTitle: 'Toʻlov usulini tanlang',
  chooseHint: 'Har bir usul uchun komissiya koʻrsatilgan.',
  fee: 'komissiya {fee}',
  noFee: 'komissiyasiz',
  total: 'Toʻlovga: {total}',

  searchingTitle: 'Rekvizitlar qidirilmoqda',
  searchingText: 'Odatda bu bir necha soniya davom etadi. Sahifani yopmang.',

  payTitle: 'Pul oʻtkazing',
  amountLabel: 'Oʻtkazma summasi',
  amountExact: 'Aynan shu summani bitta oʻtkazma bilan yuboring.',
  amountChanged: '{requested} emas, aynan {amount} yuboring: toʻlovingizni aniq summaga qarab taniymiz.',
  cardLabel: 'Karta raqami',
  phoneLabel: 'Telefon raqami',
  accountLabel: 'Hisob raqami',
  linkLabel: 'Toʻlov havolasi',
  holderLabel: 'Qabul qiluvchi',
  bankLabel: 'Bank',
  methodLabel: 'Usul',
  timerLabel: 'Toʻlov uchun qolgan vaqt',
  payBy: '{time} gacha toʻlang',
  minutesLeft: {
    one: 'Toʻlov uchun {n} daqiqa qoldi',
    other: 'Toʻlov uchun {n} daqiqa qoldi',
  },
  lastMinute: 'Toʻlov uchun bir daqiqadan kam vaqt qoldi',
  qrLabel: '{amount} miqdoridagi SBP toʻlovi uchun QR-kod',
  qrHint: 'Uni bank ilovasida skanerlang',
  openBankApp: 'Bank ilovasida ochish',
  openInBank: '{bank} ilovasini ochish',
  otherBanks: 'Bank ilovasida toʻlash',
  iPaid: 'Men toʻladim',
  openForm: 'Toʻlov sahifasini ochish',
  formTitle: 'Toʻlov sahifasi',
  support: 'Qoʻllab-quvvatlash',
  returnToShop: 'Doʻkonga qaytish',

  confirmingTitle: 'Toʻlovingiz tekshirilmoqda',
  confirmingText: 'Bu bir necha daqiqa davom etishi mumkin. Sahifani yopmang: natija shu yerda koʻrinadi.',

  paidTitle: 'Toʻlov qabul qilindi',
  paidText: '{amount} qabul qilindi. Rahmat!',
  redirectIn: {
    one: '{n} soniyadan keyin doʻkonga qaytamiz',
    other: '{n} soniyadan keyin doʻkonga qaytamiz',
  },
  redirectNow: 'Hozir qaytish',

  expiredTitle: 'Vaqt tugadi',
  expiredText: 'Bu rekvizitlar endi amal qilmaydi. Ularga pul oʻtkazmang.',
  renew: 'Yangi rekvizitlarni olish',

  cancelledTitle: 'Toʻlov bekor qilindi',
  cancelledText: 'Bu toʻlov bekor qilindi. Agar pulni allaqachon oʻtkazgan boʻlsangiz, qoʻllab-quvvatlash xizmatiga murojaat qiling.',

  errorTitle: 'Xatolik yuz berdi',
  errors: {
    default: 'Xatolik yuz berdi. Qaytadan urinib koʻring.',
    config: 'Toʻlov shakli notoʻgʻri sozlangan.',
    network: 'Internet aloqasi yoʻq. Ulanishni tekshirib, qaytadan urinib koʻring.',
    timeout: 'Toʻlov xizmati juda uzoq javob bermoqda. Qaytadan urinib koʻring.',
    invalid_response: 'Toʻlov xizmati kutilmagan javob yubordi.',
    provider_unavailable: 'Toʻlov xizmati vaqtincha ishlamayapti. Bir daqiqadan soʻng qaytadan urinib koʻring.',
    rate_limited: 'Urinishlar soni juda koʻp. Bir daqiqa kutib, qaytadan urinib koʻring.',
    no_traders: 'Hozircha mavjud rekvizitlar yoʻq. Bir daqiqadan soʻng urinib koʻring yoki boshqa usulni tanlang.',
    method_unavailable: 'Bu buyurtma uchun mavjud toʻlov usuli yoʻq.',
    no_payment_method: 'Toʻlov usulini tanlang.',
    payment_method_not_found: 'Bu toʻlov usuli mavjud emas. Boshqasini tanlang.',
    amount_out_of_limits: 'Bu summani tanlangan usul bilan toʻlab boʻlmaydi. Boshqasini tanlang.',
    customer_blacklisted: 'Bu toʻlovni qabul qila olmaymiz. Qoʻllab-quvvatlash xizmatiga murojaat qiling.',
    button_not_enabled: 'Bu bank orqali toʻlov mavjud emas. Boshqasini tanlang.',
    form_not_activated: 'Toʻlov sahifasi mavjud emas. Doʻkonga murojaat qiling.',
    order_not_found: 'Buyurtma topilmadi.',
    session_invalid: 'Toʻlov havolasi yaroqsiz.',
    session_expired: 'Toʻlov seansi tugadi.',
    forbidden_origin: 'Bu sahifadan toʻlov qilishga ruxsat berilmagan.',
    idempotency_conflict: 'Toʻlov boshqa parametrlar bilan boshlangan. Sahifani yangilang.',
  },
};

export default messages;
