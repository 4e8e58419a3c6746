/** The hosted payment form (provider-api.md 1–2): list form sessions, create a form (sent once). */
import type { z } from 'zod';
import { label, type Call } from '../call.js';
import type { ClientContext } from '../context.js';
import { ProviderError } from '../errors.js';
import { sessionMatchesRequest } from '../matching.js';
import { check, refuseNumberAmount, throwViolations } from '../request-checks.js';
import { FormCreateRequestSchema, FormCreateResponseSchema, formCreateRuleViolations, FormSearchQuerySchema, FormSearchResponseSchema } from '../schemas.js';
import type { FormCreateRequest, FormData, FormSearchQuery, FormSession, Page } from '../schemas.js';
import type { ProviderClient } from '../types.js';
import { pagedList } from './pages.js';

const PATHS = {
  formSearch: '/api/v1/form/search',
  formCreate: '/api/v1/form/create',
} as const;

type FormMethods = Pick<ProviderClient, 'searchFormSessions' | 'createForm' | 'searchAllFormSessions'>;

export function formMethods(ctx: ClientContext): FormMethods {
  const { create, resolve } = ctx;
  const sessions = pagedList<FormSearchQuery, FormSession, typeof FormSearchResponseSchema>(ctx, {
    path: PATHS.formSearch,
    query: FormSearchQuerySchema,
    answer: FormSearchResponseSchema,
    items: (answer) => answer as Page<FormSession>,
    id: (f) => f.session_id,
  });

  const methods: FormMethods = {
    searchFormSessions: (q, opts) => sessions.page(q, opts),

    async createForm(body, opts) {
      const r = resolve(opts);
      refuseNumberAmount((body as { order_data?: { amount?: unknown } } | undefined)?.order_data?.amount, 'order_data.amount');
      const req = check(FormCreateRequestSchema, body, 'body', 'not_created') as FormCreateRequest;
      throwViolations(formCreateRuleViolations(req), 'not_created');
      const call: Call = { method: 'POST', path: PATHS.formCreate, kind: 'form_create', body: req };
      const created = await create(
        {
          call,
          schema: FormCreateResponseSchema,
          key: `form:${req.order_data.client_order_id}`,
          // The form session a create made since `since`, found by its client order id (a lost answer's lookup).
          lookup: (since, rr) => sessions.findCreated({ client_order_id: req.order_data.client_order_id }, (s) => sessionMatchesRequest(s, req), since, rr),
          onFound: (session, lost): z.output<typeof FormCreateResponseSchema> => {
            // form_url is not part of a session and its address is the provider's to choose, so the
            // creation answer cannot be rebuilt honestly: hand the found session to the caller instead.
            throw new ProviderError({
              code: lost?.code ?? 'network',
              message:
                `${label(call)}: ${lost ? `the answer was lost (${lost.message}), but ` : 'an earlier attempt whose outcome was unknown created '}` +
                `the form session ${session.session_id}${lost ? ' was created' : ''}; do not create it again: resume with error.formSession`,
              retryable: true,
              endpoint: label(call),
              formSession: session,
              outcome: 'created',
            });
          },
          subject: 'the form session',
          handle: `client_order_id ${req.order_data.client_order_id}`,
        },
        r,
      );
      return created.form_data as FormData;
    },

    searchAllFormSessions: (q, opts) => sessions.all(q, opts),
  };
  return methods;
}
