/**
 * The checks the browser routes share: the protocol header, an `order_ref`, and a zod failure as a
 * 400 `validation_failed` naming the field.
 */
import { z } from 'zod';
import { PROTOCOL_HEADER } from '../../protocol/index.js';
import { CheckoutError } from '../errors.js';

export const ORDER_REF = z
  .string({ error: 'must be a string' })
  .min(1, 'must not be empty')
  .max(128, 'must be at most 128 characters')
  .regex(/^[^\u0000-\u001f\u007f]+$/, 'must not contain control characters');

export function validationError(error: z.ZodError, field0 = 'body'): CheckoutError {
  const issue = error.issues[0];
  const field = issue?.path.join('.') || field0;
  const detail = issue?.code === 'invalid_type' && issue.input === undefined ? 'is required' : (issue?.message ?? 'is invalid');
  return new CheckoutError(400, 'validation_failed', `${field} ${detail}.`);
}

/** A state-changing browser request must carry `X-Paydesk: 1` (a cross-site form cannot). */
export function requireProtocolHeader(req: Request): void {
  if (req.headers.get(PROTOCOL_HEADER) !== '1') {
    throw new CheckoutError(403, 'missing_protocol_header', `Requests must carry the header ${PROTOCOL_HEADER}: 1.`);
  }
}
