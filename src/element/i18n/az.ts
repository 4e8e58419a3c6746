import type { Messages } from './types.js';

/**
 * Azerbaijani (Latin script): complete. Case endings are never attached to a placeholder, except
 * `-dək`, which does not change with the sound before it. A noun after a numeral stays singular,
 * so both plural forms read the same. "Bank" is also the Azerbaijani word.
 */
const messages: Messages = {
  region: 'Ödəniş',
  start: 'Ödənişə keçin',
  loading: 'Yüklənir…',
  retry: 'Yenidən cəhd edin',
  copy: 'Kopyalayın',
  copied: 'Kopyalandı',
  copiedAnnounce: '{what} kopyalandı',
  copyFailed: 'Kopyalamaq alınmadı. Mətni seçib özünüz kopyalayın.',

  chooseTitle: 'Ödəniş üsulunu seçin',
  chooseHint: 'Hər üsul üçün komissiya göstərilib.',
  fee: 'komissiya {fee}',
  noFee: 'komissiyasız',
  total: 'Ödəniləcək: {total}',

  searchingTitle: 'Rekvizitlər axtarılır',
  searchingText: 'Bu adətən bir neçə saniyə çəkir. Zəhmət olmasa, səhifəni bağlamayın.',

  payTitle: 'Köçürmə edin',
  amountLabel: 'Köçürmə məbləği',
  amountExact: 'Məhz bu məbləği bir köçürmə ilə göndərin.',
  amountChanged: '{requested} deyil, məhz {amount} göndərin: ödənişinizi dəqiq məbləğə görə tanıyırıq.',
  cardLabel: 'Kart nömrəsi',
  phoneLabel: 'Telefon nömrəsi',
  accountLabel: 'Hesab nömrəsi',
  linkLabel: 'Ödəniş linki',
  holderLabel: 'Alıcı',
  bankLabel: 'Bank',
  methodLabel: 'Üsul',
  timerLabel: 'Ödəniş üçün qalan vaxt',
  payBy: '{time}-dək ödəyin',
  minutesLeft: {
    one: 'Ödəniş üçün {n} dəqiqə qalıb',
    other: 'Ödəniş üçün {n} dəqiqə qalıb',
  },
  lastMinute: 'Ödəniş üçün bir dəqiqədən az vaxt qalıb',
  qrLabel: '{amount} məbləğində SBP ödənişi üçün QR kod',
  qrHint: 'Bank tətbiqində skan edin',
  openBankApp: 'Bank tətbiqində açın',
  openInBank: '{bank} tətbiqini açın',
  otherBanks: 'Bank tətbiqində ödəyin',
  iPaid: 'Ödədim',
  openForm: 'Ödəniş səhifəsini açın',
  formTitle: 'Ödəniş səhifəsi',
  support: 'Dəstək',
  returnToShop: 'Mağazaya qayıdın',

  confirmingTitle: 'Ödənişiniz yoxlanılır',
  confirmingText: 'Bu bir neçə dəqiqə çəkə bilər. Səhifəni bağlamayın: nəticə burada görünəcək.',

  paidTitle: 'Ödəniş qəbul edildi',
  paidText: '{amount} qəbul edildi. Təşəkkür edirik!',
  redirectIn: {
    one: '{n} saniyədən sonra mağazaya qayıdırıq',
    other: '{n} saniyədən sonra mağazaya qayıdırıq',
  },
  redirectNow: 'İndi qayıdın',

  expiredTitle: 'Vaxt bitdi',
  expiredText: 'Bu rekvizitlər artıq etibarlı deyil. Onlara pul göndərməyin.',
  renew: 'Yeni rekvizitlər alın',

  cancelledTitle: 'Ödəniş ləğv edildi',
  cancelledText: 'Bu ödəniş ləğv edildi. Əgər artıq pul göndərmisinizsə, dəstək xidmətinə müraciət edin.',

  errorTitle: 'Xəta baş verdi',
  errors: {
    default: 'Xəta baş verdi. Yenidən cəhd edin.',
    config: 'Ödəniş forması düzgün qurulmayıb.',
    network: 'İnternet bağlantısı yoxdur. Bağlantını yoxlayıb yenidən cəhd edin.',
    timeout: 'Ödəniş xidməti çox gec cavab verir. Yenidən cəhd edin.',
    invalid_response: 'Ödəniş xidməti gözlənilməz cavab göndərdi.',
    provider_unavailable: 'Ödəniş xidməti müvəqqəti əlçatan deyil. Bir dəqiqədən sonra yenidən cəhd edin.',
    rate_limited: 'Həddindən çox cəhd edildi. Bir dəqiqə gözləyib yenidən cəhd edin.',
    no_traders: 'Hazırda əlçatan rekvizit yoxdur. Bir dəqiqədən sonra yenidən cəhd edin və ya başqa üsul seçin.',
    method_unavailable: 'Bu sifariş üçün əlçatan ödəniş üsulu yoxdur.',
    no_payment_method: 'Ödəniş üsulunu seçin.',
    payment_method_not_found: 'Bu ödəniş üsulu əlçatan deyil. Başqasını seçin.',
    amount_out_of_limits: 'Bu məbləği seçilmiş üsulla ödəmək mümkün deyil. Başqasını seçin.',
    customer_blacklisted: 'Bu ödənişi qəbul edə bilmirik. Dəstək xidmətinə müraciət edin.',
    button_not_enabled: 'Bu bank vasitəsilə ödəniş əlçatan deyil. Başqasını seçin.',
    form_not_activated: 'Ödəniş səhifəsi əlçatan deyil. Mağazaya müraciət edin.',
    order_not_found: 'Sifariş tapılmadı.',
    session_invalid: 'Ödəniş linki etibarsızdır.',
    session_expired: 'Ödəniş sessiyası başa çatıb.',
    forbidden_origin: 'Bu səhifədən ödənişə icazə verilmir.',
    idempotency_conflict: 'Ödəniş artıq başqa parametrlərlə başlanıb. Səhifəni yeniləyin.',
  },
};

export default messages;
