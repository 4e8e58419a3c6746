// React props are unions: a typo in mode, methodType, bank, buttonName or locale does not compile.
import { PaydeskCheckout } from '../../../src/react/index.js';

export const ok = (
  <PaydeskCheckout endpoint="/api/paydesk" orderRef="tee" mode="h2h" methodType="SBP" bank="sberbank" buttonName="SberPay" locale="ru-KZ" theme="dark" />
);
// @ts-expect-error SPB is a typo of SBP
export const badMethod = <PaydeskCheckout endpoint="/api/paydesk" orderRef="tee" methodType="SPB" />;
// @ts-expect-error hosted is not a mode
export const badMode = <PaydeskCheckout endpoint="/api/paydesk" orderRef="tee" mode="hosted" />;
// @ts-expect-error xx is not a language the element ships
export const badLocale = <PaydeskCheckout endpoint="/api/paydesk" orderRef="tee" locale="xx" />;
// @ts-expect-error sber is not a bank id
export const badBank = <PaydeskCheckout endpoint="/api/paydesk" orderRef="tee" bank="sber" />;
