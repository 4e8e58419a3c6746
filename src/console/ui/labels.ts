/**
 * The provider's words in the console's language: order statuses (for payments and for payouts),
 * sides, form session states, transaction types, method types, and a sentence for every error code
 * of the console API. Each table is typed by the list it translates (src/provider/facts.ts,
 * src/console/contract.ts): a status added there and missing here fails the type check. A value the
 * provider sends that no table knows is shown as it came, marked unknown, never hidden.
 */
import type { ConsoleErrorBody, ConsoleErrorCode, HistoryView, HookView, ShopView, WebhookOutcome } from '../contract.js';
import type { IntegrationMode, OrderViewStatus } from '../../protocol/index.js';
import {
  FORM_SESSION_STATES,
  knownStatus,
  orderOutcome,
  type KnownMethodType,
  type KnownOrderStatus,
  type OrderOutcome,
  type OrderSide,
  type TransactionType,
} from '../../provider/index.js';
import type { Lang } from '../../ui-shared/i18n.js';

type FormSessionState = (typeof FORM_SESSION_STATES)[number];
type ByLang<K extends string> = Readonly<Record<Lang, Readonly<Record<K, string>>>>;

const ORDER_STATUS: ByLang<KnownOrderStatus> = {
  en: {
    Unpaid: 'Awaiting payment',
    Completed: 'Paid',
    CanceledByTimeout: 'Expired',
    CanceledByService: 'Cancelled by the provider',
    Processing: 'Processing',
    Queued: 'Queued',
    Paid: 'Paid',
    CanceledByAdmin: 'Cancelled by an administrator',
    CanceledByTrader: 'Cancelled by the trader',
    CanceledByMerchant: 'Cancelled by the merchant',
    CanceledByCustomer: 'Cancelled by the customer',
  },
  ru: {
    Unpaid: 'Ожидает оплаты',
    Completed: 'Оплачен',
    CanceledByTimeout: 'Истёк',
    CanceledByService: 'Отменён провайдером',
    Processing: 'В обработке',
    Queued: 'В очереди',
    Paid: 'Оплачен',
    CanceledByAdmin: 'Отменён администратором',
    CanceledByTrader: 'Отменён трейдером',
    CanceledByMerchant: 'Отменён мерчантом',
    CanceledByCustomer: 'Отменён клиентом',
  },
};

/** A payout (Sell order) reads by what happened to the money. */
const PAYOUT_OUTCOME: ByLang<OrderOutcome> = {
  en: { pending: 'In progress', paid: 'Paid out', expired: 'Expired, money returned', cancelled: 'Cancelled, money returned' },
  ru: { pending: 'Выполняется', paid: 'Выплачена', expired: 'Истекла, деньги возвращены', cancelled: 'Отменена, деньги возвращены' },
};

const SIDE: ByLang<OrderSide> = {
  en: { Buy: 'Payment', Sell: 'Payout' },
  ru: { Buy: 'Оплата', Sell: 'Выплата' },
};

const FORM_STATE: ByLang<FormSessionState> = {
  en: {
    method_selection: 'Choosing a method',
    requisites_search: 'Searching requisites',
    requisites_found: 'Requisites found',
    payment_confirmation: 'Confirming payment',
    completed: 'Completed',
    expired: 'Expired',
    cancelled: 'Cancelled',
  },
  ru: {
    method_selection: 'Выбор способа',
    requisites_search: 'Поиск реквизитов',
    requisites_found: 'Реквизиты найдены',
    payment_confirmation: 'Подтверждение оплаты',
    completed: 'Завершена',
    expired: 'Истекла',
    cancelled: 'Отменена',
  },
};

const TRANSACTION: ByLang<TransactionType> = {
  en: { deposit: 'Deposit', withdrawal: 'Withdrawal' },
  ru: { deposit: 'Зачисление', withdrawal: 'Списание' },
};

const METHOD_TYPE: ByLang<KnownMethodType> = {
  en: { BankCard: 'Card', TransBankCard: 'Card (cross-border)', SBP: 'SBP', TransSBP: 'SBP (cross-border)', BankAccount: 'Bank account', NSPKLink: 'NSPK link' },
  ru: { BankCard: 'Карта', TransBankCard: 'Карта (трансгран)', SBP: 'СБП', TransSBP: 'СБП (трансгран)', BankAccount: 'Банковский счёт', NSPKLink: 'Ссылка НСПК' },
};

const DISPUTE: ByLang<'processed' | 'open'> = {
  en: { processed: 'Processed', open: 'In review' },
  ru: { processed: 'Рассмотрен', open: 'На рассмотрении' },
};

const UNKNOWN: Readonly<Record<Lang, string>> = { en: 'unknown', ru: 'неизвестно' };

function lookup<K extends string>(table: ByLang<K>, lang: Lang, value: string): string {
  return Object.hasOwn(table[lang], value) ? table[lang][value as K] : `${value} (${UNKNOWN[lang]})`;
}

/** Tone of a badge: ok (money arrived), wait (still open), bad (ended without money). */
export type Tone = 'ok' | 'wait' | 'bad' | 'none';
const TONE: Record<OrderOutcome | OrderViewStatus, Tone> = { paid: 'ok', pending: 'wait', expired: 'bad', cancelled: 'bad' };

/** An order's status for its side; unknown statuses read as the provider wrote them (pending tone). */
export function orderStatusLabel(lang: Lang, status: string, side: string): { text: string; tone: Tone } {
  const outcome = orderOutcome(status);
  // Known in any case (`COMPLETED` is `Completed`), as the server reads it.
  const known = knownStatus(status);
  if (side === 'Sell' && known) return { text: PAYOUT_OUTCOME[lang][outcome], tone: TONE[outcome] };
  return { text: lookup(ORDER_STATUS, lang, known ?? status), tone: TONE[outcome] };
}

export const sideLabel = (lang: Lang, side: string) => lookup(SIDE, lang, side);
export const transactionLabel = (lang: Lang, type: string) => lookup(TRANSACTION, lang, type);
export const methodTypeLabel = (lang: Lang, type: string) => lookup(METHOD_TYPE, lang, type);
export const disputeLabel = (lang: Lang, processed: boolean) => DISPUTE[lang][processed ? 'processed' : 'open'];

export function formStateLabel(lang: Lang, state: string): { text: string; tone: Tone } {
  const tone: Tone = state === 'completed' ? 'ok' : state === 'expired' || state === 'cancelled' ? 'bad' : FORM_SESSION_STATES.includes(state as FormSessionState) ? 'wait' : 'none';
  return { text: lookup(FORM_STATE, lang, state), tone };
}

// ---------------------------------------------------------------------------------------------
// The shop's side of an order: its session, hooks, history and the webhooks it received

const SHOP_STATUS: ByLang<OrderViewStatus> = {
  en: { pending: 'Awaiting payment', paid: 'Paid', expired: 'Expired', cancelled: 'Cancelled' },
  ru: { pending: 'Ожидает оплаты', paid: 'Оплачен', expired: 'Истёк', cancelled: 'Отменён' },
};

/** A paid order by what its fulfilment (`onOrderPaid`) did. */
const PAID_FULFILMENT: ByLang<HookView['state']> = {
  en: { done: 'Paid, fulfilled', due: 'Paid, fulfilment pending', retrying: 'Paid, fulfilment failing', none: 'Paid', off: 'Paid' },
  ru: { done: 'Оплачен, выполнен', due: 'Оплачен, ждёт выполнения', retrying: 'Оплачен, выполнить не удалось', none: 'Оплачен', off: 'Оплачен' },
};

/** A second payment of a purchase: never fulfilled, its money goes back. */
const PAID_TWICE: ByLang<NonNullable<ShopView['double_payment']>['refund']> = {
  en: { due: 'Paid twice — refund due', sending: 'Paid twice — refund on its way', refunded: 'Paid twice — refunded' },
  ru: { due: 'Оплачен дважды — нужен возврат', sending: 'Оплачен дважды — возврат в пути', refunded: 'Оплачен дважды — возвращено' },
};

/** The shop's state of an order in one badge: paid twice, paid and fulfilled, paid and waiting, or the session's status. */
export function shopStateLabel(lang: Lang, shop: Pick<ShopView, 'status' | 'fulfilment'> & Partial<Pick<ShopView, 'double_payment'>>): { text: string; tone: Tone } {
  if (shop.status === 'paid' && shop.double_payment) {
    const refund = shop.double_payment.refund;
    return { text: PAID_TWICE[lang][refund], tone: refund === 'refunded' ? 'none' : refund === 'sending' ? 'wait' : 'bad' };
  }
  if (shop.status === 'paid') {
    const state = shop.fulfilment.state;
    return { text: PAID_FULFILMENT[lang][state], tone: state === 'retrying' ? 'bad' : state === 'due' ? 'wait' : 'ok' };
  }
  return { text: SHOP_STATUS[lang][shop.status], tone: TONE[shop.status] };
}

export const shopStatusLabel = (lang: Lang, status: string) => lookup(SHOP_STATUS, lang, status);

const VIA: ByLang<HistoryView['via']> = {
  en: { create: 'Order created', read: 'Read for the shopper’s page', webhook: 'Provider’s webhook', sweep: 'Reconciliation sweep', dispute: 'Dispute' },
  ru: { create: 'Заказ создан', read: 'Запрос страницы покупателя', webhook: 'Вебхук провайдера', sweep: 'Сверка', dispute: 'Спор' },
};
export const viaLabel = (lang: Lang, via: string) => lookup(VIA, lang, via);

const MODE: ByLang<IntegrationMode> = {
  en: { h2h: 'Requisites in the widget (H2H)', form: 'Provider’s hosted form', order_with_form: 'Order with the provider’s form' },
  ru: { h2h: 'Реквизиты в виджете (H2H)', form: 'Платёжная форма провайдера', order_with_form: 'Заказ с формой провайдера' },
};
export const modeLabel = (lang: Lang, mode: string) => lookup(MODE, lang, mode);

const OUTCOME: ByLang<WebhookOutcome> = {
  en: {
    confirmed: 'Confirmed',
    recorded: 'Recorded, being confirmed',
    orphan: 'Kept: no session for it',
    ignored: 'Ignored: not this shop’s order',
    refused: 'Refused',
    failed: 'Not recorded: to be delivered again',
    test: 'Test delivery: verified, nothing fulfilled',
  },
  ru: {
    confirmed: 'Подтверждён',
    recorded: 'Записан, проверяется',
    orphan: 'Сохранён: сессии нет',
    ignored: 'Пропущен: не заказ магазина',
    refused: 'Отклонён',
    failed: 'Не записан: придёт снова',
    test: 'Тестовая доставка: проверена, ничего не выполнено',
  },
};
const OUTCOME_TONE: Record<WebhookOutcome, Tone> = { confirmed: 'ok', recorded: 'wait', orphan: 'wait', ignored: 'none', refused: 'bad', failed: 'bad', test: 'ok' };

export function webhookOutcomeLabel(lang: Lang, outcome: string): { text: string; tone: Tone } {
  return { text: lookup(OUTCOME, lang, outcome), tone: Object.hasOwn(OUTCOME_TONE, outcome) ? OUTCOME_TONE[outcome as WebhookOutcome] : 'none' };
}

/** Why the token endpoint refused or could not record a webhook (its log's `detail`), by the start of the text. */
const REASONS: ReadonlyArray<{ starts: string; en: string; ru: string }> = [
  { starts: 'signature does not match', en: 'Bad signature: it does not match the body', ru: 'Неверная подпись: не совпадает с телом' },
  { starts: 'missing X-Paydesk-Signature', en: 'No signature (X-Paydesk-Signature missing)', ru: 'Нет подписи (нет X-Paydesk-Signature)' },
  { starts: 'malformed X-Paydesk-Signature', en: 'Malformed signature header', ru: 'Заголовок подписи в неверном формате' },
  { starts: 'timestamp outside', en: 'Signed too long ago or in the future (replay protection)', ru: 'Подписан слишком давно или в будущем (защита от повтора)' },
  { starts: 'no webhook secret', en: 'No webhook secret is configured on this server', ru: 'На сервере не задан секрет вебхуков' },
  { starts: 'missing X-API-Key', en: 'No API key (X-API-Key missing)', ru: 'Нет ключа (нет X-API-Key)' },
  { starts: 'wrong X-API-Key', en: 'Wrong API key', ru: 'Неверный ключ API' },
  { starts: 'no API key is configured', en: 'No API key is configured to check webhooks', ru: 'Не задан ключ для проверки вебхуков' },
  { starts: 'not JSON', en: 'The body is not JSON', ru: 'Тело не JSON' },
  { starts: 'no payload.id', en: 'No order id in the payload', ru: 'В теле нет id заказа' },
];

/** The reason in the console's language; an unknown one as the server wrote it. */
export function webhookReason(lang: Lang, detail: string | null): string | null {
  if (detail === null || detail === '') return null;
  const known = REASONS.find((r) => detail.startsWith(r.starts));
  return known ? known[lang] : detail;
}

/** The server's note on a history entry (`late`, `dispute … opened: comment`, …) in the console's language; others as written. */
export function historyNote(lang: Lang, note: string | null): string | null {
  if (note === null || note === '') return null;
  if (note === 'late') return lang === 'ru' ? 'Оплачен поздно' : 'Paid late';
  const dispute = /^dispute (\S+) (opened|accepted|processed)(?:: ([\s\S]*))?$/.exec(note);
  if (!dispute) return note;
  const [, id, what, comment] = dispute;
  const words = {
    en: { opened: `Dispute ${id} opened`, accepted: `Dispute ${id} accepted`, processed: `Dispute ${id} processed` },
    ru: { opened: `Открыт спор ${id}`, accepted: `Спор ${id} принят`, processed: `Спор ${id} рассмотрен` },
  }[lang][what as 'opened' | 'accepted' | 'processed'];
  return comment ? `${words}: ${comment}` : words;
}

/** A status the server recorded: the provider's order status, or a hosted form session's state before there is an order. */
export function recordedStatusLabel(lang: Lang, status: string): string {
  return (FORM_SESSION_STATES as readonly string[]).includes(status) ? formStateLabel(lang, status).text : orderStatusLabel(lang, status, 'Buy').text;
}

const FLAG_REASON: ByLang<'amount_mismatch' | 'currency_mismatch' | 'dispute_unconfirmed' | 'session_lost'> = {
  en: {
    amount_mismatch: 'The provider’s amount differs from the order’s',
    currency_mismatch: 'The provider’s currency differs from the order’s',
    dispute_unconfirmed: 'A dispute was processed, but the provider has no record of the money',
    session_lost: 'Paid, but the session was lost',
  },
  ru: {
    amount_mismatch: 'Сумма у провайдера не совпадает с суммой заказа',
    currency_mismatch: 'Валюта у провайдера не совпадает с валютой заказа',
    dispute_unconfirmed: 'Спор рассмотрен, но у провайдера нет записи о деньгах',
    session_lost: 'Оплачен, но сессия потеряна',
  },
};
export const flagReasonLabel = (lang: Lang, reason: string) => lookup(FLAG_REASON, lang, reason);

const DISPUTE_OUTCOME: ByLang<'paid' | 'unconfirmed'> = {
  en: { paid: 'Money confirmed by the provider', unconfirmed: 'No record of the money: review it' },
  ru: { paid: 'Провайдер подтвердил деньги', unconfirmed: 'Записи о деньгах нет: проверьте' },
};
export const disputeOutcomeLabel = (lang: Lang, outcome: string) => lookup(DISPUTE_OUTCOME, lang, outcome);

const DISPUTE_STATE: ByLang<'found' | 'notFound' | 'checking' | 'open' | 'processed'> = {
  en: { found: 'Money found', notFound: 'Money not found', checking: 'Processed, money being looked for', open: 'In review', processed: 'Processed' },
  ru: { found: 'Деньги найдены', notFound: 'Деньги не найдены', checking: 'Рассмотрен, ищем деньги', open: 'На рассмотрении', processed: 'Рассмотрен' },
};

/**
 * A dispute's state in one badge: for a dispute of this shop, what it proved — money found (the
 * provider's deposit), not found, or open (still in review, or processed with the money being looked
 * for); for another's, only what the provider says (processed or not).
 */
export function disputeStateLabel(lang: Lang, processed: boolean, shop: { outcome: string | null } | null): { text: string; tone: Tone } {
  const t = DISPUTE_STATE[lang];
  if (shop?.outcome === 'paid') return { text: t.found, tone: 'ok' };
  if (shop?.outcome === 'unconfirmed') return { text: t.notFound, tone: 'bad' };
  if (!processed) return { text: t.open, tone: 'wait' };
  return shop ? { text: t.checking, tone: 'wait' } : { text: t.processed, tone: 'none' };
}

type Details = NonNullable<ConsoleErrorBody['error']['details']>;

const ERRORS: ByLang<ConsoleErrorCode> = {
  en: {
    bad_request: 'The request was not understood.',
    validation_failed: 'Check the highlighted field.',
    payload_too_large: 'The request is too large.',
    missing_protocol_header: 'The request was refused: it did not come from the console page.',
    cross_site_request: 'The request was refused: it came from another site.',
    unauthorized: 'Log in again.',
    rate_limited: 'The provider limits requests: try again in {retry_after} s.',
    not_found: 'Not found.',
    insufficient_funds: 'Not enough money: the payout needs {needed}, the available balance is {available}. Top up the balance or pay out less.',
    customer_blacklisted: 'The provider refuses payouts to this card or phone number (blacklisted).',
    amount_out_of_limits: 'This method pays out from {min} to {max}.',
    method_unavailable: 'This method makes no payouts now: pick another.',
    quote_changed: 'The fee changed: the total is now {total}. Check it and confirm again.',
    idempotency_key_reused: 'This form already made a different payout. Start a new payout form.',
    payout_in_progress: 'An earlier submission of this payout is still being confirmed; do not pay it again — check again in {retry_after} s.',
    payout_not_pending: 'This payout is no longer in progress.',
    no_traders: 'The provider has no one to make this payout now. Try again later or pick another method.',
    payout_unconfirmed: 'The provider did not confirm the payout; it may have been made. Check again: this form cannot pay twice.',
    provider_error: 'The provider answered with an error. Try again later.',
    network: 'The provider could not be reached. Try again.',
    timeout: 'The provider did not answer in time. Try again.',
    invalid_response: 'The provider’s answer could not be read.',
    sandbox_refused: 'The sandbox refused this action.',
    receipts_unavailable: 'The provider does not give dispute receipts out; the console shows them only with the sandbox.',
    unsafe_receipt: 'This file is not an image or a PDF by its content, so it is not shown.',
    webhook_test_unavailable: 'The console cannot send a test webhook to this endpoint: it was not given its handler or the webhook secret to sign with (createConsole’s webhookTest).',
    internal_error: 'Something went wrong on the merchant server.',
  },
  ru: {
    bad_request: 'Запрос не понят.',
    validation_failed: 'Проверьте отмеченное поле.',
    payload_too_large: 'Слишком большой запрос.',
    missing_protocol_header: 'Запрос отклонён: он пришёл не со страницы кабинета.',
    cross_site_request: 'Запрос отклонён: он пришёл с другого сайта.',
    unauthorized: 'Войдите снова.',
    rate_limited: 'Провайдер ограничивает запросы: повторите через {retry_after} с.',
    not_found: 'Не найдено.',
    insufficient_funds: 'Недостаточно средств: для выплаты нужно {needed}, доступно {available}. Пополните баланс или уменьшите сумму.',
    customer_blacklisted: 'Провайдер не выплачивает на эту карту или этот номер (чёрный список).',
    amount_out_of_limits: 'Этот способ выплачивает от {min} до {max}.',
    method_unavailable: 'Этот способ сейчас не делает выплат: выберите другой.',
    quote_changed: 'Комиссия изменилась: итог теперь {total}. Проверьте и подтвердите снова.',
    idempotency_key_reused: 'Эта форма уже создала другую выплату. Откройте новую форму выплаты.',
    payout_in_progress: 'Предыдущая отправка этой выплаты ещё не подтверждена; не выплачивайте её снова — проверьте ещё раз через {retry_after} с.',
    payout_not_pending: 'Эта выплата уже не в работе.',
    no_traders: 'У провайдера сейчас некому выполнить выплату. Повторите позже или выберите другой способ.',
    payout_unconfirmed: 'Провайдер не подтвердил выплату — возможно, она создана. Проверьте ещё раз: эта форма не заплатит дважды.',
    provider_error: 'Провайдер ответил ошибкой. Повторите позже.',
    network: 'Провайдер недоступен. Повторите попытку.',
    timeout: 'Провайдер не ответил вовремя. Повторите попытку.',
    invalid_response: 'Ответ провайдера не удалось прочитать.',
    sandbox_refused: 'Песочница отклонила это действие.',
    receipts_unavailable: 'Провайдер не отдаёт файлы споров; кабинет показывает их только с песочницей.',
    unsafe_receipt: 'По содержимому этот файл не изображение и не PDF, поэтому он не показывается.',
    webhook_test_unavailable: 'Консоль не может отправить тестовый вебхук на эту точку: ей не передали её обработчик или секрет вебхуков для подписи (webhookTest в createConsole).',
    internal_error: 'На сервере мерчанта что-то пошло не так.',
  },
};

/**
 * The sentence for an error code, with its details filled in (`format` turns money details into
 * text). An unknown code falls back to the server's message.
 */
export function errorSentence(lang: Lang, code: string, message: string, details: Details = {}, format: (amount: string) => string = (a) => a): string {
  if (!Object.hasOwn(ERRORS[lang], code)) return message;
  const values: Record<string, string> = {};
  for (const [key, value] of Object.entries(details)) {
    if (value === undefined || value === null) continue;
    values[key] = typeof value === 'string' && key !== 'currency' ? format(value) : String(value);
  }
  return ERRORS[lang][code as ConsoleErrorCode].replace(/\{(\w+)\}/g, (m, name: string) => values[name] ?? (name === 'available' ? '—' : m));
}
